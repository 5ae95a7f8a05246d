#include "core/seq2seq/output_heads.h"

#include "core/enum_names.h"
#include "core/error.h"
#include "core/seq2seq/seq2seq_steps.h"

#include <algorithm>

namespace attn::core {
namespace {

constexpr EnumNames<SentencePooling, 3> kPoolingNames{{{SentencePooling::Mean, "mean"},
                                                       {SentencePooling::First, "first"},
                                                       {SentencePooling::Last, "last"}}};

// The row of `states` (or their mean) the sentence classifier reads, and each row's share of it.
RowVector poolingShares(SentencePooling pooling, Eigen::Index length)
{
    RowVector shares = RowVector::Zero(length);
    switch (pooling) {
    case SentencePooling::Mean:
        shares.setConstant(1.0f / float(length));
        break;
    case SentencePooling::First:
        shares(0) = 1.0f;
        break;
    case SentencePooling::Last:
        shares(length - 1) = 1.0f;
        break;
    }
    return shares;
}

void checkIds(const OutputHeadModel& model, const std::vector<int>& ids)
{
    if (ids.empty())
        throw Error("a sentence needs at least one word");
    for (const int id : ids)
        if (id < 0 || id >= model.encoder.encoderEmbedding.rows())
            throw Error("word id " + std::to_string(id) + " is outside the vocabulary");
}

// The head over the states: the logits' log-softmax, one row per position or one.
Matrix headLogProbabilities(const OutputHeadModel& model, const Matrix& read)
{
    const Matrix logits = (read * model.weights).rowwise() + model.bias;
    Matrix out(logits.rows(), logits.cols());
    for (Eigen::Index r = 0; r < logits.rows(); ++r)
        out.row(r) = logSoftmax(logits.row(r));
    return out;
}

} // namespace

std::optional<SentencePooling> parseSentencePooling(std::string_view name)
{
    return enumFromName(kPoolingNames, name);
}

std::vector<Seq2SeqParameter> outputHeadParameters(OutputHeadModel& model)
{
    std::vector<Seq2SeqParameter> out;
    for (Seq2SeqParameter& p : seq2seqParameters(model.encoder))
        if (p.name.rfind("encoder.", 0) == 0 && p.name.rfind("encoder.bridge.", 0) != 0)
            out.push_back(std::move(p));
    Matrix& w = model.weights;
    out.push_back({"head.weight", w.data(), w.size(), w.rows(), w.cols(), true, 2});
    out.push_back(
        {"head.bias", model.bias.data(), model.bias.size(), 1, model.bias.size(), false, 1});
    return out;
}

OutputHeadModel zeroOutputHeadLike(const OutputHeadModel& model)
{
    OutputHeadModel zero = model;
    for (const Seq2SeqParameter& p : outputHeadParameters(zero))
        std::fill(p.data, p.data + p.size, 0.0f);
    return zero;
}

std::vector<int> outputHeadIds(const OutputHeadModel& model, const QString& text)
{
    std::vector<int> ids;
    for (const std::string& word : normalizeSeq2SeqSource(text)) {
        const auto it = model.encoder.source.index.find(word);
        if (it == model.encoder.source.index.end())
            throw Error("the word \"" + word + "\" is not in the vocabulary");
        ids.push_back(it->second);
    }
    if (ids.empty())
        throw Error("the sentence has no words");
    return ids;
}

OutputHeadResult runOutputHead(const OutputHeadModel& model, const std::vector<int>& ids)
{
    checkIds(model, ids);
    OutputHeadResult r;
    r.states = encodeSeq2Seq(model.encoder, ids, nullptr).keys;
    Matrix logProbabilities;
    if (model.kind == OutputHeadKind::Tagging) {
        logProbabilities = headLogProbabilities(model, r.states);
    } else {
        r.pooled = poolingShares(model.pooling, r.states.rows()) * r.states;
        logProbabilities = headLogProbabilities(model, r.pooled);
    }
    r.probabilities = logProbabilities.array().exp().matrix();
    for (Eigen::Index row = 0; row < r.probabilities.rows(); ++row) {
        Eigen::Index best = 0;
        r.probabilities.row(row).maxCoeff(&best);
        r.labels.push_back(int(best));
    }
    return r;
}

double accumulateOutputHeadGradients(const OutputHeadModel& model, const OutputHeadExample& example,
                                     float scale, OutputHeadModel& gradients)
{
    checkIds(model, example.ids);
    const bool tagging = model.kind == OutputHeadKind::Tagging;
    const std::size_t wanted = tagging ? example.ids.size() : 1;
    if (example.labels.size() != wanted)
        throw Error("expected " + std::to_string(wanted) + " labels, got " +
                    std::to_string(example.labels.size()));
    for (const int label : example.labels)
        if (label < 0 || label >= model.weights.cols())
            throw Error("label " + std::to_string(label) + " is not one of the head's classes");

    Seq2SeqEncoderCache cache;
    const Seq2SeqEncoding encoding = encodeSeq2Seq(model.encoder, example.ids, &cache);
    const RowVector shares =
        tagging ? RowVector() : poolingShares(model.pooling, encoding.keys.rows());
    const Matrix read = tagging ? encoding.keys : Matrix(shares * encoding.keys);
    const Matrix logProbabilities = headLogProbabilities(model, read);

    // Cross-entropy through softmax: d loss / d logits = p - onehot(label), row by row.
    double loss = 0.0;
    Matrix dLogits = logProbabilities.array().exp().matrix();
    for (Eigen::Index r = 0; r < dLogits.rows(); ++r) {
        const int label = example.labels[std::size_t(r)];
        loss -= double(logProbabilities(r, label));
        dLogits(r, label) -= 1.0f;
    }
    dLogits *= scale;
    gradients.weights.noalias() += read.transpose() * dLogits;
    gradients.bias += dLogits.colwise().sum();
    const Matrix dRead = dLogits * model.weights.transpose();
    // The pooled vector is sum_j shares_j h_j: each state gets its share of the gradient.
    const Matrix dKeys = tagging ? dRead : Matrix(shares.transpose() * dRead);

    const int h = model.encoder.hiddenSize;
    const bool lstm = model.encoder.cell == Seq2SeqCell::Lstm;
    const int directions = model.encoder.bidirectional ? 2 : 1;
    // Nothing reads the final states beyond the top layer's outputs.
    std::vector<RnnState> dFinal(
        std::size_t(model.encoder.layers * directions),
        RnnState{RowVector::Zero(h), lstm ? RowVector::Zero(h) : RowVector()});
    seq2seqEncoderBackward(model.encoder, example.ids, cache, dKeys, std::move(dFinal),
                           gradients.encoder);
    return loss;
}

} // namespace attn::core
