// The export dialog driven through its widgets: sizes and DPI reach the files, vector files
// keep text as text, the preview follows the settings, failures leave old files alone.
#include "ui/export/export_dialog.h"

#include "core/cpu_backend.h"
#include "core/matrix_io.h"
#include "support/problems.h"

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QMimeData>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QXmlStreamReader>
#include <QtTest>

using namespace attn;

namespace {

template <class T> T* child(QObject& parent, const char* name)
{
    return parent.findChild<T*>(QLatin1String(name));
}

void choose(QObject& dialog, const char* box, const QString& data)
{
    auto* combo = child<QComboBox>(dialog, box);
    QVERIFY2(combo, box);
    const int index = combo->findData(data);
    QVERIFY2(index >= 0, qPrintable(data));
    combo->setCurrentIndex(index);
}

QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Every run of text in an SVG, which must parse as XML.
QStringList svgTexts(const QByteArray& svg)
{
    QStringList texts;
    QXmlStreamReader xml(svg);
    while (!xml.atEnd())
        if (xml.readNext() == QXmlStreamReader::StartElement && xml.name() == QLatin1String("text"))
            texts.append(xml.readElementText(QXmlStreamReader::IncludeChildElements).trimmed());
    if (xml.hasError())
        return {QStringLiteral("XML error: ") + xml.errorString()};
    return texts;
}

} // namespace

class TestExportDialog : public QObject
{
    Q_OBJECT

    std::shared_ptr<const core::AttentionResult> m_result; // "This is a cat", one head
    std::shared_ptr<const core::AttentionResult> m_other;  // the same under hard attention
    std::shared_ptr<const core::AttentionResult> m_pooled; // 40 tokens pooled to 8 x 8
    QTemporaryDir m_dir;

    ui::ExportSource source() const
    {
        ui::ExportSource s;
        s.result = m_result;
        s.spec.view = ui::FigureView::Head;
        s.spec.head = 0;
        s.suggestedName = QStringLiteral("this-is-a-cat");
        return s;
    }

    // A shown dialog whose Save… writes to `path`, with its first preview drawn.
    std::unique_ptr<ui::ExportDialog> open(ui::ExportSource s, const QString& path = {})
    {
        auto dialog = std::make_unique<ui::ExportDialog>(std::move(s));
        dialog->setFileChooser(
            [path](const QString&, const QString&, const QString&) { return path; });
        dialog->show();
        return dialog;
    }

