#pragma once

// What a QCustomPlot figure draws, read back by the tests.

#include <qcustomplot.h>

#include <vector>

namespace attn::test {

// Every colour map of the plot, in the order they were added.
inline std::vector<QCPColorMap*> colorMaps(QCustomPlot& plot)
{
    std::vector<QCPColorMap*> maps;
    for (int i = 0; i < plot.plottableCount(); ++i)
        if (auto* map = qobject_cast<QCPColorMap*>(plot.plottable(i)))
            maps.push_back(map);
    return maps;
}

} // namespace attn::test
