#include "ui/figures/figure_builder.h"

#include "ui/figures/figure_builder_p.h"
#include "ui/figures/heatmap_panel.h"

#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <limits>

// How weights become colours, and the colour bars that say so.
namespace attn::ui {

using core::Matrix;

using figure_detail::maxAbs;
using figure_detail::signedRangeTop;
using figure_detail::Words;

namespace {

// A round number at or above `value` (0.0734 -> 0.08), for a colour range scaled to the data.
double niceCeil(double value)
{
    if (!(value > 0.0) || !std::isfinite(value))
        return 1.0;
    const double step = std::pow(10.0, std::floor(std::log10(value)));
    return std::ceil(value / step - 1e-9) * step;
}

// Smallest finite weight above 0 and largest finite weight, over every matrix given.
std::pair<double, double> positiveRange(const std::vector<const Matrix*>& matrices)
{
    double low = std::numeric_limits<double>::infinity();
    double high = 0.0;
    for (const Matrix* m : matrices)
        for (Eigen::Index i = 0; i < m->size(); ++i) {
            const double v = double(m->data()[i]);
            if (!std::isfinite(v))
                continue;
            if (v > 0.0)
                low = std::min(low, v);
            high = std::max(high, v);
        }
    return {low, high};
}

} // namespace

QCPColorScale* FigureBuilder::addColorScale(QCPLayoutGrid* host, Colormap map, double low,
                                            double high, const QString& label, bool log)
{
    if (!m_spec.colorBar || !host)
        return nullptr;
    QCPColorScale* scale =
        ui::addColorScale(m_plot, m_spec, host, std::max(0, host->rowCount() - 1),
                          host->columnCount(), map, low, high, label, log, m_spec.style.masked);
    // The bar spans exactly the matrix beside it.
    auto* group = new QCPMarginGroup(&m_plot);
    scale->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    for (const Panel& panel : m_panels)
        if (panel.rect && panel.rect->layout() == host)
            panel.rect->setMarginGroup(QCP::msTop | QCP::msBottom, group);
    return scale;
}

void FigureBuilder::addColorScale(QCPLayoutGrid* host, const WeightColours& colours)
{
    addColorScale(host, colours.map, colours.low, colours.high, colours.label, colours.log);
}

WeightColours FigureBuilder::weightColours(const std::vector<const Matrix*>& weights) const
{
    return ui::weightColours(*m_result, weights, m_spec.weightScale, m_spec.colormap,
                             m_spec.style.signedColormap);
}

WeightColours weightColours(const core::AttentionResult& result,
                            const std::vector<const core::Matrix*>& weights, WeightScale scale,
                            Colormap map, Colormap signedMap)
{
    const core::Problem& problem = *result.problem;
    const bool data = scale == WeightScale::Data;
    WeightColours c;
    c.map = map;
    if (problem.normalization == core::Normalization::None) {
        // Not normalized: the weights are the scaled scores, of any sign and size; no fixed
        // range would fit them.
        double top = 0.0;
        for (const Matrix* m : weights)
            top = std::max(top, maxAbs(*m, nullptr));
        top = signedRangeTop(top);
        c.map = signedMap;
        c.low = -top;
        c.high = top;
        c.label = Words::tr("weight (not normalized) · scaled to the data");
        return c;
    }
    const auto [smallest, largest] = positiveRange(weights);
    const int keys = std::max(1, problem.keyCount());
    if (result.pooling.pooled || keys > kLogScaleKeys) {
        // Long inputs: weights near 1/T are one dark colour on a linear 0-1 scale (a 3,000-token
        // sentence came out almost uniformly dark). A log scale from a decade below uniform
        // attention (1/T) up to 1 shows where attention goes; pooled cells show the largest weight
        // of their block, so one sharp weight is not averaged away.
        const double uniformFloor = std::pow(10.0, std::floor(std::log10(0.1 / keys)));
        c.log = true;
        c.high = data && largest > 0.0 ? std::min(1.0, niceCeil(largest)) : 1.0;
        c.low = uniformFloor;
        if (data && std::isfinite(smallest))
            c.low = std::max(uniformFloor * 1e-3, std::pow(10.0, std::floor(std::log10(smallest))));
        if (c.low >= c.high)
            c.low = c.high / 10.0;
        QString what = Words::tr("attention weight");
        if (result.pooling.pooled)
            what = Words::tr("%1 weight of each %2 × %3 block")
                       .arg(result.pooling.mode == core::PoolMode::Max ? Words::tr("largest")
                                                                       : Words::tr("mean"))
                       .arg(result.pooling.rowBlock)
                       .arg(result.pooling.colBlock);
        c.label = what + (data ? Words::tr(" · log scale, scaled to the data")
                               : Words::tr(" · log scale"));
        return c;
    }
    c.high = data && largest > 0.0 ? niceCeil(largest) : 1.0;
    c.label = data ? Words::tr("attention weight · scaled to the data")
                   : Words::tr("attention weight · fixed scale 0 to 1");
    return c;
}

double WeightColours::position(double value) const
{
    if (!(high > low))
        return 0.0;
    if (log)
        return std::log(std::clamp(value, low, high) / low) / std::log(high / low);
    return std::clamp((value - low) / (high - low), 0.0, 1.0);
}

void FigureBuilder::setWeightColours(Panel& panel, const WeightColours& colours) const
{
    panel.map = colours.map;
    panel.low = colours.low;
    panel.high = colours.high;
    panel.log = colours.log;
}

} // namespace attn::ui