    void setSize(ui::ExportDialog& dialog, const QString& unit, double width, double height,
                 int dpi, const QString& format)
    {
        choose(dialog, "format", format);
        choose(dialog, "unit", unit);
        child<QSpinBox>(dialog, "dpi")->setValue(dpi);
        child<QDoubleSpinBox>(dialog, "width")->setValue(width);
        child<QDoubleSpinBox>(dialog, "height")->setValue(height);
    }

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // QSettings go to a test folder
        QCoreApplication::setOrganizationName(QStringLiteral("AttentionExplorerTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_export_dialog"));
        QVERIFY(m_dir.isValid());
        core::CpuBackend backend;
        m_result = backend.compute(
            test::handProblem(core::ScoreKind::ScaledDot, core::Normalization::Softmax), {});
        m_other = backend.compute(
            test::handProblem(core::ScoreKind::ScaledDot, core::Normalization::Hard), {});
        core::ComputeOptions pooled;
        pooled.viewRows = pooled.viewCols = 8;
        m_pooled = backend.compute(test::randomProblem(40, 40, 16, 2, 7, false), pooled);
        QVERIFY(m_pooled->pooling.pooled);
    }

    void init() { QSettings().remove(QStringLiteral("export")); }

    void sizing_data()
    {
        QTest::addColumn<double>("width");
        QTest::addColumn<double>("height");
        QTest::addColumn<int>("unit");
        QTest::addColumn<double>("dpi");
        QTest::addColumn<QSize>("pixels");
        QTest::addColumn<QSizeF>("points");
        // 10 / 2.54 * 300 = 1181.1 and 7.5 / 2.54 * 300 = 885.8: rounded to the nearest pixel.
        QTest::newRow("10 x 7.5 cm at 300")
            << 10.0 << 7.5 << int(ui::SizeUnit::Centimeters) << 300.0 << QSize(1181, 886)
            << QSizeF(1181 * 0.24, 886 * 0.24);
        QTest::newRow("4 x 3 in at 300") << 4.0 << 3.0 << int(ui::SizeUnit::Inches) << 300.0
                                         << QSize(1200, 900) << QSizeF(288, 216);
        QTest::newRow("4 x 3 in at 72") << 4.0 << 3.0 << int(ui::SizeUnit::Inches) << 72.0
                                        << QSize(288, 216) << QSizeF(288, 216);
        QTest::newRow("800 x 600 px at 150") << 800.0 << 600.0 << int(ui::SizeUnit::Pixels) << 150.0
                                             << QSize(800, 600) << QSizeF(384, 288);
        QTest::newRow("2.54 cm at 600") << 2.54 << 2.54 << int(ui::SizeUnit::Centimeters) << 600.0
                                        << QSize(600, 600) << QSizeF(72, 72);
    }

    void sizing()
    {
        QFETCH(double, width);
        QFETCH(double, height);
        QFETCH(int, unit);
        QFETCH(double, dpi);
        QFETCH(QSize, pixels);
        QFETCH(QSizeF, points);
        const QSize got = ui::figurePixels(QSizeF(width, height), ui::SizeUnit(unit), dpi);
        QCOMPARE(got, pixels);
        const QSizeF page = ui::figurePoints(got, dpi);
        QVERIFY(std::abs(page.width() - points.width()) < 1e-9 &&
                std::abs(page.height() - points.height()) < 1e-9);
        // Converting keeps the length: back to pixels gives the same count.
        const QSizeF inches = ui::convertFigureSize(QSizeF(width, height), ui::SizeUnit(unit),
                                                    ui::SizeUnit::Inches, dpi);
        QCOMPARE(ui::figurePixels(inches, ui::SizeUnit::Inches, dpi), pixels);
    }

    void pngHasThePixelsAndDpiAsked()
    {
        const QString path = m_dir.filePath(QStringLiteral("head.png"));
        auto dialog = open(source(), path);
        setSize(*dialog, QStringLiteral("cm"), 10.0, 7.5, 300, QStringLiteral("png"));
        QTRY_VERIFY(child<QPushButton>(*dialog, "save")->isEnabled());
        QVERIFY(child<QLabel>(*dialog, "sizeInfo")
                    ->text()
                    .contains(QStringLiteral("1181 \u00d7 886 pixels")));
        QTest::mouseClick(child<QPushButton>(*dialog, "save"), Qt::LeftButton);
        const QImage image(path);
        QCOMPARE(image.size(), QSize(1181, 886));
        QCOMPARE(qRound(image.dotsPerMeterX() * 0.0254), 300);
        QCOMPARE(qRound(image.dotsPerMeterY() * 0.0254), 300);
        QVERIFY(child<QLabel>(*dialog, "status")->text().contains(QStringLiteral("head.png")));
    }

    void pdfPageIsTheRequestedSize()
    {
        const QString path = m_dir.filePath(QStringLiteral("head.pdf"));
        auto dialog = open(source(), path);
        setSize(*dialog, QStringLiteral("in"), 4.0, 3.0, 300, QStringLiteral("pdf"));
        // A vector page in inches is the same at any DPI: the box says so by being disabled.
        QVERIFY(!child<QSpinBox>(*dialog, "dpi")->isEnabled());
        QTRY_VERIFY(child<QPushButton>(*dialog, "save")->isEnabled());
        QTest::mouseClick(child<QPushButton>(*dialog, "save"), Qt::LeftButton);
        const QByteArray pdf = readAll(path);
        QVERIFY(pdf.startsWith("%PDF"));
        // Qt writes "/MediaBox [0 0 288.000000 216.000000]": compare the numbers.
        const qsizetype box = pdf.indexOf("/MediaBox [");
        QVERIFY(box >= 0);
        const qsizetype open = box + qsizetype(sizeof("/MediaBox [")) - 1;
        const QList<QByteArray> numbers =
            pdf.mid(open, pdf.indexOf(']', open) - open).simplified().split(' ');
        QCOMPARE(numbers.size(), 4);
        const double expected[] = {0, 0, 288, 216};
        for (int i = 0; i < 4; ++i)
            QVERIFY2(std::abs(numbers[i].toDouble() - expected[i]) < 1e-3, numbers[i].constData());
    }

    void svgParsesAndKeepsTheLabelsAsText()
    {
        const QString path = m_dir.filePath(QStringLiteral("head.svg"));
        auto dialog = open(source(), path);
        setSize(*dialog, QStringLiteral("cm"), 12.0, 9.0, 150, QStringLiteral("svg"));
        child<QLineEdit>(*dialog, "title")->setText(QStringLiteral("Self-attention"));
        QTRY_VERIFY(child<QPushButton>(*dialog, "save")->isEnabled());
        QTest::mouseClick(child<QPushButton>(*dialog, "save"), Qt::LeftButton);
        const QStringList texts = svgTexts(readAll(path));
        for (const QString& label : QStringList{"This", "is", "a", "cat", "Self-attention"})
            QVERIFY2(texts.contains(label), qPrintable(texts.join(QLatin1Char('|'))));
    }

    void linesViewExportsWithItsLabels()
    {
        const QString path = m_dir.filePath(QStringLiteral("lines.svg"));
        auto dialog = open(source(), path);
        setSize(*dialog, QStringLiteral("cm"), 10.0, 8.0, 150, QStringLiteral("svg"));
        choose(*dialog, "view", QStringLiteral("lines"));
        QVERIFY(!child<QCheckBox>(*dialog, "colorBar")->isEnabled()); // the lines have no scale
        QTRY_VERIFY(child<QPushButton>(*dialog, "save")->isEnabled());
        QVERIFY(dialog->errorText().isEmpty());
        QVERIFY(dialog->saveTo(path));
        const QStringList texts = svgTexts(readAll(path));
        for (const QString& label : QStringList{"This", "is", "a", "cat", "Queries", "Keys"})
            QVERIFY2(texts.contains(label), qPrintable(texts.join(QLatin1Char('|'))));
    }

    void previewFollowsTheSettings()
    {
        auto dialog = open(source());
        QSignalSpy updates(dialog.get(), &ui::ExportDialog::previewUpdated);
        QTRY_VERIFY(!dialog->previewImage().isNull());
        const QImage first = dialog->previewImage();
        // The automatic title is offered greyed in the title box.
        QVERIFY(child<QLineEdit>(*dialog, "title")
                    ->placeholderText()
                    .startsWith(QStringLiteral("Head 1")));

        choose(*dialog, "colormap", QStringLiteral("gray"));
        QTRY_VERIFY(dialog->previewImage() != first);
        const QImage gray = dialog->previewImage();

        // A wide page gives a wide preview.
        choose(*dialog, "unit", QStringLiteral("cm"));
        child<QDoubleSpinBox>(*dialog, "width")->setValue(24.0);
        child<QDoubleSpinBox>(*dialog, "height")->setValue(8.0);
        QTRY_VERIFY(dialog->previewImage() != gray);
        const QSizeF size = dialog->previewImage().deviceIndependentSize();
        QVERIFY(std::abs(size.width() / size.height() - 3.0) < 0.05);
        QVERIFY(updates.count() >= 3);
    }

    // A small figure of a 30-token head (8.5 x 7 cm at 300 DPI): its cells are too small for
    // numbers at 4.5 pt, so the preview has none and the dialog says why; a 4-token head at the
    // same size keeps its numbers and says nothing.
    void numbersLeftOutAreSaid()
    {
        ui::ExportSource s = source();
        s.result = core::CpuBackend().compute(test::randomProblem(30, 30, 16, 1, 7, false), {});
        auto dialog = open(s);
        setSize(*dialog, QStringLiteral("cm"), 8.5, 7.0, 300, QStringLiteral("pdf"));
        QVERIFY(child<QCheckBox>(*dialog, "showValues")->isChecked());
        const QString said = QStringLiteral(
            "Numbers in cells left out: the cells are too small for legible numbers. "
            "Make the figure larger or use fewer decimals.");
        QTRY_COMPARE(child<QLabel>(*dialog, "status")->text(), said);
        child<QCheckBox>(*dialog, "showValues")->setChecked(false); // not asked for: nothing to say
        QTRY_VERIFY(!dialog->previewImage().isNull());
        QTest::qWait(300);
        QCOMPARE(child<QLabel>(*dialog, "status")->text(), QString());
        auto small = open(source());
        setSize(*small, QStringLiteral("cm"), 8.5, 7.0, 300, QStringLiteral("pdf"));
        QSignalSpy updates(small.get(), &ui::ExportDialog::previewUpdated);
        QTRY_VERIFY(updates.count() >= 1);
        QTest::qWait(300);
        QCOMPARE(child<QLabel>(*small, "status")->text(), QString());
    }

    void settingsChangedInABurstRenderOnce()
    {
        auto dialog = open(source());
        QTRY_VERIFY(!dialog->previewImage().isNull());
        QSignalSpy updates(dialog.get(), &ui::ExportDialog::previewUpdated);
        child<QSpinBox>(*dialog, "precision")->setValue(3);
        child<QDoubleSpinBox>(*dialog, "fontPoints")->setValue(12.0);
        choose(*dialog, "colormap", QStringLiteral("magma"));
        QTRY_COMPARE(updates.count(), 1);
        QTest::qWait(300);
        QCOMPARE(updates.count(), 1);
    }

    void buildErrorsShowInline()
    {
        ui::ExportSource s = source();
        s.result = m_pooled;
        auto dialog = open(s);
        QTRY_VERIFY(!dialog->previewImage().isNull()); // a pooled heatmap is fine
        choose(*dialog, "view", QStringLiteral("pipeline"));
        QTRY_VERIFY(!dialog->errorText().isEmpty());
        QVERIFY2(dialog->errorText().contains(QStringLiteral("pooled")),
                 qPrintable(dialog->errorText()));
        QVERIFY(child<QLabel>(*dialog, "error")->isVisible());
        QVERIFY(!child<QPushButton>(*dialog, "save")->isEnabled());
        QVERIFY(!child<QPushButton>(*dialog, "copy")->isEnabled());
        QVERIFY(dialog->previewImage().isNull());
        // The lines view explains itself the same way.
        choose(*dialog, "view", QStringLiteral("lines"));
        QTRY_VERIFY(dialog->errorText().contains(QStringLiteral("pooled")));
        choose(*dialog, "view", QStringLiteral("heads"));
        QTRY_VERIFY(dialog->errorText().isEmpty());
        QVERIFY(!child<QLabel>(*dialog, "error")->isVisible());
        QVERIFY(child<QPushButton>(*dialog, "save")->isEnabled());
    }

    void sizesBeyondTheLimitAreRefusedInline()
    {
        auto dialog = open(source());
        setSize(*dialog, QStringLiteral("cm"), 100.0, 10.0, 600, QStringLiteral("png"));
        QTRY_VERIFY(dialog->errorText().contains(QStringLiteral("23622")));
        QVERIFY(!child<QPushButton>(*dialog, "save")->isEnabled());
    }

    void differenceNeedsAComparison()
    {
        auto dialog = open(source());
        auto* view = child<QComboBox>(*dialog, "view");
        auto* model = qobject_cast<QStandardItemModel*>(view->model());
        const int difference = view->findData(QStringLiteral("difference"));
        QVERIFY(!model->item(difference)->isEnabled());

        ui::ExportSource s = source();
        s.compare = m_other;
        s.spec.view = ui::FigureView::Difference;
        dialog->setSource(s);
        QVERIFY(model->item(difference)->isEnabled());
        QCOMPARE(view->currentData().toString(),
                 QStringLiteral("difference")); // followed the window
        QTRY_VERIFY(!dialog->previewImage().isNull());
        QVERIFY(dialog->errorText().isEmpty());
        QVERIFY(!child<QComboBox>(*dialog, "colormap")->isEnabled()); // signed: diverging map

        // Without the comparison the dialog falls back to a view it can draw.
        dialog->setSource(source());
        QCOMPARE(view->currentData().toString(), QStringLiteral("head"));
    }

    void setSourceKeepsTheUsersChoices()
    {
        auto dialog = open(source());
        choose(*dialog, "view", QStringLiteral("heads"));
        core::CpuBackend backend;
        ui::ExportSource s;
        s.result = backend.compute(test::randomProblem(5, 5, 12, 3, 3, false), {});
        s.spec.head = 2;
        dialog->setSource(s);
        auto* head = child<QComboBox>(*dialog, "head");
        QCOMPARE(head->count(), 4);               // three heads and their mean
        QCOMPARE(head->currentData().toInt(), 2); // the head had not been changed: it follows
        QVERIFY(head->currentText().contains(QStringLiteral("selected")));
        QCOMPARE(child<QComboBox>(*dialog, "view")->currentData().toString(),
                 QStringLiteral("heads"));
        // The pipeline has no mean.
        choose(*dialog, "view", QStringLiteral("pipeline"));
        auto* model = qobject_cast<QStandardItemModel*>(head->model());
        QVERIFY(!model->item(head->findData(-1))->isEnabled());
        QTRY_VERIFY(!dialog->previewImage().isNull());
        QVERIFY(dialog->errorText().isEmpty());
    }

    void unitsConvertAndKeepTheFigure()
    {
        auto dialog = open(source());
        setSize(*dialog, QStringLiteral("cm"), 10.0, 7.5, 300, QStringLiteral("png"));
        choose(*dialog, "unit", QStringLiteral("in"));
        QCOMPARE(child<QDoubleSpinBox>(*dialog, "width")->value(), 3.94);
        choose(*dialog, "unit", QStringLiteral("px"));
        QCOMPARE(child<QDoubleSpinBox>(*dialog, "width")->value(), 1181.0);
        QCOMPARE(dialog->settings().pixels(), QSize(1181, 886));
        // In pixels the DPI changes the physical size, not the pixels.
        child<QSpinBox>(*dialog, "dpi")->setValue(150);
        QCOMPARE(dialog->settings().pixels(), QSize(1181, 886));
    }

    void savingWhereItCannotKeepsTheOldFile()
    {
        // A name at the file system's 255-byte limit: the file exists, but the temporary
        // file beside it cannot (its name is longer), even for root.
        const QString path =
            m_dir.filePath(QString(251, QLatin1Char('f')) + QStringLiteral(".png"));
        {
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("old figure");
        }
        auto dialog = open(source(), path);
        QTRY_VERIFY(child<QPushButton>(*dialog, "save")->isEnabled());
        QTest::mouseClick(child<QPushButton>(*dialog, "save"), Qt::LeftButton);
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = child<QMessageBox>(*dialog, "failure")));
        QVERIFY(box->text().contains(QStringLiteral("not saved")));
        QVERIFY2(box->informativeText().contains(QStringLiteral("unchanged")),
                 qPrintable(box->informativeText()));
        QCOMPARE(readAll(path), QByteArray("old figure"));
        box->close();

        // A folder that does not exist.
        QVERIFY(!dialog->saveTo(m_dir.filePath(QStringLiteral("no/such/folder/figure.png"))));
        QTRY_VERIFY(child<QMessageBox>(*dialog, "failure"));
    }

    void clipboardGetsPngAndSvg()
    {
        auto dialog = open(source());
        setSize(*dialog, QStringLiteral("px"), 640, 480, 96, QStringLiteral("pdf"));
        QTRY_VERIFY(child<QPushButton>(*dialog, "copy")->isEnabled());
        QGuiApplication::clipboard()->clear();
        QTest::mouseClick(child<QPushButton>(*dialog, "copy"), Qt::LeftButton);
        const QMimeData* mime = QGuiApplication::clipboard()->mimeData();
        QVERIFY(mime);
        QVERIFY(mime->hasFormat(QStringLiteral("image/png")));
        QCOMPARE(QImage::fromData(mime->data(QStringLiteral("image/png")), "PNG").size(),
                 QSize(640, 480));
        QVERIFY(
            svgTexts(mime->data(QStringLiteral("image/svg+xml"))).contains(QStringLiteral("cat")));
    }

    void settingsAreRemembered()
    {
        {
            auto dialog = open(source());
            setSize(*dialog, QStringLiteral("in"), 5.0, 4.0, 200, QStringLiteral("pdf"));
            choose(*dialog, "colormap", QStringLiteral("cividis"));
            child<QCheckBox>(*dialog, "colorBar")->setChecked(false);
            child<QSpinBox>(*dialog, "precision")->setValue(3);
            child<QDoubleSpinBox>(*dialog, "fontPoints")->setValue(8.5);
        }
        auto dialog = open(source());
        const ui::ExportSettings s = dialog->settings();
        QCOMPARE(s.format, ui::FigureFormat::Pdf);
        QCOMPARE(s.unit, ui::SizeUnit::Inches);
        QCOMPARE(s.size, QSizeF(5.0, 4.0));
        QCOMPARE(s.dpi, 200);
        QCOMPARE(s.colormap, ui::Colormap::Cividis);
        QVERIFY(!s.colorBar);
        QCOMPARE(s.precision, 3);
        QCOMPARE(s.fontPoints, 8.5);
        QCOMPARE(QSettings().value(QStringLiteral("export/format")).toString(),
                 QStringLiteral("pdf"));
    }

    void matrixExportWritesTheChosenStage()
    {
        const QString path = m_dir.filePath(QStringLiteral("weights"));
        auto dialog = open(source(), path);
        QTest::mouseClick(child<QPushButton>(*dialog, "exportMatrix"), Qt::LeftButton);
        QDialog* matrix = nullptr;
        QTRY_VERIFY((matrix = child<QDialog>(*dialog, "matrixExport")));
        choose(*matrix, "stage", QStringLiteral("weights"));
        choose(*matrix, "matrixFormat", QStringLiteral("csv"));
        QTest::mouseClick(child<QPushButton>(*matrix, "matrixSave"), Qt::LeftButton);
        const QByteArray csv = readAll(path + QStringLiteral(".csv")); // the suffix was added
        QCOMPARE(core::parseCsv(csv, QStringLiteral("weights.csv")), m_result->heads[0].weights);

        // The pgfplots flavour of .tex.
        QTest::mouseClick(child<QPushButton>(*dialog, "exportMatrix"), Qt::LeftButton);
        QTRY_VERIFY((matrix = child<QDialog>(*dialog, "matrixExport")) && matrix->isVisible());
        choose(*matrix, "matrixFormat", QStringLiteral("pgfplots"));
        QVERIFY(child<QSpinBox>(*matrix, "matrixPrecision")->isEnabled());
        QTest::mouseClick(child<QPushButton>(*matrix, "matrixSave"), Qt::LeftButton);
        QVERIFY(readAll(path + QStringLiteral(".tex")).contains("\\begin{tikzpicture}"));
    }
};

QTEST_MAIN(TestExportDialog)
#include "tst_export_dialog.moc"
