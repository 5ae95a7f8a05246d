// Every script of seed 001's cat sentence (12 languages) renders: each token's every
// character has a glyph in the font the figure draws it with, after Qt's font fallback, in
// the window, in exported PNG, SVG and PDF, and in the presentation (once Hindi,
// Marathi, Kannada, Malayalam, Gujarati, Tamil and Korean came out as boxes). The fonts come
// from cmake/deps.sh (fonts-noto-ui-core, fonts-noto-cjk).
#include "ui/explorer/explorer_window.h"
#include "ui/figures/figure_builder.h"
#include "ui/figures/figure_export.h"
#include "ui/presentation/presentation_export.h"
#include "ui/presentation/presentation_steps.h"
#include "ui/presentation/slide_builder.h"
#include "ui/views/heatmap_view.h"

#include "core/cpu_backend.h"
#include "core/scene.h"
#include "support/seed_sentences.h"

#include <qcustomplot.h>

#include <QDir>
#include <QGlyphRun>
#include <QProcess>
#include <QRawFont>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTextLayout>

using namespace attn;

namespace {

// Lays `text` out in `font` as a figure's painter does, fallback fonts and all, and says
// what has no glyph: a character no run's font supports, or a glyph 0 (the .notdef box).
// `families` collects the fonts actually used.
QString missingGlyphs(const QString& text, const QFont& font, QSet<QString>* families = nullptr)
{
    QTextLayout layout(text, font);
    layout.beginLayout();
    layout.createLine();
    layout.endLayout();
    QStringList problems;
    std::vector<QRawFont> used;
    for (const QGlyphRun& run : layout.glyphRuns()) {
        const QRawFont raw = run.rawFont();
        used.push_back(raw);
        if (families)
            families->insert(raw.familyName());
        for (quint32 glyph : run.glyphIndexes())
            if (glyph == 0)
                problems.append(QStringLiteral("a .notdef box in %1").arg(raw.familyName()));
    }
    for (char32_t c : text.toUcs4()) {
        if (QChar::isSpace(c) || QChar::category(c) == QChar::Other_Format)
            continue;
        const bool covered = std::any_of(used.begin(), used.end(), [c](const QRawFont& raw) {
            return raw.supportsCharacter(c);
        });
        if (!covered)
            problems.append(QStringLiteral("U+%1 in no font used")
                                .arg(quint32(c), 4, 16, QLatin1Char('0'))
                                .toUpper());
    }
    problems.removeDuplicates();
    return problems.join(QStringLiteral("; "));
}

std::shared_ptr<const core::AttentionResult> resultFor(const QString& sentence)
{
    core::CpuBackend backend;
    return backend.compute(core::resolveProblem(core::makeScene(sentence, 16, 2, 1)), {});
}

// The labels an axis shows, with the font it draws them in.
QStringList tickLabels(const QCPAxis* axis)
{
    QStringList labels;
    if (auto ticker = axis->ticker().dynamicCast<QCPAxisTickerText>())
        for (const QString& label : ticker->ticks())
            labels.append(label);
    return labels;
}

// Every label the plot's axes show has its glyphs, and so has every token in the axes'
// font (a small view shows every n-th label; any of them may be the one shown).
void verifyAxes(QCustomPlot& plot, const QStringList& tokens, bool everyLabelShown = true)
{
    QVERIFY(plot.axisRectCount() >= 1);
    QStringList seen;
    for (QCPAxisRect* rect : plot.axisRects())
        for (QCPAxis* axis : {rect->axis(QCPAxis::atLeft), rect->axis(QCPAxis::atBottom)})
            for (const QString& label : tickLabels(axis)) {
                seen.append(label);
                const QString missing = missingGlyphs(label, axis->tickLabelFont());
                QVERIFY2(missing.isEmpty(),
                         qPrintable(QStringLiteral("“%1”: %2").arg(label, missing)));
            }
    const QFont font = plot.axisRect(0)->axis(QCPAxis::atLeft)->tickLabelFont();
    for (const QString& token : tokens) {
        QVERIFY2(!everyLabelShown || seen.contains(token),
                 qPrintable(QStringLiteral("no label “%1”").arg(token)));
        const QString missing = missingGlyphs(token, font);
        QVERIFY2(missing.isEmpty(), qPrintable(QStringLiteral("“%1”: %2").arg(token, missing)));
    }
}

QStringList tokensOf(const core::AttentionResult& result)
{
    QStringList tokens;
    for (const core::Token& token : result.problem->queryTokens)
        tokens.append(token.text);
    return tokens;
}

void addSentences()
{
    QTest::addColumn<QString>("sentence");
    const QStringList& sentences = test::seedSentences();
    for (qsizetype k = 0; k < sentences.size(); ++k)
        QTest::newRow(qPrintable(test::seedLanguages()[k])) << sentences[k];
    for (qsizetype k = 0; k < test::seedTransliterations().size(); ++k)
        QTest::addRow("romanized %d", int(k + 1)) << test::seedTransliterations()[k];
}

} // namespace

