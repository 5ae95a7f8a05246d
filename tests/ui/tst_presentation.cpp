// Presentation mode as a lecturer uses it: each step's matrices fill the screen
// with labels and numbers a hall's back row reads; every token labelled up to 48 at 1080p;
// a step on one query (its scores, their softmax as bars, the weighted sum of the values);
// the equation with the chosen cell's numbers; themes chosen in the presentation; the
// pointer highlights a cell; the PDF handout, page by page; leaving gives the keys back.
#include "ui/explorer/explorer_window.h"
#include "ui/export/export_dialog.h"
#include "ui/figures/figure_builder.h"
#include "ui/figures/heatmap_painter.h"
#include "ui/presentation/presentation_export.h"
#include "ui/presentation/presentation_extras.h"
#include "ui/presentation/presentation_steps.h"
#include "ui/presentation/presentation_window.h"
#include "ui/presentation/slide_builder.h"

#include "core/analysis/learned_kernel.h"
#include "core/cpu_backend.h"
#include "core/scene.h"
#include "core/scene_json.h"
#include "support/problems.h"

#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QImage>
#include <QPointer>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextDocumentFragment>
#include <QWheelEvent>
#include <QtTest>
#include <map>

using namespace attn;
using core::Normalization;
using core::ScoreKind;
using Role = ui::SlideText::Role;

Q_DECLARE_METATYPE(core::ScoreKind)
Q_DECLARE_METATYPE(core::Normalization)

namespace {

std::shared_ptr<const core::AttentionResult> compute(ScoreKind score, Normalization normalization,
                                                     bool causal = false, float temperature = 1.0f)
{
    auto problem = test::handProblem(score, normalization);
    problem->mask.causal = causal;
    problem->temperature = temperature;
    core::CpuBackend backend;
    return backend.compute(problem, {});
}

std::shared_ptr<const core::AttentionResult> compute(const core::Scene& scene)
{
    core::CpuBackend backend;
    return backend.compute(core::resolveProblem(scene), {});
}

std::shared_ptr<const core::AttentionResult> example(const QString& file)
{
    return compute(core::loadScene(QStringLiteral(":/examples/") + file));
}

// A sentence of `words` different words, some of them long.
QString sentence(int words)
{
    static const QStringList vocabulary{
        QStringLiteral("the"),     QStringLiteral("student"),   QStringLiteral("who"),
        QStringLiteral("got"),     QStringLiteral("highest"),   QStringLiteral("grade"),
        QStringLiteral("in"),      QStringLiteral("class"),     QStringLiteral("was"),
        QStringLiteral("awarded"), QStringLiteral("a"),         QStringLiteral("scholarship"),
        QStringLiteral("by"),      QStringLiteral("principal"), QStringLiteral("because"),
        QStringLiteral("she")};
    QStringList out;
    for (int k = 0; k < words; ++k)
        out.append(vocabulary[k % vocabulary.size()] +
                   (k >= vocabulary.size() ? QString::number(k / vocabulary.size()) : QString()));
    return out.join(QLatin1Char(' '));
}

QString plain(const QString& html)
{
    return QTextDocumentFragment::fromHtml(html).toPlainText();
}

ui::Slide slideOf(const core::AttentionResult& result, int step, QSizeF size = QSizeF(1920, 1080),
                  int query = -1, int key = -1)
{
    ui::SlideOptions options;
    options.step = step;
    options.query = query;
    options.key = key;
    return ui::buildSlide(result, options, size);
}

// The token labels of one axis of one panel (or the chips: panel -1), by index.
std::map<int, const ui::SlideText*> labels(const ui::Slide& slide, int panel, bool columns)
{
    std::map<int, const ui::SlideText*> out;
    for (const ui::SlideText* t : slide.textsOf(Role::Label))
        if (t->panel == panel && t->columns == columns)
            out[t->index] = t;
    return out;
}

QStringList tokenTexts(const std::vector<core::Token>& tokens)
{
    QStringList out;
    for (const core::Token& t : tokens)
        out.append(t.text);
    return out;
}

// Every token of the input named on the slide: by each panel's rows and key columns, or
// by the chips; none of one axis overlapping another.
void verifyEveryLabel(const ui::Slide& slide, const core::AttentionResult& result, int step)
{
    const QStringList queries = tokenTexts(result.problem->queryTokens);
    const QStringList keys = tokenTexts(result.problem->keyTokens);
    QCOMPARE(slide.labelStep, 1);
    QCOMPARE(slide.labelCharacters, 0);
    auto check = [&](const std::map<int, const ui::SlideText*>& shown, const QStringList& tokens,
                     const QString& where) {
        for (int i = 0; i < int(tokens.size()); ++i) {
            QVERIFY2(shown.count(i),
                     qPrintable(QStringLiteral("step %1 %2: token %3 “%4” not labelled")
                                    .arg(step)
                                    .arg(where)
                                    .arg(i + 1)
                                    .arg(tokens[i])));
            QCOMPARE(shown.at(i)->text, tokens[i]);
        }
        QRectF previous;
        for (const auto& [i, text] : shown) {
            const QRectF box = ui::textBounds(*text);
            QFontMetricsF metrics(text->font);
            // The text's own extent within its box (labels are aligned inside wider boxes).
            const double extent = metrics.height();
            QRectF ink = box;
            if (text->rotation != 0.0 || (text->columns && text->panel >= 0))
                ink = QRectF(box.center().x() - extent / 2, box.top(), extent, box.height());
            else if (text->panel >= 0)
                ink = QRectF(box.left(), box.center().y() - extent / 2, box.width(), extent);
            if (!previous.isNull())
                QVERIFY2(!previous.intersects(ink.adjusted(1, 1, -1, -1)),
                         qPrintable(QStringLiteral("step %1 %2: label %3 overlaps the one before")
                                        .arg(step)
                                        .arg(where)
                                        .arg(i + 1)));
            previous = ink;
        }
    };
    if (step == int(ui::PresentationStep::Tokens)) {
        check(labels(slide, -1, false), queries, QStringLiteral("chips"));
        return;
    }
    bool any = false;
    for (int p = 0; p < int(slide.panels.size()); ++p) {
        const ui::SlidePanel& panel = slide.panels[std::size_t(p)];
        const auto rows = labels(slide, p, false);
        if (!rows.empty()) {
            any = true;
            check(rows, panel.queryRows ? queries : keys, panel.name + QStringLiteral(" rows"));
        }
        const auto columns = labels(slide, p, true);
        if (panel.keyColumns)
            check(columns, keys, panel.name + QStringLiteral(" columns"));
    }
    QVERIFY2(any, qPrintable(QStringLiteral("step %1: no labels").arg(step)));
}

// The numbers a slide writes in row `row` of its first panel named `name`, left to right.
QStringList cellTexts(const ui::Slide& slide, const QString& name, int row)
{
    int panel = -1;
    for (int k = 0; k < int(slide.panels.size()) && panel < 0; ++k)
        if (slide.panels[std::size_t(k)].name == name)
            panel = k;
    QStringList out;
    for (const ui::SlideText* t : slide.textsOf(Role::Value))
        if (t->panel == panel && t->index == row)
            out.append(t->text);
    return out;
}

// Two tokens through two blocks, every number worked by hand (d_model 2, post-norm, eps
// 1e-5). W^Q = W^K = 0: every score 0, each weight 1/2, so MHA(X) = mean of the rows of
// X W^V W^O = (2, 2) with a = (3, 1), b = (1, 3). X + MHA = (5, 3; 3, 5): mean 4, variance 1,
// H = (1, -1; -1, 1) (a layer norm of a 2-vector is always +-1). H W1 = (1, -2; -1, 2), ReLU
// (1, 0; 0, 2), times W2 = diag(2, 1) plus b2 = (0, 1): FFN(H) = (2, 1; 0, 3). H + FFN =
// (3, 0; -1, 4): means 1.5, variances 2.25 and 6.25, Y = (1, -1; -1, 1), block 2's X.
core::Scene twoBlocksByHand()
{
    return core::sceneFromJson(R"({"format": "attention-explorer-scene", "version": 1,
        "text": "a b", "embedding": {"kind": "table", "table": {"a": [3, 1], "b": [1, 3]}},
        "positional": {"kind": "none"}, "model": {"d_model": 2, "heads": 1, "d_k": 2, "d_v": 2},
        "heads": [{"W_q": [[0, 0], [0, 0]], "W_k": [[0, 0], [0, 0]], "W_v": [[1, 0], [0, 1]]}],
        "W_o": [[1, 0], [0, 1]],
        "layers": [{"d_ff": 2, "W_1": [[1, -1], [0, 1]], "b_1": [0, 0],
                    "W_2": [[2, 0], [0, 1]], "b_2": [0, 1]}, {"d_ff": 2}]})");
}

