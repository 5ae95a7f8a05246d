#include "core/model/beam_search.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attn::core {
namespace {

struct Candidate
{
    std::size_t beam = 0; // the running hypothesis it extends
    int token = 0;
    double logProbability = 0.0;
};

// BeamHypotheses.add: keeps the N best by score; the worst (the one that ended first among
// equals) leaves when an N + 1-th comes.
void addEnded(std::vector<BeamHypothesis>& ended, BeamHypothesis hypothesis, std::size_t beams)
{
    hypothesis.score = hypothesis.logProbability / double(hypothesis.ids.size());
    ended.push_back(std::move(hypothesis));
    if (ended.size() > beams)
        ended.erase(std::min_element(
            ended.begin(), ended.end(),
            [](const BeamHypothesis& a, const BeamHypothesis& b) { return a.score < b.score; }));
}

} // namespace

Eigen::VectorXd logSoftmax(const Eigen::Ref<const Eigen::RowVectorXf>& logits)
{
    const Eigen::VectorXd l = logits.transpose().cast<double>();
    const double max = l.maxCoeff();
    return l.array() - max - std::log((l.array() - max).exp().sum());
}

BeamSearchResult beamSearch(int beams, int maxNewTokens, int endToken,
                            const NextLogProbabilities& next)
{
    return beamSearchOfAll(beams, maxNewTokens, endToken,
                           [&next](const std::vector<std::vector<int>>& prefixes) {
                               std::vector<Eigen::VectorXd> all;
                               for (const std::vector<int>& prefix : prefixes)
                                   all.push_back(next(prefix));
                               return all;
                           });
}

BeamSearchResult beamSearchOfAll(int beams, int maxNewTokens, int endToken,
                                 const NextLogProbabilitiesOfAll& next)
{
    if (beams < 1)
        throw Error("the beam width must be at least 1, not " + std::to_string(beams));
    if (maxNewTokens < 1)
        throw Error("beam search needs at least 1 new token, not " + std::to_string(maxNewTokens));
    const auto n = std::size_t(beams);
    // One running hypothesis at the start: transformers scores the other N - 1 copies -1e9, so
    // that the first step's candidates all extend the first.
    std::vector<BeamHypothesis> running(1);
    std::vector<BeamHypothesis> ended;
    Eigen::Index vocabulary = -1;
    for (int step = 0; step < maxNewTokens && ended.size() < n; ++step) {
        std::vector<Candidate> candidates;
        std::vector<std::vector<int>> prefixes;
        for (const BeamHypothesis& h : running)
            prefixes.push_back(h.ids);
        const std::vector<Eigen::VectorXd> scored = next(prefixes);
        if (scored.size() != running.size())
            throw Error("beam search: step " + std::to_string(step + 1) + " scored " +
                        std::to_string(scored.size()) + " hypotheses, not " +
                        std::to_string(running.size()));
        for (std::size_t b = 0; b < running.size(); ++b) {
            const Eigen::VectorXd& lp = scored[b];
            if (vocabulary < 0)
                vocabulary = lp.size();
            if (lp.size() != vocabulary || vocabulary < 1)
                throw Error("beam search: step " + std::to_string(step + 1) + " scored " +
                            std::to_string(lp.size()) + " tokens, not " +
                            std::to_string(vocabulary));
            for (Eigen::Index v = 0; v < lp.size(); ++v) {
                if (!std::isfinite(lp(v)) && lp(v) != -INFINITY)
                    throw Error("beam search: step " + std::to_string(step + 1) +
                                ": the log-probabilities are not all numbers");
                candidates.push_back({b, int(v), running[b].logProbability + lp(v)});
            }
        }
        // The best 2N (torch.topk over beams x vocabulary); equal ones in the order listed.
        const std::size_t keep = std::min(candidates.size(), 2 * n);
        std::partial_sort(candidates.begin(), candidates.begin() + std::ptrdiff_t(keep),
                          candidates.end(), [](const Candidate& a, const Candidate& b) {
                              return a.logProbability > b.logProbability ||
                                     (a.logProbability == b.logProbability &&
                                      (a.beam < b.beam || (a.beam == b.beam && a.token < b.token)));
                          });
        std::vector<BeamHypothesis> extended;
        for (std::size_t rank = 0; rank < keep && extended.size() < n; ++rank) {
            const Candidate& c = candidates[rank];
            if (c.logProbability == -INFINITY)
                break;
            BeamHypothesis h;
            h.ids = running[c.beam].ids;
            h.ids.push_back(c.token);
            h.logProbability = c.logProbability;
            if (c.token != endToken) {
                h.score = h.logProbability / double(h.ids.size());
                extended.push_back(std::move(h));
            } else if (rank < n) { // an end token ranked below the first N is dropped
                addEnded(ended, std::move(h), n);
            }
        }
        running = std::move(extended);
        if (running.empty())
            break;
    }
    // At the length (or with nothing left running), the running hypotheses compete too.
    if (ended.size() < n)
        for (BeamHypothesis& h : running)
            addEnded(ended, std::move(h), n);
    if (ended.empty())
        throw Error("beam search: every token has probability 0");
    // Best first; among equal scores the one added last, as transformers' sorted(...).pop().
    std::stable_sort(
        ended.begin(), ended.end(),
        [](const BeamHypothesis& a, const BeamHypothesis& b) { return a.score < b.score; });
    std::reverse(ended.begin(), ended.end());
    BeamSearchResult result;
    result.best = ended.front();
    result.hypotheses = std::move(ended);
    return result;
}

} // namespace attn::core
