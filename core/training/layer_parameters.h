#pragma once

#include "core/attention_settings.h"
#include "core/model_weights.h"

#include <Eigen/Core>
#include <string>
#include <vector>

namespace attn::core {

// Training and the analyses compute in double: central finite differences need it, and at
// T <= 16, d_model <= 64 it costs nothing next to the 5 ms a step may take.
using MatrixD = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using RowVectorD = Eigen::Matrix<double, 1, Eigen::Dynamic>;

// One head's trainable numbers in double, in ModelWeights' row convention (Q = X W_q + b_q).
// An empty bias is absent, not zero: it is neither used nor trained.
struct HeadParameters
{
    bool enabled = true;
    MatrixD Wq, Wk, Wv;    // d_model x d_k, d_model x d_k, d_model x d_v
    RowVectorD bq, bk, bv; // empty or 1 x d_k, 1 x d_k, 1 x d_v
    RowVectorD wAdditive;  // 1 x d_k: w of the additive score w^T tanh(q + k)
    MatrixD bilinear;      // d_k x d_k: M of the bilinear score q^T M k
};

// A single attention layer's parameters (seed 004: Z = Cat[H_1 .. H_h] W^O + b_O). The same
// type holds their gradients and Adam's moments, so the three line up block for block.
struct LayerParameters
{
    std::vector<HeadParameters> heads;
    MatrixD Wo; // (h d_v) x d_model
    RowVectorD bo;

    static LayerParameters fromWeights(const ModelWeights& weights);
    // The weights with these values, in float; shapes, d_k and d_v as in `like`.
    ModelWeights toWeights(const ModelWeights& like) const;
    // The same shapes, every value 0 (a gradient to accumulate into).
    LayerParameters zerosLike() const;

    int dModel() const { return int(Wo.cols()); }
    int dK() const { return heads.empty() ? 0 : int(heads.front().Wq.cols()); }
    int dV() const { return heads.empty() ? 0 : int(heads.front().Wv.cols()); }
};

// What a parameter block is, so that training can freeze some and tests can name them.
enum class ParameterRole {
    Query,  // W_q, b_q
    Key,    // W_k, b_k
    Value,  // W_v, b_v
    Output, // W_O, b_O
    Score,  // w of the additive score, M of the bilinear score
};

// One contiguous block of a LayerParameters: "heads[0].W_q" and its values.
struct ParameterBlock
{
    std::string name;
    ParameterRole role;
    int head = -1; // -1 for W_O and b_O
    bool bias = false;
    double* data = nullptr;
    Eigen::Index size = 0;
};

// Every non-empty block, heads first (W_q, b_q, W_k, b_k, W_v, b_v, w_additive, bilinear),
// then W_O and b_O: the same order for any two LayerParameters of the same shape.
std::vector<ParameterBlock> parameterBlocks(LayerParameters& parameters);

} // namespace attn::core
