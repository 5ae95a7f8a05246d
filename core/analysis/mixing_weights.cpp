#include "mixing_weights.h"

#include "core/attention_result.h"
#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/scene.h"

#include <random>
#include <string>

namespace attn::core {
namespace {

QStringList tokensOf(const AttentionResult& result)
{
    QStringList tokens;
    for (const auto& token : result.problem->queryTokens)
        tokens << token.text;
    return tokens;
}

} // namespace

MatrixD fullyConnectedMixing(int n, std::uint64_t seed)
{
    std::mt19937 g(static_cast<std::mt19937::result_type>(seed));
    MatrixD m(n, n);
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
            m(i, j) = double(g() % 1000 + 1) / 1000.0;
    for (int i = 0; i < n; ++i)
        m.row(i) /= m.row(i).sum();
    return m;
}

MatrixD convolutionMixing(int n)
{
    MatrixD m = MatrixD::Zero(n, n);
    for (int i = 0; i < n; ++i) {
        m(i, i) = 0.5;
        if (i > 0)
            m(i, i - 1) = 0.25;
        if (i + 1 < n)
            m(i, i + 1) = 0.25;
    }
    return m;
}

MixingComparison compareMixing(const Scene& scene, const QString& otherText, int head)
{
    if (scene.source)
        throw Error("mixing view: the scene is cross-attention; it compares one sentence");
    if (head < 0 || head >= scene.weights.headCount())
        throw Error("mixing view: the scene has no head " + std::to_string(head + 1));
    Scene other = scene;
    other.text = otherText;
    CpuBackend backend;
    const auto first = backend.compute(resolveProblem(scene), ComputeOptions{});
    const auto second = backend.compute(resolveProblem(other), ComputeOptions{});
    MixingComparison out;
    out.before = tokensOf(*first);
    out.after = tokensOf(*second);
    const int n = int(out.before.size());
    if (out.after.size() != n)
        throw Error("mixing view: \"" + otherText.toStdString() + "\" has " +
                    std::to_string(out.after.size()) + " tokens, the scene's sentence " +
                    std::to_string(n) + "; change a word or swap two");
    const AttentionResult* results[2] = {first.get(), second.get()};
    for (int s = 0; s < 2; ++s) {
        out.layers[0][s] = fullyConnectedMixing(n, scene.seed);
        out.layers[1][s] = convolutionMixing(n);
        out.layers[2][s] = results[s]->heads[std::size_t(head)].weights.cast<double>();
    }
    for (int l = 0; l < 3; ++l)
        out.changes[l] = n == 0 ? 0.0 : (out.layers[l][1] - out.layers[l][0]).cwiseAbs().maxCoeff();
    return out;
}

} // namespace attn::core
