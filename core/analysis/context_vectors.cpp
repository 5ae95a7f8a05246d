#include "context_vectors.h"

#include "core/attention_result.h"
#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/scene.h"

#include <algorithm>

namespace attn::core {
namespace {

int tokenOf(const Problem& problem, const QString& word, const QString& sentence)
{
    for (std::size_t i = 0; i < problem.queryTokens.size(); ++i)
        if (problem.queryTokens[i].text == word)
            return int(i);
    throw Error("context view: \"" + word.toStdString() + "\" is not a token of \"" +
                sentence.toStdString() + "\"");
}

} // namespace

ContextComparison compareContexts(const Scene& scene, const QString& otherText, const QString& word)
{
    if (scene.source)
        throw Error("context view: the scene is cross-attention; it compares one sentence");
    ContextComparison out;
    out.word = word;
    out.sentences = {scene.text, otherText};
    Scene other = scene;
    other.text = otherText;
    CpuBackend backend;
    const auto first = backend.compute(resolveProblem(scene), ComputeOptions{});
    const auto second = backend.compute(resolveProblem(other), ComputeOptions{});
    const int dModel = scene.weights.dModel;
    out.inputs.resize(2, dModel);
    out.outputs.resize(2, dModel);
    int row = 0;
    for (const auto& result : {first, second}) {
        const int at = tokenOf(*result->problem, word, out.sentences[row]);
        out.inputs.row(row) = result->queryInput().row(at).cast<double>();
        out.outputs.row(row) = result->output.row(at).cast<double>();
        ++row;
    }
    out.inputDifference = (out.inputs.row(0) - out.inputs.row(1)).cwiseAbs().maxCoeff();
    out.outputDifference = (out.outputs.row(0) - out.outputs.row(1)).cwiseAbs().maxCoeff();
    const double norms = out.outputs.row(0).norm() * out.outputs.row(1).norm();
    out.outputCosine = norms > 0 ? out.outputs.row(0).dot(out.outputs.row(1)) / norms : 0.0;
    return out;
}

} // namespace attn::core
