#include "problem.h"

#include "error.h"
#include "limits.h"

#include <cmath>

namespace attn::core {

float Problem::scoreScale() const
{
    // Vaswani et al. eq. 1 divides by sqrt(d_k); the temperature divides every score kind.
    // Scaling by 1/sqrt(d_k) is therefore the same as temperature sqrt(d_k) (tested).
    const double scale = score == ScoreKind::ScaledDot ? 1.0 / std::sqrt(double(weights->dK)) : 1.0;
    return float(scale / double(temperature));
}

ModelWeights& Problem::editWeights()
{
    weightsValidated = false;
    auto own = std::make_shared<ModelWeights>(*weights);
    weights = own;
    return *own;
}

Matrix Problem::queryInput() const
{
    return hasPositions() ? Matrix(queryEmbedding + queryPosition) : queryEmbedding;
}

Matrix Problem::keyInput() const
{
    if (!cross)
        return queryInput();
    return hasPositions() ? Matrix(keyEmbedding + keyPosition) : keyEmbedding;
}

Matrix Problem::queryPositionOrZeros() const
{
    return hasPositions() ? queryPosition
                          : Matrix::Zero(queryEmbedding.rows(), queryEmbedding.cols());
}

Mask Problem::makeMask() const
{
    return Mask(mask, keyIsPadding, queryCount(), keyCount());
}

void Problem::validate() const
{
    const int tq = queryCount();
    const int tk = keyCount();
    if (tq == 0)
        throw Error("text",
                    cross ? "the target sentence has no tokens" : "the sentence has no tokens");
    if (tk == 0)
        throw Error("source", "the source sentence has no tokens");
    if (tq > kMaxTokens || tk > kMaxTokens)
        throw Error("text", "more than " + std::to_string(kMaxTokens) + " tokens");
    if (weightsValidated)
        weights->validateShapes();
    else
        weights->validate();
    const int d = weights->dModel;
    auto checkInput = [d](const char* what, const Matrix& m, int rows) {
        if (m.rows() != rows || m.cols() != d)
            throw Error(what, "expected " + std::to_string(rows) + "x" + std::to_string(d) +
                                  ", got " + std::to_string(m.rows()) + "x" +
                                  std::to_string(m.cols()));
    };
    checkInput("query embeddings", queryEmbedding, tq);
    if (hasPositions())
        checkInput("query positions", queryPosition, tq);
    if (cross) {
        checkInput("key embeddings", keyEmbedding, tk);
        if (hasPositions())
            checkInput("key positions", keyPosition, tk);
        else if (keyPosition.size() != 0)
            throw Error("key positions: given while the queries have none");
    } else if (tk != tq) {
        throw Error("self-attention: " + std::to_string(tk) + " key tokens for " +
                    std::to_string(tq) + " queries");
    }
    if (!(temperature > 0.0f) || !std::isfinite(temperature))
        throw Error("attention.temperature", "must be a positive finite number");
    if (mask.window < -1)
        throw Error("mask.window", "must be off or >= 0");
    if (rotary.enabled()) {
        const int d = weights->dK;
        if (d % 2 != 0 || std::size_t(d / 2) != rotary.inverseFrequencies.size())
            throw Error("rotary: " + std::to_string(rotary.inverseFrequencies.size()) +
                        " frequencies for d_k = " + std::to_string(d) + " (needs d_k / 2)");
        if (rotary.firstPosition < 0)
            throw Error("rotary: the first position must be >= 0");
    }
    if (scoreBias) {
        const Matrix& b = *scoreBias;
        const Eigen::Index rows = Eigen::Index(weights->headCount()) * tq;
        if (b.rows() != rows || b.cols() != tk)
            throw Error("score bias", "expected " + std::to_string(rows) + "x" +
                                          std::to_string(tk) + " (heads x queries, keys), got " +
                                          std::to_string(b.rows()) + "x" +
                                          std::to_string(b.cols()));
        if (!b.allFinite())
            throw Error("score bias", "holds a value that is not a finite number");
    }
    for (std::size_t c = 0; c < mask.customCells.size(); ++c) {
        const auto [i, j] = mask.customCells[c];
        if (i < 0 || i >= tq || j < 0 || j >= tk)
            throw Error("mask.custom[" + std::to_string(c) + "]",
                        "cell (" + std::to_string(i) + ", " + std::to_string(j) +
                            ") is outside the " + std::to_string(tq) + "x" + std::to_string(tk) +
                            " attention matrix");
    }
}

} // namespace attn::core
