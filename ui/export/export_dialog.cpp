#include "ui/export/export_dialog.h"

#include "ui/export/export_dialog_p.h"

#include "ui/document/preferences.h"

#include "ui/figures/colormap.h"
#include "ui/figures/figure_builder.h"
#include "ui/figures/legible_text.h"
#include "ui/figures/lines_figure.h"
#include "ui/views/lines_view.h"

#include "core/atomic_file.h"
#include "core/enum_names.h"
#include "core/error.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QGuiApplication>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <optional>

namespace attn::ui {

namespace export_detail {

// "the pipeline view needs ..." as a sentence on its own.
QString sentence(QString text)
{
    text = text.trimmed();
    if (!text.isEmpty())
        text[0] = text[0].toUpper();
    if (!text.isEmpty() && !text.endsWith(QLatin1Char('.')))
        text += QLatin1Char('.');
    return text;
}

constexpr core::EnumNames<FigureFormat, 3> kFormatKeys{
    {{FigureFormat::Png, "png"}, {FigureFormat::Svg, "svg"}, {FigureFormat::Pdf, "pdf"}}};
constexpr core::EnumNames<SizeUnit, 3> kUnitKeys{
    {{SizeUnit::Centimeters, "cm"}, {SizeUnit::Inches, "in"}, {SizeUnit::Pixels, "px"}}};

QString formatKey(FigureFormat format)
{
    return core::enumQName(kFormatKeys, format);
}

QString unitKey(SizeUnit unit)
{
    return core::enumQName(kUnitKeys, unit);
}

void selectData(QComboBox* box, const QVariant& data)
{
    const int index = box->findData(data);
    if (index >= 0)
        box->setCurrentIndex(index);
}

} // namespace export_detail

using export_detail::formatKey;
using export_detail::selectData;
using export_detail::sentence;
using export_detail::sizeProblem;
using export_detail::unitKey;
using export_detail::withFigure;

namespace {

// The most pixels a preview draws before scaling down: some 60 ms of QCustomPlot work.
constexpr double kPreviewPixels = 4.0e6;

// The title the figure shows (its own when the user left the title empty).
QString figureTitle(QCustomPlot& plot)
{
    auto* title = qobject_cast<QCPTextElement*>(plot.plotLayout()->element(0, 0));
    return title ? title->text() : QString();
}

QString formatFilter(FigureFormat format)
{
    switch (format) {
    case FigureFormat::Png:
        return QObject::tr("PNG image (*.png)");
    case FigureFormat::Svg:
        return QObject::tr("SVG vector image (*.svg)");
    case FigureFormat::Pdf:
        return QObject::tr("PDF document (*.pdf)");
    }
    return {};
}

// The view's name without its head ("head", "lines", ...): the dialog's remembered choice.
QString viewKey(FigureView view)
{
    return figureViewName(view, 0).section(QLatin1Char(':'), 0, 0);
}

// A number without trailing zeros: "10", "7.5", "2.54".
QString shortNumber(double value, int decimals)
{
    QString text = QLocale().toString(value, 'f', decimals);
    const QChar point = QLocale().decimalPoint().front();
    if (text.contains(point)) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(point))
            text.chop(1);
    }
    return text;
}

// A file name from a scene name, without characters file systems refuse.
QString fileStem(QString name)
{
    static const QString forbidden = QStringLiteral("/\\:*?\"<>|");
    for (QChar& c : name)
        if (forbidden.contains(c) || c.unicode() < 32)
            c = QLatin1Char('_');
    name = name.trimmed();
    return name.isEmpty() ? QStringLiteral("attention") : name;
}

void applyUnit(QDoubleSpinBox* box, SizeUnit unit)
{
    switch (unit) {
    case SizeUnit::Centimeters:
        box->setDecimals(2);
        box->setRange(0.5, 300.0);
        box->setSingleStep(0.5);
        break;
    case SizeUnit::Inches:
        box->setDecimals(2);
        box->setRange(0.2, 120.0);
        box->setSingleStep(0.25);
        break;
    case SizeUnit::Pixels:
        box->setDecimals(0);
        box->setRange(16.0, 20000.0);
        box->setSingleStep(10.0);
        break;
    }
}

std::optional<SizeUnit> parseUnit(const QString& key)
{
    return core::enumFromName(export_detail::kUnitKeys, key);
}

} // namespace

// --- The dialog -------------------------------------------------------------------------

