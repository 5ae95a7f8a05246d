// The views of what the seeds teach beyond the forward pass (ui/concepts): each figure's
// numbers against formulas worked out here (the softmax Jacobian and its finite differences,
// the Nadaraya-Watson estimate, the sinusoidal encodings, PCA by a direct eigen-decomposition,
// an independent training run), the window's tabs, and their files.

#include "ui/concepts/concept_figures.h"
#include "ui/concepts/concept_pages.h"
#include "ui/concepts/positions_figure.h"
#include "ui/concepts/train_figure.h"
#include "ui/concepts/train_page.h"
#include "ui/document/scene_document.h"
#include "ui/explorer/explorer_window.h"
#include "ui/export/export_dialog.h"

#include "core/cpu_backend.h"
#include "core/model/model_loader.h"
#include "core/problem.h"
#include "core/scene.h"
#include "core/scene_json.h"
#include "core/training/trainer.h"

#include "support/plot_data.h"

#include <qcustomplot.h>

#include <Eigen/Eigenvalues>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTest>
#include <QUndoStack>
#include <algorithm>
#include <cmath>

using namespace attn;

using test::colorMaps;

namespace {

std::shared_ptr<const core::AttentionResult> computeScene(const core::Scene& scene)
{
    core::CpuBackend backend;
    return backend.compute(core::resolveProblem(scene), core::ComputeOptions{});
}

core::Scene example(const char* name)
{
    return core::loadScene(QStringLiteral(ATTN_RESOURCES_DIR "/examples/") + QLatin1String(name));
}

QCPGraph* graphNamed(QCustomPlot& plot, const QString& prefix)
{
    for (int i = 0; i < plot.graphCount(); ++i)
        if (plot.graph(i)->name().startsWith(prefix))
            return plot.graph(i);
    return nullptr;
}

// The value a graph draws at x (its data has x among its keys).
double valueAt(QCPGraph* graph, double x)
{
    auto it = graph->data()->findBegin(x, false);
    return it->value;
}

std::vector<double> softmax(const std::vector<double>& s)
{
    const double top = *std::max_element(s.begin(), s.end());
    std::vector<double> w(s.size());
    double sum = 0.0;
    for (std::size_t j = 0; j < s.size(); ++j)
        sum += (w[j] = std::exp(s[j] - top));
    for (double& x : w)
        x /= sum;
    return w;
}

QByteArray magic(const QByteArray& bytes, int n)
{
    return bytes.left(n);
}

// `view` of `scene` drawn on `plot` at `size` (as a tab or an export lays it out).
void drawAt(QCustomPlot& plot, ui::ConceptView view, const core::Scene& scene, QSize size,
            const ui::FigureSpec& spec = {})
{
    plot.resize(size);
    plot.setViewport(plot.rect());
    ui::buildConceptFigure(
        plot, view, {std::make_shared<const core::Scene>(scene), computeScene(scene), 0, 0}, spec);
    plot.replot(QCustomPlot::rpImmediateRefresh);
}

// Where a text item draws its text, in pixels: its size by the font, placed at its position
// as its alignment says, moved in by its padding.
QRectF textRect(const QCPItemText& text)
{
    const QSizeF size = QFontMetricsF(text.font())
                            .boundingRect(QRectF(), int(Qt::TextDontClip), text.text())
                            .size();
    const QMargins pad = text.padding();
    const double w = size.width() + pad.left() + pad.right();
    const double h = size.height() + pad.top() + pad.bottom();
    const QPointF at = text.position->pixelPosition();
    const Qt::Alignment a = text.positionAlignment();
    const double left = a & Qt::AlignLeft    ? at.x()
                        : a & Qt::AlignRight ? at.x() - w
                                             : at.x() - w / 2;
    const double top = a & Qt::AlignTop      ? at.y()
                       : a & Qt::AlignBottom ? at.y() - h
                                             : at.y() - h / 2;
    return QRectF(left + pad.left(), top + pad.top(), size.width(), size.height());
}

// Every panel title (a top axis label) no wider than its panel, line by line, and every
// panel inside the figure.
void verifyTitlesFit(QCustomPlot& plot)
{
    int titles = 0;
    for (QCPAxisRect* rect : plot.axisRects()) {
        const QRect outer = rect->outerRect();
        // A pixel over: the layout rounds each row.
        QVERIFY2(plot.viewport().adjusted(-1, -1, 1, 1).contains(outer),
                 qPrintable(QStringLiteral("%1: %2,%3 %4 x %5")
                                .arg(rect->axis(QCPAxis::atTop)->label())
                                .arg(outer.x())
                                .arg(outer.y())
                                .arg(outer.width())
                                .arg(outer.height())));
        QCPAxis* top = rect->axis(QCPAxis::atTop);
        if (!top->visible() || top->label().isEmpty())
            continue;
        ++titles;
        const QFontMetricsF metrics(top->labelFont());
        for (const QString& line : top->label().split(QLatin1Char('\n')))
            QVERIFY2(metrics.horizontalAdvance(line) <= rect->width() + 0.5,
                     qPrintable(QStringLiteral("\"%1\": %2 px over a panel of %3")
                                    .arg(line)
                                    .arg(metrics.horizontalAdvance(line))
                                    .arg(rect->width())));
    }
    QVERIFY(titles >= 2);
}

// The tick labels an axis drew at its last replot, no closer than a line of their font.
void verifyTicksFit(QCPAxis* axis)
{
    int shown = 0;
    for (const QString& label : axis->tickVectorLabels())
        shown += label.isEmpty() ? 0 : 1;
    const double line = QFontMetricsF(axis->tickLabelFont()).height();
    QVERIFY2(shown >= 2, qPrintable(QString::number(shown)));
    QVERIFY2((shown - 1) * line <= axis->axisRect()->height(),
             qPrintable(QStringLiteral("%1 labels of %2 px on %3 px")
                            .arg(shown)
                            .arg(line)
                            .arg(axis->axisRect()->height())));
}

} // namespace

