#include "activation_patching.h"

#include "core/error.h"
#include "core/model/model_loader.h"
#include "core/tokenizers/hf_tokenizer.h"

#include <QStringList>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn::core {
namespace {

// Rows of residual stream (runs x T) one batch carries through a layer: GPT-2's feed-forward
// network holds 4 x 768 floats a row, 100 MiB at this size.
constexpr int kBatchRows = 8192;

// Runs whose attention is computed as one problem, side by side (rows): their projections are
// then one product each instead of one per run, and each weight matrix is read once. The
// scores between two runs are computed and masked, so the wasted share grows with the copies
// (15 of 16 at 256 rows and T = 16): 48 rows took the 144-head GPT-2 sweep 13 % less CPU time
// than 256 at T = 16 and 17 % at T = 64 (docs/PERFORMANCE.md). A longer prompt is one run a
// problem.
constexpr int kStackRows = 48;

// Softmax gives a masked cell exactly 0, so copies side by side with every cell between two
// copies masked attend each within itself. Rotary positions count from the problem's first
// row, so such problems are computed one run at a time.
bool stackable(const Problem& problem)
{
    return problem.normalization == Normalization::Softmax && !problem.rotary.enabled() &&
           problem.fill == MaskFill::NegativeInfinity && !problem.cross;
}

std::shared_ptr<const Problem> stackedProblem(const Problem& base, int copies)
{
    if (copies == 1)
        return std::make_shared<Problem>(base);
    auto stacked = std::make_shared<Problem>(base);
    const int t = base.queryCount();
    auto repeat = [copies](auto values) {
        auto out = values;
        for (int c = 1; c < copies; ++c)
            out.insert(out.end(), values.begin(), values.end());
        return out;
    };
    stacked->queryTokens = repeat(base.queryTokens);
    stacked->keyTokens = repeat(base.keyTokens);
    stacked->keyIsPadding = repeat(base.keyIsPadding);
    stacked->queryFallback = repeat(base.queryFallback);
    stacked->keyFallback = repeat(base.keyFallback);
    std::vector<std::pair<int, int>>& cells = stacked->mask.customCells;
    cells.clear();
    for (int c = 0; c < copies; ++c) {
        for (const auto& [i, j] : base.mask.customCells)
            cells.emplace_back(c * t + i, c * t + j);
        // Causal masks already hide the later copies from a row; the earlier ones are hidden here.
        for (int i = c * t; i < (c + 1) * t; ++i)
            for (int j = 0; j < copies * t; ++j)
                if (j / t != c && !(base.mask.causal && j / t > c))
                    cells.emplace_back(i, j);
    }
    return stacked;
}

std::string quoted(const QString& text)
{
    return "'" + text.toStdString() + "'";
}

int metricToken(const Model& model, const QString& text)
{
    if (text.isEmpty())
        throw Error("metric", "a token is empty (write \"A,B\" or \"A\")");
    const std::vector<Token> tokens = model.tokenizer->encode(text, false);
    int id = tokens.size() == 1 ? tokens.front().id : -1;
    if (id < 0) // a vocabulary entry as stored ("ĠMary"), which encoding would split
        id = model.tokenizer->idOf(text).value_or(-1);
    const QString word = text.trimmed();
    if (id < 0 && word != text && !word.isEmpty()) {
        // SentencePiece (Llama) marks the word's start itself: " Mary" is "▁" + "▁Mary" there,
        // "Mary" the one token "▁Mary".
        const std::vector<Token> bare = model.tokenizer->encode(word, false);
        id = bare.size() == 1 ? bare.front().id : -1;
    }
    if (id < 0) {
        QStringList pieces;
        for (const Token& token : tokens)
            pieces << QStringLiteral("'%1'").arg(token.text);
        throw Error("metric token " + quoted(text),
                    "is " + std::to_string(tokens.size()) + " tokens of the vocabulary (" +
                        pieces.join(QStringLiteral(", ")).toStdString() +
                        "), not one; write one token, with its leading space where the "
                        "vocabulary has one");
    }
    return id;
}

void checkPatch(const Patch& patch, const PatchingRuns& runs)
{
    const int layers = runs.corrupt->layerCount();
    const int t = int(runs.corrupt->tokens.size());
    if (patch.layer < 0 || patch.layer >= layers)
        throw Error("patch: layer " + std::to_string(patch.layer + 1) + ": the model has " +
                    std::to_string(layers) + " layers");
    const int heads = int(runs.corrupt->layers[std::size_t(patch.layer)]->heads.size());
    for (int h : patch.heads)
        if (h < 0 || h >= heads)
            throw Error("patch: layer " + std::to_string(patch.layer + 1) + " head " +
                        std::to_string(h + 1) + ": the layer has " + std::to_string(heads) +
                        " heads");
    for (int p : patch.positions)
        if (p < 0 || p >= t)
            throw Error("patch: position " + std::to_string(p + 1) + ": the prompts have " +
                        std::to_string(t) + " tokens");
}

// What the clean heads' outputs add to the corrupted layer's attention output:
// sum over the heads of (H_clean - H_corrupt) W_O's rows of that head (a head switched off
// contributes nothing in either run).
Matrix headDelta(const AttentionResult& clean, const AttentionResult& corrupt,
                 const std::vector<int>& heads)
{
    const ModelWeights& w = *corrupt.problem->weights;
    Matrix delta = Matrix::Zero(corrupt.output.rows(), corrupt.output.cols());
    for (int h : heads) {
        const HeadResult& c = clean.heads[std::size_t(h)];
        const HeadResult& k = corrupt.heads[std::size_t(h)];
        Matrix difference = Matrix::Zero(k.output.rows(), k.output.cols());
        if (c.enabled)
            difference += c.output;
        if (k.enabled)
            difference -= k.output;
        delta += difference * w.Wo.middleRows(Eigen::Index(h) * w.dV, w.dV);
    }
    return delta;
}

// The patches from `begin` to `end` of `order` (sorted by layer), run bottom-up together.
void runBatch(const PatchingRuns& runs, const std::vector<Patch>& patches,
              const std::vector<int>& order, std::size_t begin, std::size_t end, Backend& backend,
              const PatchingOptions& options, int& done, int total, std::vector<double>& metrics)
{
    const ModelResult& clean = *runs.clean;
    const ModelResult& corrupt = *runs.corrupt;
    const Model& model = *corrupt.model;
    const TransformerWeights& w = model.weights;
    BlockOps& ops = backend.blockOps();
    const Eigen::Index t = Eigen::Index(corrupt.tokens.size());
    const int layers = corrupt.layerCount();
    ComputeOptions compute;
    compute.keepIntermediates = false; // only the layer's output is read
    compute.cancel = options.cancel;

    Matrix stream(0, w.config.dModel); // each running patch's T rows, stacked
    std::vector<int> running;
    std::size_t next = begin;
    for (int l = patches[std::size_t(order[begin])].layer; l < layers; ++l) {
        if (options.cancel && options.cancel->load())
            throw Cancelled();
        // The patches that start here: those that change the attention go through the layer,
        // those that only replace residual rows start from its corrupted output.
        std::vector<int> throughLayer;
        std::vector<int> afterLayer;
        for (; next < end && patches[std::size_t(order[next])].layer == l; ++next) {
            const Patch& patch = patches[std::size_t(order[next])];
            (patch.attentionOutput || !patch.heads.empty() ? throughLayer : afterLayer)
                .push_back(order[next]);
        }
        const Eigen::Index carried = stream.rows();
        const Eigen::Index rows = carried + Eigen::Index(throughLayer.size()) * t;
        if (rows > 0) {
            Matrix x(rows, stream.cols());
            Matrix attention(rows, stream.cols());
            if (carried > 0) {
                x.topRows(carried) = stream;
                const Matrix normed = attentionInput(w, l, ops, stream);
                // One problem per run (attention mixes a run's own rows only); the layer's
                // problem is built once, with the interventions, and its input swapped.
                const auto base = layerProblem(model, l, corrupt.tokens, normed.topRows(t),
                                               corrupt.interventions);
                const Eigen::Index group =
                    stackable(*base) ? std::max<Eigen::Index>(1, kStackRows / t) : 1;
                std::shared_ptr<const Problem> stacked;
                for (Eigen::Index r = 0; r < carried; r += group * t) {
                    const Eigen::Index copies = std::min(group, (carried - r) / t);
                    if (!stacked || stacked->queryCount() != copies * t)
                        stacked = stackedProblem(*base, int(copies));
                    auto problem = std::make_shared<Problem>(*stacked);
                    problem->queryEmbedding = normed.middleRows(r, copies * t);
                    attention.middleRows(r, copies * t) = backend.compute(problem, compute)->output;
                }
            }
            const AttentionResult& cleanLayer = *clean.layers[std::size_t(l)];
            const AttentionResult& corruptLayer = *corrupt.layers[std::size_t(l)];
            for (std::size_t n = 0; n < throughLayer.size(); ++n) {
                const Patch& patch = patches[std::size_t(throughLayer[n])];
                const Eigen::Index r = carried + Eigen::Index(n) * t;
                x.middleRows(r, t) = corrupt.hidden[std::size_t(l)];
                if (patch.attentionOutput)
                    attention.middleRows(r, t) = cleanLayer.output;
                else
                    attention.middleRows(r, t) =
                        corruptLayer.output + headDelta(cleanLayer, corruptLayer, patch.heads);
            }
            if (l == layers - 1) {
                // Above the last layer only the predicted position reaches the head.
                const Eigen::Index runsHere = rows / t;
                Matrix lastX(runsHere, x.cols());
                Matrix lastAttention(runsHere, x.cols());
                for (Eigen::Index n = 0; n < runsHere; ++n) {
                    lastX.row(n) = x.row(n * t + runs.position);
                    lastAttention.row(n) = attention.row(n * t + runs.position);
                }
                const Matrix out = finishLayer(w, l, ops, lastX, lastAttention);
                stream = Matrix::Zero(rows, x.cols());
                for (Eigen::Index n = 0; n < runsHere; ++n)
                    stream.row(n * t + runs.position) = out.row(n);
            } else {
                stream = finishLayer(w, l, ops, x, attention);
            }
        }
        running.insert(running.end(), throughLayer.begin(), throughLayer.end());
        running.insert(running.end(), afterLayer.begin(), afterLayer.end());
        stream.conservativeResize(Eigen::Index(running.size()) * t, Eigen::NoChange);
        for (std::size_t n = running.size() - afterLayer.size(); n < running.size(); ++n)
            stream.middleRows(Eigen::Index(n) * t, t) = corrupt.hidden[std::size_t(l + 1)];
        // The residual stream after the layer, patched where asked.
        const Matrix& cleanAfter = clean.hidden[std::size_t(l + 1)];
        for (std::size_t n = 0; n < running.size(); ++n) {
            const Patch& patch = patches[std::size_t(running[n])];
            if (patch.layer == l)
                for (int p : patch.positions)
                    stream.row(Eigen::Index(n) * t + p) = cleanAfter.row(p);
        }
        if (options.progress)
            options.progress(++done, total);
    }

    // Only the predicted position's row goes through the final norm and the head.
    Matrix last(Eigen::Index(running.size()), stream.cols());
    for (std::size_t n = 0; n < running.size(); ++n)
        last.row(Eigen::Index(n)) = stream.row(Eigen::Index(n) * t + runs.position);
    const Matrix logits = headLogits(w, ops, finalNorm(w, ops, last));
    for (std::size_t n = 0; n < running.size(); ++n)
        metrics[std::size_t(running[n])] = runs.metric.of(logits.row(Eigen::Index(n)));
}

} // namespace

