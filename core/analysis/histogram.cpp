#include "histogram.h"

#include "core/error.h"

#include <algorithm>
#include <cmath>

namespace attn::core {

Histogram makeHistogram(const std::vector<double>& values, int bins,
                        std::optional<std::pair<double, double>> range)
{
    if (bins < 1)
        throw Error("bins: must be at least 1, got " + std::to_string(bins));
    Histogram h;
    std::vector<double> finite;
    finite.reserve(values.size());
    for (double v : values)
        if (std::isfinite(v))
            finite.push_back(v);
    h.total = int(finite.size());
    h.counts.assign(std::size_t(bins), 0);
    if (!finite.empty()) {
        const auto [lo, hi] = std::minmax_element(finite.begin(), finite.end());
        h.minimum = *lo;
        h.maximum = *hi;
        double sum = 0.0;
        for (double v : finite)
            sum += v;
        h.mean = sum / double(finite.size());
        double squares = 0.0;
        for (double v : finite)
            squares += (v - h.mean) * (v - h.mean);
        h.standardDeviation = std::sqrt(squares / double(finite.size()));
    }
    if (range) {
        if (!(range->first < range->second) || !std::isfinite(range->first) ||
            !std::isfinite(range->second))
            throw Error("range: expected low < high, both finite");
        h.low = range->first;
        h.high = range->second;
    } else if (h.minimum < h.maximum) {
        h.low = h.minimum;
        h.high = h.maximum;
    } else {
        h.low = h.minimum - 0.5;
        h.high = h.minimum + 0.5;
    }
    const double width = h.binWidth();
    for (double v : finite) {
        if (v < h.low || v > h.high) {
            ++h.outside;
            continue;
        }
        const int bin = std::min(bins - 1, int((v - h.low) / width));
        ++h.counts[std::size_t(bin)];
    }
    return h;
}

} // namespace attn::core