ExportDialog::ExportDialog(ExportSource source, QWidget* parent)
    : QDialog(parent), m_source(std::move(source))
{
    setWindowTitle(tr("Export Figure"));
    setObjectName(QStringLiteral("exportDialog"));
    m_chooser = [this](const QString& caption, const QString& suggested, const QString& filter) {
        return QFileDialog::getSaveFileName(this, caption, suggested, filter);
    };
    // Settings change in bursts (typing a size, dragging a spin box): render once they settle.
    m_previewTimer.setSingleShot(true);
    m_previewTimer.setInterval(120);
    connect(&m_previewTimer, &QTimer::timeout, this, &ExportDialog::renderPreview);

    buildUi();
    m_loading = true;
    populateViews();
    populateHeads(true);
    loadSettings();
    m_loading = false;
    updateControls();
    updateSizeInfo();
    m_previewTimer.start();
}

ExportDialog::~ExportDialog() = default;

void ExportDialog::populateViews()
{
    const QVariant previous = m_view->currentData();
    const bool followWindow = !previous.isValid();
    const QSignalBlocker block(m_view);
    m_view->clear();
    const std::pair<FigureView, QString> views[] = {
        {FigureView::Head, tr("One head, heatmap")},
        {FigureView::Heads, tr("All heads, grid")},
        {FigureView::Pipeline, tr("Pipeline of one head")},
        {FigureView::Lines, tr("Lines, queries to keys")},
        {FigureView::Difference, tr("Difference from comparison")},
    };
    for (const auto& [view, label] : views)
        m_view->addItem(label, viewKey(view));
    if (!m_source.compare) {
        auto* model = qobject_cast<QStandardItemModel*>(m_view->model());
        QStandardItem* item = model->item(m_view->findData(viewKey(FigureView::Difference)));
        item->setEnabled(false);
        item->setToolTip(tr(
            "Needs a second result to compare with: set one up in the window's difference view"));
    }
    selectData(m_view, viewKey(windowView(m_source)));
    if (!followWindow) {
        const int index = m_view->findData(previous);
        if (index >= 0 && (m_source.compare || previous != viewKey(FigureView::Difference)))
            m_view->setCurrentIndex(index);
    }
}

void ExportDialog::populateHeads(bool followWindow)
{
    const QVariant previous = m_head->currentData();
    const QSignalBlocker block(m_head);
    m_head->clear();
    const int count = m_source.result ? int(m_source.result->heads.size()) : 0;
    const int selected = m_source.spec.head;
    auto mark = [&](QString label, int head) {
        return head == selected ? tr("%1 (selected)").arg(label) : label;
    };
    for (int h = 0; h < count; ++h) {
        QString label = tr("Head %1").arg(h + 1);
        if (!m_source.result->heads[std::size_t(h)].enabled)
            label += tr(" (off)");
        m_head->addItem(mark(label, h), h);
    }
    if (count > 1)
        m_head->addItem(mark(tr("Mean of heads"), -1), -1);
    if (!followWindow && previous.isValid() && m_head->findData(previous) >= 0)
        selectData(m_head, previous);
    else
        selectData(m_head, std::clamp(selected, -1, count - 1));
}

void ExportDialog::setSource(ExportSource source)
{
    // A view or head still on what the window showed follows the window; a choice the user
    // made in the dialog stays.
    const bool followView = m_view->currentData() == viewKey(windowView(m_source));
    const bool followHead = m_head->currentData().toInt() == m_source.spec.head;
    const bool followScale =
        m_dataScale->isChecked() == (m_source.spec.weightScale == WeightScale::Data);
    m_source = std::move(source);
    m_loading = true;
    if (followScale)
        m_dataScale->setChecked(m_source.spec.weightScale == WeightScale::Data);
    if (followView)
        m_view->setCurrentIndex(-1);
    populateViews();
    populateHeads(followHead);
    m_loading = false;
    updateControls();
    updateSizeInfo();
    m_previewTimer.start();
}