// Fixed against data-dependent weights by hand: "the cat sat" -> "the dog sat" with the
// dot-product score, W^Q = W^K = I and the = (0, 1), cat = (1, 0), sat = (0, 1), dog = (2, 0).
// Row 2 ("cat") scores (0, 1, 0): weights (1, e, 1) / (2 + e) = (.21, .58, .21); "dog" scores
// (0, 4, 0): (1, e^4, 1) / (2 + e^4) = (.02, .96, .02). Rows 1 and 3 score "dog" as they
// scored "cat" (0): unchanged. The largest change is e^4 / (2 + e^4) - e / (2 + e) = 0.389.
core::Scene mixingByHand()
{
    return core::sceneFromJson(R"({"format": "attention-explorer-scene", "version": 1,
        "text": "the cat sat", "embedding": {"kind": "table", "table":
            {"the": [0, 1], "cat": [1, 0], "sat": [0, 1], "dog": [2, 0]}},
        "positional": {"kind": "none"}, "model": {"d_model": 2, "heads": 1, "d_k": 2, "d_v": 2},
        "heads": [{"W_q": [[1, 0], [0, 1]], "W_k": [[1, 0], [0, 1]], "W_v": [[1, 0], [0, 1]]}],
        "attention": {"score": "dot"}, "view": {"view": "mixing:the dog sat"}})");
}

ui::Slide sceneSlide(const core::AttentionResult& result,
                     std::shared_ptr<const ui::PresentationExtras> extras, int step,
                     QSizeF size = QSizeF(1920, 1080), int query = -1, int key = -1)
{
    ui::SlideOptions options;
    options.step = step;
    options.query = query;
    options.key = key;
    options.extras = std::move(extras);
    return ui::buildSlide(result, options, size);
}

QString headerOf(const ui::Slide& slide)
{
    return slide.textsOf(Role::Header).front()->text;
}

} // namespace

class TestPresentation : public QObject
{
    Q_OBJECT

    std::unique_ptr<ui::PresentationWindow>
    open(std::shared_ptr<const core::AttentionResult> result, QSize size = QSize(1600, 900))
    {
        auto window = std::make_unique<ui::PresentationWindow>(std::move(result));
        window->resize(size);
        window->show();
        if (!QTest::qWaitForWindowExposed(window.get()))
            return nullptr;
        return window;
    }

    // The middle of cell (row, column) of the first panel named `name`.
    static QPoint cellCentre(const ui::Slide& slide, const QString& name, int row, int column)
    {
        for (const ui::SlidePanel& panel : slide.panels)
            if (panel.name == name)
                return QPointF(panel.cells.left() +
                                   (column + 0.5) * panel.cells.width() / panel.columns,
                               panel.cells.top() + (row + 0.5) * panel.cells.height() / panel.rows)
                    .toPoint();
        return {};
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_presentation"));
    }

    void keysStepThroughEveryStepAndBack()
    {
        auto window = open(compute(ScoreKind::ScaledDot, Normalization::Softmax));
        QVERIFY(window);
        QCOMPARE(window->step(), 1);
        QCOMPARE(window->stepCount(), 12);
        QSignalSpy steps(window.get(), &ui::PresentationWindow::stepChanged);
        // Forward with what clickers send, one past the end.
        const Qt::Key forward[] = {Qt::Key_Right, Qt::Key_Space, Qt::Key_PageDown};
        for (int press = 0; press < 12; ++press)
            QTest::keyClick(window.get(), forward[press % 3]);
        QCOMPARE(window->step(), 12);
        QCOMPARE(steps.size(), 11);
        for (int k = 0; k < 11; ++k)
            QCOMPARE(steps[k][0].toInt(), k + 2);
        steps.clear();
        const Qt::Key back[] = {Qt::Key_Left, Qt::Key_PageUp, Qt::Key_Backspace};
        for (int press = 0; press < 12; ++press)
            QTest::keyClick(window.get(), back[press % 3]);
        QCOMPARE(window->step(), 1);
        QCOMPARE(steps.size(), 11);
        QTest::keyClick(window.get(), Qt::Key_End);
        QCOMPARE(window->step(), 12);
        QTest::keyClick(window.get(), Qt::Key_Home);
        QCOMPARE(window->step(), 1);
        for (int step = 1; step <= 12; ++step)
            QVERIFY(!ui::PresentationWindow::stepName(step).isEmpty());
    }

    void captionNamesTheEquation_data()
    {
        QTest::addColumn<ScoreKind>("score");
        QTest::addColumn<Normalization>("normalization");
        QTest::addColumn<bool>("causal");
        QTest::addColumn<float>("temperature");
        QTest::addColumn<int>("step");
        QTest::addColumn<QString>("expected"); // each part between | somewhere in the caption
        const auto scaled = ScoreKind::ScaledDot;
        const auto softmax = Normalization::Softmax;
        QTest::newRow("1 tokens") << scaled << softmax << false << 1.0f << 1
                                  << "T = 4 tokens t1, …, t4";
        QTest::newRow("2 X = E + P") << scaled << softmax << false << 1.0f << 2 << "X = E + P";
        QTest::newRow("3 Q K V") << scaled << softmax << false << 1.0f << 3
                                 << "Q = XWQ|K = XWK|V = XWV";
        QTest::newRow("4 dot") << scaled << softmax << false << 1.0f << 4 << "eij = qi · kj";
        QTest::newRow("4 additive")
            << ScoreKind::Additive << softmax << false << 1.0f << 4 << "eij = wT tanh(qi + kj)";
        QTest::newRow("4 bilinear")
            << ScoreKind::Bilinear << softmax << false << 1.0f << 4 << "qiT M kj";
        QTest::newRow("4 cosine") << ScoreKind::Cosine << softmax << false << 1.0f << 4
                                  << "‖qi‖ ‖kj‖";
        QTest::newRow("5 sqrt d_k")
            << scaled << softmax << false << 1.0f << 5 << "sij = eij / √dk|dk = 2";
        QTest::newRow("5 temperature") << scaled << softmax << false << 0.5f << 5 << "τ = 0.5";
        QTest::newRow("5 unscaled")
            << ScoreKind::Dot << softmax << false << 1.0f << 5 << "not scaled";
        QTest::newRow("6 no mask") << scaled << softmax << false << 1.0f << 6 << "no mask";
        QTest::newRow("6 causal") << scaled << softmax << true << 1.0f << 6
                                  << "Mij = −∞ where j > i (causal)";
        QTest::newRow("7 softmax")
            << scaled << softmax << false << 1.0f << 7 << "αij = softmaxj(qi · kj / √dk)";
        QTest::newRow("7 softmax causal")
            << scaled << softmax << true << 1.0f << 7 << "softmaxj(qi · kj / √dk + Mij)";
        QTest::newRow("7 hard") << scaled << Normalization::Hard << false << 1.0f << 7 << "argmax";
        QTest::newRow("7 relu") << scaled << Normalization::Relu << false << 1.0f << 7
                                << "ReLU(sij)";
        QTest::newRow("7 sparsemax")
            << scaled << Normalization::Sparsemax << false << 1.0f << 7 << "sparsemax(si)";
        QTest::newRow("8 one query")
            << scaled << softmax << false << 1.0f << 8 << "oi = ∑j αij vj|αi = softmax(si)";
        QTest::newRow("9 weighted sum")
            << scaled << softmax << false << 1.0f << 9 << "oi = ∑j αij vj|O = αV";
        QTest::newRow("10 heads") << scaled << softmax << false << 1.0f << 10
                                  << "Attention(XWhQ, XWhK, XWhV)";
        QTest::newRow("11 concat") << scaled << softmax << false << 1.0f << 11 << "Concat(head1)";
        QTest::newRow("12 W^O") << scaled << softmax << false << 1.0f << 12 << "Concat(head1) WO";
    }

    void captionNamesTheEquation()
    {
        QFETCH(ScoreKind, score);
        QFETCH(Normalization, normalization);
        QFETCH(bool, causal);
        QFETCH(float, temperature);
        QFETCH(int, step);
        QFETCH(QString, expected);
        ui::PresentationWindow window(compute(score, normalization, causal, temperature));
        window.setStep(step);
        const QString text = plain(window.caption());
        for (const QString& part : expected.split(QLatin1Char('|')))
            QVERIFY2(text.contains(part), qPrintable(text));
        QVERIFY2(window.caption().contains(QLatin1String("<sub>")) ||
                     window.caption().contains(QLatin1String("<sup>")),
                 "indices are typeset, not written with _ or ^");
        QVERIFY(!text.contains(QLatin1Char('_')) && !text.contains(QLatin1Char('^')));
    }

