#pragma once

#include <optional>
#include <utility>
#include <vector>

namespace attn::core {

// Equal-width bins over [low, high]; the last bin includes high.
struct Histogram
{
    double low = 0.0;
    double high = 0.0;
    std::vector<int> counts;
    int outside = 0; // values outside a given range (not counted in any bin)
    // Summary of every finite value given (inside the range or not).
    int total = 0;
    double mean = 0.0;
    double standardDeviation = 0.0; // population (divided by n)
    double minimum = 0.0;
    double maximum = 0.0;

    double binWidth() const { return counts.empty() ? 0.0 : (high - low) / double(counts.size()); }
    double binCenter(int bin) const { return low + (double(bin) + 0.5) * binWidth(); }
};

// `bins` >= 1 bins over `range`, or over [min, max] of the values (widened to width 1 around
// a single value). Non-finite values are skipped.
Histogram makeHistogram(const std::vector<double>& values, int bins,
                        std::optional<std::pair<double, double>> range = std::nullopt);

} // namespace attn::core
