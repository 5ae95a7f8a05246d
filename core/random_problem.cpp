#include "random_problem.h"

#include "embedding.h"
#include "model_weights.h"

#include <QString>
#include <algorithm>

namespace attn::core {

std::shared_ptr<Problem> randomProblem(int queries, int keys, int dModel, int heads,
                                       std::uint64_t seed, bool cross)
{
    auto p = std::make_shared<Problem>();
    for (int i = 0; i < queries; ++i)
        p->queryTokens.push_back({QStringLiteral("q%1").arg(i % 37), -1, 0, false});
    p->cross = cross;
    if (cross)
        for (int j = 0; j < keys; ++j)
            p->keyTokens.push_back({QStringLiteral("k%1").arg(j % 41), -1, 0, false});
    else
        p->keyTokens = p->queryTokens;
    auto embed = [&](const std::vector<Token>& tokens) {
        Matrix m(int(tokens.size()), dModel);
        for (int i = 0; i < m.rows(); ++i)
            m.row(i) = hashedEmbedding(tokens[std::size_t(i)].text, seed, dModel);
        return m;
    };
    PositionalSettings sinusoidal;
    sinusoidal.kind = PositionalKind::Sinusoidal;
    p->queryEmbedding = embed(p->queryTokens);
    p->queryPosition = positionalEncoding(p->queryCount(), dModel, sinusoidal);
    if (cross) {
        p->keyEmbedding = embed(p->keyTokens);
        p->keyPosition = positionalEncoding(p->keyCount(), dModel, sinusoidal);
    }
    p->keyIsPadding.assign(std::size_t(p->keyCount()), false);
    const int dk = std::max(1, dModel / heads);
    p->weights = std::make_shared<const ModelWeights>(
        makeWeights(dModel, heads, dk, dk, WeightInit::Xavier, seed));
    return p;
}

} // namespace attn::core
