#include "ui/export/export_dialog.h"

#include "ui/export/export_dialog_p.h"
#include "ui/figures/colormap.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QShortcut>
#include <QSpinBox>
#include <QStyle>
#include <QVBoxLayout>
#include <algorithm>

// The export dialog's widgets and their connections.
namespace attn::ui {

using export_detail::formatKey;
using export_detail::unitKey;

namespace {

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

} // namespace

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

} // namespace attn::ui
