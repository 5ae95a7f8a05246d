#pragma once

#include "matrix.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attn::core {

// One head's parameters. Row convention throughout: Q = X W_q + b_q with X of shape
// T x d_model, as in seed 004 (Q_i = X W_i^Q). Seed 001 writes the column form q = W^q a;
// it is the same map transposed.
struct HeadWeights
{
    bool enabled = true;
    Matrix Wq;            // d_model x d_k
    Matrix Wk;            // d_model x d_k
    Matrix Wv;            // d_model x d_v
    RowVector bq, bk, bv; // empty (no bias) or 1 x d_k, 1 x d_k, 1 x d_v
    RowVector wAdditive;  // 1 x d_k: the w of the additive score w^T tanh(q + k)
    Matrix bilinear;      // d_k x d_k: the M of the bilinear score q^T M k

    bool operator==(const HeadWeights&) const = default;
};

struct ModelWeights
{
    int dModel = 0;
    int dK = 0;
    int dV = 0;
    std::vector<HeadWeights> heads;
    Matrix Wo;    // (h * d_v) x d_model
    RowVector bo; // empty or 1 x d_model

    int headCount() const { return int(heads.size()); }
    // Throws Error naming the first wrong shape or non-finite value, for example
    // "heads[2].W_q: expected 64x16, got 64x15".
    void validate() const;
    // The shapes alone, without reading every value (Problem::weightsValidated).
    void validateShapes() const;

    bool operator==(const ModelWeights&) const = default;

private:
    void check(bool values) const;
};

enum class WeightInit {
    Xavier,   // uniform(-a, a), a = sqrt(6 / (fan_in + fan_out)) (Glorot & Bengio 2010)
    Identity, // head h reads its own slice of the model dimensions (seed 003's reshape)
    Zeros,
};

std::string_view toString(WeightInit init);
std::optional<WeightInit> parseWeightInit(std::string_view name);

// Every matrix draws from its own stream keyed by (seed, its name), so head 0 keeps its
// weights when the number of heads changes.
ModelWeights makeWeights(int dModel, int heads, int dK, int dV, WeightInit init,
                         std::uint64_t seed);

// Re-initialises one matrix in place; `name` keys the random stream ("heads[1].W_k").
void initialiseMatrix(Matrix& matrix, WeightInit init, std::uint64_t seed, const std::string& name,
                      int headIndex = 0);

} // namespace attn::core