ExportSettings ExportDialog::settings() const
{
    ExportSettings s;
    for (FigureView view : {FigureView::Head, FigureView::Heads, FigureView::Pipeline,
                            FigureView::Lines, FigureView::Difference})
        if (m_view->currentData() == viewKey(view))
            s.view = view;
    s.head = m_head->currentIndex() >= 0 ? m_head->currentData().toInt() : 0;
    s.format = figureFormatForPath(QLatin1Char('.') + m_format->currentData().toString())
                   .value_or(FigureFormat::Png);
    s.unit = m_unit;
    s.size = m_size;
    s.dpi = m_dpi->value();
    s.title = m_title->text().trimmed();
    s.colormap = parseColormap(m_colormap->currentData().toString()).value_or(Colormap::Viridis);
    s.colorBar = m_colorBar->isChecked();
    s.weightScale = m_dataScale->isChecked() ? WeightScale::Data : WeightScale::Fixed;
    s.showValues = m_values->isChecked();
    s.precision = m_precision->value();
    s.fontPoints = m_font->value();
    return s;
}

void ExportDialog::loadSettings()
{
    const preferences::ExportChoices stored = preferences::exportChoices();
    const FigureSpec& spec = m_source.spec;
    // Until something is stored, the window's own choices.
    selectData(m_format, stored.format.value_or(formatKey(FigureFormat::Png)));
    m_unit = parseUnit(stored.unit.value_or(QString())).value_or(SizeUnit::Centimeters);
    selectData(m_unitBox, unitKey(m_unit));
    m_dpi->setValue(stored.dpi.value_or(300));
    for (QDoubleSpinBox* box : {m_width, m_height})
        applyUnit(box, m_unit);
    const QSizeF fallback =
        convertFigureSize(QSizeF(16.0, 12.0), SizeUnit::Centimeters, m_unit, m_dpi->value());
    m_width->setValue(stored.width.value_or(fallback.width()));
    m_height->setValue(stored.height.value_or(fallback.height()));
    m_size = QSizeF(m_width->value(), m_height->value());
    const QString map = stored.colormap.value_or(colormapName(spec.colormap));
    selectData(m_colormap, m_colormap->findData(map) >= 0 ? map : colormapName(Colormap::Viridis));
    m_font->setValue(stored.fontPoints.value_or(spec.fontPoints));
    m_colorBar->setChecked(stored.colorBar.value_or(spec.colorBar));
    // Not remembered: the window's scale, so an export compares with what the window shows.
    m_dataScale->setChecked(spec.weightScale == WeightScale::Data);
    m_values->setChecked(stored.showValues.value_or(spec.showValues));
    m_precision->setValue(stored.precision.value_or(spec.precision));
}

void ExportDialog::storeSettings() const
{
    preferences::ExportChoices choices;
    choices.format = m_format->currentData().toString();
    choices.unit = unitKey(m_unit);
    choices.width = m_size.width();
    choices.height = m_size.height();
    choices.dpi = m_dpi->value();
    choices.colormap = m_colormap->currentData().toString();
    choices.fontPoints = m_font->value();
    choices.colorBar = m_colorBar->isChecked();
    choices.showValues = m_values->isChecked();
    choices.precision = m_precision->value();
    preferences::storeExportChoices(choices);
}

void ExportDialog::settingsChanged()
{
    if (m_loading)
        return;
    updateControls();
    updateSizeInfo();
    storeSettings();
    m_status->clear();
    m_previewTimer.start();
}

void ExportDialog::sizeEdited()
{
    if (m_loading)
        return;
    m_size = QSizeF(m_width->value(), m_height->value());
    settingsChanged();
}

void ExportDialog::unitChanged()
{
    const SizeUnit unit =
        parseUnit(m_unitBox->currentData().toString()).value_or(SizeUnit::Centimeters);
    if (unit == m_unit)
        return;
    // The same figure in the new unit: only the numbers change. The unrounded size is kept
    // while the boxes show it rounded, so 10 cm -> in -> px is 1181 px at 300 DPI, not 1182.
    const QSizeF size = convertFigureSize(m_size, m_unit, unit, m_dpi->value());
    const bool loading = m_loading;
    m_loading = true;
    for (QDoubleSpinBox* box : {m_width, m_height})
        applyUnit(box, unit);
    m_width->setValue(size.width());
    m_height->setValue(size.height());
    auto kept = [](const QDoubleSpinBox* box, double exact) { // unless the box had to clamp it
        return std::abs(box->value() - exact) <= 0.5 * std::pow(10.0, -box->decimals())
                   ? exact
                   : box->value();
    };
    m_size = QSizeF(kept(m_width, size.width()), kept(m_height, size.height()));
    m_unit = unit;
    m_loading = loading;
    settingsChanged();
}

