#pragma once

// Beam search as transformers' generate runs it with num_beams = N, length_penalty = 1.0 and
// early_stopping = True (generation/beam_search.py: BeamSearchScorer.process, BeamHypotheses):
// each step extends every running hypothesis by every token, ranks the extensions by their
// summed log-probability, and walks the best 2N in order: an end token among the first N ends
// its hypothesis (scored by its log-probability divided by its length, the end token counted),
// any other extension runs on until N run. The search stops once N hypotheses have ended, or at
// the length, where the running ones compete with the ended ones on the same score.

#include <Eigen/Core>

#include <functional>
#include <vector>

namespace attn::core {

struct BeamHypothesis
{
    std::vector<int> ids;        // the new tokens in order, the end token last if it ended
    double logProbability = 0.0; // the sum of the tokens' log-probabilities
    double score = 0.0;          // logProbability / ids.size(): length_penalty 1.0

    bool operator==(const BeamHypothesis&) const = default;
};

struct BeamSearchResult
{
    BeamHypothesis best;
    // The hypotheses it chose among, the best first (at most N: ended ones, and at the length
    // the running ones).
    std::vector<BeamHypothesis> hypotheses;
};

// The log-probabilities over the vocabulary of the token after `prefix` (the new tokens so far).
using NextLogProbabilities = std::function<Eigen::VectorXd(const std::vector<int>& prefix)>;

// The log-probabilities after each of `prefixes`, in order: a step's running hypotheses scored
// together, as transformers runs the beams as one batch.
using NextLogProbabilitiesOfAll =
    std::function<std::vector<Eigen::VectorXd>(const std::vector<std::vector<int>>& prefixes)>;

// Throws Error for fewer than 1 beam or 1 token, or log-probabilities that are not finite or
// not over the same vocabulary each time. Ties in rank go to the running hypothesis listed
// first, then to the lower token id; ties in score to the hypothesis added last.
BeamSearchResult beamSearch(int beams, int maxNewTokens, int endToken,
                            const NextLogProbabilities& next);
BeamSearchResult beamSearchOfAll(int beams, int maxNewTokens, int endToken,
                                 const NextLogProbabilitiesOfAll& next);

// log softmax(logits), in double: logits - max - log sum exp(logits - max).
Eigen::VectorXd logSoftmax(const Eigen::Ref<const Eigen::RowVectorXf>& logits);

} // namespace attn::core
