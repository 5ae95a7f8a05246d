#include "ui/concepts/layers_page.h"

#include "ui/concepts/layers_figure.h"
#include "ui/document/scene_document.h"
#include "ui/widgets/flow_layout.h"

#include "core/error.h"
#include "core/scene_layers.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>

namespace attn::ui {

LayersPage::LayersPage(SceneDocument& document, QWidget* parent)
    : ConceptPage(ConceptView::Layers, parent), m_document(document)
{
    m_count = new QComboBox(this);
    m_count->setObjectName(QStringLiteral("layerCountCombo"));
    m_count->addItem(tr("one attention layer"));
    for (int n = 1; n <= core::kMaxStackedLayers; ++n)
        m_count->addItem(tr("%1 × (attention + feed-forward)").arg(n));
    m_count->setToolTip(tr("Blocks kept keep their weights; a new block gets weights drawn "
                           "from the scene's seed. Post-norm: each sum is layer-normalised."));
    auto* label = new QLabel(tr("&Blocks:"), this);
    label->setBuddy(m_count);
    auto* field = new QWidget(this);
    auto* row = new QHBoxLayout(field);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(label);
    row->addWidget(m_count);
    controls()->addWidget(field);
    connect(m_count, &QComboBox::activated, this, [this](int index) {
        try {
            m_document.setLayerCount(index);
        } catch (const core::Error&) {
            // only 0 to kMaxStackedLayers are offered
        }
    });
}

void LayersPage::setSource(const ConceptSource& source)
{
    if (source.scene) {
        const QSignalBlocker blocker(m_count);
        m_count->setCurrentIndex(int(source.scene->layers.size()));
    }
    ConceptPage::setSource(source);
}

void LayersPage::draw(QCustomPlot& plot, const FigureSpec& spec) const
{
    buildLayersFigure(plot, m_source, spec);
}

} // namespace attn::ui
