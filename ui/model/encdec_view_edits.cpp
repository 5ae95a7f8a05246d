// EncDecView's head edits: heads off, a layer's temperature and a head's W^v scaled, on any of
// the three kinds of heads, and the controls that show them.

#include "ui/model/encdec_view.h"

#include "core/model/model_loader.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QSignalBlocker>

#include <cmath>

namespace attn::ui {

const core::Interventions& EncDecView::interventionsOf(Kind kind) const
{
    return m_document->interventions(kind);
}

core::EncoderDecoderInterventions EncDecView::interventions() const
{
    return m_document->allInterventions();
}

void EncDecView::setDocument(ModelDocument* document)
{
    if (!document)
        document = m_ownDocument.get();
    if (document == m_document)
        return;
    if (m_document)
        disconnect(m_document, nullptr, this, nullptr);
    m_document = document;
    connect(m_document, &ModelDocument::interventionsChanged, this,
            &EncDecView::interventionsChanged);
    // A window's document goes first when the window closes: nothing is shown any more.
    if (m_document != m_ownDocument.get())
        connect(m_document, &QObject::destroyed, this, [this] {
            m_document = m_ownDocument.get();
            connect(m_document, &ModelDocument::interventionsChanged, this,
                    &EncDecView::interventionsChanged);
        });
    refresh();
}

const core::ModelWeights* EncDecView::checkpointWeights(Kind kind, int layer) const
{
    return m_source ? attentionWeights(*m_source->model, kind, layer) : nullptr;
}

void EncDecView::interventionsChanged()
{
    if (m_source && m_document->model() && m_document->model() != m_source->model)
        return; // the window's new model: its source follows
    if (!m_steps.empty() || isRunning())
        translate();
    else
        refresh();
    emit interventionsEdited();
}

void EncDecView::setHeadOff(Kind kind, int layer, int head, bool off)
{
    m_document->setHeadOff(kind, layer, head, off);
}

void EncDecView::setLayerTemperature(Kind kind, int layer, double temperature)
{
    const float t = std::abs(temperature - 1.0) < 1e-9 ? 1.0f : float(temperature);
    m_document->setTemperature(kind, layer, t);
}

void EncDecView::setValueScale(Kind kind, int layer, int head, double scale)
{
    const auto weights = checkpointWeights(kind, layer);
    if (!weights || head < 0 || head >= weights->headCount())
        return;
    if (valueScale(kind, layer, head) == scale)
        return;
    const core::Matrix& own = weights->heads[std::size_t(head)].Wv;
    if (scale == 1.0)
        m_valueScales.erase(std::make_tuple(int(kind), layer, head));
    else
        m_valueScales[std::make_tuple(int(kind), layer, head)] = scale;
    m_document->setHeadMatrix(kind, layer, head, HeadMatrix::Wv,
                              scale == 1.0 ? own : core::Matrix(own * float(scale)));
}

// From the document's W^v (an undo may have changed it): the factor typed while it still gives
// that matrix, else the least-squares factor of the checkpoint's W^v.
double EncDecView::valueScale(Kind kind, int layer, int head) const
{
    const auto weights = checkpointWeights(kind, layer);
    if (!weights || head < 0 || head >= weights->headCount())
        return 1.0;
    const core::Interventions& edits = interventionsOf(kind);
    const auto edited = edits.layers.find(layer);
    if (edited == edits.layers.end())
        return 1.0;
    const auto edit = edited->second.heads.find(head);
    if (edit == edited->second.heads.end() || !edit->second.Wv)
        return 1.0;
    const core::Matrix& own = weights->heads[std::size_t(head)].Wv;
    const core::Matrix& now = *edit->second.Wv;
    const auto typed = m_valueScales.find(std::make_tuple(int(kind), layer, head));
    if (typed != m_valueScales.end() && now == core::Matrix(own * float(typed->second)))
        return typed->second;
    const double norm = own.cast<double>().squaredNorm();
    return norm > 0 ? own.cast<double>().cwiseProduct(now.cast<double>()).sum() / norm : 1.0;
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
