#include "ui/explorer/view_bar.h"

#include "ui/figures/colormap.h"
#include "ui/figures/figure_spec.h"
#include "ui/widgets/flow_layout.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QToolButton>

#include <algorithm>

namespace attn::ui {

ViewBar::ViewBar(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("viewBar"));
    auto* bar = new FlowLayout(this, 12, 4);
    auto pair = [this](QWidget* label, QWidget* field) {
        auto* both = new QWidget(this);
        auto* row = new QHBoxLayout(both);
        row->setContentsMargins(0, 0, 0, 0);
        row->setSpacing(4);
        row->addWidget(label);
        row->addWidget(field);
        return both;
    };
    m_headCombo = new QComboBox(this);
    m_headCombo->setObjectName(QStringLiteral("headCombo"));
    m_headCombo->setToolTip(tr("The head the figures show, or the mean of the heads that are on"));
    m_headCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* headLabel = new QLabel(tr("&Show:"), this);
    headLabel->setBuddy(m_headCombo);
    m_layerCombo = new QComboBox(this);
    m_layerCombo->setObjectName(QStringLiteral("layerCombo"));
    m_layerCombo->setToolTip(
        tr("The stacked block whose heads the figures show. Each block is attention, then a "
           "feed-forward layer, each added to its input and layer-normalised after (post-norm, "
           "as in Vaswani et al. 2017); its output is the next block's input."));
    auto* layerLabel = new QLabel(tr("La&yer:"), this);
    layerLabel->setBuddy(m_layerCombo);
    m_colormapCombo = new QComboBox(this);
    m_colormapCombo->setObjectName(QStringLiteral("colormapCombo"));
    m_colormapCombo->setToolTip(
        tr("The heatmap's colours; viridis and cividis also read in grey and for "
           "colour-blind viewers"));
    for (const QString& name : sequentialColormapNames())
        m_colormapCombo->addItem(name == QLatin1String("gray") ? tr("grey (for print)") : name,
                                 name);
    auto* mapLabel = new QLabel(tr("&Colours:"), this);
    mapLabel->setBuddy(m_colormapCombo);
    m_valuesCheck = new QCheckBox(tr("&Numbers in cells"), this);
    m_valuesCheck->setToolTip(
        tr("Each cell's value written in it, where the cell is large enough"));
    m_dataScaleCheck = new QCheckBox(tr("Colours to the &data"), this);
    m_dataScaleCheck->setObjectName(QStringLiteral("dataScaleCheck"));
    m_dataScaleCheck->setToolTip(
        tr("Off: weights are coloured on one fixed scale, 0 to 1, so figures and heads "
           "compare. On: from 0 to the largest weight shown. The colour bar says which."));
    m_transposeCheck = new QCheckBox(tr("&Queries in columns"), this);
    m_transposeCheck->setObjectName(QStringLiteral("transposeCheck"));
    m_transposeCheck->setToolTip(
        tr("Draw the weights transposed, A = Kᵀ Q, as texts that keep vectors in columns write "
           "them: each column is one query and sums to 1."));
    auto* fit = new QToolButton(this);
    fit->setText(tr("Fit"));
    fit->setToolTip(tr("Show the whole matrix (Ctrl+0). Zoom with the wheel, drag to pan."));
    m_layerField = pair(layerLabel, m_layerCombo);
    m_layerField->setVisible(false);
    bar->addWidget(m_layerField);
    bar->addWidget(pair(headLabel, m_headCombo));
    bar->addWidget(pair(mapLabel, m_colormapCombo));
    bar->addWidget(m_valuesCheck);
    bar->addWidget(m_dataScaleCheck);
    bar->addWidget(m_transposeCheck);
    bar->addStretch();
    bar->addWidget(fit);

    connect(fit, &QToolButton::clicked, this, &ViewBar::fitRequested);
    for (QComboBox* combo : {m_layerCombo, m_headCombo, m_colormapCombo})
        connect(combo, &QComboBox::activated, this, &ViewBar::edited);
    for (QCheckBox* check : {m_valuesCheck, m_dataScaleCheck, m_transposeCheck})
        connect(check, &QCheckBox::toggled, this, [this] {
            if (!m_showing)
                emit edited();
        });
}

int ViewBar::headCount() const
{
    return std::max(0, m_headCombo->count() - 2);
}

void ViewBar::setHeadCount(int heads)
{
    if (m_headCombo->count() == heads + 2)
        return;
    const bool all = allHeadsShown();
    const int selected = selectedHead();
    const QSignalBlocker blocker(m_headCombo);
    m_headCombo->clear();
    for (int h = 0; h < heads; ++h)
        m_headCombo->addItem(tr("Head %1").arg(h + 1));
    m_headCombo->addItem(tr("Mean of heads"));
    m_headCombo->addItem(tr("All heads"));
    m_headCombo->setCurrentIndex(all                ? heads + 1
                                 : selected < heads ? (selected < 0 ? heads : selected)
                                                    : 0);
}

void ViewBar::setLayerCount(int layers)
{
    m_layerField->setVisible(layers > 1);
    if (m_layerCombo->count() == layers)
        return;
    const int selected = std::min(selectedLayer(), layers - 1);
    const QSignalBlocker blocker(m_layerCombo);
    m_layerCombo->clear();
    for (int l = 0; l < layers; ++l)
        m_layerCombo->addItem(tr("Layer %1").arg(l + 1));
    m_layerCombo->setCurrentIndex(std::max(0, selected));
}

int ViewBar::selectedLayer() const
{
    return std::max(0, m_layerCombo->currentIndex());
}

int ViewBar::selectedHead() const
{
    const int heads = headCount();
    const int index = m_headCombo->currentIndex();
    if (index == heads + 1)
        return 0;
    return index < 0 || index >= heads ? -1 : index;
}

bool ViewBar::allHeadsShown() const
{
    return m_headCombo->count() >= 2 && m_headCombo->currentIndex() == m_headCombo->count() - 1;
}

void ViewBar::selectHead(int head)
{
    const int heads = headCount();
    m_headCombo->setCurrentIndex(head < 0 || head >= heads ? heads : head);
}

void ViewBar::showSettings(const core::ViewSettings& settings, int head, bool allHeads)
{
    m_showing = true;
    m_layerCombo->setCurrentIndex(std::min(settings.layer, m_layerCombo->count() - 1));
    if (allHeads)
        m_headCombo->setCurrentIndex(headCount() + 1);
    else
        selectHead(head);
    m_colormapCombo->setCurrentIndex(std::max(0, m_colormapCombo->findData(settings.colormap)));
    m_valuesCheck->setChecked(settings.showValues);
    m_dataScaleCheck->setChecked(settings.colorScale == QLatin1String("data"));
    m_transposeCheck->setChecked(settings.transposed);
    m_showing = false;
}

void ViewBar::storeSettings(core::ViewSettings& settings) const
{
    settings.colormap = m_colormapCombo->currentData().toString();
    settings.showValues = m_valuesCheck->isChecked();
    settings.colorScale =
        weightScaleName(m_dataScaleCheck->isChecked() ? WeightScale::Data : WeightScale::Fixed);
    settings.transposed = m_transposeCheck->isChecked();
    settings.layer = selectedLayer();
}

} // namespace attn::ui