double PatchingMetric::of(const RowVector& logits) const
{
    if (tokenB >= 0)
        return double(logits(tokenA)) - double(logits(tokenB));
    const double max = double(logits.maxCoeff());
    double sum = 0.0;
    for (Eigen::Index j = 0; j < logits.size(); ++j)
        sum += std::exp(double(logits(j)) - max);
    return std::exp(double(logits(tokenA)) - max) / sum;
}

PatchingMetric parsePatchingMetric(const Model& model, const QString& text)
{
    const QStringList parts = text.split(QLatin1Char(','));
    if (parts.size() > 2)
        throw Error("metric", "expected \"A,B\" (the logit difference) or \"A\" (its "
                              "probability), got " +
                                  std::to_string(parts.size()) + " tokens");
    PatchingMetric metric;
    metric.tokenA = metricToken(model, parts[0]);
    if (parts.size() == 2)
        metric.tokenB = metricToken(model, parts[1]);
    return metric;
}

PatchingRuns patchingRuns(std::shared_ptr<const Model> model, const std::vector<Token>& clean,
                          const std::vector<Token>& corrupt, const Interventions& interventions,
                          const PatchingMetric& metric, Backend& backend)
{
    if (clean.size() != corrupt.size())
        throw Error("activation patching needs prompts of the same length in tokens: the clean "
                    "prompt has " +
                    std::to_string(clean.size()) + " tokens, the corrupted one " +
                    std::to_string(corrupt.size()));
    const int vocab = int(model->weights.outputEmbedding().rows());
    for (int id : {metric.tokenA, metric.tokenB})
        if (id >= vocab || id < (id == metric.tokenA ? 0 : -1))
            throw Error("metric: token id " + std::to_string(id) +
                        " is outside the vocabulary (0 to " + std::to_string(vocab - 1) + ")");
    ForwardOptions forward;
    forward.keepIntermediates = false; // the heads' outputs are kept, the scores are not needed
    forward.topK = 1;
    PatchingRuns runs;
    runs.metric = metric;
    runs.clean = runModel(model, clean, interventions, backend, forward);
    runs.corrupt = runModel(model, corrupt, interventions, backend, forward);
    for (const auto* run : {&runs.clean, &runs.corrupt}) {
        const char* which = run == &runs.clean ? "clean" : "corrupted";
        if ((*run)->predictions.empty())
            throw Error(std::string("activation patching needs a prediction: the model has no "
                                    "language-model head, or the ") +
                        which + " text has no [MASK]");
        if ((*run)->predictions.front().top.empty())
            throw Error(std::string("activation patching needs a prediction of the ") + which +
                        " text: " +
                        ((*run)->warnings.empty() ? std::string("the forward made none")
                                                  : (*run)->warnings.back()));
    }
    runs.position = runs.corrupt->predictions.front().position;
    const TransformerWeights& w = model->weights;
    BlockOps& ops = backend.blockOps();
    runs.cleanMetric =
        metric.of(headLogits(w, ops, runs.clean->finalHidden.row(runs.position)).row(0));
    runs.corruptMetric =
        metric.of(headLogits(w, ops, runs.corrupt->finalHidden.row(runs.position)).row(0));
    return runs;
}