class TestFigureFonts : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_figure_fonts"));
    }

    void exportedFiguresHaveEveryGlyph_data() { addSentences(); }
    void exportedFiguresHaveEveryGlyph()
    {
        QFETCH(QString, sentence);
        const auto result = resultFor(sentence);
        const QStringList tokens = tokensOf(*result);
        QVERIFY(tokens.size() >= 2);
        ui::FigureSpec spec;
        const QSize size(1200, 900);
        // The figure as every exporter lays it out (figureBytes builds this same plot).
        QCustomPlot plot;
        plot.setAttribute(Qt::WA_DontShowOnScreen);
        plot.resize(size);
        ui::FigureBuilder builder(plot, spec);
        builder.build(*result, size);
        verifyAxes(plot, tokens);
        QSet<QString> families;
        const QFont font = plot.axisRect(0)->axis(QCPAxis::atLeft)->tickLabelFont();
        for (const QString& token : tokens)
            QCOMPARE(missingGlyphs(token, font, &families), QString());

        // SVG keeps every token as text; PDF embeds every font the glyphs came from.
        const QByteArray svg = ui::renderFigure(plot, size, spec.dpi, ui::FigureFormat::Svg);
        for (const QString& token : tokens)
            QVERIFY2(svg.contains(token.toHtmlEscaped().toUtf8()), qPrintable(token));
        QTemporaryDir dir;
        const QString pdfPath = dir.filePath(QStringLiteral("figure.pdf"));
        QFile pdf(pdfPath);
        QVERIFY(pdf.open(QIODevice::WriteOnly));
        pdf.write(ui::renderFigure(plot, size, spec.dpi, ui::FigureFormat::Pdf));
        pdf.close();
        QProcess pdffonts;
        pdffonts.start(QStringLiteral("pdffonts"), {pdfPath});
        QVERIFY2(pdffonts.waitForFinished(30000) && pdffonts.exitCode() == 0,
                 "pdffonts (poppler-utils, cmake/deps.sh)");
        const QString embedded =
            QString::fromUtf8(pdffonts.readAllStandardOutput()).remove(QLatin1Char(' '));
        for (const QString& family : families)
            QVERIFY2(
                embedded.contains(QString(family).remove(QLatin1Char(' ')), Qt::CaseInsensitive),
                qPrintable(QStringLiteral("%1 not embedded:\n%2").arg(family, embedded)));
        // A PNG of the figure draws the same layout with the same fonts.
        const QImage png =
            QImage::fromData(ui::renderFigure(plot, size, spec.dpi, ui::FigureFormat::Png), "PNG");
        QCOMPARE(png.size(), size);
    }

    // The window draws the figure with its own (screen) fonts: the same check there.
    void windowHasEveryGlyph_data() { addSentences(); }
    void windowHasEveryGlyph()
    {
        QFETCH(QString, sentence);
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.setScene(core::makeScene(sentence, 16, 2, 1), QString());
        QTRY_VERIFY_WITH_TIMEOUT(window.isUpToDate() && window.document()->result(), 10000);
        QTRY_VERIFY(window.headView()->plot()->axisRectCount() >= 1 &&
                    !window.headView()->isRebuildPending());
        verifyAxes(*window.headView()->plot(), tokensOf(*window.document()->result()), false);
        window.document()->undoStack()->setClean();
    }

    // The presentation's labels and chips, in the page's fonts.
    void presentationHasEveryGlyph_data() { addSentences(); }
    void presentationHasEveryGlyph()
    {
        QFETCH(QString, sentence);
        const auto result = resultFor(sentence);
        const QStringList tokens = tokensOf(*result);
        for (int step : {int(ui::PresentationStep::Tokens), int(ui::PresentationStep::Normalized),
                         int(ui::PresentationStep::QueryFocus)}) {
            ui::SlideOptions options;
            options.step = step;
            const ui::Slide slide = ui::buildSlide(*result, options, QSizeF(1920, 1080));
            QStringList seen;
            for (const ui::SlideText* label : slide.textsOf(ui::SlideText::Role::Label)) {
                seen.append(label->text);
                const QString missing = missingGlyphs(label->text, label->font);
                QVERIFY2(
                    missing.isEmpty(),
                    qPrintable(
                        QStringLiteral("step %1, “%2”: %3").arg(step).arg(label->text, missing)));
            }
            for (const QString& token : tokens)
                QVERIFY2(seen.contains(token),
                         qPrintable(QStringLiteral("step %1: no label “%2”").arg(step).arg(token)));
        }
    }
};

QTEST_MAIN(TestFigureFonts)
#include "tst_figure_fonts.moc"