void ExportDialog::updateControls()
{
    const ExportSettings s = settings();
    const bool heatmap = s.view != FigureView::Lines;
    m_head->setEnabled(s.view != FigureView::Heads && m_head->count() > 0);
    // The pipeline is one head's computation; there is no mean of it.
    if (const int mean = m_head->findData(-1); mean >= 0) {
        auto* model = qobject_cast<QStandardItemModel*>(m_head->model());
        model->item(mean)->setEnabled(s.view != FigureView::Pipeline);
        if (s.view == FigureView::Pipeline && s.head < 0) {
            const QSignalBlocker block(m_head);
            selectData(m_head, std::max(0, m_source.spec.head));
        }
    }
    m_colormap->setEnabled(s.view != FigureView::Difference);
    m_colormap->setToolTip(s.view == FigureView::Difference
                               ? tr("A difference is signed: it takes the diverging map")
                               : QString());
    m_colorBar->setEnabled(heatmap);
    m_dataScale->setEnabled(heatmap);
    m_values->setEnabled(heatmap);
    m_precision->setEnabled(heatmap && s.showValues);
    // A vector page measured in cm or in does not depend on the DPI: the layout is in points.
    const bool dpiMatters = s.format == FigureFormat::Png || s.unit == SizeUnit::Pixels;
    m_dpi->setEnabled(dpiMatters);
    m_dpi->setToolTip(s.format == FigureFormat::Png
                          ? tr("Pixels per inch: with the size, sets the image's pixels")
                      : dpiMatters
                          ? tr("Pixels per inch: sets the page size of a figure measured in pixels")
                          : tr("A vector figure measured in cm or inches is the same at any DPI"));
    m_matrix->setEnabled(bool(m_source.result));
}

void ExportDialog::updateSizeInfo()
{
    const ExportSettings s = settings();
    const QSize pixels = s.pixels();
    const SizeUnit physical = s.unit == SizeUnit::Inches ? SizeUnit::Inches : SizeUnit::Centimeters;
    const QSizeF length = convertFigureSize(QSizeF(pixels), SizeUnit::Pixels, physical, s.dpi);
    const QString unit = physical == SizeUnit::Inches ? tr("in") : tr("cm");
    const QString measured =
        tr("%1 \u00d7 %2 %3")
            .arg(shortNumber(length.width(), 2), shortNumber(length.height(), 2), unit);
    if (s.format == FigureFormat::Png) {
        m_sizeInfo->setText(
            tr("%1 \u00d7 %2 pixels, %3").arg(pixels.width()).arg(pixels.height()).arg(measured));
    } else {
        const QSizeF points = figurePoints(pixels, s.dpi);
        m_sizeInfo->setText(
            tr("Page %1 \u00d7 %2 pt, %3")
                .arg(shortNumber(points.width(), 1), shortNumber(points.height(), 1), measured));
    }
}

