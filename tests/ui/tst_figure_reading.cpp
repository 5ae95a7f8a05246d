// What a learner reads off the figures: a token that is a raw byte shows as "<0x0A>" in
// chips, axes and predictions alike; the Pipeline's signed maps each have a colour bar and
// its masked panel is titled by what was done (scaled only when scaling is on); numbers in
// cells grow with the cell; choosing bilinear says that M = I is the dot product.
#include "ui/explorer/token_chips.h"
#include "ui/figures/figure_builder.h"
#include "ui/model/matrix_painter.h"
#include "ui/widgets/attention_panel.h"
#include "ui/widgets/score_options.h"

#include "core/cpu_backend.h"
#include "core/scene.h"
#include "core/scene_json.h"

#include <qcustomplot.h>

#include <QComboBox>
#include <QLabel>
#include <QSet>
#include <QTest>
#include <cmath>

using namespace attn;

namespace {

std::shared_ptr<const core::AttentionResult> compute(const core::Scene& scene)
{
    core::CpuBackend backend;
    return backend.compute(core::resolveProblem(scene), {});
}

core::Scene example()
{
    return core::loadScene(QStringLiteral(":/examples/01-this-is-a-cat.json"));
}

struct Built
{
    std::unique_ptr<QCustomPlot> plot;
    std::unique_ptr<ui::FigureBuilder> builder;
};

Built build(const core::AttentionResult& result, const ui::FigureSpec& spec, QSize size)
{
    Built b;
    b.plot = std::make_unique<QCustomPlot>();
    b.plot->setAttribute(Qt::WA_DontShowOnScreen);
    b.plot->resize(size);
    b.builder = std::make_unique<ui::FigureBuilder>(*b.plot, spec);
    b.builder->build(result, size);
    return b;
}

// The elements of type T in the panel's own grid: its title, its matrix and its bar.
template <typename T> QList<T*> besidePanel(QCPAxisRect* rect)
{
    QList<T*> found;
    if (!rect || !rect->layout())
        return found;
    for (QCPLayoutElement* e : rect->layout()->elements(false))
        if (auto* t = qobject_cast<T*>(e))
            found.append(t);
    return found;
}

QList<QCPColorScale*> colorScales(QCustomPlot& plot)
{
    QList<QCPColorScale*> found;
    for (QCPLayoutElement* e : plot.plotLayout()->elements(true))
        if (auto* scale = qobject_cast<QCPColorScale*>(e))
            found.append(scale);
    return found;
}

// The pixel sizes of the numbers written in cells.
QSet<int> cellNumberSizes(QCustomPlot& plot)
{
    QSet<int> sizes;
    for (int i = 0; i < plot.itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(plot.item(i)))
            sizes.insert(text->font().pixelSize());
    return sizes;
}

} // namespace

class TestFigureReading : public QObject
{
    Q_OBJECT

private slots:
    // A newline token showed as a blank on the axes and a tab as a box in the predictions;
    // the chips had their own "␣". Every view now writes them as bytes.
    void byteTokensShowAsBytesInEveryView()
    {
        std::vector<core::Token> tokens{{QStringLiteral("cat"), 0, 3},
                                        {QStringLiteral("\n"), 3, 1},
                                        {QStringLiteral("\t"), 4, 1}};
        QCOMPARE(ui::tokenLabels(tokens, 1), QStringList({"cat", "<0x0A>", "<0x09>"})); // axes
        QCOMPARE(ui::paint::tokenLabel(QStringLiteral("\t")),
                 QStringLiteral("<0x09>")); // predictions
        QCOMPARE(ui::paint::tokenLabel(QStringLiteral("\n")), QStringLiteral("<0x0A>"));
        ui::TokenChips chips;
        chips.resize(400, 80);
        chips.setTokens(tokens, {false, false, false}, {false, false, false});
        QVERIFY2(chips.chipToolTip(1).contains(QStringLiteral("“&lt;0x0A&gt;”")),
                 qPrintable(chips.chipToolTip(1)));
        QVERIFY2(chips.chipToolTip(2).contains(QStringLiteral("“&lt;0x09&gt;”")),
                 qPrintable(chips.chipToolTip(2)));
    }

    // X, Q, K, V, the scores, the masked scores and the output: each its own symmetric bar
    // beside it (the weights have the shared one), reaching the largest |value| shown.
    void pipelineSignedMapsHaveColourBars()
    {
        const auto result = compute(example());
        ui::FigureSpec spec;
        spec.view = ui::FigureView::Pipeline;
        Built b = build(*result, spec, QSize(1400, 900));
        QCOMPARE(colorScales(*b.plot).size(), 8);
        for (const char* name : {"X", "Q", "K", "V", "scores", "masked scores", "output"}) {
            QCPAxisRect* rect = b.builder->panelRect(QString::fromLatin1(name), 0);
            QVERIFY2(rect, name);
            const QList<QCPColorScale*> scales = besidePanel<QCPColorScale>(rect);
            QVERIFY2(scales.size() == 1, name);
            const QCPRange range = scales.front()->dataRange();
            QCOMPARE(range.lower, -range.upper);
            double largest = 0.0;
            for (QCPAbstractPlottable* p : rect->plottables())
                if (auto* map = qobject_cast<QCPColorMap*>(p))
                    for (int x = 0; x < map->data()->keySize(); ++x)
                        for (int y = 0; y < map->data()->valueSize(); ++y)
                            if (std::isfinite(map->data()->cell(x, y)))
                                largest = std::max(largest, std::abs(map->data()->cell(x, y)));
            QVERIFY2(largest > 0.0, name);
            QCOMPARE(range.upper, largest);
        }
    }

