#include "training_task.h"

#include "core/embedding.h"
#include "core/enum_names.h"
#include "core/error.h"
#include "core/problem.h"
#include "core/random.h"
#include "core/scene.h"

#include <algorithm>
#include <array>
#include <numeric>
#include <utility>

namespace attn::core {
namespace {

constexpr EnumNames<TrainingTask, 5> kTaskNames{{
    {TrainingTask::Copy, "copy"},
    {TrainingTask::PreviousToken, "previous-token"},
    {TrainingTask::Reverse, "reverse"},
    {TrainingTask::Translation, "translation"},
    {TrainingTask::KeyValue, "key-value"},
}};

// A distinct stream for the stored values, so that they never equal the hashed embeddings.
constexpr std::uint64_t kValueStream = 0x76616c7565ULL; // "value"

std::vector<QString> texts(const std::vector<Token>& tokens)
{
    std::vector<QString> out;
    out.reserve(tokens.size());
    for (const Token& t : tokens)
        out.push_back(t.text);
    return out;
}

std::string quoted(const QString& word)
{
    return "\"" + word.toStdString() + "\"";
}

// The key each query row should attend to (-1: no target, the row is left out).
std::vector<int> positionalTargets(TrainingTask task, int tq, int tk)
{
    std::vector<int> target(std::size_t(tq), -1);
    for (int i = 0; i < tq; ++i) {
        int j = -1;
        switch (task) {
        case TrainingTask::Copy:
            j = i;
            break;
        case TrainingTask::PreviousToken:
            j = i - 1;
            break;
        case TrainingTask::Reverse:
            j = tk - 1 - i;
            break;
        default:
            break;
        }
        target[std::size_t(i)] = j >= 0 && j < tk ? j : -1;
    }
    return target;
}

// The argmax of the scene's own first enabled head, over the keys its mask leaves: the
// alignment the translation task learns.
std::vector<int> sceneAlignment(const Scene& scene, const LayerInputs& inputs)
{
    const LayerParameters parameters = LayerParameters::fromWeights(scene.weights);
    const LayerForward forward = forwardLayer(parameters, inputs);
    std::size_t head = 0;
    while (head < parameters.heads.size() && !parameters.heads[head].enabled)
        ++head;
    if (head == parameters.heads.size())
        throw Error("heads", "every head is switched off; the translation task takes its alignment "
                             "from the first enabled head");
    const MatrixD& scores = forward.heads[head].scaled;
    std::vector<int> target(std::size_t(inputs.queries()), -1);
    for (int i = 0; i < inputs.queries(); ++i) {
        for (int j = 0; j < inputs.keys(); ++j)
            if (!inputs.isMasked(i, j) &&
                (target[std::size_t(i)] < 0 || scores(i, j) > scores(i, target[std::size_t(i)])))
                target[std::size_t(i)] = j; // ties keep the lowest index, as hard attention
    }
    return target;
}

// Rows of equal inputs get equal attention rows: say where that stops a task from being
// learned exactly.
void noteIndistinguishable(const TrainingExample& e, std::vector<QString>& notes)
{
    const LayerInputs& in = e.inputs;
    for (int a = 0; a < in.queries(); ++a)
        for (int b = a + 1; b < in.queries(); ++b)
            if (e.countedRows[std::size_t(a)] && e.countedRows[std::size_t(b)] &&
                in.queryInput.row(a) == in.queryInput.row(b) &&
                e.targetWeights.row(a) != e.targetWeights.row(b)) {
                notes.push_back(
                    QStringLiteral("queries %1 and %2 (\"%3\") have the same input vector, so they "
                                   "get the same attention row and the task cannot be learned "
                                   "exactly: add positions (sinusoidal) to tell them apart")
                        .arg(a)
                        .arg(b)
                        .arg(e.queryTokens[std::size_t(a)]));
                return;
            }
    for (int a = 0; a < in.keys(); ++a)
        for (int b = a + 1; b < in.keys(); ++b)
            if (in.keyInput.row(a) == in.keyInput.row(b) &&
                (e.targetWeights.col(a) != e.targetWeights.col(b))) {
                notes.push_back(
                    QStringLiteral("keys %1 and %2 (\"%3\") have the same input vector, so every "
                                   "query scores them alike and the task cannot be learned "
                                   "exactly: add positions (sinusoidal) to tell them apart")
                        .arg(a)
                        .arg(b)
                        .arg(e.keyTokens[std::size_t(a)]));
                return;
            }
}

void shuffle(std::vector<int>& order, Random& random)
{
    // Fisher-Yates with the project's own generator, the same on every platform.
    for (std::size_t i = order.size(); i > 1; --i)
        std::swap(order[i - 1], order[std::size_t(random.nextU64() % i)]);
}

// One key-value example: the problem's tokens in the given orders (embeddings move with
// their words, positions stay by index), every key word storing its value.
TrainingExample keyValueExample(const Problem& p, const std::vector<int>& queryOrder,
                                const std::vector<int>& keyOrder, std::uint64_t valueSeed, int d)
{
    const int tq = int(queryOrder.size());
    const int tk = int(keyOrder.size());
    TrainingExample e;
    std::vector<bool> padding(std::size_t(tk), false);
    e.inputs.queryInput.resize(tq, d);
    e.inputs.keyInput.resize(tk, d);
    const Matrix& keyEmbedding = p.cross ? p.keyEmbedding : p.queryEmbedding;
    const Matrix queryPosition = p.queryPositionOrZeros();
    const Matrix keyPosition = !p.cross ? queryPosition
                               : p.hasPositions()
                                   ? p.keyPosition
                                   : Matrix::Zero(keyEmbedding.rows(), keyEmbedding.cols());
    for (int i = 0; i < tq; ++i) {
        const int from = queryOrder[std::size_t(i)];
        e.inputs.queryInput.row(i) =
            (p.queryEmbedding.row(from) + queryPosition.row(i)).cast<double>();
        e.queryTokens.push_back(p.queryTokens[std::size_t(from)].text);
    }
    for (int j = 0; j < tk; ++j) {
        const int from = keyOrder[std::size_t(j)];
        e.inputs.keyInput.row(j) = (keyEmbedding.row(from) + keyPosition.row(j)).cast<double>();
        e.keyTokens.push_back(p.keyTokens[std::size_t(from)].text);
        padding[std::size_t(j)] = p.keyIsPadding[std::size_t(from)];
    }
    const Mask mask(p.mask, padding, tq, tk);
    e.inputs.masked.resize(std::size_t(tq) * std::size_t(tk));
    for (int i = 0; i < tq; ++i)
        mask.fillRow(i, e.inputs.masked.data() + std::size_t(i) * std::size_t(tk));
    e.inputs.score = p.score;
    e.inputs.normalization = p.normalization;
    e.inputs.fill = p.fill;
    e.inputs.temperature = p.temperature;

    e.targetWeights = MatrixD::Zero(tq, tk);
    e.targetOutput = MatrixD::Zero(tq, d);
    e.countedRows.assign(std::size_t(tq), false);
    for (int i = 0; i < tq; ++i) {
        std::vector<int> matches;
        for (int j = 0; j < tk; ++j)
            if (e.keyTokens[std::size_t(j)] == e.queryTokens[std::size_t(i)] &&
                !e.inputs.isMasked(i, j))
                matches.push_back(j);
        if (matches.empty())
            continue;
        e.countedRows[std::size_t(i)] = true;
        for (int j : matches)
            e.targetWeights(i, j) = 1.0 / double(matches.size());
        e.targetOutput.row(i) =
            hashedEmbedding(e.queryTokens[std::size_t(i)], valueSeed ^ kValueStream, d)
                .cast<double>();
    }
    return e;
}

} // namespace

std::string_view toString(TrainingTask task)
{
    return enumName(kTaskNames, task, "?");
}

std::optional<TrainingTask> parseTrainingTask(std::string_view name)
{
    return enumFromName(kTaskNames, name);
}

std::string allTrainingTaskNames()
{
    return joinedEnumNames(kTaskNames);
}

QString describeTask(TrainingTask task)
{
    switch (task) {
    case TrainingTask::Copy:
        return QStringLiteral(
            "Copy: every token attends to itself (cross-entropy of each attention row "
            "against the diagonal).");
    case TrainingTask::PreviousToken:
        return QStringLiteral(
            "Previous token: every token attends to the one before it, under the causal "
            "mask (cross-entropy against the shifted diagonal).");
    case TrainingTask::Reverse:
        return QStringLiteral("Reverse: token i attends to token T-1-i (cross-entropy against the "
                              "anti-diagonal).");
    case TrainingTask::Translation:
        return QStringLiteral(
            "Translation: each target word attends to the source word the scene's weights "
            "align it with, learned from fresh weights (Bahdanau et al. 2015).");
    case TrainingTask::KeyValue:
        return QStringLiteral(
            "Key-value lookup: each query finds the key of its word (cross-entropy) and "
            "outputs the value stored under it (mean squared error).");
    }
    return {};
}

Scene sceneForTask(const Scene& scene, TrainingTask task)
{
    Scene out = scene;
    if (task == TrainingTask::PreviousToken)
        out.mask.causal = true;
    else if (task == TrainingTask::Reverse || task == TrainingTask::KeyValue)
        out.mask.causal = false;
    return out;
}

TrainingData makeTrainingData(const Scene& original, TrainingTask task, const TaskOptions& options)
{
    const Scene scene = sceneForTask(original, task);
    const auto problem = resolveProblem(scene);
    TrainingData data;
    data.task = task;
    if (task == TrainingTask::KeyValue)
        data.outputWeight = 1.0;

    TrainingExample e;
    e.inputs = LayerInputs::fromProblem(*problem);
    e.queryTokens = texts(problem->queryTokens);
    e.keyTokens = texts(problem->keyTokens);
    const int tq = e.inputs.queries();
    const int tk = e.inputs.keys();
    const int d = scene.weights.dModel;
    e.targetWeights = MatrixD::Zero(tq, tk);
    e.targetOutput = MatrixD::Zero(tq, d);
    e.countedRows.assign(std::size_t(tq), false);
    const std::string name(toString(task));

    if (task == TrainingTask::KeyValue) {
        std::vector<int> queryOrder(static_cast<std::size_t>(tq)),
            keyOrder(static_cast<std::size_t>(tk));
        std::iota(queryOrder.begin(), queryOrder.end(), 0);
        std::iota(keyOrder.begin(), keyOrder.end(), 0);
        Random random(options.valueSeed ^ kValueStream);
        for (int k = 0; k <= std::max(0, options.shuffledExamples); ++k) {
            if (k > 0) {
                shuffle(keyOrder, random);
                if (problem->cross)
                    shuffle(queryOrder, random);
                else
                    queryOrder = keyOrder; // one sentence: queries and keys move together
            }
            TrainingExample shuffled =
                keyValueExample(*problem, queryOrder, keyOrder, options.valueSeed, d);
            if (k == 0) {
                e = std::move(shuffled);
                if (std::find(e.countedRows.begin(), e.countedRows.end(), true) ==
                    e.countedRows.end())
                    throw Error(
                        "key-value: no query word is among the keys; the queries look up the keys "
                        "by "
                        "their word (give a source sentence that holds the query words, or use "
                        "self-attention)");
            } else {
                data.examples.push_back(std::move(shuffled));
            }
        }
    } else {
        std::vector<int> target;
        if (task == TrainingTask::Translation) {
            if (!problem->cross)
                throw Error(
                    "translation: the task needs a source sentence (cross-attention), as the "
                    "French/English example has: open the translation example or give a source");
            if (!options.alignment.empty()) {
                if (int(options.alignment.size()) != tq)
                    throw Error("alignment: " + std::to_string(options.alignment.size()) +
                                " entries for " + std::to_string(tq) + " target tokens");
                target = options.alignment;
                for (std::size_t i = 0; i < target.size(); ++i)
                    if (target[i] < -1 || target[i] >= tk)
                        throw Error("alignment[" + std::to_string(i) + "]: " +
                                    std::to_string(target[i]) + " is not a source position (0 to " +
                                    std::to_string(tk - 1) + ", or -1)");
            } else {
                target = sceneAlignment(scene, e.inputs);
            }
        } else {
            target = positionalTargets(task, tq, tk);
        }
        for (int i = 0; i < tq; ++i) {
            const int j = target[std::size_t(i)];
            if (j < 0)
                continue;
            if (e.inputs.isMasked(i, j))
                throw Error(name + ": query " + std::to_string(i) + " (" +
                            quoted(e.queryTokens[std::size_t(i)]) + ") would attend to key " +
                            std::to_string(j) + " (" + quoted(e.keyTokens[std::size_t(j)]) +
                            "), which the mask hides; switch that mask off to train this task");
            e.countedRows[std::size_t(i)] = true;
            e.targetWeights(i, j) = 1.0;
            e.targetOutput.row(i) = e.inputs.keyInput.row(j);
        }
        if (std::find(e.countedRows.begin(), e.countedRows.end(), true) == e.countedRows.end())
            throw Error(name + ": the sentence is too short for this task (no query has a target)");
    }
    noteIndistinguishable(e, data.notes);
    data.examples.insert(data.examples.begin(), std::move(e));
    return data;
}

} // namespace attn::core