void ExportDialog::renderPreview()
{
    m_previewTimer.stop();
    const ExportSettings s = settings();
    const QSize pixels = s.pixels();
    if (!m_source.result)
        return showError(
            tr("There is nothing to export yet: the figure appears once a result is computed."));
    if (const auto problem = sizeProblem(pixels, s.dpi))
        return showError(*problem);

    // Where the page goes on screen: fitted to the room, and a PNG never shown finer than it is.
    const qreal ratio = m_preview->devicePixelRatioF();
    const QSizeF room = m_preview->room();
    double scale = std::min(room.width() / pixels.width(), room.height() / pixels.height());
    if (s.format == FigureFormat::Png)
        scale = std::min(scale, 1.0 / ratio);
    const QSize target(std::max(1, int(std::lround(pixels.width() * scale * ratio))),
                       std::max(1, int(std::lround(pixels.height() * scale * ratio))));
    // What is drawn: the file's own pixels, scaled down, so that the preview is what will be
    // written (fonts are whole pixels, and which labels fit depends on them). Past the budget,
    // fewer pixels at a lower DPI, still large enough for that rounding not to show. A small
    // vector page is drawn at the enlarged size, sharp.
    QSize drawn = pixels;
    if (target.width() > pixels.width()) {
        drawn = target;
    } else if (const double area = double(pixels.width()) * pixels.height();
               area > kPreviewPixels) {
        const double shrink =
            std::max(std::sqrt(kPreviewPixels / area), double(target.width()) / pixels.width());
        drawn = QSize(std::max(1, int(std::lround(pixels.width() * shrink))),
                      std::max(1, int(std::lround(pixels.height() * shrink))));
    }
    const double dpi = s.dpi * double(drawn.width()) / pixels.width();
    try {
        QString title;
        bool valuesLeftOut = false;
        QImage image = withFigure(
            m_source, s, drawn, dpi,
            [&](QCustomPlot& plot) {
                title = figureTitle(plot);
                QImage out(drawn, QImage::Format_ARGB32_Premultiplied);
                out.fill(Qt::white);
                const int dotsPerMeter =
                    int(std::lround(dpi / 0.0254)); // what LinesView measures its pens in
                out.setDotsPerMeterX(dotsPerMeter);
                out.setDotsPerMeterY(dotsPerMeter);
                QCPPainter painter(&out);
                plot.toPainter(&painter, drawn.width(), drawn.height());
                return out;
            },
            &valuesLeftOut);
        if (image.size() != target)
            image = image.scaled(target, Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        image.setDevicePixelRatio(ratio);
        m_errorText.clear();
        m_error->parentWidget()->hide();
        m_preview->setImage(image);
        if (s.title.isEmpty())
            m_title->setPlaceholderText(title);
        if (valuesLeftOut)
            m_status->setText(
                valuesLeftOutMessage()); // the file would lack what the checkbox asks for
        m_save->setEnabled(true);
        m_copy->setEnabled(true);
        emit previewUpdated();
    } catch (const std::exception& e) {
        showError(sentence(QString::fromStdString(e.what())));
    }
}

void ExportDialog::showError(const QString& message)
{
    m_errorText = message;
    m_error->setText(message);
    m_error->parentWidget()->show();
    m_title->setPlaceholderText(tr("Automatic"));
    m_preview->setImage({});
    m_save->setEnabled(false);
    m_copy->setEnabled(false);
    emit previewUpdated();
}

void ExportDialog::showFailure(const QString& what, const QString& reason)
{
    // Window-modal and asynchronous: the dialog stays usable behind it, and tests can read it.
    auto* box = new QMessageBox(QMessageBox::Warning, tr("Export"), what, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("failure"));
    box->setInformativeText(reason);
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

QImage ExportDialog::previewImage() const
{
    return m_preview->image();
}

QString ExportDialog::errorText() const
{
    return m_errorText;
}

void ExportDialog::setFileChooser(FileChooser chooser)
{
    m_chooser = std::move(chooser);
}

QString ExportDialog::suggestedPath(const QString& suffix) const
{
    QString directory = preferences::exportDirectory();
    if (directory.isEmpty() || !QFileInfo(directory).isDir())
        directory = QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation);
    if (directory.isEmpty())
        directory = QDir::homePath();
    return QDir(directory).filePath(fileStem(m_source.suggestedName) + suffix);
}

void ExportDialog::rememberDirectory(const QString& path) const
{
    preferences::rememberExportFile(path);
}

void ExportDialog::save()
{
    const ExportSettings s = settings();
    const QString view = figureViewName(s.view, s.head);
    const QString suffix = QLatin1Char('-') +
                           QString(view).replace(QLatin1Char(':'), QLatin1Char('-')) +
                           QLatin1Char('.') + formatKey(s.format);
    const QString path =
        m_chooser(tr("Save Figure"), suggestedPath(suffix), formatFilter(s.format));
    if (!path.isEmpty())
        saveTo(path);
}

bool ExportDialog::saveTo(const QString& requested)
{
    QString path = requested;
    const auto named = figureFormatForPath(path);
    if (!named)
        path += QLatin1Char('.') + formatKey(settings().format);
    else if (*named != settings().format)
        selectData(m_format, formatKey(*named)); // the name wins, and the dialog shows it
    const ExportSettings s = settings();
    try {
        core::writeFileAtomically(path, exportFigureBytes(m_source, s, s.format));
    } catch (const std::exception& e) {
        showFailure(
            tr("The figure was not saved to \u201c%1\u201d.").arg(QFileInfo(path).fileName()),
            sentence(QString::fromStdString(e.what())) + QLatin1Char('\n') +
                tr("Any file already there is unchanged."));
        return false;
    }
    rememberDirectory(path);
    m_status->setText(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    emit saved(path);
    return true;
}

void ExportDialog::copyToClipboard()
{
    try {
        copyFigureToClipboard(m_source, settings());
    } catch (const std::exception& e) {
        showFailure(tr("The figure was not copied."), sentence(QString::fromStdString(e.what())));
        return;
    }
    m_status->setText(tr("Copied to the clipboard as PNG and SVG"));
}

} // namespace attn::ui
