#include "core/seq2seq/seq2seq_training.h"

#include "core/error.h"
#include "core/seq2seq/seq2seq_steps.h"

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

void addGru(std::vector<Seq2SeqParameter>& out, const std::string& prefix, GruLayer& gru)
{
    addParameter(out, prefix + ".weight_ih_l0", gru.inputWeights, true);
    addParameter(out, prefix + ".weight_hh_l0", gru.hiddenWeights, true);
    addParameter(out, prefix + ".bias_ih_l0", gru.inputBias);
    addParameter(out, prefix + ".bias_hh_l0", gru.hiddenBias);
}

// The backward of gruForward: `dNext` is d loss / d h'. Adds the weights' gradients into
// `gradients`, returns d loss / d x and adds d loss / d h into `dHidden`.
RowVector gruBackward(const GruLayer& layer, const GruCache& c, const RowVector& dNext,
                      GruLayer& gradients, RowVector& dHidden)
{
    const Eigen::Index h = c.hidden.size();
    const Eigen::ArrayXXf one = Eigen::ArrayXXf::Ones(1, h);
    // h' = (1 - z) n + z h
    const Eigen::ArrayXXf dn = dNext.array() * (one - c.z.array());
    const Eigen::ArrayXXf dz = dNext.array() * (c.hidden.array() - c.n.array());
    dHidden.array() += dNext.array() * c.z.array();
    // n = tanh(gi_n + r * gh_n), r = sigmoid(gi_r + gh_r), z = sigmoid(gi_z + gh_z)
    const Eigen::ArrayXXf dnPre = dn * (one - c.n.array().square());
    const Eigen::ArrayXXf drPre =
        dnPre * c.hiddenCandidate.array() * c.r.array() * (one - c.r.array());
    const Eigen::ArrayXXf dzPre = dz * c.z.array() * (one - c.z.array());
    RowVector dInputGates(3 * h), dHiddenGates(3 * h);
    dInputGates << drPre.matrix(), dzPre.matrix(), dnPre.matrix();
    dHiddenGates << drPre.matrix(), dzPre.matrix(), (dnPre * c.r.array()).matrix();
    gradients.inputWeights.noalias() += c.input.transpose() * dInputGates;
    gradients.inputBias += dInputGates;
    gradients.hiddenWeights.noalias() += c.hidden.transpose() * dHiddenGates;
    gradients.hiddenBias += dHiddenGates;
    dHidden.noalias() += dHiddenGates * layer.hiddenWeights.transpose();
    return dInputGates * layer.inputWeights.transpose();
}

struct DecoderStepCache
{
    int inputId = 0;
    AttentionCache attention;
    GruCache gru;
    RowVector probabilities; // softmax of the logits
};

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
    addGru(out, "encoder.gru", m.encoderGru);
    addParameter(out, "decoder.embedding.weight", m.decoderEmbedding, false);
    if (m.attention == Seq2SeqAttention::Bahdanau) {
        addParameter(out, "decoder.attention.Wa.weight", m.wa, true);
        addParameter(out, "decoder.attention.Wa.bias", m.waBias);
        addParameter(out, "decoder.attention.Ua.weight", m.ua, true);
        addParameter(out, "decoder.attention.Ua.bias", m.uaBias);
        addParameter(out, "decoder.attention.Va.weight", m.va, true);
        out.push_back({"decoder.attention.Va.bias", &m.vaBias, 1, 1, 1, false, 1});
    }
    addGru(out, "decoder.gru", m.decoderGru);
    addParameter(out, "decoder.out.weight", m.out, true);
    addParameter(out, "decoder.out.bias", m.outBias);
    return out;
}