    void crossAttentionCaptionsNameTheSource()
    {
        const core::Scene scene =
            core::loadScene(QStringLiteral(":/examples/04-translation-cross-attention.json"));
        ui::PresentationWindow window(compute(scene));
        window.setStep(1);
        QVERIFY(plain(window.caption()).contains(QStringLiteral("source: S = 5 tokens")));
        window.setStep(3);
        for (const QString& part :
             {QStringLiteral("Q = XtWQ"), QStringLiteral("K = XsWK"), QStringLiteral("V = XsWV")})
            QVERIFY2(plain(window.caption()).contains(part), qPrintable(plain(window.caption())));
        window.setStep(10);
        QVERIFY2(plain(window.caption()).contains(QStringLiteral("Attention(XtWhQ, XsWhK, XsWhV)")),
                 qPrintable(plain(window.caption())));
    }

    // The finding: F11 showed every matrix small in half the screen; 6 of 17 labels, no numbers.
    void theScholarshipExampleShowsEveryLabelAndItsNumbers_data()
    {
        QTest::addColumn<QSize>("screen");
        QTest::addColumn<double>("labelPixels"); // the least a hall's back row reads
        QTest::addColumn<double>("numberPixels");
        QTest::newRow("1920x1080") << QSize(1920, 1080) << 24.0 << 24.0;
        // A 4:3 projector has half the pixels: the labels keep their share of the height;
        // α, V and αV side by side leave its numbers at 12 px.
        QTest::newRow("1024x768") << QSize(1024, 768) << 24.0 * 768 / 1080 << 12.0;
    }

    void theScholarshipExampleShowsEveryLabelAndItsNumbers()
    {
        QFETCH(QSize, screen);
        QFETCH(double, labelPixels);
        QFETCH(double, numberPixels);
        const auto result = example(QStringLiteral("02-student-scholarship.json"));
        QCOMPARE(result->problem->queryCount(), 17);
        for (int step = 1; step <= ui::kPresentationSteps; ++step) {
            const ui::Slide slide = slideOf(*result, step, QSizeF(screen));
            verifyEveryLabel(slide, *result, step);
            QVERIFY2(slide.labelPixels >= labelPixels,
                     qPrintable(
                         QStringLiteral("step %1: labels %2 px").arg(step).arg(slide.labelPixels)));
            if (step == int(ui::PresentationStep::Tokens))
                continue;
            // Numbers in every cell of every panel, as large as the labels need to be.
            QVERIFY2(
                slide.valuePixels >= numberPixels,
                qPrintable(
                    QStringLiteral("step %1: numbers %2 px").arg(step).arg(slide.valuePixels)));
            int numbers = 0;
            for (const ui::SlideText* t : slide.textsOf(Role::Value))
                numbers += t->panel >= 0 ? 1 : 0;
            int cells = 0;
            for (const ui::SlidePanel& panel : slide.panels)
                cells += panel.name == QLatin1String("focus weights") ? panel.rows
                                                                      : panel.rows * panel.columns;
            QVERIFY2(numbers >= cells, qPrintable(QStringLiteral("step %1: %2 numbers for %3 cells")
                                                      .arg(step)
                                                      .arg(numbers)
                                                      .arg(cells)));
            for (const ui::SlideText* t : slide.textsOf(Role::Value))
                QVERIFY(t->font.pixelSize() >= int(numberPixels) || t->panel < 0);
        }
    }

    // Up to 24 tokens, labels at least 24 px on a 1080p screen on every step, and the weights'
    // numbers too. (Three 24 x 16 matrices of signed two-decimal numbers side by side have no
    // room for 24 px numbers on any screen: their cells are coloured, and the chosen token's
    // numbers are in the equation above them.)
    void twentyFourTokensReadFromTheBackRow()
    {
        const auto result = compute(core::makeScene(sentence(24), 16, 2, 1));
        QCOMPARE(result->problem->queryCount(), 24);
        for (int step = 1; step <= ui::kPresentationSteps; ++step) {
            const ui::Slide slide = slideOf(*result, step);
            verifyEveryLabel(slide, *result, step);
            QVERIFY2(slide.labelPixels >= 24.0,
                     qPrintable(
                         QStringLiteral("step %1: labels %2 px").arg(step).arg(slide.labelPixels)));
            using S = ui::PresentationStep;
            if (step == int(S::Normalized) || step == int(S::QueryFocus))
                QVERIFY2(
                    slide.valuePixels >= 24.0,
                    qPrintable(
                        QStringLiteral("step %1: numbers %2 px").arg(step).arg(slide.valuePixels)));
            if (step >= int(S::Scores) && step <= int(S::QueryFocus))
                QVERIFY2(
                    slide.valuePixels >= 16.0,
                    qPrintable(
                        QStringLiteral("step %1: numbers %2 px").arg(step).arg(slide.valuePixels)));
            if (slide.valuePixels == 0.0)
                QVERIFY2(!plain(slide.textsOf(Role::Numbers).front()->text).isEmpty(),
                         "the chosen cell's numbers, at least");
        }
    }

    // Every label up to 48 tokens at 1080p, turned, smaller or cut, never dropped; past that
    // thinned, and the slide says so.
    void everyLabelUpToFortyEightTokens()
    {
        const auto result = compute(core::makeScene(sentence(48), 16, 2, 1));
        for (int step = 1; step <= ui::kPresentationSteps; ++step)
            verifyEveryLabel(slideOf(*result, step), *result, step);
        const auto longer = compute(core::makeScene(sentence(96), 16, 2, 1));
        const ui::Slide thinned = slideOf(*longer, int(ui::PresentationStep::Normalized));
        QVERIFY(thinned.labelStep > 1);
        bool said = false;
        for (const ui::SlideText* note : thinned.textsOf(Role::Note))
            said = said || note->text.contains(QLatin1String("labels: every"));
        QVERIFY2(said, "a thinned slide says so");
    }

