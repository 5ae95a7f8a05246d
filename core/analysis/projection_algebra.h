#pragma once

#include "core/training/layer_parameters.h"

#include <vector>

namespace attn::core {

struct AttentionResult;

// The algebra of a layer's projections that the seeds state without showing: multi-head
// attention as one projection cut into heads (seed 002), the products W_i^Q W_i^K^T and
// W_i^V W_i^O that are all the output depends on (seed 004), and biases absorbed into the
// weights (Bishop, Deep Learning: Foundations and Concepts, p. 365). Computed in double from a
// result's weights and inputs, so each identity's two sides can be compared.

enum class Projection { Query, Key, Value };

// Seed 002: the h heads' W_i (d_model x d_k each, d_v for values) side by side are one
// W = [W_1 ... W_h] of d_model x h d_k (d_model x d_model when d_k = d_model / h), and X W cut
// into h blocks of d_k columns is the h separate projections X W_i: "one big projection
// followed by a reshape". Biases are left out (they split the same way).
struct OneProjection
{
    Projection which = Projection::Query;
    MatrixD input;                 // X: T x d_model (the keys' input for K and V)
    MatrixD weights;               // d_model x h*width: [W_1 ... W_h]
    MatrixD product;               // X W: T x h*width
    std::vector<MatrixD> separate; // X W_i, one per head: T x width
    int width = 0;                 // d_k, or d_v for values
    double largestDifference = 0;  // max over heads and cells of |block_i(X W) - X W_i|
};
OneProjection oneProjection(const AttentionResult& result, Projection which);

// Seed 004: head i's scores depend on W_i^Q and W_i^K only through W_i^Q W_i^K^T (the QK
// circuit, d_model x d_model: q_a . k_b = x_a W_i^Q W_i^K^T x_b^T) and its output on W_i^V and
// W_i^O only through W_i^V W_i^O (the OV circuit), W_i^O being rows i d_v ... (i+1) d_v - 1 of
// W^O ((h d_v) x d_model). Each product has rank at most d_k (d_v), and (W R, R^-1 W') gives
// the same product for any invertible R: one matrix of each pair is redundant.
struct HeadCircuits
{
    int head = 0;
    MatrixD qk;     // W_i^Q W_i^K^T: d_model x d_model
    MatrixD ov;     // W_i^V W_i^O: d_model x d_model
    int qkRank = 0; // at most d_k
    int ovRank = 0; // at most d_v
    // The layer's output written with the circuits, sum over enabled heads of
    // A_i (X W_i^V W_i^O + 1 b_i^V W_i^O) + b^O, against Concat(H) W^O + b^O as computed:
    // the largest difference of a cell.
    double outputDifference = 0;
    // The scores rebuilt as X_q (W_i^Q W_i^K^T) X_k^T (without biases: only where the head
    // has none) against the raw scores q . k: the largest difference; -1 where the head's
    // score is not the dot product or it has biases or rotary positions.
    double scoreDifference = -1;
};
HeadCircuits headCircuits(const AttentionResult& result, int head);

// Bishop p. 365: X W + b = [X 1] [W; b], the data with a column of ones appended and the
// weights with the bias as an extra row. A head without a bias gets a row of zeros.
struct AbsorbedBias
{
    int head = 0;
    Projection which = Projection::Query;
    MatrixD augmentedInput;       // [X 1]: T x (d_model + 1)
    MatrixD augmentedWeights;     // [W; b]: (d_model + 1) x width
    MatrixD product;              // [X 1] [W; b]
    bool hasBias = false;         // the head has a bias for this projection
    double largestDifference = 0; // against X W + b as the backend computed it (Q, K or V)
};
AbsorbedBias absorbedBias(const AttentionResult& result, int head, Projection which);

} // namespace attn::core
