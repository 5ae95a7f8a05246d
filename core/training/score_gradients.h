#pragma once

#include "core/attention_settings.h"
#include "core/training/layer_parameters.h"

namespace attn::core {

// The score functions of core/attention_settings.h in double, forward and backward, for one
// head: Q is Tq x d_k, K is Tk x d_k, the raw score matrix E is Tq x Tk (before scaling).
//
//   dot, scaled   e_ij = q_i . k_j                      (the 1/sqrt(d_k) is in the scale)
//   additive      e_ij = w . tanh(q_i + k_j)            (seed 001; Bahdanau et al. 2014)
//   bilinear      e_ij = q_i^T M k_j                    (Luong et al. 2015, "general")
//   cosine        e_ij = q_i . k_j / (|q_i| |k_j|)      (0 where either vector is zero)
// For the additive score, `tanhCache` (when given) receives tanh(q_i + k_j) in row
// i * Tk + j, for scoreBackward to reuse.
MatrixD scoreForward(ScoreKind kind, const MatrixD& Q, const MatrixD& K, const HeadParameters& head,
                     MatrixD* tanhCache = nullptr);

// Gradients of a scalar loss L with respect to Q, K and the score's own parameters, given
// G = dL/dE (Tq x Tk). Written out by hand:
//   dot        dQ = G K,  dK = G^T Q
//   additive   with t_ijd = tanh(q_id + k_jd):  dQ_id = sum_j G_ij w_d (1 - t_ijd^2),
//              dK_jd = sum_i G_ij w_d (1 - t_ijd^2),  dw_d = sum_ij G_ij t_ijd
//   bilinear   dQ = G K M^T,  dK = G^T Q M,  dM = Q^T G K
//   cosine     with unit rows u_i = q_i/|q_i|, c_j = k_j/|k_j|:  dU = G C, dC = G^T U, then
//              dq_i = (du_i - u_i (u_i . du_i)) / |q_i| (0 for a zero vector), likewise dk_j.
struct ScoreGradients
{
    MatrixD dQ;
    MatrixD dK;
    RowVectorD dwAdditive; // additive only; empty otherwise
    MatrixD dBilinear;     // bilinear only; empty otherwise
};

ScoreGradients scoreBackward(ScoreKind kind, const MatrixD& G, const MatrixD& Q, const MatrixD& K,
                             const HeadParameters& head, const MatrixD* tanhCache = nullptr);

} // namespace attn::core
