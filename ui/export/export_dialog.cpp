#include "ui/export/export_dialog.h"

#include "ui/document/preferences.h"

#include "ui/figures/colormap.h"
#include "ui/figures/figure_builder.h"
#include "ui/figures/legible_text.h"
#include "ui/figures/lines_figure.h"
#include "ui/views/lines_view.h"

#include "core/atomic_file.h"
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

// --- Sizing -----------------------------------------------------------------------------

double unitInches(SizeUnit unit, double dpi)
{
    switch (unit) {
    case SizeUnit::Centimeters:
        return 1.0 / 2.54;
    case SizeUnit::Inches:
        return 1.0;
    case SizeUnit::Pixels:
        return 1.0 / dpi;
    }
    return 1.0;
}

QSize figurePixels(QSizeF size, SizeUnit unit, double dpi)
{
    // Pixels are counted directly, not through 1/dpi * dpi, which may land a hair below n.
    const double perUnit = unit == SizeUnit::Pixels ? 1.0 : unitInches(unit, dpi) * dpi;
    auto pixels = [&](double length) {
        return int(std::lround(std::clamp(length * perUnit, 1.0, 1e9)));
    };
    return {pixels(size.width()), pixels(size.height())};
}

QSizeF figurePoints(QSize pixels, double dpi)
{
    return {pixels.width() * 72.0 / dpi, pixels.height() * 72.0 / dpi};
}

QSizeF convertFigureSize(QSizeF size, SizeUnit from, SizeUnit to, double dpi)
{
    return size * (unitInches(from, dpi) / unitInches(to, dpi));
}

FigureSpec ExportSettings::figureSpec() const
{
    FigureSpec spec;
    spec.view = view;
    spec.head = head;
    spec.colormap = colormap;
    spec.weightScale = weightScale;
    spec.title = title;
    spec.colorBar = colorBar;
    spec.showValues = showValues;
    spec.precision = precision;
    spec.fontPoints = fontPoints;
    spec.dpi = dpi;
    spec.transposed = transposed;
    spec.compareLabel = compareLabel;
    return spec;
}

// --- Rendering --------------------------------------------------------------------------

