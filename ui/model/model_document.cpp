#include "ui/model/model_document.h"

#include "ui/model/model_commands.h"

#include "core/error.h"
#include "core/model_weights.h"

#include <QFileInfo>

#include <algorithm>
#include <cstring>

namespace attn::ui {

namespace {

// Bit for bit (an edit that restores the checkpoint's matrix is no edit).
bool sameMatrix(const core::Matrix& a, const core::Matrix& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           (a.size() == 0 ||
            std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0);
}

std::optional<core::Matrix>& slot(core::HeadEdit& edit, HeadMatrix which)
{
    switch (which) {
    case HeadMatrix::Wq:
        return edit.Wq;
    case HeadMatrix::Wk:
        return edit.Wk;
    case HeadMatrix::Wv:
        return edit.Wv;
    }
    return edit.Wq;
}

// The settings every layer of a checkpoint computes with (forward.cpp's layerProblem): the
// scaled dot product (T5's unscaled), softmax, temperature 1, -inf fill, the model's causal
// mask and Mistral's sliding window.
// The encoder's and cross-attention's heads see every source word: no causal mask.
core::LayerEdit checkpointSettings(const core::Model& model, HeadKind kind = HeadKind::Decoder)
{
    const core::ModelConfig& config = model.config();
    core::LayerEdit settings;
    settings.score = config.scaledScores ? core::ScoreKind::ScaledDot : core::ScoreKind::Dot;
    settings.normalization = core::Normalization::Softmax;
    settings.temperature = 1.0f;
    settings.fill = core::MaskFill::NegativeInfinity;
    core::MaskSpec mask;
    mask.causal = config.causal && kind == HeadKind::Decoder;
    if (config.slidingWindow && mask.causal) {
        mask.window = *config.slidingWindow - 1;
        mask.windowCausal = true;
    }
    settings.mask = mask;
    return settings;
}

// Drops what equals the checkpoint and edits left empty, so that undoing by hand (setting the
// old value again) leaves no intervention behind.
void tidy(core::Interventions& interventions, const core::Model& model, HeadKind kind)
{
    const core::LayerEdit original = checkpointSettings(model, kind);
    for (auto layer = interventions.layers.begin(); layer != interventions.layers.end();) {
        core::LayerEdit& edit = layer->second;
        if (edit.score == original.score)
            edit.score.reset();
        if (edit.normalization == original.normalization)
            edit.normalization.reset();
        if (edit.temperature == original.temperature)
            edit.temperature.reset();
        if (edit.fill == original.fill)
            edit.fill.reset();
        if (edit.mask == original.mask)
            edit.mask.reset();
        const core::ModelWeights* attention = attentionWeights(model, kind, layer->first);
        if (!attention) {
            ++layer; // runModel names the layer the model lacks
            continue;
        }
        const auto& weights = *attention;
        for (auto head = edit.heads.begin(); head != edit.heads.end();) {
            if (head->first < 0 || head->first >= weights.headCount()) {
                ++head;
                continue;
            }
            const core::HeadWeights& own = weights.heads[std::size_t(head->first)];
            if (head->second.Wq && sameMatrix(*head->second.Wq, own.Wq))
                head->second.Wq.reset();
            if (head->second.Wk && sameMatrix(*head->second.Wk, own.Wk))
                head->second.Wk.reset();
            if (head->second.Wv && sameMatrix(*head->second.Wv, own.Wv))
                head->second.Wv.reset();
            head = head->second == core::HeadEdit{} ? edit.heads.erase(head) : std::next(head);
        }
        layer = edit.empty() ? interventions.layers.erase(layer) : std::next(layer);
    }
}

} // namespace

QString headMatrixTitle(HeadMatrix matrix)
{
    switch (matrix) {
    case HeadMatrix::Wq:
        return QStringLiteral("W^q");
    case HeadMatrix::Wk:
        return QStringLiteral("W^k");
    case HeadMatrix::Wv:
        return QStringLiteral("W^v");
    }
    return {};
}

const core::ModelWeights* attentionWeights(const core::Model& model, HeadKind kind, int layer)
{
    const auto& layers =
        kind == HeadKind::Encoder ? model.weights.encoderLayers : model.weights.layers;
    if (layer < 0 || layer >= int(layers.size()))
        return nullptr;
    const core::TransformerLayer& l = layers[std::size_t(layer)];
    return (kind == HeadKind::Cross ? l.crossAttention : l.attention).get();
}

ModelDocument::ModelDocument(QObject* parent) : QObject(parent)
{
    connect(&m_undo, &QUndoStack::cleanChanged, this,
            [this](bool clean) { emit modifiedChanged(!clean); });
}

ModelDocument::~ModelDocument()
{
    // The commands refer to this document: clear them while it is whole.
    m_undo.clear();
}

void ModelDocument::reset(std::shared_ptr<const core::Model> model, const QString& text,
                          const core::Interventions& interventions, int layer, int head,
                          const QString& path)
{
    reset(std::move(model), text, core::EncoderDecoderInterventions{{}, interventions, {}},
          HeadKind::Decoder, layer, head, path);
}

void ModelDocument::reset(std::shared_ptr<const core::Model> model, const QString& text,
                          const core::EncoderDecoderInterventions& interventions, HeadKind kind,
                          int layer, int head, const QString& path)
{
    m_undo.clear();
    m_model = std::move(model);
    m_text = text;
    m_encoder = interventions.encoder;
    m_interventions = interventions.decoder;
    m_cross = interventions.cross;
    m_result.reset();
    m_baseline.reset();
    m_focus = -1;
    m_kind = m_model && m_model->config().encoderDecoder() ? kind : HeadKind::Decoder;
    m_layer = std::clamp(layer, 0, std::max(0, layerCount(m_kind) - 1));
    m_head = std::clamp(head, 0, std::max(0, headCount(m_kind) - 1));
    const bool pathChanged = path != m_path;
    m_path = path;
    emit modelChanged();
    emit textChanged();
    emit interventionsChanged();
    emit selectionChanged(m_layer, m_head);
    emit focusChanged(m_focus);
    emit modifiedChanged(false);
    if (pathChanged)
        emit filePathChanged(m_path);
    emit resultChanged();
}

int ModelDocument::layerCount() const
{
    return m_model ? m_model->config().layers : 0;
}

int ModelDocument::headCount() const
{
    return m_model ? m_model->config().heads : 0;
}

int ModelDocument::layerCount(HeadKind kind) const
{
    if (kind == HeadKind::Encoder)
        return m_model ? m_model->config().encoderLayers : 0;
    return layerCount();
}

int ModelDocument::headCount(HeadKind kind) const
{
    if (kind == HeadKind::Encoder)
        return m_model ? m_model->config().encoderHeads : 0;
    return headCount();
}

const core::Interventions& ModelDocument::interventions(HeadKind kind) const
{
    return kind == HeadKind::Encoder ? m_encoder
           : kind == HeadKind::Cross ? m_cross
                                     : m_interventions;
}

core::EncoderDecoderInterventions ModelDocument::allInterventions() const
{
    return {m_encoder, m_interventions, m_cross};
}

void ModelDocument::pushEdit(HeadKind kind, core::Interventions after, ModelCommandId id, int layer,
                             int head, int matrix, const QString& text)
{
    core::EncoderDecoderInterventions all = allInterventions();
    (kind == HeadKind::Encoder ? all.encoder
     : kind == HeadKind::Cross ? all.cross
                               : all.decoder) = std::move(after);
    m_undo.push(new InterventionsCommand(*this, id, {layer, head, matrix, int(kind)},
                                         std::move(all), text));
}

bool ModelDocument::isHeadOff(int layer, int head) const
{
    return m_interventions.headsOff.count({layer, head}) > 0;
}

void ModelDocument::select(int layer, int head)
{
    select(m_kind, layer, head);
}

void ModelDocument::select(HeadKind kind, int layer, int head)
{
    if (!m_model || !m_model->config().encoderDecoder())
        kind = HeadKind::Decoder; // the only kind it has
    layer = std::clamp(layer, 0, std::max(0, layerCount(kind) - 1));
    head = std::clamp(head, 0, std::max(0, headCount(kind) - 1));
    if (kind == m_kind && layer == m_layer && head == m_head)
        return;
    m_kind = kind;
    m_layer = layer;
    m_head = head;
    emit selectionChanged(layer, head);
}

void ModelDocument::setFocusToken(int token)
{
    if (token == m_focus)
        return;
    m_focus = token;
    emit focusChanged(token);
}

void ModelDocument::markSaved(const QString& path)
{
    m_undo.setClean();
    if (path != m_path) {
        m_path = path;
        emit filePathChanged(path);
    }
}

void ModelDocument::markModified()
{
    m_undo.resetClean(); // cleanChanged -> modifiedChanged(true)
}

QString ModelDocument::displayName() const
{
    if (!m_path.isEmpty())
        return QFileInfo(m_path).fileName();
    return m_model ? m_model->name : tr("No model");
}

void ModelDocument::setText(const QString& text)
{
    if (!m_model || text == m_text)
        return;
    m_undo.push(new ModelTextCommand(*this, text));
}

// The title of an edit of an encoder-decoder model's encoder or cross-attention heads names
// the kind; a decoder's (or a model of one stack's) edit reads as before.
namespace {

QString kindPrefix(HeadKind kind)
{
    return kind == HeadKind::Encoder ? ModelDocument::tr("Encoder: ")
           : kind == HeadKind::Cross ? ModelDocument::tr("Cross-attention: ")
                                     : QString();
}

} // namespace

void ModelDocument::setHeadOff(int layer, int head, bool off)
{
    setHeadOff(HeadKind::Decoder, layer, head, off);
}

void ModelDocument::setHeadOff(HeadKind kind, int layer, int head, bool off)
{
    const core::Interventions& before = interventions(kind);
    if (!m_model || head < 0 || before.headsOff.contains({layer, head}) == off)
        return;
    core::Interventions after = before;
    if (off)
        after.headsOff.insert({layer, head});
    else
        after.headsOff.erase({layer, head});
    const QString text = off ? tr("Switch off layer %1 head %2").arg(layer + 1).arg(head + 1)
                             : tr("Switch on layer %1 head %2").arg(layer + 1).arg(head + 1);
    pushEdit(kind, std::move(after), ModelCommandId::HeadOff, layer, head, -1,
             kindPrefix(kind) + text);
}

void ModelDocument::setLayerSettings(int layer, const core::LayerEdit& settings,
                                     const QString& what)
{
    if (!m_model)
        return;
    core::Interventions after = m_interventions;
    core::LayerEdit& edit = after.layers[layer];
    edit.score = settings.score;
    edit.normalization = settings.normalization;
    edit.fill = settings.fill;
    edit.mask = settings.mask;
    tidy(after, *m_model, HeadKind::Decoder);
    if (after == m_interventions)
        return;
    pushEdit(HeadKind::Decoder, std::move(after), ModelCommandId::LayerSettings, layer, -1, -1,
             tr("%1 · layer %2").arg(what).arg(layer + 1));
}

void ModelDocument::setTemperature(int layer, float temperature)
{
    setTemperature(HeadKind::Decoder, layer, temperature);
}

void ModelDocument::setTemperature(HeadKind kind, int layer, float temperature)
{
    if (!m_model)
        return;
    const core::Interventions& before = interventions(kind);
    core::Interventions after = before;
    after.layers[layer].temperature = temperature;
    tidy(after, *m_model, kind);
    if (after == before)
        return;
    pushEdit(kind, std::move(after), ModelCommandId::Temperature, layer, -1, -1,
             kindPrefix(kind) + tr("Temperature · layer %1").arg(layer + 1));
}

void ModelDocument::setHeadMatrix(int layer, int head, HeadMatrix which, const core::Matrix& matrix,
                                  const QString& what)
{
    setHeadMatrix(HeadKind::Decoder, layer, head, which, matrix, what);
}

void ModelDocument::setHeadMatrix(HeadKind kind, int layer, int head, HeadMatrix which,
                                  const core::Matrix& matrix, const QString& what)
{
    if (!m_model)
        return;
    const core::Matrix own = checkpointMatrix(kind, layer, head, which);
    if (matrix.rows() != own.rows() || matrix.cols() != own.cols())
        throw core::Error(QStringLiteral("%1 · layer %2 head %3: expected %4 x %5, got %6 x %7")
                              .arg(headMatrixTitle(which))
                              .arg(layer + 1)
                              .arg(head + 1)
                              .arg(own.rows())
                              .arg(own.cols())
                              .arg(matrix.rows())
                              .arg(matrix.cols())
                              .toStdString());
    const core::Interventions& before = interventions(kind);
    core::Interventions after = before;
    slot(after.layers[layer].heads[head], which) = matrix;
    tidy(after, *m_model, kind);
    if (after == before)
        return;
    const QString text = (what.isEmpty() ? tr("Edit %1").arg(headMatrixTitle(which)) : what) +
                         tr(" · layer %1 head %2").arg(layer + 1).arg(head + 1);
    pushEdit(kind, std::move(after), ModelCommandId::HeadWeights, layer, head, int(which),
             kindPrefix(kind) + text);
}

void ModelDocument::resetInterventions()
{
    if (!hasInterventions())
        return;
    m_undo.push(new InterventionsCommand(*this, ModelCommandId::Reset, {},
                                         core::EncoderDecoderInterventions{}, tr("Reset model")));
}

core::Matrix ModelDocument::checkpointMatrix(int layer, int head, HeadMatrix which) const
{
    return checkpointMatrix(HeadKind::Decoder, layer, head, which);
}

core::Matrix ModelDocument::checkpointMatrix(HeadKind kind, int layer, int head,
                                             HeadMatrix which) const
{
    const core::ModelWeights* attention =
        m_model ? attentionWeights(*m_model, kind, layer) : nullptr;
    if (!attention || head < 0 || head >= attention->headCount())
        return {};
    const core::HeadWeights& own = attention->heads[std::size_t(head)];
    return which == HeadMatrix::Wq ? own.Wq : which == HeadMatrix::Wk ? own.Wk : own.Wv;
}

core::Matrix ModelDocument::headMatrix(int layer, int head, HeadMatrix which) const
{
    const auto found = m_interventions.layers.find(layer);
    if (found != m_interventions.layers.end()) {
        const auto edited = found->second.heads.find(head);
        if (edited != found->second.heads.end()) {
            core::HeadEdit edit = edited->second;
            if (const auto& m = slot(edit, which))
                return *m;
        }
    }
    return checkpointMatrix(layer, head, which);
}

core::LayerEdit ModelDocument::layerSettings(int layer) const
{
    if (!m_model)
        return {};
    core::LayerEdit settings = checkpointSettings(*m_model);
    const auto found = m_interventions.layers.find(layer);
    if (found != m_interventions.layers.end()) {
        const core::LayerEdit& edit = found->second;
        settings.score = edit.score.value_or(*settings.score);
        settings.normalization = edit.normalization.value_or(*settings.normalization);
        settings.temperature = edit.temperature.value_or(*settings.temperature);
        settings.fill = edit.fill.value_or(*settings.fill);
        settings.mask = edit.mask.value_or(*settings.mask);
    }
    return settings;
}

void ModelDocument::setResults(std::shared_ptr<const core::ModelResult> result,
                               std::shared_ptr<const core::ModelResult> baseline)
{
    m_result = std::move(result);
    m_baseline = std::move(baseline);
    emit resultChanged();
}

void ModelDocument::applyText(const QString& text)
{
    m_text = text;
    if (m_focus >= 0) {
        m_focus = -1; // the tokens are others now
        emit focusChanged(m_focus);
    }
    emit textChanged();
}

void ModelDocument::applyInterventions(const core::EncoderDecoderInterventions& interventions)
{
    m_encoder = interventions.encoder;
    m_interventions = interventions.decoder;
    m_cross = interventions.cross;
    emit interventionsChanged();
}

} // namespace attn::ui
