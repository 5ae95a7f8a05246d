#pragma once

// Problems shared by the core, gpu and app tests.

#include "core/embedding.h"
#include "core/model_weights.h"
#include "core/problem.h"
#include "core/random_problem.h"

#include <QString>
#include <QStringList>
#include <memory>

namespace attn::test {

inline std::vector<core::Token> tokensOf(const QStringList& words)
{
    std::vector<core::Token> tokens;
    for (const QString& word : words)
        tokens.push_back({word, -1, 0, false});
    return tokens;
}

// Seed 001's "This is a cat." worked by hand: one-hot inputs (X = I, so Q = W_q, K = W_k,
// V = W_v), d_model = 4, one head with d_k = d_v = 2, small integer weights.
//   q = (1,0) (0,1) (1,1) (0,0)    k = (1,0) (0,1) (0,0) (1,1)    v = (1,2) (0,1) (2,0) (1,1)
// so Q K^T = [1 0 0 1; 0 1 0 1; 1 1 0 2; 0 0 0 0].
inline std::shared_ptr<core::Problem> handProblem(core::ScoreKind score,
                                                  core::Normalization normalization)
{
    auto p = std::make_shared<core::Problem>();
    p->queryTokens = tokensOf({"This", "is", "a", "cat"});
    p->keyTokens = p->queryTokens;
    p->queryEmbedding = core::Matrix::Identity(4, 4); // no positions added
    p->keyIsPadding.assign(4, false);

    core::ModelWeights& w = p->editWeights();
    w.dModel = 4;
    w.dK = 2;
    w.dV = 2;
    core::HeadWeights head;
    head.Wq.resize(4, 2);
    head.Wq << 1, 0, 0, 1, 1, 1, 0, 0;
    head.Wk.resize(4, 2);
    head.Wk << 1, 0, 0, 1, 0, 0, 1, 1;
    head.Wv.resize(4, 2);
    head.Wv << 1, 2, 0, 1, 2, 0, 1, 1;
    head.wAdditive.resize(2);
    head.wAdditive << 1, -1;
    head.bilinear = core::Matrix::Identity(2, 2);
    w.heads.push_back(head);
    w.Wo.resize(2, 4);
    w.Wo << 1, 0, 1, 0, 0, 1, 0, 1;
    p->score = score;
    p->normalization = normalization;
    return p;
}

// handProblem with every bias non-zero, for the bias path worked by hand (X = I, so each
// row of Q, K, V is the row of W plus the bias):
//   b_q = (0, 1):   Q = (1,1) (0,2) (1,2) (0,1)
//   b_k = (1, 0):   K = (2,0) (1,1) (1,0) (2,1)
//   b_v = (-1, 1):  V = (0,3) (-1,2) (1,1) (0,2)
//   b_o = (1, 0, -1, 2)
// so Q K^T = [2 2 1 3; 0 2 0 2; 2 3 1 4; 0 1 0 1].
inline std::shared_ptr<core::Problem> handProblemWithBiases(core::ScoreKind score,
                                                            core::Normalization normalization)
{
    auto p = handProblem(score, normalization);
    core::HeadWeights& head = p->editWeights().heads[0];
    head.bq.resize(2);
    head.bq << 0, 1;
    head.bk.resize(2);
    head.bk << 1, 0;
    head.bv.resize(2);
    head.bv << -1, 1;
    p->editWeights().bo.resize(4);
    p->editWeights().bo << 1, 0, -1, 2;
    return p;
}

// Seeded random self- or cross-attention of any size (core/random_problem.h, which the
// benchmark measures).
using core::randomProblem;

// handProblem with a second head (head 0's weights again, W^O's rows 3-4 copying 1-2) and a
// per-head score bias (T5's relative position bias is one), causal:
//   head 0: B = [0 1 -1 2; 1 0 0 -2; 2 0 1 0; -1 2 0 3]
//   head 1: -B
// so head 0's raw scores Q K^T + B = [1 1 -1 3; 1 1 0 -1; 3 1 1 2; -1 2 0 3] and head 1's
// Q K^T - B = [1 -1 1 -1; -1 1 0 3; -1 1 -1 2; 1 -2 0 -3].
inline std::shared_ptr<core::Problem> handProblemWithScoreBias()
{
    auto p = handProblem(core::ScoreKind::Dot, core::Normalization::Softmax);
    core::ModelWeights& w = p->editWeights();
    w.heads.push_back(w.heads[0]);
    w.Wo.resize(4, 4);
    w.Wo << 1, 0, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 1;
    core::Matrix b(4, 4);
    b << 0, 1, -1, 2, 1, 0, 0, -2, 2, 0, 1, 0, -1, 2, 0, 3;
    core::Matrix bias(8, 4);
    bias << b, -b;
    p->scoreBias = std::make_shared<const core::Matrix>(std::move(bias));
    p->mask.causal = true;
    return p;
}

} // namespace attn::test
