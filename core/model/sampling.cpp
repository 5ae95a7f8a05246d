#include "sampling.h"

#include "core/error.h"
#include "core/random.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <set>
#include <string>

namespace attn::core {

void SamplingSettings::validate() const
{
    auto number = [](float value) { return std::to_string(double(value)); };
    if (!std::isfinite(temperature) || temperature < 0.0f)
        throw Error("temperature",
                    number(temperature) + " is not allowed: give 0 (greedy) or a number above 0");
    if (topK < 0)
        throw Error("top-k", std::to_string(topK) +
                                 " is not allowed: give 0 (every token) or a number above 0");
    if (!std::isfinite(topP) || topP <= 0.0f || topP > 1.0f)
        throw Error("top-p", number(topP) + " is outside (0, 1]: give a probability above 0, "
                                            "at most 1 (1 keeps every token)");
    if (!std::isfinite(repetitionPenalty) || repetitionPenalty <= 0.0f)
        throw Error("repetition penalty",
                    number(repetitionPenalty) + " is not allowed: give a number above 0 (1: none)");
}

void applyRepetitionPenalty(RowVector& logits, const std::vector<int>& previous, float penalty)
{
    if (penalty == 1.0f)
        return;
    const std::set<int> once(previous.begin(), previous.end());
    for (int id : once) {
        if (id < 0 || id >= logits.size())
            continue;
        float& logit = logits(id);
        logit = logit < 0.0f ? logit * penalty : logit / penalty;
    }
}

int greedyToken(const RowVector& logits)
{
    int best = -1;
    for (int id = 0; id < int(logits.size()); ++id)
        if (std::isfinite(logits(id)) && (best < 0 || logits(id) > logits(best)))
            best = id;
    return best;
}

std::vector<double> softmaxAt(const RowVector& logits, float temperature)
{
    std::vector<double> p(std::size_t(logits.size()), 0.0);
    if (temperature == 0.0f) {
        if (const int best = greedyToken(logits); best >= 0)
            p[std::size_t(best)] = 1.0;
        return p;
    }
    double max = -INFINITY;
    for (int id = 0; id < int(logits.size()); ++id)
        if (std::isfinite(logits(id)))
            max = std::max(max, double(logits(id)));
    if (!std::isfinite(max))
        return p;
    double sum = 0.0;
    for (int id = 0; id < int(logits.size()); ++id) {
        if (!std::isfinite(logits(id)))
            continue;
        p[std::size_t(id)] = std::exp((double(logits(id)) - max) / double(temperature));
        sum += p[std::size_t(id)];
    }
    for (double& value : p)
        value /= sum;
    return p;
}

std::vector<double> filteredDistribution(const RowVector& logits, const SamplingSettings& settings)
{
    std::vector<double> p = softmaxAt(logits, settings.temperature);
    if (settings.greedy() || (settings.topK == 0 && settings.topP >= 1.0f))
        return p;
    std::vector<int> order(p.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return p[std::size_t(a)] > p[std::size_t(b)]; });
    std::size_t kept = order.size();
    if (settings.topK > 0)
        kept = std::min(kept, std::size_t(settings.topK));
    if (settings.topP < 1.0f) {
        // The top-k survivors renormalised first, as transformers' TopPLogitsWarper sees them.
        double mass = 0.0;
        for (std::size_t n = 0; n < kept; ++n)
            mass += p[std::size_t(order[n])];
        double cumulative = 0.0;
        std::size_t nucleus = 0;
        while (nucleus < kept) {
            cumulative += p[std::size_t(order[nucleus])] / mass;
            ++nucleus;
            if (cumulative >= double(settings.topP))
                break;
        }
        kept = std::max<std::size_t>(1, nucleus);
    }
    double sum = 0.0;
    for (std::size_t n = 0; n < kept; ++n)
        sum += p[std::size_t(order[n])];
    std::vector<double> filtered(p.size(), 0.0);
    for (std::size_t n = 0; n < kept; ++n)
        filtered[std::size_t(order[n])] = p[std::size_t(order[n])] / sum;
    return filtered;
}

int drawToken(const std::vector<double>& distribution, Random& random)
{
    const double u = random.uniform();
    double cumulative = 0.0;
    int last = -1;
    for (std::size_t id = 0; id < distribution.size(); ++id) {
        if (distribution[id] <= 0.0)
            continue;
        cumulative += distribution[id];
        last = int(id);
        if (u < cumulative)
            return last;
    }
    return last; // u past a sum rounded just below 1
}

} // namespace attn::core