class TestConceptViews : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setApplicationName(QStringLiteral("tst_concept_views"));
    }

    // dw_j/ds_k = w_j (delta_jk - w_k), for the scaled scores q.k / sqrt(d_k) (right) and the
    // raw ones (left), from the head's raw scores with a softmax written here; the formula is
    // itself checked by central differences. At d_k = 256 the unscaled row saturates and its
    // Jacobian is the smaller.
    void gradientFigureShowsTheSoftmaxJacobian()
    {
        core::Scene scene = example("14-gradient-saturation.json");
        const auto result = computeScene(scene);
        const int query = 1; // "student"
        ui::ConceptSource source{std::make_shared<const core::Scene>(scene), result, 0, query};
        QCustomPlot plot;
        plot.resize(1200, 900);
        ui::buildConceptFigure(plot, ui::ConceptView::Gradient, source, ui::FigureSpec{});
        const auto maps = colorMaps(plot);
        QCOMPARE(int(maps.size()), 2);
        const core::Matrix& raw = result->heads[0].rawScores;
        const int t = int(raw.cols());
        double norms[2] = {0.0, 0.0};
        for (int c = 0; c < 2; ++c) {
            const double scale = c == 0 ? 1.0 : 1.0 / 16.0; // 1/sqrt(256)
            std::vector<double> s(static_cast<std::size_t>(t));
            for (int j = 0; j < t; ++j)
                s[std::size_t(j)] = double(raw(query, j)) * scale;
            const std::vector<double> w = softmax(s);
            for (int j = 0; j < t; ++j)
                for (int k = 0; k < t; ++k) {
                    const double expected =
                        w[std::size_t(j)] * ((j == k ? 1.0 : 0.0) - w[std::size_t(k)]);
                    QVERIFY2(
                        std::abs(maps[std::size_t(c)]->data()->cell(k, j) - expected) < 1e-5,
                        qPrintable(QStringLiteral("column %1, J(%2, %3)").arg(c).arg(j).arg(k)));
                    norms[c] += expected * expected;
                }
            // The formula against central differences of the softmax, for one k.
            const int k = 3;
            const double h = 1e-6;
            std::vector<double> up = s, down = s;
            up[std::size_t(k)] += h;
            down[std::size_t(k)] -= h;
            const std::vector<double> wu = softmax(up), wd = softmax(down);
            for (int j = 0; j < t; ++j) {
                const double difference = (wu[std::size_t(j)] - wd[std::size_t(j)]) / (2 * h);
                QVERIFY(std::abs(difference - w[std::size_t(j)] * ((j == k ? 1.0 : 0.0) -
                                                                   w[std::size_t(k)])) < 1e-6);
            }
        }
        QVERIFY2(norms[0] < norms[1], "the saturated (unscaled) row passes less gradient");
    }

    // Softmax of the distance score is the Nadaraya-Watson estimate with a Gaussian kernel of
    // width h; hard attention is the nearest key's value. Dragging a point moves the curve.
    void kernelFigureIsTheNadarayaWatsonEstimate()
    {
        ui::KernelPage page;
        page.resize(1000, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        core::Scene scene = example("15-kernel-smoother.json");
        page.setSource({std::make_shared<const core::Scene>(scene), computeScene(scene), 0, 0});
        QTRY_VERIFY(graphNamed(*page.plot(), QStringLiteral("softmax")));
        const ui::KernelSetup& setup = page.setup();
        const double h = setup.bandwidth;
        QCOMPARE(h, 1.0); // temperature 1: h = sqrt(T)
        auto gaussian = [&](double q) {
            double num = 0.0, den = 0.0;
            for (std::size_t j = 0; j < setup.keys.size(); ++j) {
                const double k = std::exp(-(q - setup.keys[j]) * (q - setup.keys[j]) / (2 * h * h));
                num += k * setup.values[j];
                den += k;
            }
            return num / den;
        };
        auto nearest = [&](double q) {
            std::size_t best = 0;
            for (std::size_t j = 1; j < setup.keys.size(); ++j)
                if (std::abs(q - setup.keys[j]) < std::abs(q - setup.keys[best]))
                    best = j;
            return setup.values[best];
        };
        QCPGraph* soft = graphNamed(*page.plot(), QStringLiteral("softmax"));
        QCPGraph* hard = graphNamed(*page.plot(), QStringLiteral("hard"));
        QVERIFY(soft && hard);
        // The curve's samples: 400 queries from -4 to 4, ends included.
        for (int i : {0, 57, 200, 311, 399}) {
            const double q = -4.0 + 8.0 * i / 399.0;
            QVERIFY2(std::abs(valueAt(soft, q) - gaussian(q)) < 1e-9,
                     qPrintable(QString::number(q)));
            QVERIFY2(std::abs(valueAt(hard, q) - nearest(q)) < 1e-12,
                     qPrintable(QString::number(q)));
        }
        const double q = -4.0 + 8.0 * 200 / 399.0; // the sample next to the key at 0
        const double before = valueAt(graphNamed(*page.plot(), QStringLiteral("softmax")), q);
        page.movePoint(3, 0.0, 2.0); // the key at 0 now holds 2 instead of -0.4
        QCOMPARE(page.setup().values[3], 2.0);
        const double after = valueAt(graphNamed(*page.plot(), QStringLiteral("softmax")), q);
        QVERIFY(after > before + 0.5);
        QVERIFY(std::abs(after - gaussian(q)) < 1e-9);
    }

    // P against the sinusoidal formula (Vaswani et al. 3.5), P P^T against its closed form
    // sum_k cos((i - j) / 10000^(2k/d)); switching positions off is one undo step and makes the
    // layer order-blind (said under the switch).
    void positionsFigureAndTheOrderCheck()
    {
        core::Scene scene = example("16-sinusoidal-positions.json");
        const int d = scene.weights.dModel;
        QCustomPlot plot;
        plot.resize(1200, 900);
        ui::buildConceptFigure(
            plot, ui::ConceptView::Positions,
            {std::make_shared<const core::Scene>(scene), computeScene(scene), 0, 0},
            ui::FigureSpec{});
        const auto maps = colorMaps(plot);
        QVERIFY(maps.size() >= 4);
        QCPColorMap* p = maps[0];
        QCPColorMap* alike = maps[1];
        for (int pos : {0, 3, 11})
            for (int i = 0; i < d; ++i) {
                const double angle = pos / std::pow(10000.0, double(i - i % 2) / d);
                const double expected = i % 2 == 0 ? std::sin(angle) : std::cos(angle);
                QVERIFY2(std::abs(p->data()->cell(i, pos) - expected) < 1e-6,
                         qPrintable(QStringLiteral("P(%1, %2)").arg(pos).arg(i)));
            }
        for (auto [i, j] : {std::pair{0, 0}, std::pair{2, 7}, std::pair{9, 4}}) {
            double expected = 0.0;
            for (int k = 0; k < d / 2; ++k)
                expected += std::cos((i - j) / std::pow(10000.0, 2.0 * k / d));
            QVERIFY(std::abs(alike->data()->cell(j, i) - expected) < 1e-4);
        }

        ui::SceneDocument document;
        document.reset(scene, QString());
        ui::PositionsPage page(document);
        auto feed = [&] {
            page.setSource({std::make_shared<const core::Scene>(document.scene()),
                            computeScene(document.scene()), 0, 0});
        };
        feed();
        QVERIFY(page.positionsCheck()->isChecked());
        // The order check recomputes the whole scene: a hidden page does not run it.
        QVERIFY(page.orderLabel()->text().isEmpty());
        page.resize(900, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        QTRY_VERIFY2(page.orderLabel()->text().contains(QStringLiteral("give the layer the order")),
                     qPrintable(page.orderLabel()->text()));
        page.positionsCheck()->setChecked(false);
        QVERIFY(document.scene().positional.kind == core::PositionalKind::None);
        QCOMPARE(document.undoStack()->count(), 1);
        feed();
        QTRY_VERIFY2(page.orderLabel()->text().contains(QStringLiteral("cannot tell")),
                     qPrintable(page.orderLabel()->text()));
        document.undoStack()->undo();
        QVERIFY(document.scene().positional.kind == core::PositionalKind::Sinusoidal);
    }

    // The map's points are the words on the first two eigenvectors of their covariance
    // (computed here with SelfAdjointEigenSolver, up to sign); king - man + woman is queen,
    // by cosines computed here.
    void embeddingSpaceIsPcaAndTheAnalogyHolds()
    {
        core::Scene scene = example("17-embedding-space-king-queen.json");
        QCustomPlot plot;
        plot.resize(1200, 900);
        ui::buildConceptFigure(
            plot, ui::ConceptView::EmbeddingSpace,
            {std::make_shared<const core::Scene>(scene), computeScene(scene), 0, 0},
            ui::FigureSpec{});
        // Every word's position, from the labels the figure placed.
        QHash<QString, QPointF> at;
        for (int i = 0; i < plot.itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot.item(i)))
                at.insert(text->text(), text->position->coords());
        const auto& table = scene.embedding.table;
        // Labels that would overlap others are left out; most words keep theirs.
        QVERIFY2(at.size() >= 20, qPrintable(QString::number(at.size())));
        std::vector<QString> words;
        Eigen::MatrixXd x(Eigen::Index(table.size()), scene.weights.dModel);
        int r = 0;
        for (const auto& [word, vector] : table) {
            words.push_back(word);
            for (int c = 0; c < x.cols(); ++c)
                x(r, c) = double(vector[std::size_t(c)]);
            ++r;
        }
        const Eigen::MatrixXd centred = x.rowwise() - x.colwise().mean();
        Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(centred.transpose() * centred);
        const Eigen::VectorXd first = solver.eigenvectors().col(x.cols() - 1);
        const Eigen::VectorXd second = solver.eigenvectors().col(x.cols() - 2);
        for (int sign1 : {1, -1})
            for (int sign2 : {1, -1}) {
                bool all = true;
                for (std::size_t i = 0; i < words.size() && all; ++i) {
                    if (!at.contains(words[i]))
                        continue;
                    const QPointF p = at.value(words[i]);
                    all =
                        std::abs(p.x() - sign1 * centred.row(Eigen::Index(i)).dot(first)) < 1e-4 &&
                        std::abs(p.y() - sign2 * centred.row(Eigen::Index(i)).dot(second)) < 1e-4;
                }
                if (all)
                    goto matched;
            }
        QFAIL("the points are not the data on its first two principal components");
    matched:
        // The analogy line names queen: the unit-vector sum's nearest word by cosine.
        auto unit = [&](const QString& w) {
            const auto& v = table.at(w);
            Eigen::VectorXd e(Eigen::Index(v.size()));
            for (std::size_t i = 0; i < v.size(); ++i)
                e(Eigen::Index(i)) = v[i];
            return Eigen::VectorXd(e / e.norm());
        };
        const Eigen::VectorXd target = unit(QStringLiteral("king")) - unit(QStringLiteral("man")) +
                                       unit(QStringLiteral("woman"));
        QString best;
        double bestCosine = -2.0;
        for (const QString& w : words) {
            if (w == QLatin1String("king") || w == QLatin1String("man") ||
                w == QLatin1String("woman"))
                continue;
            const double cosine = unit(w).dot(target) / target.norm();
            if (cosine > bestCosine) {
                bestCosine = cosine;
                best = w;
            }
        }
        QCOMPARE(best, QStringLiteral("queen"));
        bool named = false;
        for (QCPLayoutElement* element : plot.plotLayout()->elements(true))
            if (auto* text = qobject_cast<QCPTextElement*>(element))
                named = named || text->text().contains(QStringLiteral("≈ queen"));
        QVERIFY(named);
    }

    // A 1024 x 768 window leaves a concept tab's plot about 700 x 480 pixels. There the
    // 2-D panel's title ran past the figure's right edge, and the train figure's colour
    // scale shared the second head's column, leaving that head a sliver with its title cut.
    void panelTitlesStayInsideTheirPanels()
    {
        QCustomPlot plot;
        drawAt(plot, ui::ConceptView::Kernel, example("15-kernel-smoother.json"), QSize(700, 480));
        verifyTitlesFit(plot);

        core::Scene heads = example("12-multi-head-one-off.json");
        core::TrainingSetup setup;
        setup.task = core::TrainingTask::Copy;
        core::Trainer trainer(heads, setup);
        trainer.run(2);
        ui::buildTrainingFigure(plot, ui::TrainingSnapshot::of(trainer), ui::FigureSpec{});
        plot.replot(QCustomPlot::rpImmediateRefresh);
        verifyTitlesFit(plot);
        // Both heads' maps as wide as each other (same columns, same size).
        const auto maps = colorMaps(plot);
        QCOMPARE(int(maps.size()), 3); // head 1, head 2, the target
        QCOMPARE(maps[1]->keyAxis()->axisRect()->width(), maps[0]->keyAxis()->axisRect()->width());
    }

    // The rotary curve had the rest of the height after two rows of heatmaps: about 50
    // pixels of a 560-pixel tab. It keeps 80 points (107 pixels at 96 dpi).
    void rotaryCurveIsTallEnoughToRead()
    {
        core::Scene scene = example("16-sinusoidal-positions.json");
        QCustomPlot plot;
        drawAt(plot, ui::ConceptView::Positions, scene, QSize(1000, 560));
        QCPGraph* rotary = graphNamed(plot, QStringLiteral("rotary score"));
        QVERIFY(rotary);
        QVERIFY2(rotary->keyAxis()->axisRect()->height() >= 106,
                 qPrintable(QString::number(rotary->keyAxis()->axisRect()->height())));
        verifyTitlesFit(plot);
    }

    // A 48-word sentence: every word's row label on E and X and every tick of P's positions
    // ran into each other; they are thinned to one line of text each.
    void longInputsThinThePositionLabels()
    {
        core::Scene scene = example("16-sinusoidal-positions.json");
        QStringList words;
        for (int i = 0; i < 48; ++i)
            words << QStringLiteral("w%1").arg(i);
        scene.text = words.join(QLatin1Char(' '));
        QCustomPlot plot;
        drawAt(plot, ui::ConceptView::Positions, scene, QSize(1000, 560));
        const auto maps = colorMaps(plot);
        QCOMPARE(int(maps.size()), 4); // P, P P^T, E, X
        for (QCPColorMap* map : maps)
            verifyTicksFit(map->valueAxis());
    }

    // The points' circle is 9 points across (18.75 pixels at 150 dpi plus its pen); the
    // legend's icons were 18 pixels high, so it was drawn over the text beside it.
    void kernelLegendIconsHoldTheirMarkers()
    {
        core::Scene scene = example("15-kernel-smoother.json");
        ui::FigureSpec spec;
        spec.dpi = 150;
        QCustomPlot plot;
        drawAt(plot, ui::ConceptView::Kernel, scene, QSize(1000, 700), spec);
        QCPLegend* legend = nullptr;
        for (QCPLayoutElement* element : plot.plotLayout()->elements(true))
            if (auto* each = qobject_cast<QCPLegend*>(element))
                legend = each;
        QVERIFY(legend);
        const double marker = 9 * 150.0 / 72.0 + 2 * spec.style.lineScale;
        QVERIFY2(legend->iconSize().height() >= marker,
                 qPrintable(QString::number(legend->iconSize().height())));
        QVERIFY(legend->iconSize().width() >= marker);
    }

    // 41 words, many in clusters: labels are placed where they meet no other (the
    // highlighted ones first), and those that fit nowhere are left out.
    void embeddingLabelsDoNotOverlap()
    {
        core::Scene scene = example("17-embedding-space-king-queen.json");
        const auto result = computeScene(scene);
        QCustomPlot plot;
        drawAt(plot, ui::ConceptView::EmbeddingSpace, scene, QSize(1000, 560));
        std::vector<std::pair<QString, QRectF>> placed;
        for (int i = 0; i < plot.itemCount(); ++i)
            if (auto* text = qobject_cast<QCPItemText*>(plot.item(i)))
                placed.emplace_back(text->text(), textRect(*text));
        QVERIFY2(placed.size() >= 20, qPrintable(QString::number(placed.size())));
        QVERIFY(placed.size() <= scene.embedding.table.size());
        for (std::size_t i = 0; i < placed.size(); ++i)
            for (std::size_t j = i + 1; j < placed.size(); ++j)
                QVERIFY2(!placed[i].second.intersects(placed[j].second),
                         qPrintable(placed[i].first + QStringLiteral(" and ") + placed[j].first));
        // The sentence's words (highlighted) all keep their labels.
        for (const core::Token& token : result->problem->queryTokens)
            QVERIFY2(std::any_of(placed.begin(), placed.end(),
                                 [&](const auto& p) { return p.first == token.text; }),
                     qPrintable(token.text));
    }

    // Run trains in slices (the window stays responsive); the curve is the loss of every step,
    // equal to an independent trainer's with the same seed; Step adds one; Apply puts the
    // trained weights into the scene as one undo step.
    void trainPageRunsStepsAppliesAndUndoes()
    {
        core::Scene scene = example("13-train-translation-alignment.json");
        ui::SceneDocument document;
        document.reset(scene, QString());
        ui::TrainPage page(document);
        page.resize(1100, 600);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.setTask(QStringLiteral("translation"));
        page.setSource({std::make_shared<const core::Scene>(scene), computeScene(scene), 0, 0});
        QVERIFY(!page.trainer()); // "Press Run ..." until Run
        page.stepsSpin()->setValue(60);
        page.runButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 20000);
        QCOMPARE(page.trainer()->stepCount(), 60);
        page.stepButton()->click();
        QCOMPARE(page.trainer()->stepCount(), 61);

        core::TrainingSetup setup;
        setup.task = core::TrainingTask::Translation;
        setup.seed = scene.seed;
        core::Trainer independent(scene, setup);
        independent.run(61);
        QTRY_VERIFY(graphNamed(*page.plot(), QStringLiteral("loss")));
        QCPGraph* loss = graphNamed(*page.plot(), QStringLiteral("loss"));
        QCOMPARE(loss->dataCount(), 61);
        for (int i : {0, 30, 60})
            QCOMPARE(loss->data()->at(i)->value, independent.lossHistory()[std::size_t(i)]);
        QVERIFY(independent.lossHistory().back() < 0.1 * independent.lossHistory().front());

        const core::Matrix before = document.scene().weights.heads[0].Wq;
        page.applyButton()->click();
        QCOMPARE(document.undoStack()->count(), 1);
        const core::Scene trained = independent.trainedScene();
        QVERIFY(document.scene().weights.heads[0].Wq.isApprox(trained.weights.heads[0].Wq, 1e-6f));
        document.undoStack()->undo();
        QVERIFY(document.scene().weights.heads[0].Wq == before);

        page.resetButton()->click();
        QVERIFY(!page.trainer());
    }

    // Hard attention: with the true gradient (zero almost everywhere) W_q never moves; with the
    // straight-through surrogate it does. The choice is offered only for hard attention.
    void hardAttentionTrainsOnlyThroughASurrogate()
    {
        core::Scene scene = example("05-translation-hard-alignment.json");
        ui::SceneDocument document;
        document.reset(scene, QString());
        ui::TrainPage page(document);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        page.setTask(QStringLiteral("translation"));
        page.setSource({std::make_shared<const core::Scene>(scene), computeScene(scene), 0, 0});
        QVERIFY(page.hardGradientCombo()->isVisible());
        core::TrainingSetup setup;
        setup.task = core::TrainingTask::Translation;
        setup.seed = scene.seed;
        const core::Trainer fresh(scene, setup); // the weights before any step
        for (int mode : {0, 1}) {
            page.resetButton()->click();
            page.hardGradientCombo()->setCurrentIndex(mode); // zero, straight-through
            page.stepsSpin()->setValue(20);
            page.runButton()->click();
            QTRY_VERIFY_WITH_TIMEOUT(!page.isRunning(), 20000);
            const double moved =
                (page.trainer()->parameters().heads[0].Wq - fresh.parameters().heads[0].Wq)
                    .cwiseAbs()
                    .maxCoeff();
            if (mode == 0)
                QCOMPARE(moved, 0.0);
            else
                QVERIFY2(moved > 1e-3, qPrintable(QString::number(moved)));
        }
        core::Scene soft = scene;
        soft.normalization = core::Normalization::Softmax;
        page.setSource({std::make_shared<const core::Scene>(soft), computeScene(soft), 0, 0});
        QVERIFY(!page.hardGradientCombo()->isVisible());
    }

    // A real model's positions: GPT-2's learned table as the cosine of two rows, the Llama
    // family's rotary frequencies as the score of q = k = 1 by distance, sum_i 2 cos(d theta_i).
    void modelPositionsFromItsOwnTables()
    {
        const auto gpt2 = core::loadModel(QStringLiteral(ATTN_TEST_DATA_DIR "/models/gpt2"));
        QCustomPlot plot;
        plot.resize(1200, 800);
        ui::buildModelPositionsFigure(plot, *gpt2, 64, ui::FigureSpec{});
        const auto maps = colorMaps(plot);
        QCOMPARE(int(maps.size()), 2);
        const core::Matrix& table = gpt2->weights.positionEmbedding;
        for (auto [i, j] : {std::pair{0, 1}, std::pair{3, 17}, std::pair{9, 9}}) {
            const double cosine = double(table.row(i).dot(table.row(j))) /
                                  (double(table.row(i).norm()) * table.row(j).norm());
            QVERIFY(std::abs(maps[1]->data()->cell(j, i) - cosine) < 1e-5);
        }

        const auto llama = core::loadModel(QStringLiteral(ATTN_TEST_DATA_DIR "/models/llama"));
        ui::buildModelPositionsFigure(plot, *llama, 64, ui::FigureSpec{});
        QCPGraph* score = graphNamed(plot, QStringLiteral("rotary score"));
        QVERIFY(score);
        const std::vector<float>& theta = llama->config().ropeInverseFrequencies;
        QVERIFY(!theta.empty());
        for (int d : {-7, 0, 5, 33}) {
            double expected = 0.0;
            for (float f : theta)
                expected += 2.0 * std::cos(d * double(f));
            QVERIFY2(std::abs(valueAt(score, d) - expected) < 1e-4, qPrintable(QString::number(d)));
        }
    }

    // Another scene starts the concept pages afresh: the Train tab's task of the scene before
    // (translation, which needs a source sentence) goes, so that Run trains instead of
    // refusing, and so do the Embeddings tab's words. A scene saved on the Train tab still
    // brings its own task.
    void newSceneForgetsTheTaskAndTheWords()
    {
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setScene(example("13-train-translation-alignment.json"), QString());
        QTRY_VERIFY(window.isUpToDate() && window.document()->result());
        QCOMPARE(window.trainPage()->taskName(), QStringLiteral("translation"));
        window.embeddingSpacePage()->analogyEdit()->setText(QStringLiteral("chat - cat + dog"));

        window.newScene();
        QTRY_VERIFY(window.isUpToDate() && window.document()->result());
        QCOMPARE(window.trainPage()->taskName(), QStringLiteral("copy"));
        QVERIFY(window.embeddingSpacePage()->analogyEdit()->text().isEmpty());
        QSignalSpy refused(window.trainPage(), &ui::TrainPage::refused);
        window.viewTabs()->setCurrentWidget(window.trainPage());
        window.trainPage()->stepButton()->click();
        QVERIFY2(refused.isEmpty(),
                 qPrintable(refused.isEmpty() ? QString() : refused.front().front().toString()));
        QVERIFY(window.trainPage()->trainer());
        QCOMPARE(window.trainPage()->trainer()->stepCount(), 1);

        window.setScene(example("13-train-translation-alignment.json"), QString());
        QCOMPARE(window.trainPage()->taskName(), QStringLiteral("translation"));
        window.document()->undoStack()->setClean();
    }

    // Every concept tab is in the window, opens from its example, and exports from there as
    // PNG, SVG and PDF with what the tab shows.
    void windowTabsOpenFromExamplesAndExport()
    {
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const std::pair<const char*, int> examples[] = {{"14-gradient-saturation.json", 5},
                                                        {"15-kernel-smoother.json", 6},
                                                        {"16-sinusoidal-positions.json", 7},
                                                        {"17-embedding-space-king-queen.json", 8},
                                                        {"13-train-translation-alignment.json", 4}};
        for (const auto& [file, tab] : examples) {
            window.setScene(example(file), QString());
            QTRY_VERIFY(window.isUpToDate() && window.document()->result());
            QCOMPARE(window.viewTabs()->currentIndex(), tab);
            auto* page = qobject_cast<ui::ConceptPage*>(window.viewTabs()->currentWidget());
            QVERIFY(page);
            if (tab == 4) {
                QCOMPARE(window.trainPage()->taskName(), QStringLiteral("translation"));
                window.trainPage()->stepButton()->click();
            }
            QTRY_VERIFY2(page->message().isEmpty(), qPrintable(page->message()));
            const ui::ExportSource source = window.exportSource();
            QVERIFY(source.drawConcept);
            ui::ExportSettings settings = ui::windowExportSettings(source);
            QCOMPARE(magic(ui::exportFigureBytes(source, settings, ui::FigureFormat::Png), 4),
                     QByteArray("\x89PNG"));
            QVERIFY(
                ui::exportFigureBytes(source, settings, ui::FigureFormat::Svg).contains("<svg"));
            QCOMPARE(magic(ui::exportFigureBytes(source, settings, ui::FigureFormat::Pdf), 5),
                     QByteArray("%PDF-"));
        }
        window.document()->undoStack()->setClean();
    }

    // Seed 004's learned kernel (example 27): the Kernel tab opens on it, its two curves are
    // the Nadaraya-Watson sums written out here for the chirp's 40 points, with the best width
    // h = 0.0833739 and the learned maps w_q = (2.43304, 2.04216), w_k = (2.46075, 2.01966)
    // of generate_examples.py's plain-Python reimplementation; it exports; Show stores the part
    // in the scene's view.
    void learnedKernelOpensFromItsExampleAndExports()
    {
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.resize(1024, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setScene(example("27-learned-kernel.json"), QString());
        QTRY_VERIFY(window.isUpToDate() && window.document()->result());
        QCOMPARE(window.viewTabs()->currentIndex(), 6);
        ui::KernelPage* page = window.kernelPage();
        QCOMPARE(page->part(), ui::KernelPart::Learned);
        QVERIFY(!page->findChild<QSlider*>(QStringLiteral("kernelBandwidth"))->isVisible());
        QTRY_VERIFY(graphNamed(*page->plot(), QStringLiteral("learned")));
        std::vector<double> x, y;
        for (int i = 0; i < 40; ++i) {
            x.push_back(3.0 * i / 39);
            y.push_back(std::sin(x.back() * x.back()) + 0.25 * std::sin(1.7 * i * i));
        }
        auto smoother = [&](double q, double aq, double bq, double ak, double bk) {
            std::vector<double> s;
            for (double k : x)
                s.push_back(-0.5 * std::pow(aq * q + bq * q * q - (ak * k + bk * k * k), 2));
            const std::vector<double> w = softmax(s);
            double f = 0.0;
            for (std::size_t j = 0; j < w.size(); ++j)
                f += w[j] * y[j];
            return f;
        };
        const double h = 0.0833739;
        QCPGraph* fixed = graphNamed(*page->plot(), QStringLiteral("fixed kernel"));
        QCPGraph* learned = graphNamed(*page->plot(), QStringLiteral("learned"));
        QVERIFY(fixed && learned);
        for (double q : {0.0, 3.0}) { // the first and last of the curves' samples
            QVERIFY2(std::abs(valueAt(fixed, q) - smoother(q, 1 / h, 0, 1 / h, 0)) < 1e-4,
                     qPrintable(QString::number(valueAt(fixed, q))));
            QVERIFY2(std::abs(valueAt(learned, q) -
                              smoother(q, 2.43304, 2.04216, 2.46075, 2.01966)) < 1e-4,
                     qPrintable(QString::number(valueAt(learned, q))));
        }
        const ui::ExportSource source = window.exportSource();
        ui::ExportSettings settings = ui::windowExportSettings(source);
        QCOMPARE(magic(ui::exportFigureBytes(source, settings, ui::FigureFormat::Png), 4),
                 QByteArray("\x89PNG"));
        QVERIFY(ui::exportFigureBytes(source, settings, ui::FigureFormat::Svg).contains("<svg"));
        QCOMPARE(magic(ui::exportFigureBytes(source, settings, ui::FigureFormat::Pdf), 5),
                 QByteArray("%PDF-"));

        // Back to the smoother: its controls return and the scene's view says so.
        QComboBox* part = page->partCombo();
        part->setCurrentIndex(part->findData(QString()));
        emit part->activated(part->currentIndex());
        QCOMPARE(window.document()->scene().view.view, QStringLiteral("kernel"));
        QVERIFY(page->findChild<QSlider*>(QStringLiteral("kernelBandwidth"))->isVisible());
        part->setCurrentIndex(part->findData(QStringLiteral("learned")));
        emit part->activated(part->currentIndex());
        QCOMPARE(window.document()->scene().view.view, QStringLiteral("kernel:learned"));

        // The command line's figure: the scene's view picks the part; titles fit a small plot.
        QCustomPlot plot;
        drawAt(plot, ui::ConceptView::Kernel, example("27-learned-kernel.json"), QSize(700, 480));
        QVERIFY(graphNamed(plot, QStringLiteral("learned")));
        verifyTitlesFit(plot);
        window.document()->undoStack()->setClean();
    }
};

QTEST_MAIN(TestConceptViews)
#include "tst_concept_views.moc"
