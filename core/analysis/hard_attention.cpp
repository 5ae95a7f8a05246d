#include "hard_attention.h"

#include "core/attention_result.h"
#include "core/error.h"

#include <cmath>
#include <limits>
#include <string>

namespace attn::core {

HardAttentionLoss hardAttentionLoss(const AttentionResult& result, int head)
{
    if (!result.problem || result.heads.empty())
        throw Error("hard attention view: there is no result to show yet");
    if (result.pooling.pooled || !result.intermediatesKept)
        throw Error("hard attention view: the result has no scores; compute without pooling and "
                    "with the intermediates kept");
    if (head < 0 || head >= int(result.heads.size()))
        throw Error("head: " + std::to_string(head + 1) + " is not a head (1 to " +
                    std::to_string(result.heads.size()) + ")");
    const Problem& problem = *result.problem;
    const Mask mask = problem.makeMask();
    const Matrix& scores = result.heads[std::size_t(head)].maskedScores;
    const int tq = int(scores.rows());
    const int tk = int(scores.cols());

    HardAttentionLoss out;
    out.head = head;
    out.soft = MatrixD::Zero(tq, tk);
    out.hard = MatrixD::Zero(tq, tk);
    for (int i = 0; i < tq; ++i) {
        // Seed 000: the argmax of the softmax is the argmax of the scores.
        int best = -1;
        for (int j = 0; j < tk; ++j)
            if (!mask.isMasked(i, j) && (best < 0 || scores(i, j) > scores(i, best)))
                best = j;
        out.chosen.push_back(best);
        if (best < 0) { // nothing to attend to: an empty row in both
            out.kept.push_back(0.0);
            out.lost.push_back(0.0);
            out.runnerUp.push_back(-1);
            out.runnerUpWeight.push_back(0.0);
            continue;
        }
        double sum = 0.0;
        for (int j = 0; j < tk; ++j)
            if (!mask.isMasked(i, j))
                sum += out.soft(i, j) = std::exp(double(scores(i, j)) - double(scores(i, best)));
        out.soft.row(i) /= sum;
        out.hard(i, best) = 1.0;
        out.kept.push_back(out.soft(i, best));
        out.lost.push_back(1.0 - out.soft(i, best));
        int second = -1;
        for (int j = 0; j < tk; ++j)
            if (j != best && !mask.isMasked(i, j) &&
                (second < 0 || out.soft(i, j) > out.soft(i, second)))
                second = j;
        out.runnerUp.push_back(second);
        out.runnerUpWeight.push_back(second < 0 ? 0.0 : out.soft(i, second));
    }
    return out;
}

} // namespace attn::core