namespace {

// The most pixels a preview draws before scaling down: some 60 ms of QCustomPlot work.
constexpr double kPreviewPixels = 4.0e6;

std::optional<QString> sizeProblem(QSize pixels, int dpi)
{
    if (std::min(pixels.width(), pixels.height()) >= kMinFigurePixels &&
        std::max(pixels.width(), pixels.height()) <= kMaxFigurePixels)
        return std::nullopt;
    return QObject::tr(
               "At %1 DPI this figure is %2 \u00d7 %3 pixels. A side must be %4 to %5 pixels: "
               "change the size or the DPI.")
        .arg(dpi)
        .arg(pixels.width())
        .arg(pixels.height())
        .arg(kMinFigurePixels)
        .arg(kMaxFigurePixels);
}

// Builds the figure of `settings` for a target of `size` pixels at `dpi` and hands the plot
// to `use` while the builder (which owns derived matrices) is alive.
// `valuesLeftOut`, when given, is set as FigureBuilder::valuesLeftOut.
template <class Use>
auto withFigure(const ExportSource& source, const ExportSettings& settings, QSize size, double dpi,
                Use use, bool* valuesLeftOut = nullptr)
{
    if (!source.result)
        throw core::Error("there is no result to export yet");
    QCustomPlot plot;
    plot.setAttribute(Qt::WA_DontShowOnScreen);
    plot.resize(size);
    FigureSpec spec = settings.figureSpec();
    spec.dpi = dpi;
    if (source.drawConcept) {
        plot.setViewport(QRect(QPoint(0, 0), size));
        source.drawConcept(plot, spec);
        plot.replot(QCustomPlot::rpImmediateRefresh);
        return use(plot);
    }
    if (spec.view == FigureView::Lines) {
        buildLinesFigure(plot, *source.result, spec);
        return use(plot);
    }
    FigureBuilder builder(plot, spec);
    builder.build(*source.result, size,
                  spec.view == FigureView::Difference ? source.compare.get() : nullptr);
    if (valuesLeftOut)
        *valuesLeftOut = builder.valuesLeftOut();
    return use(plot);
}

// The title the figure shows (its own when the user left the title empty).
QString figureTitle(QCustomPlot& plot)
{
    auto* title = qobject_cast<QCPTextElement*>(plot.plotLayout()->element(0, 0));
    return title ? title->text() : QString();
}

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

QString formatKey(FigureFormat format)
{
    switch (format) {
    case FigureFormat::Png:
        return QStringLiteral("png");
    case FigureFormat::Svg:
        return QStringLiteral("svg");
    case FigureFormat::Pdf:
        return QStringLiteral("pdf");
    }
    return {};
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

QString unitKey(SizeUnit unit)
{
    switch (unit) {
    case SizeUnit::Centimeters:
        return QStringLiteral("cm");
    case SizeUnit::Inches:
        return QStringLiteral("in");
    case SizeUnit::Pixels:
        return QStringLiteral("px");
    }
    return {};
}

// The view's name without its head ("head", "lines", ...): the dialog's remembered choice.
QString viewKey(FigureView view)
{
    return figureViewName(view, 0).section(QLatin1Char(':'), 0, 0);
}

struct MatrixChoice
{
    MatrixFormat format;
    const char* key;
    const char* label;
    const char* suffix;
};
constexpr MatrixChoice kMatrixFormats[] = {
    {MatrixFormat::Csv, "csv", QT_TRANSLATE_NOOP("attn::ui::ExportDialog", "CSV"), ".csv"},
    {MatrixFormat::Npy, "npy", QT_TRANSLATE_NOOP("attn::ui::ExportDialog", "NumPy array"), ".npy"},
    {MatrixFormat::Json, "json",
     QT_TRANSLATE_NOOP("attn::ui::ExportDialog", "JSON with token labels"), ".json"},
    {MatrixFormat::LatexTable, "table",
     QT_TRANSLATE_NOOP("attn::ui::ExportDialog", "LaTeX tabular"), ".tex"},
    {MatrixFormat::LatexPgfplots, "pgfplots",
     QT_TRANSLATE_NOOP("attn::ui::ExportDialog", "LaTeX pgfplots matrix plot"), ".tex"},
};

bool isLatex(MatrixFormat format)
{
    return format == MatrixFormat::LatexTable || format == MatrixFormat::LatexPgfplots;
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

QIcon gradientIcon(Colormap map)
{
    QPixmap pixmap(48, 14);
    QPainter painter(&pixmap);
    for (int x = 0; x < pixmap.width(); ++x) {
        painter.setPen(colorAt(map, double(x) / (pixmap.width() - 1)));
        painter.drawLine(x, 0, x, pixmap.height() - 1);
    }
    painter.setPen(QColor(0, 0, 0, 60));
    painter.drawRect(pixmap.rect().adjusted(0, 0, -1, -1));
    return QIcon(pixmap);
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

} // namespace

QByteArray exportFigureBytes(const ExportSource& source, const ExportSettings& settings,
                             FigureFormat format)
{
    const QSize pixels = settings.pixels();
    if (const auto problem = sizeProblem(pixels, settings.dpi))
        throw core::Error(problem->toStdString());
    return withFigure(source, settings, pixels, settings.dpi, [&](QCustomPlot& plot) {
        return renderFigure(plot, pixels, settings.dpi, format);
    });
}

ExportSettings windowExportSettings(const ExportSource& source)
{
    ExportSettings settings;
    settings.view = windowView(source);
    settings.head = source.spec.head;
    settings.colormap = source.spec.colormap;
    settings.weightScale = source.spec.weightScale;
    settings.transposed = source.spec.transposed;
    settings.compareLabel = source.spec.compareLabel;
    settings.showValues = source.spec.showValues;
    settings.precision = source.spec.precision;
    return settings;
}

void copyFigureToClipboard(const ExportSource& source, const ExportSettings& settings)
{
    auto mime = std::make_unique<QMimeData>();
    const QByteArray png = exportFigureBytes(source, settings, FigureFormat::Png);
    mime->setData(QStringLiteral("image/png"), png);
    mime->setData(QStringLiteral("image/svg+xml"),
                  exportFigureBytes(source, settings, FigureFormat::Svg));
    mime->setImageData(QImage::fromData(png, "PNG"));
    QGuiApplication::clipboard()->setMimeData(mime.release());
}

// --- The preview ------------------------------------------------------------------------

// The page on a backdrop, centred, with a soft shadow; the error box sits in its place.
class ExportDialog::Preview : public QWidget
{
public:
    static constexpr int kMargin = 18;

    explicit Preview(QWidget* parent) : QWidget(parent)
    {
        setMinimumSize(420, 320);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }

    // Where the page may go, in device-independent pixels.
    QSizeF room() const
    {
        const QSize size = this->size().expandedTo(minimumSize());
        return QSizeF(size.width() - 2.0 * kMargin, size.height() - 2.0 * kMargin);
    }

    void setImage(const QImage& image)
    {
        m_image = image;
        update();
    }
    const QImage& image() const { return m_image; }

    std::function<void()> resized;

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        const QColor window = palette().color(QPalette::Window);
        painter.fillRect(rect(),
                         window.lightness() > 128 ? window.darker(112) : window.darker(140));
        if (m_image.isNull())
            return;
        const QSizeF size = m_image.deviceIndependentSize();
        const QRectF page(QPointF((width() - size.width()) / 2.0, (height() - size.height()) / 2.0),
                          size);
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        for (int i = 4; i >= 1; --i) { // a soft shadow, deeper below than above
            painter.setBrush(QColor(0, 0, 0, 10 + 4 * (4 - i)));
            painter.drawRoundedRect(page.adjusted(-i, -i + 2, i, i + 2), i, i);
        }
        painter.setRenderHint(QPainter::Antialiasing, false);
        painter.drawImage(page, m_image);
        painter.setPen(QColor(0, 0, 0, 50));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(page.adjusted(-0.5, -0.5, 0.5, 0.5));
    }

    void resizeEvent(QResizeEvent*) override
    {
        if (resized)
            resized();
    }

private:
    QImage m_image;
};

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

void ExportDialog::buildUi()
{
    auto named = [](auto* widget, const char* name) {
        widget->setObjectName(QLatin1String(name));
        return widget;
    };

    // What: the view and its head, and the title.
    m_view = named(new QComboBox, "view");
    m_head = named(new QComboBox, "head");
    m_title = named(new QLineEdit, "title");
    m_title->setClearButtonEnabled(true);
    m_title->setToolTip(tr("Leave empty for the view's own title, shown greyed here"));
    auto* what = new QGroupBox(tr("Figure"));
    auto* whatForm = new QFormLayout(what);
    whatForm->addRow(tr("&Show:"), m_view);
    whatForm->addRow(tr("&Head:"), m_head);
    whatForm->addRow(tr("&Title:"), m_title);

    // Page: format, size in a unit, resolution, and what that comes to.
    m_format = named(new QComboBox, "format");
    m_format->addItem(tr("PNG image"), formatKey(FigureFormat::Png));
    m_format->addItem(tr("SVG, vector"), formatKey(FigureFormat::Svg));
    m_format->addItem(tr("PDF, vector"), formatKey(FigureFormat::Pdf));
    m_format->setItemData(0, tr("Pixels; the DPI is written into the file"), Qt::ToolTipRole);
    m_format->setItemData(1, tr("Scalable, text kept as text: for the web and for editing"),
                          Qt::ToolTipRole);
    m_format->setItemData(2, tr("Scalable, text kept as text: for LaTeX and print"),
                          Qt::ToolTipRole);
    m_width = named(new QDoubleSpinBox, "width");
    m_height = named(new QDoubleSpinBox, "height");
    for (QDoubleSpinBox* box : {m_width, m_height}) {
        box->setAlignment(Qt::AlignRight);
        box->setMinimumWidth(84);
    }
    m_width->setToolTip(tr("Width"));
    m_height->setToolTip(tr("Height"));
    m_unitBox = named(new QComboBox, "unit");
    m_unitBox->addItem(tr("cm"), unitKey(SizeUnit::Centimeters));
    m_unitBox->addItem(tr("in"), unitKey(SizeUnit::Inches));
    m_unitBox->addItem(tr("px"), unitKey(SizeUnit::Pixels));
    auto* sizeRow = new QHBoxLayout;
    sizeRow->setSpacing(4);
    sizeRow->addWidget(m_width, 1);
    sizeRow->addWidget(new QLabel(QStringLiteral("\u00d7")));
    sizeRow->addWidget(m_height, 1);
    sizeRow->addWidget(m_unitBox);
    m_dpi = named(new QSpinBox, "dpi");
    m_dpi->setRange(72, 600);
    m_dpi->setSingleStep(6);
    m_dpi->setSuffix(tr(" DPI"));
    m_dpi->setAlignment(Qt::AlignRight);
    m_sizeInfo = named(new QLabel, "sizeInfo");
    m_sizeInfo->setWordWrap(true);
    m_sizeInfo->setForegroundRole(QPalette::PlaceholderText);
    auto* page = new QGroupBox(tr("Page"));
    auto* pageForm = new QFormLayout(page);
    pageForm->addRow(tr("&Format:"), m_format);
    auto* sizeLabel = new QLabel(tr("Si&ze:"));
    sizeLabel->setBuddy(m_width);
    pageForm->addRow(sizeLabel, sizeRow);
    pageForm->addRow(tr("&Resolution:"), m_dpi);
    pageForm->addRow(QString(), m_sizeInfo);

    // Style.
    m_colormap = named(new QComboBox, "colormap");
    for (const QString& name : sequentialColormapNames()) {
        const Colormap map = *parseColormap(name);
        m_colormap->addItem(gradientIcon(map),
                            name == QLatin1String("gray") ? tr("grey (for print)") : name, name);
    }
    m_colormap->setIconSize(QSize(48, 14));
    m_font = named(new QDoubleSpinBox, "fontPoints");
    m_font->setRange(4.0, 48.0);
    m_font->setDecimals(1);
    m_font->setSingleStep(0.5);
    m_font->setSuffix(tr(" pt"));
    m_font->setAlignment(Qt::AlignRight);
    m_colorBar = named(new QCheckBox(tr("Colour &bar")), "colorBar");
    m_dataScale = named(new QCheckBox(tr("Colours to the &data")), "dataScale");
    m_dataScale->setToolTip(
        tr("Off: weights on one fixed scale, 0 to 1, that other figures share. On: from 0 to "
           "the largest weight. The colour bar says which."));
    m_values = named(new QCheckBox(tr("&Numbers in cells")), "showValues");
    m_values->setToolTip(tr("Where a cell is large enough to hold its number"));
    m_precision = named(new QSpinBox, "precision");
    m_precision->setRange(0, 6);
    m_precision->setAlignment(Qt::AlignRight);
    m_precision->setToolTip(tr("Digits after the decimal point"));
    auto* style = new QGroupBox(tr("Style"));
    auto* styleForm = new QFormLayout(style);
    styleForm->addRow(tr("&Colormap:"), m_colormap);
    styleForm->addRow(tr("F&ont size:"), m_font);
    styleForm->addRow(QString(), m_colorBar);
    styleForm->addRow(QString(), m_dataScale);
    auto* valuesRow = new QHBoxLayout;
    valuesRow->addWidget(m_values);
    valuesRow->addStretch(1);
    auto* decimals = new QLabel(tr("&decimals"));
    decimals->setBuddy(m_precision);
    valuesRow->addWidget(m_precision);
    valuesRow->addWidget(decimals);
    styleForm->addRow(QString(), valuesRow);

    // One label column across the three groups, so their fields line up.
    int labelWidth = 0;
    for (QFormLayout* form : {whatForm, pageForm, styleForm})
        for (int row = 0; row < form->rowCount(); ++row)
            if (QLayoutItem* item = form->itemAt(row, QFormLayout::LabelRole);
                item && item->widget())
                labelWidth = std::max(labelWidth, item->widget()->sizeHint().width());
    for (QFormLayout* form : {whatForm, pageForm, styleForm})
        for (int row = 0; row < form->rowCount(); ++row)
            if (QLayoutItem* item = form->itemAt(row, QFormLayout::LabelRole);
                item && item->widget())
                item->widget()->setMinimumWidth(labelWidth);

    auto* settingsColumn = new QVBoxLayout;
    settingsColumn->addWidget(what);
    settingsColumn->addWidget(page);
    settingsColumn->addWidget(style);
    settingsColumn->addStretch(1);
    auto* settingsHost = new QWidget;
    settingsHost->setLayout(settingsColumn);
    settingsColumn->setContentsMargins(0, 0, 0, 0);
    settingsHost->setFixedWidth(std::max(330, settingsHost->sizeHint().width()));

    // The preview, and the reason in its place when there is no figure.
    m_preview = new Preview(this);
    m_preview->setObjectName(QStringLiteral("preview"));
    m_preview->resized = [this] { m_previewTimer.start(); };
    m_error = named(new QLabel, "error");
    m_error->setWordWrap(true);
    m_error->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_error->setMinimumWidth(300); // a readable measure, not a column of single words
    m_error->setMaximumWidth(440);
    auto* errorIcon = new QLabel;
    const int iconSize = style->style()->pixelMetric(QStyle::PM_MessageBoxIconSize);
    errorIcon->setPixmap(
        style->style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(iconSize));
    auto* errorBox = named(new QWidget, "errorBox");
    auto* errorRow = new QHBoxLayout(errorBox);
    errorRow->addWidget(errorIcon, 0, Qt::AlignTop);
    errorRow->addWidget(m_error, 1);
    auto* previewLayout = new QVBoxLayout(m_preview);
    previewLayout->addWidget(errorBox, 0, Qt::AlignCenter);
    errorBox->hide();

    auto* body = new QHBoxLayout;
    body->addWidget(settingsHost);
    body->addWidget(m_preview, 1);

    // Buttons: the other exports on the left, the main one on the right.
    m_matrix = named(new QPushButton(tr("Export &Matrix\u2026")), "exportMatrix");
    m_matrix->setToolTip(tr("Write one stage of one head as CSV, NumPy, JSON or LaTeX"));
    m_copy = named(new QPushButton(tr("Co&py")), "copy");
    m_copy->setToolTip(tr("Copy the figure to the clipboard as PNG and SVG"));
    m_status = named(new QLabel, "status");
    m_status->setForegroundRole(QPalette::PlaceholderText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = named(new QPushButton(tr("Close")), "close");
    m_save = named(new QPushButton(tr("&Save\u2026")), "save");
    for (QPushButton* button : {m_matrix, m_copy, close})
        button->setAutoDefault(false);
    m_save->setDefault(true);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_matrix);
    buttons->addWidget(m_copy);
    buttons->addSpacing(8);
    buttons->addWidget(m_status, 1);
    buttons->addWidget(close);
    buttons->addWidget(m_save);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(body, 1);
    layout->addLayout(buttons);

    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_save, &QPushButton::clicked, this, &ExportDialog::save);
    connect(m_copy, &QPushButton::clicked, this, &ExportDialog::copyToClipboard);
    connect(m_matrix, &QPushButton::clicked, this, &ExportDialog::exportMatrix);
    auto* saveShortcut = new QShortcut(QKeySequence::Save, this);
    connect(saveShortcut, &QShortcut::activated, this, [this] {
        if (m_save->isEnabled())
            save();
    });

    for (QComboBox* box : {m_view, m_head, m_format, m_colormap})
        connect(box, &QComboBox::currentIndexChanged, this, &ExportDialog::settingsChanged);
    connect(m_unitBox, &QComboBox::currentIndexChanged, this, &ExportDialog::unitChanged);
    connect(m_title, &QLineEdit::textChanged, this, &ExportDialog::settingsChanged);
    for (QDoubleSpinBox* box : {m_width, m_height})
        connect(box, &QDoubleSpinBox::valueChanged, this, &ExportDialog::sizeEdited);
    connect(m_font, &QDoubleSpinBox::valueChanged, this, &ExportDialog::settingsChanged);
    for (QSpinBox* box : {m_dpi, m_precision})
        connect(box, &QSpinBox::valueChanged, this, &ExportDialog::settingsChanged);
    for (QCheckBox* box : {m_colorBar, m_values, m_dataScale})
        connect(box, &QCheckBox::toggled, this, &ExportDialog::settingsChanged);

    resize(1040, 640);
}

FigureView windowView(const ExportSource& source)
{
    if (source.lines)
        return FigureView::Lines;
    if (source.spec.view == FigureView::Difference && !source.compare)
        return FigureView::Head;
    return source.spec.view;
}

namespace {

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
    for (SizeUnit unit : {SizeUnit::Centimeters, SizeUnit::Inches, SizeUnit::Pixels})
        if (unitKey(unit) == key)
            return unit;
    return std::nullopt;
}

void selectData(QComboBox* box, const QVariant& data)
{
    const int index = box->findData(data);
    if (index >= 0)
        box->setCurrentIndex(index);
}

} // namespace

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