    // "scaled, masked" showed with scaling off, where the panel held q·k unscaled.
    void pipelineMaskedTitleFollowsScaling_data()
    {
        QTest::addColumn<int>("score");
        QTest::addColumn<float>("temperature");
        QTest::addColumn<QString>("title");
        QTest::newRow("scaled dot")
            << int(core::ScoreKind::ScaledDot) << 1.0f << QStringLiteral("scaled, masked");
        QTest::newRow("dot, scaling off")
            << int(core::ScoreKind::Dot) << 1.0f << QStringLiteral("masked");
        QTest::newRow("dot at T = 2")
            << int(core::ScoreKind::Dot) << 2.0f << QStringLiteral("÷ T, masked");
        QTest::newRow("cosine") << int(core::ScoreKind::Cosine) << 1.0f << QStringLiteral("masked");
    }

    void pipelineMaskedTitleFollowsScaling()
    {
        QFETCH(int, score);
        QFETCH(float, temperature);
        QFETCH(QString, title);
        core::Scene scene = example();
        scene.score = core::ScoreKind(score);
        scene.temperature = temperature;
        const auto result = compute(scene);
        ui::FigureSpec spec;
        spec.view = ui::FigureView::Pipeline;
        Built b = build(*result, spec, QSize(1400, 900));
        const QList<QCPTextElement*> titles =
            besidePanel<QCPTextElement>(b.builder->panelRect(QStringLiteral("masked scores"), 0));
        QCOMPARE(titles.size(), 1);
        QCOMPARE(titles.front()->text(), title);
    }

    // The numbers were 11 px (10 pt at 96 dpi, times 0.85) in any cell. Now a quarter of the
    // cell, from 11 px up to 2.5 times that (28 px): cells of 43 px keep 11 px, cells of
    // 70 px get 18 px (70 / 4 = 17.5, rounded), and cells of over 200 px stop at 28 px.
    void cellNumbersGrowWithTheCell_data()
    {
        QTest::addColumn<QSize>("figure");
        QTest::addColumn<int>("cell");
        QTest::addColumn<int>("pixels");
        QTest::newRow("small") << QSize(310, 280) << 43 << 11;
        QTest::newRow("window") << QSize(420, 390) << 70 << 18;
        QTest::newRow("projector") << QSize(1400, 1200) << 200 << 28;
    }

    void cellNumbersGrowWithTheCell()
    {
        QFETCH(QSize, figure);
        QFETCH(int, cell);
        QFETCH(int, pixels);
        const auto result = compute(example()); // four tokens
        ui::FigureSpec spec;
        spec.view = ui::FigureView::Head;
        Built b = build(*result, spec, figure);
        const QRect rect = b.builder->panelRect(QStringLiteral("weights"), 0)->rect();
        if (cell < 200)
            QCOMPARE(rect.width() / 4, cell);
        else
            QVERIFY(rect.width() / 4 >= cell);
        QCOMPARE(cellNumberSizes(*b.plot), QSet<int>({pixels}));
    }

    // Bilinear with M = I is q·k: said where bilinear is chosen, and only while it is true.
    void bilinearWithIdentityIsExplained()
    {
        ui::SceneDocument document;
        ui::AttentionPanel panel(document);
        auto* note = panel.findChild<QLabel*>(QStringLiteral("bilinearNote"));
        QVERIFY(note);
        QVERIFY(!note->isVisibleTo(&panel));
        const QString tip =
            panel.scoreCombo()
                ->itemData(panel.scoreCombo()->findData(int(ui::ScoreOption::Bilinear)),
                           Qt::ToolTipRole)
                .toString();
        QVERIFY2(tip.contains(QStringLiteral("M = I")), qPrintable(tip));
        document.setAttention(core::ScoreKind::Bilinear, document.scene().normalization,
                              document.scene().fill);
        QVERIFY(note->isVisibleTo(&panel));
        QVERIFY(note->text().contains(QStringLiteral("q·k")));
        // Edited, M is no longer the identity: the note goes, and comes back with Undo.
        const int dK = document.scene().weights.dK;
        document.setWeightMatrix({ui::WeightKind::Bilinear, 0},
                                 core::Matrix(2.0f * core::Matrix::Identity(dK, dK)));
        QVERIFY(!note->isVisibleTo(&panel));
        document.undoStack()->undo();
        QVERIFY(note->isVisibleTo(&panel));
        document.setAttention(core::ScoreKind::Dot, document.scene().normalization,
                              document.scene().fill);
        QVERIFY(!note->isVisibleTo(&panel));
    }
};

QTEST_MAIN(TestFigureReading)
#include "tst_figure_reading.moc"
