#pragma once

#include "core/attention_settings.h"
#include "core/training/layer_parameters.h"

#include <cstdint>

namespace attn::core {

// The normalizations of core/normalization.h in double, one row at a time: forward as
// normalizeRow computes it for finite scores, the vector-Jacobian product for training, and
// the Jacobian itself for the gradient view. `scores` are the scaled scores before masking;
// masked[j] != 0 marks a masked key. With MaskFill::NegativeInfinity a masked cell is
// excluded (weight 0; a fully masked row is all zeros); with MaskFill::MinusNineE15 it holds
// -9e15 and counts as a number (a fully masked row is uniform under softmax).
void normalizeRowD(const double* scores, const std::uint8_t* masked, int count,
                   Normalization normalization, MaskFill fill, double* weights);

// dL/ds_k = sum_j dL/dw_j  dw_j/ds_k, for weights w computed by normalizeRowD from the same
// scores. A masked cell holds a constant (the fill), so its gradient is 0. Per normalization:
//   softmax    dw_j/ds_k = w_j (delta_jk - w_k)            so  ds = w * (dw - <dw, w>)
//   relu       w = r / sum r, r = max(s, 0):  dw_j/ds_k = [s_k > 0] (delta_jk - w_j) / sum r
//   sparsemax  dw_j/ds_k = [j, k in S] (delta_jk - 1/|S|),  S the support (Martins &
//              Astudillo 2016, eq. 12)
//   hard       0 wherever the argmax is unique: a one-hot row does not move when the scores
//              move a little (seed 000: "it is not differentiable")
//   none       the identity on unmasked cells
void normalizeRowBackward(const double* scores, const std::uint8_t* masked, int count,
                          Normalization normalization, MaskFill fill, const double* weights,
                          const double* dWeights, double* dScores);

// The Jacobian J (count x count), J(j, k) = dw_j / ds_k, as the backward above uses it;
// masked columns are 0.
MatrixD normalizationJacobian(const double* scores, const std::uint8_t* masked, int count,
                              Normalization normalization, MaskFill fill, const double* weights);

} // namespace attn::core
