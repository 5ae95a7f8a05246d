#include "core/seq2seq/seq2seq_training.h"

#include "core/error.h"
#include "core/seq2seq/seq2seq_steps.h"

#include <algorithm>
#include <cmath>

namespace attn::core {
namespace {

void addParameter(std::vector<Seq2SeqParameter>& out, std::string name, Matrix& m,
                  bool transposedInFile)
{
    out.push_back({std::move(name), m.data(), m.size(), m.rows(), m.cols(), transposedInFile, 2});
}

void addParameter(std::vector<Seq2SeqParameter>& out, std::string name, RowVector& v)
{
    out.push_back({std::move(name), v.data(), v.size(), 1, v.size(), false, 1});
}

std::string rnnName(const Seq2SeqModel& m)
{
    return m.cell == Seq2SeqCell::Gru ? "gru" : "lstm";
}

// nn.GRU's and nn.LSTM's names: weight_ih_l{layer}[_reverse], ...
void addRnn(std::vector<Seq2SeqParameter>& out, const std::string& prefix,
            std::vector<RnnLayer>& layers, int directions)
{
    for (std::size_t i = 0; i < layers.size(); ++i) {
        const std::string suffix = "_l" + std::to_string(i / std::size_t(directions)) +
                                   (i % std::size_t(directions) ? "_reverse" : "");
        addParameter(out, prefix + ".weight_ih" + suffix, layers[i].inputWeights, true);
        addParameter(out, prefix + ".weight_hh" + suffix, layers[i].hiddenWeights, true);
        addParameter(out, prefix + ".bias_ih" + suffix, layers[i].inputBias);
        addParameter(out, prefix + ".bias_hh" + suffix, layers[i].hiddenBias);
    }
}

RnnLayer blankRnn(int gates, Eigen::Index input, int hidden)
{
    return {Matrix::Zero(input, gates * hidden), Matrix::Zero(hidden, gates * hidden),
            RowVector::Zero(gates * hidden), RowVector::Zero(gates * hidden)};
}

// The backward of rnnForward. On entry `d` holds d loss / d (h', c') of the step's output, on
// return d loss / d (h, c) of its input state; adds the weights' gradients into `gradients` and
// returns d loss / d x.
RowVector rnnBackward(Seq2SeqCell cell, const RnnLayer& layer, const RnnCache& c, RnnState& d,
                      RnnLayer& gradients)
{
    const Eigen::Index h = c.state.h.size();
    RowVector dInputGates(c.gates.size()), dHiddenGates(c.gates.size());
    if (cell == Seq2SeqCell::Gru) {
        const auto r = c.gates.segment(0, h).array();
        const auto z = c.gates.segment(h, h).array();
        const auto n = c.gates.segment(2 * h, h).array();
        // h' = (1 - z) n + z h
        const Eigen::ArrayXXf dn = d.h.array() * (1.0f - z);
        const Eigen::ArrayXXf dz = d.h.array() * (c.state.h.array() - n);
        d.h = (d.h.array() * z).matrix();
        // n = tanh(gi_n + r * gh_n), r = sigmoid(gi_r + gh_r), z = sigmoid(gi_z + gh_z)
        const Eigen::ArrayXXf dnPre = dn * (1.0f - n.square());
        const Eigen::ArrayXXf drPre = dnPre * c.hiddenCandidate.array() * r * (1.0f - r);
        const Eigen::ArrayXXf dzPre = dz * z * (1.0f - z);
        dInputGates << drPre.matrix(), dzPre.matrix(), dnPre.matrix();
        dHiddenGates << drPre.matrix(), dzPre.matrix(), (dnPre * r).matrix();
    } else {
        const auto i = c.gates.segment(0, h).array();
        const auto f = c.gates.segment(h, h).array();
        const auto g = c.gates.segment(2 * h, h).array();
        const auto o = c.gates.segment(3 * h, h).array();
        const Eigen::ArrayXXf tanhCell = c.cell.array().tanh();
        // h' = o tanh(c'), c' = f c + i g
        const Eigen::ArrayXXf dCell = d.c.array() + d.h.array() * o * (1.0f - tanhCell.square());
        dInputGates << (dCell * g * i * (1.0f - i)).matrix(),
            (dCell * c.state.c.array() * f * (1.0f - f)).matrix(),
            (dCell * i * (1.0f - g.square())).matrix(),
            (d.h.array() * tanhCell * o * (1.0f - o)).matrix();
        dHiddenGates = dInputGates;
        d.c = (dCell * f).matrix();
        d.h.setZero();
    }
    gradients.inputWeights.noalias() += c.input.transpose() * dInputGates;
    gradients.inputBias += dInputGates;
    gradients.hiddenWeights.noalias() += c.state.h.transpose() * dHiddenGates;
    gradients.hiddenBias += dHiddenGates;
    d.h.noalias() += dHiddenGates * layer.hiddenWeights.transpose();
    return dInputGates * layer.inputWeights.transpose();
}

// The backward of attend: adds into `dKeys` (through the weights) and `dProjectedKeys`, and
// the attention's own weights' gradients; returns d loss / d query. Hard attention's weights
// are given the softmax's gradient (straight-through).
RowVector attentionBackward(const Seq2SeqModel& model, const Seq2SeqEncoding& encoding,
                            const AttentionCache& a, const RowVector& dContext, Matrix& dKeys,
                            Matrix& dProjectedKeys, Seq2SeqModel& gradients)
{
    const int h = model.hiddenSize;
    // context = weights keys
    const RowVector dWeights = dContext * encoding.keys.transpose();
    dKeys.noalias() += a.weights.transpose() * dContext;
    // weights = softmax(scores)
    const float dot = dWeights.dot(a.soft);
    const RowVector dScores = (a.soft.array() * (dWeights.array() - dot)).matrix();
    switch (model.attention) {
    case Seq2SeqAttention::Bahdanau:
    case Seq2SeqAttention::Hard:
    case Seq2SeqAttention::Concat: {
        // scores = activation va (+ vb), activation = tanh(projectedKeys + projectedQuery)
        gradients.va.noalias() += a.activation.transpose() * dScores.transpose();
        if (model.attention != Seq2SeqAttention::Concat)
            gradients.vaBias += dScores.sum();
        const Matrix dPre = ((dScores.transpose() * model.va.transpose()).array() *
                             (1.0f - a.activation.array().square()))
                                .matrix();
        dProjectedKeys += dPre;
        const RowVector dProjectedQuery = dPre.colwise().sum();
        if (model.attention == Seq2SeqAttention::Concat) {
            gradients.wa.topRows(h).noalias() += a.query.transpose() * dProjectedQuery;
            return dProjectedQuery * model.wa.topRows(h).transpose();
        }
        gradients.wa.noalias() += a.query.transpose() * dProjectedQuery;
        gradients.waBias += dProjectedQuery;
        return dProjectedQuery * model.wa.transpose();
    }
    case Seq2SeqAttention::Dot:
        // scores = query keys^T
        dKeys.noalias() += dScores.transpose() * a.query;
        return dScores * encoding.keys;
    case Seq2SeqAttention::General:
        // scores = query projectedKeys^T
        dProjectedKeys.noalias() += dScores.transpose() * a.query;
        return dScores * encoding.projectedKeys;
    case Seq2SeqAttention::None:
        break;
    }
    return RowVector::Zero(h);
}

int argmax(const RowVector& values)
{
    Eigen::Index best = 0;
    values.maxCoeff(&best);
    return int(best);
}

} // namespace

std::vector<Seq2SeqParameter> seq2seqParameters(Seq2SeqModel& m)
{
    std::vector<Seq2SeqParameter> out;
    addParameter(out, "encoder.embedding.weight", m.encoderEmbedding, false);
    addRnn(out, "encoder." + rnnName(m), m.encoderLayers, m.bidirectional ? 2 : 1);
    if (m.bidirectional) {
        addParameter(out, "encoder.bridge.weight", m.bridge, true);
        addParameter(out, "encoder.bridge.bias", m.bridgeBias);
    }
    addParameter(out, "decoder.embedding.weight", m.decoderEmbedding, false);
    switch (m.attention) {
    case Seq2SeqAttention::Bahdanau:
    case Seq2SeqAttention::Hard:
        addParameter(out, "decoder.attention.Wa.weight", m.wa, true);
        addParameter(out, "decoder.attention.Wa.bias", m.waBias);
        addParameter(out, "decoder.attention.Ua.weight", m.ua, true);
        addParameter(out, "decoder.attention.Ua.bias", m.uaBias);
        addParameter(out, "decoder.attention.Va.weight", m.va, true);
        out.push_back({"decoder.attention.Va.bias", &m.vaBias, 1, 1, 1, false, 1});
        break;
    case Seq2SeqAttention::General:
        addParameter(out, "decoder.attention.Wa.weight", m.wa, true);
        break;
    case Seq2SeqAttention::Concat:
        addParameter(out, "decoder.attention.Wa.weight", m.wa, true);
        addParameter(out, "decoder.attention.Va.weight", m.va, true);
        break;
    case Seq2SeqAttention::None:
    case Seq2SeqAttention::Dot:
        break;
    }
    addRnn(out, "decoder." + rnnName(m), m.decoderLayers, 1);
    if (isLuongAttention(m.attention))
        addParameter(out, "decoder.Wc.weight", m.wc, true);
    addParameter(out, "decoder.out.weight", m.out, true);
    addParameter(out, "decoder.out.bias", m.outBias);
    return out;
}

void allocateSeq2SeqWeights(Seq2SeqModel& m, Eigen::Index sourceRows, Eigen::Index targetRows)
{
    const int h = m.hiddenSize;
    const int k = m.keyWidth();
    const int gates = m.cell == Seq2SeqCell::Gru ? 3 : 4;
    const int directions = m.bidirectional ? 2 : 1;
    m.encoderEmbedding = Matrix::Zero(sourceRows, h);
    m.encoderLayers.clear();
    for (int l = 0; l < m.layers; ++l)
        for (int d = 0; d < directions; ++d)
            m.encoderLayers.push_back(blankRnn(gates, l == 0 ? h : k, h));
    m.bridge = m.bidirectional ? Matrix(Matrix::Zero(h, h)) : Matrix();
    m.bridgeBias = m.bidirectional ? RowVector(RowVector::Zero(h)) : RowVector();
    m.decoderEmbedding = Matrix::Zero(targetRows, h);
    m.wa = m.ua = m.va = m.wc = Matrix();
    m.waBias = m.uaBias = RowVector();
    m.vaBias = 0.0f;
    Eigen::Index decoderInput = h;
    switch (m.attention) {
    case Seq2SeqAttention::Bahdanau:
    case Seq2SeqAttention::Hard:
        m.wa = Matrix::Zero(h, h);
        m.waBias = RowVector::Zero(h);
        m.ua = Matrix::Zero(k, h);
        m.uaBias = RowVector::Zero(h);
        m.va = Matrix::Zero(h, 1);
        decoderInput = h + k;
        break;
    case Seq2SeqAttention::General:
        m.wa = Matrix::Zero(k, h);
        break;
    case Seq2SeqAttention::Concat:
        m.wa = Matrix::Zero(h + k, h);
        m.va = Matrix::Zero(h, 1);
        break;
    case Seq2SeqAttention::None:
    case Seq2SeqAttention::Dot:
        break;
    }
    if (isLuongAttention(m.attention))
        m.wc = Matrix::Zero(k + h, h);
    m.decoderLayers.clear();
    for (int l = 0; l < m.layers; ++l)
        m.decoderLayers.push_back(blankRnn(gates, l == 0 ? decoderInput : h, h));
    m.out = Matrix::Zero(h, targetRows);
    m.outBias = RowVector::Zero(targetRows);
}

Seq2SeqModel zeroSeq2SeqLike(const Seq2SeqModel& model)
{
    Seq2SeqModel zero = model;
    for (const Seq2SeqParameter& p : seq2seqParameters(zero))
        std::fill(p.data, p.data + p.size, 0.0f);
    return zero;
}

void seq2seqEncoderBackward(const Seq2SeqModel& model, const std::vector<int>& source,
                            const Seq2SeqEncoderCache& encoder, Matrix dKeys,
                            std::vector<RnnState> dFinal, Seq2SeqModel& gradients)
{
    const int h = model.hiddenSize;
    const int directions = model.bidirectional ? 2 : 1;
    const Eigen::Index length = Eigen::Index(source.size());
    // Layer by layer from the top: each direction back through time, its inputs' gradients
    // the outputs' gradients of the layer below.
    Matrix dOutputs = std::move(dKeys);
    for (int l = model.layers; l-- > 0;) {
        const Matrix& inputs = encoder.inputs[std::size_t(l)];
        Matrix dInputs = Matrix::Zero(length, inputs.cols());
        for (int d = 0; d < directions; ++d) {
            const std::size_t index = std::size_t(l * directions + d);
            RnnState carry = dFinal[index];
            for (Eigen::Index n = 0; n < length; ++n) {
                const Eigen::Index t = d == 0 ? length - 1 - n : n;
                carry.h += dOutputs.row(t).segment(d * h, h);
                dInputs.row(t) += rnnBackward(model.cell, model.encoderLayers[index],
                                              encoder.steps[index][std::size_t(t)], carry,
                                              gradients.encoderLayers[index]);
            }
        }
        dOutputs = std::move(dInputs);
    }
    for (Eigen::Index t = 0; t < length; ++t)
        gradients.encoderEmbedding.row(source[std::size_t(t)]) += dOutputs.row(t);
}

double accumulateSeq2SeqGradients(const Seq2SeqModel& model, const Seq2SeqExample& example,
                                  double teacherForcing, Random& random, float scale,
                                  Seq2SeqModel& gradients)
{
    const int h = model.hiddenSize;
    const Eigen::Index length = Eigen::Index(example.source.size());
    if (length == 0 || example.target.empty())
        throw Error("a training pair needs a source and a target");
    for (const int id : example.source)
        if (id < 0 || id >= model.encoderEmbedding.rows())
            throw Error("source id " + std::to_string(id) + " is outside the vocabulary");
    for (const int id : example.target)
        if (id < 0 || id >= model.decoderEmbedding.rows())
            throw Error("target id " + std::to_string(id) + " is outside the vocabulary");
    const Seq2SeqAttention attention = model.attention;
    const bool luong = isLuongAttention(attention);
    const bool lstm = model.cell == Seq2SeqCell::Lstm;
    const int directions = model.bidirectional ? 2 : 1;

    // Forward, keeping what the backward needs.
    Seq2SeqEncoderCache encoder;
    const Seq2SeqEncoding encoding = encodeSeq2Seq(model, example.source, &encoder);
    std::vector<DecoderStepCache> steps(example.target.size());
    std::vector<RnnState> state = encoding.initial;
    double loss = 0.0;
    int token = Seq2SeqVocabulary::kSos;
    for (std::size_t i = 0; i < example.target.size(); ++i) {
        DecoderStepCache& c = steps[i];
        Seq2SeqStep s = decoderStep(model, encoding, token, state, &c);
        state = std::move(s.state);
        c.probabilities = s.logProbs.array().exp().matrix();
        const int target = example.target[i];
        loss -= double(s.logProbs(target));
        const bool forced =
            teacherForcing >= 1.0 || (teacherForcing > 0.0 && random.uniform() < teacherForcing);
        token = forced ? target : argmax(s.logProbs);
    }

    // Backward through the decoder, last step first, then through the encoder.
    const int k = model.keyWidth();
    Matrix dKeys = Matrix::Zero(length, k);
    Matrix dProjectedKeys = Matrix::Zero(length, encoding.projectedKeys.cols());
    const RnnState zero{RowVector::Zero(h), lstm ? RowVector::Zero(h) : RowVector()};
    // d loss / d (each layer's state after step i), from the steps after i
    std::vector<RnnState> dState(std::size_t(model.layers), zero);
    for (std::size_t i = steps.size(); i-- > 0;) {
        const DecoderStepCache& c = steps[i];
        RowVector dLogits = c.probabilities;
        dLogits(example.target[i]) -= 1.0f;
        dLogits *= scale;
        gradients.out.noalias() += c.output.transpose() * dLogits;
        gradients.outBias += dLogits;
        const RowVector dOutput = dLogits * model.out.transpose();
        if (luong) {
            // h~ = tanh([c; h] W_c), the scores taken with h
            const RowVector dPre = (dOutput.array() * (1.0f - c.output.array().square())).matrix();
            gradients.wc.noalias() += c.combined.transpose() * dPre;
            const RowVector dCombined = dPre * model.wc.transpose();
            dState.back().h += dCombined.tail(h);
            dState.back().h += attentionBackward(model, encoding, c.attention, dCombined.head(k),
                                                 dKeys, dProjectedKeys, gradients);
        } else {
            dState.back().h += dOutput;
        }
        RowVector dInput;
        for (int l = model.layers; l-- > 0;) {
            RowVector dx = rnnBackward(model.cell, model.decoderLayers[std::size_t(l)],
                                       c.layers[std::size_t(l)], dState[std::size_t(l)],
                                       gradients.decoderLayers[std::size_t(l)]);
            if (l > 0)
                dState[std::size_t(l) - 1].h += dx;
            else
                dInput = std::move(dx);
        }
        if (attention == Seq2SeqAttention::None) {
            const RowVector embedded = model.decoderEmbedding.row(c.inputId);
            gradients.decoderEmbedding.row(c.inputId) +=
                (dInput.array() * (embedded.array() > 0.0f).cast<float>()).matrix();
        } else if (luong) {
            gradients.decoderEmbedding.row(c.inputId) += dInput;
        } else {
            gradients.decoderEmbedding.row(c.inputId) += dInput.head(h);
            // the query was the top layer's state before the step
            dState.back().h += attentionBackward(model, encoding, c.attention, dInput.tail(k),
                                                 dKeys, dProjectedKeys, gradients);
        }
    }
    switch (attention) {
    case Seq2SeqAttention::Bahdanau:
    case Seq2SeqAttention::Hard:
        // projectedKeys = keys ua + ub
        gradients.ua.noalias() += encoding.keys.transpose() * dProjectedKeys;
        gradients.uaBias += dProjectedKeys.colwise().sum();
        dKeys.noalias() += dProjectedKeys * model.ua.transpose();
        break;
    case Seq2SeqAttention::General:
        gradients.wa.noalias() += encoding.keys.transpose() * dProjectedKeys;
        dKeys.noalias() += dProjectedKeys * model.wa.transpose();
        break;
    case Seq2SeqAttention::Concat:
        gradients.wa.bottomRows(k).noalias() += encoding.keys.transpose() * dProjectedKeys;
        dKeys.noalias() += dProjectedKeys * model.wa.bottomRows(k).transpose();
        break;
    case Seq2SeqAttention::None:
    case Seq2SeqAttention::Dot:
        break;
    }

    // The decoder's first state is the encoder's last (through the bridge when bidirectional).
    std::vector<RnnState> dFinal(std::size_t(model.layers * directions), zero);
    for (int l = 0; l < model.layers; ++l) {
        const RnnState& d = dState[std::size_t(l)];
        if (!model.bidirectional) {
            dFinal[std::size_t(l)] = d;
            continue;
        }
        // s_0 = tanh(h_backward bridge + b); h_backward is the backward direction's state
        // after the first position.
        const RowVector s0 = encoding.initial[std::size_t(l)].h;
        const RowVector dPre = (d.h.array() * (1.0f - s0.array().square())).matrix();
        const RowVector backward =
            (l + 1 < model.layers ? encoder.inputs[std::size_t(l) + 1] : encoding.keys)
                .row(0)
                .segment(h, h);
        gradients.bridge.noalias() += backward.transpose() * dPre;
        gradients.bridgeBias += dPre;
        dFinal[std::size_t(l * 2 + 1)].h = dPre * model.bridge.transpose();
    }
    seq2seqEncoderBackward(model, example.source, encoder, std::move(dKeys), std::move(dFinal),
                           gradients);
    return loss;
}

ClippedAdam::ClippedAdam(const std::vector<Seq2SeqParameter>& weights)
{
    for (const Seq2SeqParameter& p : weights) {
        m_firstMoments.emplace_back(std::size_t(p.size), 0.0f);
        m_secondMoments.emplace_back(std::size_t(p.size), 0.0f);
    }
}

void ClippedAdam::step(const std::vector<Seq2SeqParameter>& weights,
                       const std::vector<Seq2SeqParameter>& gradient, double learningRate,
                       double clipNorm)
{
    // torch.nn.utils.clip_grad_norm_: the whole gradient scaled to the norm, if longer.
    double squared = 0.0;
    for (const Seq2SeqParameter& p : gradient)
        squared +=
            double(Eigen::Map<const Eigen::ArrayXf>(p.data, p.size).cast<double>().square().sum());
    const double norm = std::sqrt(squared);
    const float clip = clipNorm > 0.0 && norm > clipNorm ? float(clipNorm / (norm + 1e-6)) : 1.0f;
    // Adam: m <- b1 m + (1 - b1) g, v <- b2 v + (1 - b2) g^2, w <- w - a m^ / (sqrt(v^) + eps).
    ++m_steps;
    const double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;
    const float alpha = float(learningRate);
    const float correction1 = float(1.0 - std::pow(beta1, m_steps));
    const float correction2 = float(1.0 - std::pow(beta2, m_steps));
    for (std::size_t k = 0; k < weights.size(); ++k) {
        auto w = Eigen::Map<Eigen::ArrayXf>(weights[k].data, weights[k].size);
        const Eigen::ArrayXf g =
            Eigen::Map<const Eigen::ArrayXf>(gradient[k].data, gradient[k].size) * clip;
        auto m = Eigen::Map<Eigen::ArrayXf>(m_firstMoments[k].data(), weights[k].size);
        auto v = Eigen::Map<Eigen::ArrayXf>(m_secondMoments[k].data(), weights[k].size);
        m = float(beta1) * m + float(1.0 - beta1) * g;
        v = float(beta2) * v + float(1.0 - beta2) * g.square();
        w -= alpha * (m / correction1) / ((v / correction2).sqrt() + float(epsilon));
    }
}

} // namespace attn::core
