#pragma once

#include <QColor>
#include <QString>
#include <optional>

class QCPColorGradient;

namespace attn::ui {

// Perceptually uniform maps (matplotlib's viridis, cividis, magma), greyscale for print,
// and a diverging map for signed matrices (scores, Q, K, V). QCustomPlot 2.1 has none of
// the first three, so they are defined here once, as 17 stops sampled from matplotlib.
enum class Colormap { Viridis, Cividis, Magma, Gray, Diverging };

// A masked cell (NaN in a matrix, a masked score) wherever a figure's style chooses no other.
inline constexpr QRgb kMaskedCell = 0xffd9d9d9;

std::optional<Colormap> parseColormap(const QString& name);
QString colormapName(Colormap map);
QStringList sequentialColormapNames(); // what a user may pick for weights

QCPColorGradient colorGradient(Colormap map);
// The colour at t in [0, 1].
QColor colorAt(Colormap map, double t);
// Black or white, whichever reads better on `background` (WCAG relative luminance).
QColor textColorOn(const QColor& background);

} // namespace attn::ui