Seq2SeqModel zeroSeq2SeqLike(const Seq2SeqModel& model)
{
    Seq2SeqModel zero = model;
    for (const Seq2SeqParameter& p : seq2seqParameters(zero))
        std::fill(p.data, p.data + p.size, 0.0f);
    return zero;
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
    const bool attention = model.attention == Seq2SeqAttention::Bahdanau;

    // Forward, keeping what the backward needs.
    std::vector<GruCache> encoder(static_cast<std::size_t>(length));
    Matrix keys(length, h);
    RowVector state = RowVector::Zero(h);
    for (Eigen::Index t = 0; t < length; ++t) {
        state =
            gruForward(model.encoderGru, model.encoderEmbedding.row(example.source[std::size_t(t)]),
                       state, &encoder[std::size_t(t)]);
        keys.row(t) = state;
    }
    const Matrix projectedKeys =
        attention ? Matrix((keys * model.ua).rowwise() + model.uaBias) : Matrix();
    std::vector<DecoderStepCache> steps(example.target.size());
    std::vector<RowVector> states; // s_1 ... s_T
    double loss = 0.0;
    int token = Seq2SeqVocabulary::kSos;
    for (std::size_t i = 0; i < example.target.size(); ++i) {
        DecoderStepCache& c = steps[i];
        c.inputId = token;
        const RowVector embedded = model.decoderEmbedding.row(token);
        RowVector input;
        if (attention) {
            bahdanauForward(model, keys, projectedKeys, state, c.attention);
            input.resize(2 * h);
            input << embedded, c.attention.context;
        } else {
            input = embedded.cwiseMax(0.0f);
        }
        state = gruForward(model.decoderGru, input, state, &c.gru);
        states.push_back(state);
        const RowVector logProbs = logSoftmax(state * model.out + model.outBias);
        c.probabilities = logProbs.array().exp().matrix();
        const int target = example.target[i];
        loss -= double(logProbs(target));
        const bool forced =
            teacherForcing >= 1.0 || (teacherForcing > 0.0 && random.uniform() < teacherForcing);
        token = forced ? target : argmax(logProbs);
    }

    // Backward through the decoder, last step first, then through the encoder.
    Matrix dKeys = Matrix::Zero(length, h);
    Matrix dProjectedKeys = attention ? Matrix(Matrix::Zero(length, h)) : Matrix();
    RowVector dState = RowVector::Zero(h); // d loss / d s_i, from the steps after i
    for (std::size_t k = steps.size(); k-- > 0;) {
        const DecoderStepCache& c = steps[k];
        RowVector dLogits = c.probabilities;
        dLogits(example.target[k]) -= 1.0f;
        dLogits *= scale;
        gradients.out.noalias() += states[k].transpose() * dLogits;
        gradients.outBias += dLogits;
        dState.noalias() += dLogits * model.out.transpose();
        RowVector dPrevious = RowVector::Zero(h);
        const RowVector dInput =
            gruBackward(model.decoderGru, c.gru, dState, gradients.decoderGru, dPrevious);
        if (attention) {
            gradients.decoderEmbedding.row(c.inputId) += dInput.head(h);
            const RowVector dContext = dInput.tail(h);
            const AttentionCache& a = c.attention;
            // context = weights keys
            const RowVector dWeights = dContext * keys.transpose();
            dKeys.noalias() += a.weights.transpose() * dContext;
            // weights = softmax(scores)
            const float dot = dWeights.dot(a.weights);
            const RowVector dScores = (a.weights.array() * (dWeights.array() - dot)).matrix();
            // scores = activation va + vb
            gradients.va.noalias() += a.activation.transpose() * dScores.transpose();
            gradients.vaBias += dScores.sum();
            // activation = tanh(projectedKeys + query wa + wb)
            const Matrix dPre = ((dScores.transpose() * model.va.transpose()).array() *
                                 (1.0f - a.activation.array().square()))
                                    .matrix();
            dProjectedKeys += dPre;
            const RowVector dProjectedQuery = dPre.colwise().sum();
            gradients.wa.noalias() += a.query.transpose() * dProjectedQuery;
            gradients.waBias += dProjectedQuery;
            dPrevious.noalias() += dProjectedQuery * model.wa.transpose();
        } else {
            const RowVector embedded = model.decoderEmbedding.row(c.inputId);
            gradients.decoderEmbedding.row(c.inputId) +=
                (dInput.array() * (embedded.array() > 0.0f).cast<float>()).matrix();
        }
        dState = dPrevious;
    }
    if (attention) {
        // projectedKeys = keys ua + ub
        gradients.ua.noalias() += keys.transpose() * dProjectedKeys;
        gradients.uaBias += dProjectedKeys.colwise().sum();
        dKeys.noalias() += dProjectedKeys * model.ua.transpose();
    }
    // s_0 = h_S: the decoder's first state is the encoder's last.
    RowVector dHidden = dState;
    for (Eigen::Index t = length; t-- > 0;) {
        dHidden += dKeys.row(t);
        RowVector dPrevious = RowVector::Zero(h);
        const RowVector dInput = gruBackward(model.encoderGru, encoder[std::size_t(t)], dHidden,
                                             gradients.encoderGru, dPrevious);
        gradients.encoderEmbedding.row(example.source[std::size_t(t)]) += dInput;
        dHidden = dPrevious;
    }
    return loss;
}

} // namespace attn::core