    // One query's step: no two of its words or numbers overlap, on a 1080p screen, a 1024 x 768
    // projector and that projector at a 1.5 scale factor (683 x 512 logical pixels). At 1024 x 768
    // the sum row's name, "o = ∑ αv  (query 2, “student”)", ran over "∑ α = 1.00" under the bars.
    void theFocusStepsTextsNeverOverlap_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QSize>("screen");
        for (const QString& file : {QStringLiteral("01-this-is-a-cat.json"),
                                    QStringLiteral("02-student-scholarship.json")})
            for (QSize screen : {QSize(1920, 1080), QSize(1024, 768), QSize(683, 512)})
                QTest::newRow(qPrintable(
                    QStringLiteral("%1 %2x%3").arg(file).arg(screen.width()).arg(screen.height())))
                    << file << screen;
    }

    void theFocusStepsTextsNeverOverlap()
    {
        QFETCH(QString, file);
        QFETCH(QSize, screen);
        const ui::Slide slide =
            slideOf(*example(file), int(ui::PresentationStep::QueryFocus), QSizeF(screen));
        // Where a plain, level text's letters are inside the box it is aligned in.
        auto ink = [](const ui::SlideText& t) {
            const QFontMetricsF metrics(t.font);
            const QSizeF size(metrics.horizontalAdvance(t.text),
                              metrics.ascent() + metrics.descent());
            const QRectF& box = t.box;
            const double x = t.align & Qt::AlignRight     ? box.right() - size.width()
                             : t.align & Qt::AlignHCenter ? box.center().x() - size.width() / 2
                                                          : box.left();
            return QRectF(QPointF(x, box.center().y() - size.height() / 2), size);
        };
        std::vector<const ui::SlideText*> texts;
        for (const ui::SlideText& t : slide.texts)
            if (!t.rich && t.rotation == 0.0 &&
                (t.role == Role::Title || t.role == Role::Value || t.role == Role::Label))
                texts.push_back(&t);
        QVERIFY(texts.size() > 10);
        QStringList problems;
        for (std::size_t a = 0; a < texts.size(); ++a)
            for (std::size_t b = a + 1; b < texts.size(); ++b)
                if (ink(*texts[a])
                        .adjusted(1, 1, -1, -1)
                        .intersects(ink(*texts[b]).adjusted(1, 1, -1, -1)))
                    problems << QStringLiteral("“%1” and “%2” overlap")
                                    .arg(texts[a]->text, texts[b]->text);
        QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
    }

    // The subject fills the screen: at least 80% of its width or of its height (the other
    // as its shape allows: one line of five tokens is a band across the screen).
    void eachStepsSubjectFillsTheScreen_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QSize>("screen");
        for (const char* file :
             {"01-this-is-a-cat.json", "02-student-scholarship.json",
              "04-translation-cross-attention.json", "12-multi-head-one-off.json"})
            for (QSize screen : {QSize(1920, 1080), QSize(1024, 768)})
                QTest::addRow("%s %dx%d", file, screen.width(), screen.height())
                    << QString::fromLatin1(file) << screen;
    }

    void eachStepsSubjectFillsTheScreen()
    {
        QFETCH(QString, file);
        QFETCH(QSize, screen);
        const auto result = example(file);
        for (int step = 1; step <= ui::kPresentationSteps; ++step) {
            const ui::Slide slide = slideOf(*result, step, QSizeF(screen));
            const QRectF s = slide.subject;
            const double w = s.width() / screen.width();
            const double h = s.height() / screen.height();
            QVERIFY2(std::max(w, h) >= 0.8 && std::min(w, h) >= 0.25,
                     qPrintable(QStringLiteral("step %1: the subject is %2% wide, %3% high")
                                    .arg(step)
                                    .arg(int(w * 100))
                                    .arg(int(h * 100))));
            QVERIFY(QRectF(QPointF(0, 0), QSizeF(screen)).contains(s));
        }
    }

    // The chosen cell's numbers in the equation: the scholarship's "student" and "awarded".
    void theEquationCarriesTheChosenCellsNumbers()
    {
        const auto result = example(QStringLiteral("02-student-scholarship.json"));
        const core::HeadResult& h = result->heads[0];
        const int i = 1, j = 11; // "student" -> "awarded"
        QCOMPARE(result->problem->queryTokens[std::size_t(i)].text, QStringLiteral("student"));
        QCOMPARE(result->problem->keyTokens[std::size_t(j)].text, QStringLiteral("awarded"));
        auto numbers = [&](ui::PresentationStep step) {
            return plain(ui::presentationNumbers(int(step), *result, 0, i, j));
        };
        auto n = [](double v) {
            return QString::number(v, 'f', 2).remove(QRegularExpression(QStringLiteral("\\.?0+$")));
        };
        QVERIFY2(numbers(ui::PresentationStep::Tokens).contains(QStringLiteral("“student”")),
                 qPrintable(numbers(ui::PresentationStep::Tokens)));
        const QString scores = numbers(ui::PresentationStep::Scores);
        QVERIFY2(scores.contains(QStringLiteral("e2,12 = q2 · k12 = ")) &&
                     scores.endsWith(QStringLiteral("= ") + n(h.rawScores(i, j))),
                 qPrintable(scores));
        const QString scaled = numbers(ui::PresentationStep::Scaled);
        QVERIFY2(scaled.contains(QStringLiteral("/ 2 = ")) &&
                     scaled.endsWith(n(h.scaledScores(i, j))),
                 qPrintable(scaled));
        QVERIFY2(numbers(ui::PresentationStep::Masked).contains(QStringLiteral("not masked")),
                 qPrintable(numbers(ui::PresentationStep::Masked)));
        const QString softmax = numbers(ui::PresentationStep::Normalized);
        QVERIFY2(softmax.startsWith(QStringLiteral("α2,12 = exp(")) &&
                     softmax.endsWith(QStringLiteral("= ") + n(h.weights(i, j))),
                 qPrintable(softmax));
        const QString focus = numbers(ui::PresentationStep::QueryFocus);
        QVERIFY2(focus.startsWith(QStringLiteral("o2 = ")) && focus.contains(n(h.output(i, 0))),
                 qPrintable(focus));
        // A masked cell says why.
        core::Scene causal =
            core::loadScene(QStringLiteral(":/examples/02-student-scholarship.json"));
        causal.mask.causal = true;
        const auto masked = compute(causal);
        const QString m =
            plain(ui::presentationNumbers(int(ui::PresentationStep::Masked), *masked, 0, i, j));
        QVERIFY2(m.contains(QStringLiteral("−∞")) && m.contains(QStringLiteral("causal: 12 > 2")),
                 qPrintable(m));
        // And the numbers are on the slide.
        const ui::Slide slide =
            slideOf(*result, int(ui::PresentationStep::Scores), QSizeF(1920, 1080), i, j);
        QCOMPARE(slide.textsOf(Role::Numbers).size(), std::size_t(1));
        QCOMPARE(plain(slide.textsOf(Role::Numbers).front()->text), scores);
    }

    // The query a presentation opens on chooses among keys. Seed 001's hand-worked example
    // (dot product, Q K^T = [1 0 0 1; 0 1 0 1; 1 1 0 2; 0 0 0 0]): unmasked, row 3 weighs key 4
    // most, e^2 / (2e + 1 + e^2) = 0.534 (rows 1, 2: 0.365; row 4: 0.25). Under a causal mask
    // query 1 has a single key (weight 1, the mask's doing); of the rest, row 2 weighs
    // e / (1 + e) = 0.731 of 2 keys (2 x 0.731 = 1.46), row 3 e / (2e + 1) = 0.422 of 3 (1.27),
    // row 4 0.25 of 4 (1): query 2.
    void theOpeningQueryHasAChoiceOfKeys()
    {
        QCOMPARE(ui::defaultQuery(*compute(ScoreKind::Dot, Normalization::Softmax), 0), 2);
        QCOMPARE(ui::defaultQuery(*compute(ScoreKind::Dot, Normalization::Softmax, true), 0), 1);
    }

    // One query: its row of scores, the softmax of the row as bars, the weighted values and
    // their sum; Up and Down (or the wheel) choose the query, the pointer the key.
    void theQueryStepFollowsOneQuery()
    {
        const auto result = example(QStringLiteral("02-student-scholarship.json"));
        auto window = open(result, QSize(1920, 1080));
        QVERIFY(window);
        window->setStep(int(ui::PresentationStep::QueryFocus));
        QCOMPARE(window->query(), ui::defaultQuery(*result, 0));
        const core::HeadResult& h = result->heads[0];
        auto verifyQuery = [&](int i) {
            const ui::Slide* slide = window->slide();
            QVERIFY(slide);
            QStringList names;
            for (const ui::SlidePanel& panel : slide->panels)
                names.append(panel.name);
            QCOMPARE(names, (QStringList{"focus scores", "focus weights", "focus values",
                                         "focus weighted", "focus output"}));
            const ui::SlidePanel& bars = slide->panels[1];
            // Each bar as long as its weight, on the 0-1 scale; its number beside it.
            int j = 0;
            for (const ui::SlideShape& shape : slide->shapes)
                if (shape.kind == ui::SlideShape::Kind::Bar) {
                    QVERIFY(std::abs(shape.rect.width() -
                                     double(h.weights(i, j)) * bars.cells.width()) < 1.0);
                    ++j;
                }
            QCOMPARE(j, result->problem->keyCount());
            QStringList barNumbers;
            for (const ui::SlideText* t : slide->textsOf(Role::Value))
                if (t->panel == 1)
                    barNumbers.append(t->text);
            QCOMPARE(barNumbers.size(), result->problem->keyCount());
            // Written as proportions are: ".01", no leading zero.
            QCOMPARE(barNumbers[5], QString::number(double(h.weights(i, 5)), 'f', 2).mid(1));
            // The sum row holds o_i.
            QStringList sum;
            for (const ui::SlideText* t : slide->textsOf(Role::Value))
                if (t->panel == 4)
                    sum.append(t->text);
            QCOMPARE(sum.size(), int(h.output.cols()));
            QVERIFY(plain(window->numbers()).startsWith(QStringLiteral("o%1 = ").arg(i + 1)));
        };
        verifyQuery(window->query());
        const int first = window->query();
        QTest::keyClick(window.get(), Qt::Key_Down);
        QCOMPARE(window->query(), first + 1);
        QCOMPARE(window->step(), int(ui::PresentationStep::QueryFocus)); // Up/Down do not step
        verifyQuery(first + 1);
        QTest::keyClick(window.get(), Qt::Key_Up);
        QTest::keyClick(window.get(), Qt::Key_Up);
        QCOMPARE(window->query(), first - 1);
        // The wheel: one notch down, the next query.
        QWheelEvent wheel(QPointF(400, 400), window->mapToGlobal(QPointF(400, 400)), QPoint(),
                          QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(window.get(), &wheel);
        QCOMPARE(window->query(), first);
        // The pointer on a key's row chooses that key.
        QTest::mouseMove(window.get(),
                         cellCentre(*window->slide(), QStringLiteral("focus values"), 3, 0));
        QCOMPARE(window->key(), 3);
        QCOMPARE(window->query(), first);
    }

    // A slide colours a cell as the figure kit colours that value in the model grid and the
    // panels: hard attention's weights are exactly 0 and 1, which viridis (matplotlib) paints
    // #440154 and #fde725, with white numbers on the dark cell and black on the light one;
    // softmax's weights between them are the kit's cell image, pixel for pixel.
    void aSlidesCellsHaveTheKitsColours_data()
    {
        QTest::addColumn<Normalization>("normalization");
        QTest::newRow("hard") << Normalization::Hard;
        QTest::newRow("softmax") << Normalization::Softmax;
    }

    void aSlidesCellsHaveTheKitsColours()
    {
        QFETCH(Normalization, normalization);
        const auto result = compute(ScoreKind::ScaledDot, normalization);
        const ui::Slide slide = slideOf(*result, int(ui::PresentationStep::Normalized));
        int panel = -1;
        for (std::size_t p = 0; p < slide.panels.size(); ++p)
            if (slide.panels[p].name == QLatin1String("weights"))
                panel = int(p);
        QVERIFY(panel >= 0);
        const core::Matrix& weights = result->heads[0].weights;
        const QImage kit =
            ui::paint::cellImage(weights, ui::ColourTable(ui::Colormap::Viridis), 0.0, 1.0);
        int cells = 0, ends = 0;
        for (const ui::SlideCell& cell : slide.cells) {
            if (cell.panel != panel)
                continue;
            ++cells;
            QCOMPARE(cell.fill, QColor(kit.pixel(cell.column, cell.row)));
            const float w = weights(cell.row, cell.column);
            const ui::SlideText* number = nullptr;
            for (const ui::SlideText* text : slide.textsOf(Role::Value))
                if (text->panel == panel && text->box.contains(cell.rect.center()))
                    number = text;
            QVERIFY(number);
            if (w == 0.0f || w == 1.0f) {
                ++ends;
                QCOMPARE(cell.fill,
                         w == 0.0f ? QColor(0x44, 0x01, 0x54) : QColor(0xfd, 0xe7, 0x25));
                QCOMPARE(number->color, w == 0.0f ? QColor(Qt::white) : QColor(Qt::black));
            }
        }
        QCOMPARE(cells, int(weights.size()));
        if (normalization == Normalization::Hard)
            QCOMPARE(ends, cells);
    }

    // The pointer highlights the cell it rests on, and the equation takes its numbers.
    void thePointerHighlightsACell()
    {
        auto window = open(example(QStringLiteral("01-this-is-a-cat.json")));
        QVERIFY(window);
        window->setStep(int(ui::PresentationStep::Normalized));
        QSignalSpy chosen(window.get(), &ui::PresentationWindow::cellChosen);
        const int i = (window->query() + 1) % 4; // not the cell the presentation opened on
        const int j = (window->key() + 2) % 4;
        const QPoint at = cellCentre(*window->slide(), QStringLiteral("weights"), i, j);
        QTest::mouseMove(window.get(), at);
        QCOMPARE(window->query(), i);
        QCOMPARE(window->key(), j);
        QCOMPARE(chosen.size(), 1);
        const ui::SlidePanel& weights = window->slide()->panels.front();
        const QRectF cell(weights.cells.left() + j * weights.cells.width() / 4,
                          weights.cells.top() + i * weights.cells.height() / 4,
                          weights.cells.width() / 4, weights.cells.height() / 4);
        bool framed = false;
        for (const ui::SlideShape& shape : window->slide()->shapes)
            framed =
                framed || (shape.highlight && std::abs(shape.rect.left() - cell.left()) < 0.5 &&
                           std::abs(shape.rect.top() - cell.top()) < 0.5 &&
                           std::abs(shape.rect.width() - cell.width()) < 0.5);
        QVERIFY2(framed, "the cell under the pointer is framed");
        QVERIFY(
            plain(window->numbers()).startsWith(QStringLiteral("α%1,%2 = ").arg(i + 1).arg(j + 1)));
        // Off the matrices the choice stays, and with it the numbers.
        QTest::mouseMove(window.get(), QPoint(2, 2));
        QCOMPARE(window->query(), i);
        QCOMPARE(window->key(), j);
    }

    void themesAreChosenInThePresentation_data()
    {
        QTest::addColumn<ui::PresentationTheme>("theme");
        QTest::newRow("dark") << ui::PresentationTheme::Dark;
        QTest::newRow("high contrast") << ui::PresentationTheme::HighContrast;
        QTest::newRow("print") << ui::PresentationTheme::Print;
    }

    void themesAreChosenInThePresentation()
    {
        QFETCH(ui::PresentationTheme, theme);
        auto window = open(compute(ScoreKind::ScaledDot, Normalization::Softmax, true));
        QVERIFY(window);
        window->setStep(7);
        auto* combo = window->controls()->findChild<QComboBox*>(QStringLiteral("themeCombo"));
        QVERIFY(combo);
        combo->setCurrentIndex(combo->findData(int(theme)));
        emit combo->activated(combo->currentIndex());
        QCOMPARE(window->theme(), theme);
        const ui::FigureStyle style = ui::presentationStyle(theme);
        QCOMPARE(window->slide()->background, style.background);
        for (const ui::SlideText* label : window->slide()->textsOf(Role::Label))
            QVERIFY(label->color == style.text || label->color == style.accent);
        const QImage image = window->grab().toImage();
        QCOMPARE(QColor(image.pixel(2, 2)), style.background);
        if (theme == ui::PresentationTheme::Dark)
            QVERIFY(style.background.lightness() < 60 && style.text.lightness() > 200);
        if (theme == ui::PresentationTheme::Print)
            for (const ui::SlideCell& cell : window->slide()->cells)
                QVERIFY(cell.fill.red() == cell.fill.green() &&
                        cell.fill.green() == cell.fill.blue());
        // T cycles the themes: from the last back to light, then dark.
        window->setTheme(ui::PresentationTheme::Print);
        QTest::keyClick(window.get(), Qt::Key_T);
        QCOMPARE(window->theme(), ui::PresentationTheme::Light);
        QTest::keyClick(window.get(), Qt::Key_T);
        QCOMPARE(window->theme(), ui::PresentationTheme::Dark);
    }

    void controlsShowWhenThePointerMovesAndHideWhenItRests()
    {
        auto window = open(compute(ScoreKind::ScaledDot, Normalization::Softmax));
        QVERIFY(window);
        window->setControlsHideDelay(150);
        QVERIFY(!window->controls()->isVisible());
        QTest::mouseMove(window.get(), QPoint(40, 40));
        QVERIFY(window->controls()->isVisible());
        QTRY_VERIFY_WITH_TIMEOUT(!window->controls()->isVisible(), 3000);
    }

    void escapeAndF11Leave()
    {
        for (Qt::Key key : {Qt::Key_Escape, Qt::Key_F11}) {
            auto window = open(compute(ScoreKind::ScaledDot, Normalization::Softmax));
            QVERIFY(window);
            QSignalSpy closed(window.get(), &ui::PresentationWindow::closed);
            QTest::keyClick(window.get(), key);
            QCOMPARE(closed.size(), 1);
            QVERIFY(!window->isVisible());
        }
    }

    void aNewResultKeepsTheStepAndTheCell()
    {
        auto window = open(compute(ScoreKind::ScaledDot, Normalization::Softmax));
        QVERIFY(window);
        window->setStep(7);
        window->setQuery(3);
        window->setKey(1);
        QSignalSpy steps(window.get(), &ui::PresentationWindow::stepChanged);
        window->setResult(compute(ScoreKind::ScaledDot, Normalization::Hard));
        QCOMPARE(window->step(), 7);
        QCOMPARE(steps.size(), 0);
        QVERIFY(plain(window->caption()).contains(QLatin1String("argmax")));
        QTRY_VERIFY(window->slide() &&
                    plain(window->numbers()).contains(QLatin1String("largest score")));
        // Seed 000's lost mass: "cat."'s query is (0, 0), all four scores 0, so softmax would
        // keep 1/4 at the argmax and hard attention drops 3/4.
        QVERIFY2(
            plain(window->numbers())
                .contains(QLatin1String("softmax would keep 0.25 there, the argmax drops 0.75")),
            qPrintable(plain(window->numbers())));
        QCOMPARE(window->query(), 3);
        QCOMPARE(window->key(), 1);
    }

    void typeGrowsWithTheScreen()
    {
        const auto result = example(QStringLiteral("02-student-scholarship.json"));
        const double small = slideOf(*result, 7, QSizeF(960, 540)).labelPixels;
        const double large = slideOf(*result, 7, QSizeF(1920, 1080)).labelPixels;
        QVERIFY2(large >= 2 * small - 2,
                 qPrintable(QStringLiteral("%1 then %2").arg(small).arg(large)));
    }

    void aPooledResultSaysWhyItCannotBePresented()
    {
        auto problem = test::handProblem(ScoreKind::ScaledDot, Normalization::Softmax);
        core::CpuBackend backend;
        core::ComputeOptions options;
        options.keepIntermediates = false;
        auto window = open(backend.compute(problem, options));
        QVERIFY(window);
        QVERIFY(!window->slide());
        QVERIFY(window->message().contains(QLatin1String("intermediate")));
    }

    // The handout: every step one page, its text text (every token label can be found),
    // each page rendered and looked at.
    void thePdfHasEveryStepAsAPage_data()
    {
        QTest::addColumn<ui::PresentationTheme>("theme");
        QTest::newRow("light") << ui::PresentationTheme::Light;
        QTest::newRow("dark") << ui::PresentationTheme::Dark;
    }

    void thePdfHasEveryStepAsAPage()
    {
        QFETCH(ui::PresentationTheme, theme);
        const auto result = example(QStringLiteral("02-student-scholarship.json"));
        ui::DeckOptions deck;
        deck.theme = theme;
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("deck.pdf"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(ui::presentationPdf(*result, deck));
        file.close();
        auto run = [](const QString& program, const QStringList& arguments) {
            QProcess process;
            process.start(program, arguments);
            if (!process.waitForFinished(60000) || process.exitCode() != 0)
                return QString();
            return QString::fromUtf8(process.readAllStandardOutput());
        };
        const QString info = run(QStringLiteral("pdfinfo"), {path});
        QVERIFY2(info.contains(QRegularExpression(QStringLiteral("Pages:\\s+12\\b"))),
                 qPrintable(info));
        QVERIFY2(info.contains(QRegularExpression(QStringLiteral("Page size:\\s+960 x 540 pts"))),
                 qPrintable(info));
        const QStringList tokens = tokenTexts(result->problem->queryTokens);
        const ui::FigureStyle style = ui::presentationStyle(theme);
        for (int page = 1; page <= 12; ++page) {
            const QString p = QString::number(page);
            const QString text =
                run(QStringLiteral("pdftotext"),
                    {QStringLiteral("-f"), p, QStringLiteral("-l"), p, path, QStringLiteral("-")});
            QVERIFY2(text.contains(QStringLiteral("Step %1 of 12").arg(page)),
                     qPrintable(text.left(200)));
            // Every token label as text (the one-query page names its query's keys).
            const QString words = QString(text).replace(QLatin1Char('\n'), QLatin1Char(' '));
            for (const QString& token : tokens)
                QVERIFY2(words.contains(token),
                         qPrintable(QStringLiteral("page %1 lacks “%2”").arg(page).arg(token)));
            // Rendered: the theme's background, and a figure's many colours.
            const QString png = dir.filePath(QStringLiteral("page-%1").arg(page));
            run(QStringLiteral("pdftoppm"),
                {QStringLiteral("-f"), p, QStringLiteral("-l"), p, QStringLiteral("-r"),
                 QStringLiteral("48"), QStringLiteral("-png"), QStringLiteral("-singlefile"), path,
                 png});
            const QImage image(png + QStringLiteral(".png"));
            QVERIFY2(!image.isNull(), "pdftoppm (poppler-utils, cmake/deps.sh)");
            QCOMPARE(image.size(), QSize(640, 360));
            QVERIFY(std::abs(QColor(image.pixel(1, 1)).lightness() - style.background.lightness()) <
                    8);
            QSet<QRgb> colours;
            for (int y = 0; y < image.height(); y += 3)
                for (int x = 0; x < image.width(); x += 3)
                    colours.insert(image.pixel(x, y));
            QVERIFY2(
                colours.size() >= 12,
                qPrintable(QStringLiteral("page %1: %2 colours").arg(page).arg(colours.size())));
        }
    }

    // A stacked scene's block after its attention: Add & Norm, the feed-forward layer, Add &
    // Norm again, and its output as block 2's input, with the numbers worked by hand.
    void aStackedBlockIsFourMoreStepsWorkedByHand()
    {
        const core::Scene scene = twoBlocksByHand();
        const auto result = compute(scene);
        const auto extras = ui::presentationExtras(scene);
        QVERIFY(extras && extras->stacked());
        QCOMPARE(ui::presentationSteps(extras.get()).size(), std::size_t(16));
        auto numbers = [&](ui::PresentationStep step, int query) {
            return plain(ui::presentationNumbers(int(step), *result, 0, query, 0, extras.get()));
        };
        auto caption = [&](ui::PresentationStep step) {
            return plain(ui::presentationCaption(int(step), *result->problem, extras.get()));
        };
        using S = ui::PresentationStep;
        const QString addNorm1 = numbers(S::AddNorm, 0);
        QVERIFY2(addNorm1 == QStringLiteral("h1 = LN(x1 + a1) = LN((5, 3)):    μ = 4, σ2 = 1    "
                                            "h1 = (1, −1)"),
                 qPrintable(addNorm1));
        QVERIFY2(numbers(S::AddNorm, 1).contains(QStringLiteral("LN((3, 5))")) &&
                     numbers(S::AddNorm, 1).endsWith(QStringLiteral("h2 = (−1, 1)")),
                 qPrintable(numbers(S::AddNorm, 1)));
        QVERIFY2(numbers(S::FeedForward, 0).endsWith(QStringLiteral("= (1, 0)W2 + b2 = (2, 1)")),
                 qPrintable(numbers(S::FeedForward, 0)));
        QVERIFY2(numbers(S::FeedForward, 1).endsWith(QStringLiteral("= (0, 2)W2 + b2 = (0, 3)")),
                 qPrintable(numbers(S::FeedForward, 1)));
        const QString addNorm2 = numbers(S::AddNormOutput, 1);
        QVERIFY2(addNorm2.contains(QStringLiteral("LN((−1, 4))")) &&
                     addNorm2.contains(QStringLiteral("μ = 1.5, σ2 = 6.25")) &&
                     addNorm2.endsWith(QStringLiteral("y2 = (−1, 1)")),
                 qPrintable(addNorm2));
        QVERIFY2(numbers(S::AddNormOutput, 0).contains(QStringLiteral("μ = 1.5, σ2 = 2.25")),
                 qPrintable(numbers(S::AddNormOutput, 0)));
        const QString next = numbers(S::NextBlock, 0);
        QVERIFY2(next.startsWith(QStringLiteral("x1(2) = y1(1) = (1, −1)")) &&
                     next.endsWith(QStringLiteral("largest difference of the two: 0")),
                 qPrintable(next));
        // The block's formula, with the scene's widths and epsilon.
        QVERIFY2(caption(S::AddNorm).startsWith(QStringLiteral("H = LN(X + MHA(X))")) &&
                     caption(S::AddNorm).contains(QStringLiteral("ε = 10−5")),
                 qPrintable(caption(S::AddNorm)));
        QVERIFY2(caption(S::FeedForward).contains(QStringLiteral("dmodel = 2 → dff = 2 → 2")),
                 qPrintable(caption(S::FeedForward)));
        QVERIFY2(caption(S::AddNormOutput)
                     .endsWith(QStringLiteral("(block 1: H = LN(X + MHA(X)), Y = LN(H + FFN(H)))")),
                 qPrintable(caption(S::AddNormOutput)));
        // The slides' cells: X + MHA(X), H, FFN(H), Y and block 2's X as worked out above.
        const int first = ui::kPresentationSteps + 1;
        const ui::Slide norm = sceneSlide(*result, extras, first, QSizeF(1280, 720), 1);
        QCOMPARE(headerOf(norm), QStringLiteral("Step 13 of 16 · Add & Norm"));
        QCOMPARE(cellTexts(norm, QStringLiteral("X + MHA"), 0),
                 QStringList({QStringLiteral("5"), QStringLiteral("3")}));
        QCOMPARE(cellTexts(norm, QStringLiteral("H"), 1),
                 QStringList({QStringLiteral("−1"), QStringLiteral("1")}));
        const ui::Slide ffn = sceneSlide(*result, extras, first + 1, QSizeF(1024, 768));
        QCOMPARE(cellTexts(ffn, QStringLiteral("hidden"), 1),
                 QStringList({QStringLiteral("0"), QStringLiteral("2")}));
        QCOMPARE(cellTexts(ffn, QStringLiteral("FFN"), 0),
                 QStringList({QStringLiteral("2"), QStringLiteral("1")}));
        const ui::Slide out = sceneSlide(*result, extras, first + 3, QSizeF(1024, 768));
        QCOMPARE(headerOf(out), QStringLiteral("Step 16 of 16 · The block's output"));
        QCOMPARE(cellTexts(out, QStringLiteral("next X"), 0),
                 QStringList({QStringLiteral("1"), QStringLiteral("−1")}));
        QCOMPARE(out.panels.back().name, QStringLiteral("next weights"));
    }

    // The fully connected layer's and the convolution's weights stay when a word changes;
    // attention's move (the numbers by hand above mixingByHand).
    void theMixingStepsShowWhatMovesWorkedByHand()
    {
        const core::Scene scene = mixingByHand();
        const auto result = compute(scene);
        const auto extras = ui::presentationExtras(scene);
        QVERIFY(extras && extras->mixes() && !extras->stacked());
        QCOMPARE(ui::presentationSteps(extras.get()).size(), std::size_t(16));
        using S = ui::PresentationStep;
        auto numbers = [&](S step, int i, int j) {
            return plain(ui::presentationNumbers(int(step), *result, 0, i, j, extras.get()));
        };
        QCOMPARE(numbers(S::MixingAttention, 1, 1),
                 QStringLiteral("α2,2 = 0.58 before, 0.96 after    largest change in the matrix: "
                                "0.39"));
        QVERIFY2(numbers(S::MixingConvolution, 1, 0)
                         .startsWith(QStringLiteral("M2,1 = 0.25 before, 0.25 after")) &&
                     numbers(S::MixingConvolution, 1, 0).endsWith(QStringLiteral(": 0")),
                 qPrintable(numbers(S::MixingConvolution, 1, 0)));
        QVERIFY2(numbers(S::MixingFullyConnected, 0, 2).endsWith(QStringLiteral(": 0")),
                 qPrintable(numbers(S::MixingFullyConnected, 0, 2)));
        QCOMPARE(numbers(S::MixingChanges, 0, 0),
                 QStringLiteral("largest change: fully connected 0, convolution 0, attention "
                                "0.39"));
        QVERIFY2(
            plain(ui::presentationCaption(int(S::MixingChanges), *result->problem, extras.get()))
                .startsWith(QStringLiteral("“the cat sat” → “the dog sat”")),
            qPrintable(plain(
                ui::presentationCaption(int(S::MixingChanges), *result->problem, extras.get()))));
        // On the slides: the convolution's window, the fully connected matrix unchanged,
        // attention's row 2 before and after, the new word labelled.
        const int first = ui::kPresentationSteps + 1;
        const ui::Slide conv = sceneSlide(*result, extras, first + 1, QSizeF(1024, 768));
        QCOMPARE(
            cellTexts(conv, QStringLiteral("before"), 1),
            QStringList({QStringLiteral(".25"), QStringLiteral(".50"), QStringLiteral(".25")}));
        QCOMPARE(
            cellTexts(conv, QStringLiteral("before"), 0),
            QStringList({QStringLiteral(".50"), QStringLiteral(".25"), QStringLiteral(".00")}));
        const ui::Slide fc = sceneSlide(*result, extras, first, QSizeF(1280, 720));
        QCOMPARE(headerOf(fc), QStringLiteral("Step 13 of 16 · Fixed weights: fully connected"));
        for (int row = 0; row < 3; ++row) {
            QCOMPARE(cellTexts(fc, QStringLiteral("before"), row),
                     cellTexts(fc, QStringLiteral("after"), row));
            QCOMPARE(cellTexts(fc, QStringLiteral("change"), row),
                     QStringList(3, QStringLiteral("0")));
        }
        const ui::Slide attention = sceneSlide(*result, extras, first + 2, QSizeF(1280, 720));
        QCOMPARE(
            cellTexts(attention, QStringLiteral("before"), 1),
            QStringList({QStringLiteral(".21"), QStringLiteral(".58"), QStringLiteral(".21")}));
        QCOMPARE(
            cellTexts(attention, QStringLiteral("after"), 1),
            QStringList({QStringLiteral(".02"), QStringLiteral(".96"), QStringLiteral(".02")}));
        QCOMPARE(cellTexts(attention, QStringLiteral("after"), 0),
                 cellTexts(attention, QStringLiteral("before"), 0));
        bool dog = false;
        for (const ui::SlideText* t : attention.textsOf(Role::Label))
            dog = dog || t->text == QLatin1String("dog");
        QVERIFY(dog);
    }

    // Seed 004's kernels on three points x = 0, 1, 2 with y = 1, 2, 4: the fixed kernel h = 1
    // against the maps φ(x) = x + x²/2, whose width 1 / φ'(x) = 1 / (1 + x) is 1 at x = 0 and
    // 1/3 at x = 2. Each end weighs the two other points (leave one out).
    void theKernelStepsShowBothKernelsWorkedByHand()
    {
        core::RegressionData data;
        data.x = {0.0, 1.0, 2.0};
        data.y = {1.0, 2.0, 4.0};
        core::KernelMaps maps;
        maps.query = {1.0, 0.5};
        maps.key = {1.0, 0.5};
        const auto extras = std::make_shared<ui::PresentationExtras>();
        extras->kernel = ui::kernelComparison(data, 1.0, maps);
        // Fixed: from x = 0 the distances 1 and 2 give e^(−1/2) and e^(−2).
        const double near = std::exp(-0.5) / (std::exp(-0.5) + std::exp(-2.0)); // 0.8176
        // Learned: φ = 0, 1.5, 4; from x = 0 e^(−1.125) and e^(−8), from x = 2 e^(−8), e^(−3.125).
        const double learnedFirst = 1.0 / (1.0 + std::exp(-6.875)); // 0.999
        const double learnedLast = 1.0 / (1.0 + std::exp(-4.875));  // 0.992
        // Leave one out with h = 1: f(0) = 2 near + 4 (1 − near), f(1) = 2.5, f(2) = near 2 +
        // (1 − near) 1.
        const double loss = (std::pow(2 * near + 4 * (1 - near) - 1, 2) + std::pow(2.5 - 2, 2) +
                             std::pow(2 * near + (1 - near) - 4, 2)) /
                            3;
        const core::Scene scene =
            core::loadScene(QStringLiteral(":/examples/27-learned-kernel.json"));
        const auto result = compute(scene);
        using S = ui::PresentationStep;
        auto numbers = [&](S step) {
            return plain(ui::presentationNumbers(int(step), *result, 0, 0, 0, extras.get()));
        };
        auto g3 = [](double v) { return QString::number(v, 'g', 3); };
        QCOMPARE(numbers(S::KernelFixed),
                 QStringLiteral("width 1 at x = 0, 1 at x = 2    largest weight: %1 at x = 0, %1 "
                                "at x = 2")
                     .arg(QString::number(near, 'f', 2)));
        QCOMPARE(
            numbers(S::KernelLearned),
            QStringLiteral("width 1 / |φk′(x)|: 1 at x = 0, %1 at x = 2    largest weight: "
                           "%2 at x = 0, %3 at x = 2")
                .arg(g3(1.0 / 3.0), QStringLiteral("1"), QString::number(learnedLast, 'f', 2)));
        QCOMPARE(numbers(S::KernelFits).section(QStringLiteral(", "), 0, 0),
                 QStringLiteral("leave-one-out squared error: fixed kernel %1").arg(g3(loss)));
        QVERIFY2(
            plain(ui::presentationCaption(int(S::KernelContrast), *result->problem, extras.get()))
                .startsWith(QStringLiteral("Kernel machines adjust the kernel and fix the "
                                           "embedding; attention fixes the kernel and learns "
                                           "the embedding")),
            qPrintable(plain(
                ui::presentationCaption(int(S::KernelContrast), *result->problem, extras.get()))));
        QVERIFY2(numbers(S::KernelContrast)
                         .contains(QStringLiteral("softmaxj(−(xi − xj)2 / 2h2), h = 1")) &&
                     numbers(S::KernelContrast)
                         .contains(QStringLiteral("softmaxj(−(φq(xi) − φk(xj))2 / 2)")),
                 qPrintable(numbers(S::KernelContrast)));
        // On the slides: each end's row of weights, its own point left out.
        const int first = ui::kPresentationSteps + 1;
        const ui::Slide fixed = sceneSlide(*result, extras, first, QSizeF(1280, 720));
        QCOMPARE(headerOf(fixed), QStringLiteral("Step 13 of 16 · Fixed kernel: one width"));
        const QString n = QString::number(near, 'f', 2).mid(1);     // ".82"
        const QString f = QString::number(1 - near, 'f', 2).mid(1); // ".18"
        QCOMPARE(cellTexts(fixed, QStringLiteral("fixed"), 0),
                 QStringList({QStringLiteral(".00"), n, f}));
        QCOMPARE(cellTexts(fixed, QStringLiteral("fixed"), 1),
                 QStringList({f, n, QStringLiteral(".00")}));
        const ui::Slide both = sceneSlide(*result, extras, first + 3, QSizeF(1024, 768));
        QCOMPARE(cellTexts(both, QStringLiteral("learned"), 1),
                 QStringList({QString::number(1 - learnedLast, 'f', 2).mid(1),
                              QString::number(learnedLast, 'f', 2).mid(1), QStringLiteral(".00")}));
        QCOMPARE(cellTexts(both, QStringLiteral("learned"), 0).at(1),
                 QString::number(learnedFirst, 'f', 2));
        const ui::Slide fits = sceneSlide(*result, extras, first + 2, QSizeF(1280, 720));
        QCOMPARE(
            cellTexts(fits, QStringLiteral("curves"), 0),
            QStringList({QStringLiteral("1.00"), QStringLiteral("2.00"), QStringLiteral("4.00")}));
        // The fixed fit at x = 0 weighs all three: (1 + 2 e^(−1/2) + 4 e^(−2)) / (1 + e^(−1/2) +
        // e^(−2)) = 1.58.
        const double fit =
            (1 + 2 * std::exp(-0.5) + 4 * std::exp(-2.0)) / (1 + std::exp(-0.5) + std::exp(-2.0));
        QCOMPARE(cellTexts(fits, QStringLiteral("curves"), 1).at(0), QString::number(fit, 'f', 2));
    }

    // Example 27's numbers as its description quotes them: h = 0.0834 everywhere, the learned
    // width 0.406 at x = 0 and 0.0686 at x = 3, leave-one-out errors 0.0561 and 0.0531.
    void theLearnedKernelExamplePresentsItsNumbers()
    {
        const core::Scene scene =
            core::loadScene(QStringLiteral(":/examples/27-learned-kernel.json"));
        const auto result = compute(scene);
        const auto extras = ui::presentationExtras(scene);
        QVERIFY(extras && extras->kernels() && !extras->mixes() && !extras->stacked());
        using S = ui::PresentationStep;
        auto numbers = [&](S step) {
            return plain(ui::presentationNumbers(int(step), *result, 0, 0, 0, extras.get()));
        };
        QVERIFY2(numbers(S::KernelFixed)
                     .startsWith(QStringLiteral("width 0.0834 at x = 0, 0.0834 at x = 3")),
                 qPrintable(numbers(S::KernelFixed)));
        QVERIFY2(
            numbers(S::KernelLearned).contains(QStringLiteral(": 0.406 at x = 0, 0.0686 at x = 3")),
            qPrintable(numbers(S::KernelLearned)));
        QCOMPARE(numbers(S::KernelFits),
                 QStringLiteral("leave-one-out squared error: fixed kernel 0.0561, learned maps "
                                "0.0531"));
        QVERIFY2(plain(ui::presentationCaption(int(S::KernelFits), *result->problem, extras.get()))
                     .endsWith(QStringLiteral("40 noisy points of sin(x²)")),
                 qPrintable(plain(
                     ui::presentationCaption(int(S::KernelFits), *result->problem, extras.get()))));
    }

    // Examples 25 and 26 present their concept after attention's twelve steps; a scene of one
    // layer without a second sentence has the twelve alone.
    void theExamplesStepsAndTitles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("titles"); // steps 13 to 16
        QTest::newRow("25") << "25-stacked-blocks.json"
                            << QStringList{"Add & Norm", "Feed-forward", "Add & Norm, again",
                                           "The block's output"};
        QTest::newRow("26") << "26-fixed-vs-data-dependent-weights.json"
                            << QStringList{"Fixed weights: fully connected",
                                           "Fixed window: convolution",
                                           "Weights from the words: attention",
                                           "What moves when a word changes"};
        const QStringList kernel{"Fixed kernel: one width", "Learned maps: a width for each place",
                                 "The fitted curves", "Learn the kernel or the embedding"};
        QTest::newRow("27") << "27-learned-kernel.json" << kernel;
        QTest::newRow("15") << "15-kernel-smoother.json" << kernel;
        QTest::newRow("02") << "02-student-scholarship.json" << QStringList();
    }

    void theExamplesStepsAndTitles()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, titles);
        const core::Scene scene = core::loadScene(QStringLiteral(":/examples/") + file);
        const auto result = compute(scene);
        const auto extras = ui::presentationExtras(scene);
        QCOMPARE(extras != nullptr, !titles.isEmpty());
        const int count = 12 + int(titles.size());
        QCOMPARE(int(ui::presentationSteps(extras.get()).size()), count);
        for (int k = 0; k < int(titles.size()); ++k) {
            const ui::Slide slide = sceneSlide(*result, extras, 13 + k, QSizeF(1024, 768));
            QCOMPARE(headerOf(slide),
                     QStringLiteral("Step %1 of %2 · %3").arg(13 + k).arg(count).arg(titles[k]));
            QVERIFY(!slide.panels.empty());
            QVERIFY(!slide.textsOf(Role::Numbers).empty());
            // Every panel's rows named by the tokens.
            for (int p = 0; p < int(slide.panels.size()); ++p)
                QVERIFY2(!labels(slide, p, false).empty() || p > 0,
                         qPrintable(slide.panels[std::size_t(p)].name));
        }
        auto window = open(result);
        QVERIFY(window);
        window->setExtras(extras);
        QCOMPARE(window->stepCount(), count);
        QTest::keyClick(window.get(), Qt::Key_End);
        QCOMPARE(window->step(), count);
        QTRY_VERIFY(window->slide());
        if (!titles.isEmpty())
            QCOMPARE(headerOf(*window->slide()),
                     QStringLiteral("Step %1 of %1 · %2").arg(count).arg(titles.back()));
    }

    // From the window: example 26 opens on its Fixed weights tab, whose second sentence gives
    // the presentation its mixing steps, on the screen and in the exported PDF.
    void theWindowPresentsTheScenesSteps()
    {
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.resize(1024, 768);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setScene(
            core::loadScene(QStringLiteral(":/examples/26-fixed-vs-data-dependent-weights.json")),
            QString());
        QTRY_VERIFY_WITH_TIMEOUT(window.isUpToDate() && window.document()->result(), 10000);
        window.togglePresentation();
        QPointer<ui::PresentationWindow> presentation = window.presentation();
        QVERIFY(presentation);
        QCOMPARE(presentation->stepCount(), 16);
        presentation->setStep(16);
        QCOMPARE(presentation->stepKind(), ui::PresentationStep::MixingChanges);
        QTRY_VERIFY(presentation->slide());
        QVERIFY2(plain(presentation->numbers()).endsWith(QStringLiteral("attention 0.37")),
                 qPrintable(plain(presentation->numbers())));
        presentation->close();
        QTRY_VERIFY(!presentation);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("talk.pdf"));
        QVERIFY(window.exportPresentation(path));
        QProcess info;
        info.start(QStringLiteral("pdfinfo"), {path});
        QVERIFY(info.waitForFinished(60000));
        QVERIFY(QString::fromUtf8(info.readAllStandardOutput())
                    .contains(QRegularExpression(QStringLiteral("Pages:\\s+16\\b"))));
        window.document()->undoStack()->setClean();
    }

    // The PDF has the scene's steps as pages, their text as text.
    void thePdfHasTheStackedBlocksSteps()
    {
        const core::Scene scene =
            core::loadScene(QStringLiteral(":/examples/25-stacked-blocks.json"));
        const auto result = compute(scene);
        ui::DeckOptions deck;
        deck.extras = ui::presentationExtras(scene);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("blocks.pdf"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(ui::presentationPdf(*result, deck));
        file.close();
        QProcess info;
        info.start(QStringLiteral("pdfinfo"), {path});
        QVERIFY(info.waitForFinished(60000));
        QVERIFY(QString::fromUtf8(info.readAllStandardOutput())
                    .contains(QRegularExpression(QStringLiteral("Pages:\\s+16\\b"))));
        QProcess text;
        text.start(QStringLiteral("pdftotext"),
                   {QStringLiteral("-f"), QStringLiteral("13"), QStringLiteral("-l"),
                    QStringLiteral("13"), path, QStringLiteral("-")});
        QVERIFY(text.waitForFinished(60000));
        const QString page = QString::fromUtf8(text.readAllStandardOutput());
        QVERIFY2(page.contains(QStringLiteral("Step 13 of 16")) &&
                     page.contains(QStringLiteral("Add & Norm")) &&
                     page.contains(QStringLiteral("LN(X + MHA(X))")),
                 qPrintable(page.left(300)));
    }

    // From the window: F11 presents; leaving gives the keys back (Ctrl+E works at once);
    // File > Export Presentation writes the deck.
    void theWindowPresentsAndGetsItsKeysBack()
    {
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setScene(core::loadScene(QStringLiteral(":/examples/02-student-scholarship.json")),
                        QString());
        QTRY_VERIFY_WITH_TIMEOUT(window.isUpToDate() && window.document()->result(), 10000);
        window.activateWindow();
        window.headCombo()->setFocus();
        QTRY_VERIFY(window.headCombo()->hasFocus());
        QTest::keyClick(&window, Qt::Key_F11);
        QPointer<ui::PresentationWindow> presentation = window.presentation();
        QVERIFY(presentation);
        QTRY_VERIFY(presentation->slide());
        QTest::keyClick(presentation, Qt::Key_Escape);
        QTRY_VERIFY(!presentation);
        QTRY_VERIFY(QApplication::focusWidget() &&
                    window.isAncestorOf(QApplication::focusWidget()));
        QCOMPARE(QApplication::focusWidget(), window.headCombo());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_E, Qt::ControlModifier);
        QTRY_VERIFY(window.exportDialog());
        window.exportDialog()->close();

        auto* action = window.findChild<QAction*>(QStringLiteral("exportPresentationAction"));
        QVERIFY(action);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("talk.pdf"));
        QVERIFY(window.exportPresentation(path));
        QFile pdf(path);
        QVERIFY(pdf.open(QIODevice::ReadOnly));
        QVERIFY(pdf.readAll().startsWith("%PDF"));
        window.document()->undoStack()->setClean();
    }
};

QTEST_MAIN(TestPresentation)
#include "tst_presentation.moc"