void ExportDialog::exportMatrix()
{
    if (!m_source.result)
        return;
    auto* dialog = new QDialog(this);
    dialog->setObjectName(QStringLiteral("matrixExport"));
    dialog->setWindowTitle(tr("Export Matrix"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const preferences::ExportChoices stored = preferences::exportChoices();

    auto* stage = new QComboBox;
    stage->setObjectName(QStringLiteral("stage"));
    for (const QString& name : stageNames())
        stage->addItem(QString(name).replace(QLatin1Char('-'), QLatin1Char(' ')), name);
    selectData(stage, stored.matrixStage.value_or(stageName(Stage::Weights)));
    auto* head = new QComboBox;
    head->setObjectName(QStringLiteral("matrixHead"));
    for (std::size_t h = 0; h < m_source.result->heads.size(); ++h)
        head->addItem(tr("Head %1").arg(h + 1), int(h));
    selectData(head, std::max(0, settings().head >= 0 ? settings().head : m_source.spec.head));
    auto* format = new QComboBox;
    format->setObjectName(QStringLiteral("matrixFormat"));
    for (const MatrixChoice& choice : kMatrixFormats)
        format->addItem(tr(choice.label) +
                            QStringLiteral(" (%1)").arg(QLatin1String(choice.suffix)),
                        QLatin1String(choice.key));
    selectData(format, stored.matrixFormat.value_or(QStringLiteral("csv")));
    auto* precision = new QSpinBox;
    precision->setObjectName(QStringLiteral("matrixPrecision"));
    precision->setRange(0, 6);
    precision->setValue(m_precision->value());
    auto* note = new QLabel;
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);

    auto choice = [format] {
        for (const MatrixChoice& c : kMatrixFormats)
            if (format->currentData().toString() == QLatin1String(c.key))
                return c;
        return kMatrixFormats[0];
    };
    auto update = [=] {
        const Stage s = parseStage(stage->currentData().toString()).value_or(Stage::Weights);
        head->setEnabled(s != Stage::Input && s != Stage::Concat &&
                         s != Stage::Output); // not per head
        const bool latex = isLatex(choice().format);
        precision->setEnabled(latex);
        note->setText(latex ? tr("Numbers rounded to the decimals chosen.")
                            : tr("Every value is written exactly (shortest round-trip digits)."));
    };
    connect(stage, &QComboBox::currentIndexChanged, dialog, update);
    connect(format, &QComboBox::currentIndexChanged, dialog, update);
    update();

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    QPushButton* save = buttons->addButton(tr("&Save\u2026"), QDialogButtonBox::AcceptRole);
    save->setObjectName(QStringLiteral("matrixSave"));
    save->setDefault(true);
    connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    connect(save, &QPushButton::clicked, dialog, [=, this] {
        const QString stageKey = stage->currentData().toString();
        const Stage chosen = parseStage(stageKey).value_or(Stage::Weights);
        const int h = head->isEnabled() ? head->currentData().toInt() : 0;
        MatrixChoice c = choice();
        const QString headPart =
            head->isEnabled() ? QStringLiteral("-head%1").arg(h + 1) : QString();
        QString path = m_chooser(
            tr("Export Matrix"),
            suggestedPath(headPart + QLatin1Char('-') + stageKey + QLatin1String(c.suffix)),
            tr(c.label) + QStringLiteral(" (*%1)").arg(QLatin1String(c.suffix)));
        if (path.isEmpty())
            return;
        // A suffix typed by the user chooses the format; .tex keeps the LaTeX kind chosen.
        const auto named = matrixFormatForPath(path);
        if (!named)
            path += QLatin1String(c.suffix);
        else if (!(isLatex(*named) && isLatex(c.format)))
            c.format = *named;
        try {
            const StageMatrix matrix = stageMatrix(*m_source.result, chosen, h);
            core::writeFileAtomically(path, stageBytes(matrix, c.format, precision->value()));
        } catch (const std::exception& e) {
            showFailure(
                tr("The matrix was not saved to \u201c%1\u201d.").arg(QFileInfo(path).fileName()),
                sentence(QString::fromStdString(e.what())) + QLatin1Char('\n') +
                    tr("Any file already there is unchanged."));
            return;
        }
        preferences::ExportChoices choices;
        choices.matrixStage = stageKey;
        choices.matrixFormat = format->currentData().toString();
        preferences::storeExportChoices(choices);
        rememberDirectory(path);
        m_status->setText(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
        dialog->accept();
    });

    auto* form = new QFormLayout;
    form->addRow(tr("&Stage:"), stage);
    form->addRow(tr("&Head:"), head);
    form->addRow(tr("&Format:"), format);
    form->addRow(tr("&Decimals:"), precision);
    form->addRow(QString(), note);
    auto* layout = new QVBoxLayout(dialog);
    layout->addLayout(form);
    layout->addWidget(buttons);
    dialog->setMinimumWidth(360);
    dialog->open();
}

} // namespace attn::ui
