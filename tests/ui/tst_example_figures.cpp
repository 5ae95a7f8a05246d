// Every built-in example renders every figure a user can make of it (the five exported
// views and each presentation step) without a single Qt warning, at the size asked, and
// not blank.

#include "ui/export/export_dialog.h"
#include "ui/figures/figure_builder.h"
#include "ui/figures/figure_export.h"
#include "ui/presentation/presentation_export.h"
#include "ui/presentation/presentation_steps.h"
#include "ui/presentation/slide.h"
#include "ui/presentation/slide_builder.h"

#include "core/cpu_backend.h"
#include "core/scene_json.h"

#include <qcustomplot.h>

#include <QBuffer>
#include <QDir>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace attn;

namespace {

const QSize kPixels(800, 600);

QStringList exampleFiles()
{
    return QDir(QStringLiteral(":/examples"))
        .entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
}

// The example and the same scene under the other dot score, for the difference view.
ui::ExportSource sourceFor(const QString& file)
{
    const core::Scene scene = core::loadScene(QStringLiteral(":/examples/") + file);
    core::Scene other = scene;
    other.score = scene.score == core::ScoreKind::ScaledDot ? core::ScoreKind::Dot
                                                            : core::ScoreKind::ScaledDot;
    core::CpuBackend backend;
    ui::ExportSource source;
    source.result = backend.compute(core::resolveProblem(scene), {});
    source.compare = backend.compute(core::resolveProblem(other), {});
    return source;
}

// A figure, not a blank page: a heatmap or a lines view has many colours.
void verifyFigure(const QByteArray& png)
{
    const QImage image = QImage::fromData(png, "PNG");
    QCOMPARE(image.size(), kPixels);
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 5)
        for (int x = 0; x < image.width(); x += 5)
            colours.insert(image.pixel(x, y));
    QVERIFY2(colours.size() >= 8, qPrintable(QStringLiteral("%1 colours").arg(colours.size())));
}

} // namespace

class TestExampleFigures : public QObject
{
    Q_OBJECT

private slots:
    void init() { QTest::failOnWarning(QRegularExpression(QStringLiteral(".*"))); }

    void everyViewOfEveryExample_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("view");
        const std::pair<ui::FigureView, const char*> views[] = {
            {ui::FigureView::Head, "head"},
            {ui::FigureView::Heads, "heads"},
            {ui::FigureView::Pipeline, "pipeline"},
            {ui::FigureView::Lines, "lines"},
            {ui::FigureView::Difference, "difference"},
        };
        const QStringList files = exampleFiles();
        QVERIFY(files.size() >= 12);
        for (const QString& file : files)
            for (const auto& [view, name] : views)
                QTest::addRow("%s %s", qPrintable(file), name) << file << int(view);
    }

    void everyViewOfEveryExample()
    {
        QFETCH(QString, file);
        QFETCH(int, view);
        const ui::ExportSource source = sourceFor(file);
        ui::ExportSettings settings;
        settings.view = ui::FigureView(view);
        settings.unit = ui::SizeUnit::Pixels;
        settings.size = kPixels;
        settings.dpi = 150;
        verifyFigure(ui::exportFigureBytes(source, settings, ui::FigureFormat::Png));
    }

    // The Difference tab of a 1600 x 1000 window is about 840 x 750 pixels: the three maps in
    // one row had cells of 7.5 pixels and left most of the pane empty; in two rows they have
    // 14 (17 x 17 tokens).
    void differencePanelsFillATallPane()
    {
        const ui::ExportSource source = sourceFor(QStringLiteral("18-difference-causal-mask.json"));
        QCustomPlot plot;
        ui::FigureSpec spec;
        spec.view = ui::FigureView::Difference;
        spec.head = 0;
        ui::FigureBuilder builder(plot, spec);
        builder.build(*source.result, QSize(840, 750), source.compare.get());
        QCPAxisRect* rect = builder.panelRect(QStringLiteral("difference"), 0);
        QVERIFY(rect);
        QCOMPARE(source.result->heads[0].weights.cols(), 17);
        const double cell = std::min(rect->width() / 17.0, rect->height() / 17.0);
        QVERIFY2(cell >= 12.0, qPrintable(QString::number(cell)));
        QVERIFY(builder.panelRect(QStringLiteral("compared weights"), 0));
    }

    void everyPresentationStepOfEveryExample_data()
    {
        QTest::addColumn<QString>("file");
        for (const QString& file : exampleFiles())
            QTest::newRow(qPrintable(file)) << file;
    }

    void everyPresentationStepOfEveryExample()
    {
        QFETCH(QString, file);
        const ui::ExportSource source = sourceFor(file);
        for (int step = 1; step <= ui::kPresentationSteps; ++step) {
            // The page as the screen and the PDF draw it.
            ui::SlideOptions options;
            options.step = step;
            const ui::Slide slide = ui::buildSlide(*source.result, options, QSizeF(kPixels));
            QImage image(kPixels, QImage::Format_RGB32);
            QPainter painter(&image);
            ui::paintSlide(painter, slide);
            painter.end();
            QByteArray png;
            QBuffer buffer(&png);
            buffer.open(QIODevice::WriteOnly);
            image.save(&buffer, "PNG");
            verifyFigure(png);
        }
        QVERIFY(ui::presentationPdf(*source.result, ui::DeckOptions{}).startsWith("%PDF"));
    }
};

QTEST_MAIN(TestExampleFigures)
#include "tst_example_figures.moc"
