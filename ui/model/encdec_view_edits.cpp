// EncDecView's head edits: heads off, a layer's temperature and a head's W^v scaled, on any of
// the three kinds of heads, and the controls that show them.

#include "ui/model/encdec_view.h"

#include "core/model/model_loader.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QSignalBlocker>

#include <cmath>

namespace attn::ui {

core::Interventions& EncDecView::interventionsOf(Kind kind)
{
    return kind == Kind::Encoder   ? m_interventions.encoder
           : kind == Kind::Decoder ? m_interventions.decoder
                                   : m_interventions.cross;
}

const core::Interventions& EncDecView::interventionsOf(Kind kind) const
{
    return kind == Kind::Encoder   ? m_interventions.encoder
           : kind == Kind::Decoder ? m_interventions.decoder
                                   : m_interventions.cross;
}

// The checkpoint's attention weights of one kind's layer, null outside the model.
std::shared_ptr<const core::ModelWeights> EncDecView::checkpointWeights(Kind kind, int layer) const
{
    if (!m_source || layer < 0)
        return nullptr;
    const core::TransformerWeights& w = m_source->model->weights;
    const auto& layers = kind == Kind::Encoder ? w.encoderLayers : w.layers;
    if (layer >= int(layers.size()))
        return nullptr;
    const core::TransformerLayer& l = layers[std::size_t(layer)];
    return kind == Kind::Cross ? l.crossAttention : l.attention;
}

void EncDecView::interventionsChanged()
{
    if (!m_steps.empty() || isRunning())
        translate();
    else
        refresh();
    emit interventionsEdited();
}

void EncDecView::setHeadOff(Kind kind, int layer, int head, bool off)
{
    if (head < 0)
        return; // the mean of the heads is not a head
    core::Interventions& target = interventionsOf(kind);
    if (off == target.headsOff.contains({layer, head}))
        return;
    if (off)
        target.headsOff.insert({layer, head});
    else
        target.headsOff.erase({layer, head});
    interventionsChanged();
}

void EncDecView::setLayerTemperature(Kind kind, int layer, double temperature)
{
    core::Interventions& target = interventionsOf(kind);
    core::LayerEdit& edit = target.layers[layer];
    const std::optional<float> t =
        std::abs(temperature - 1.0) < 1e-9 ? std::nullopt : std::optional(float(temperature));
    const bool same = edit.temperature == t;
    edit.temperature = t;
    if (edit.empty())
        target.layers.erase(layer);
    if (!same)
        interventionsChanged();
}

void EncDecView::setValueScale(Kind kind, int layer, int head, double scale)
{
    const auto weights = checkpointWeights(kind, layer);
    if (!weights || head < 0 || head >= weights->headCount())
        return;
    const auto key = std::make_tuple(int(kind), layer, head);
    if (valueScale(kind, layer, head) == scale)
        return;
    core::Interventions& target = interventionsOf(kind);
    core::LayerEdit& edit = target.layers[layer];
    if (scale == 1.0) {
        m_valueScales.erase(key);
        edit.heads[head].Wv.reset();
        if (edit.heads[head] == core::HeadEdit{})
            edit.heads.erase(head);
        if (edit.empty())
            target.layers.erase(layer);
    } else {
        m_valueScales[key] = scale;
        edit.heads[head].Wv = weights->heads[std::size_t(head)].Wv * float(scale);
    }
    interventionsChanged();
}

double EncDecView::valueScale(Kind kind, int layer, int head) const
{
    const auto found = m_valueScales.find(std::make_tuple(int(kind), layer, head));
    return found == m_valueScales.end() ? 1.0 : found->second;
}

// The edit controls show the chosen layer and head of the shown kind.
void EncDecView::syncEdits()
{
    const core::Interventions& shown = interventionsOf(m_kind);
    const bool head = m_head >= 0;
    const QSignalBlocker b1(m_headOn);
    const QSignalBlocker b2(m_temperature);
    const QSignalBlocker b3(m_valueScale);
    m_headOn->setEnabled(head);
    m_headOn->setChecked(!head || !shown.headsOff.contains({m_layer, m_head}));
    m_temperature->setEnabled(true);
    const auto edit = shown.layers.find(m_layer);
    m_temperature->setValue(edit != shown.layers.end() && edit->second.temperature
                                ? double(*edit->second.temperature)
                                : 1.0);
    m_valueScale->setEnabled(head);
    m_valueScale->setValue(valueScale(m_kind, m_layer, m_head));
}

} // namespace attn::ui