std::vector<double> patchedMetrics(const PatchingRuns& runs, const std::vector<Patch>& patches,
                                   Backend& backend, const PatchingOptions& options)
{
    for (const Patch& patch : patches)
        checkPatch(patch, runs);
    std::vector<int> order(patches.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return patches[std::size_t(a)].layer < patches[std::size_t(b)].layer;
    });
    // Batches of consecutive patches, at most kBatchRows rows each (at least one patch).
    const int t = int(runs.corrupt->tokens.size());
    const int layers = runs.corrupt->layerCount();
    std::vector<std::size_t> starts;
    int total = 0;
    std::size_t rows = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (starts.empty() || rows + std::size_t(t) > std::size_t(kBatchRows)) {
            starts.push_back(i);
            total += layers - patches[std::size_t(order[i])].layer;
            rows = 0;
        }
        rows += std::size_t(t);
    }
    starts.push_back(order.size());
    std::vector<double> metrics(patches.size(), 0.0);
    int done = 0;
    for (std::size_t b = 0; b + 1 < starts.size(); ++b)
        runBatch(runs, patches, order, starts[b], starts[b + 1], backend, options, done, total,
                 metrics);
    return metrics;
}

ActivationPatching activationPatching(const PatchingRuns& runs, Backend& backend,
                                      const PatchingOptions& options)
{
    ActivationPatching result;
    result.runs = runs;
    const int layers = runs.corrupt->layerCount();
    const int heads = layers ? int(runs.corrupt->layers.front()->heads.size()) : 0;
    const int t = int(runs.corrupt->tokens.size());
    std::vector<Patch> patches;
    if (options.heads)
        for (int l = 0; l < layers; ++l)
            for (int h = 0; h < heads; ++h)
                patches.push_back(Patch{l, {h}, false, {}});
    if (options.positions)
        for (int l = 0; l < layers; ++l)
            for (int p = 0; p < t; ++p)
                patches.push_back(Patch{l, {}, false, {p}});
    const std::vector<double> metrics = patchedMetrics(runs, patches, backend, options);

    const double restorable = runs.cleanMetric - runs.corruptMetric;
    if (restorable == 0.0)
        result.warnings.push_back("the clean and corrupted runs give the same metric (" +
                                  std::to_string(runs.cleanMetric) +
                                  "): there is nothing to restore");
    auto fill = [&](std::size_t first, int rows, int cols, Matrix& metric, Matrix& fraction) {
        metric.resize(rows, cols);
        fraction.resize(rows, cols);
        for (int r = 0; r < rows; ++r) {
            for (int c = 0; c < cols; ++c) {
                const double m = metrics[first + std::size_t(r * cols + c)];
                metric(r, c) = float(m);
                fraction(r, c) =
                    restorable == 0.0 ? 0.0f : float((m - runs.corruptMetric) / restorable);
            }
        }
    };
    std::size_t first = 0;
    if (options.heads) {
        fill(first, layers, heads, result.headMetric, result.heads);
        first += std::size_t(layers * heads);
    }
    if (options.positions)
        fill(first, layers, t, result.positionMetric, result.positions);
    return result;
}

} // namespace attn::core
