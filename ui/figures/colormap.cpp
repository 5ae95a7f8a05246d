#include "ui/figures/colormap.h"

#include "core/enum_names.h"

#include <qcustomplot.h>

#include <QStringList>
#include <array>
#include <cmath>

namespace attn::ui {
namespace {

using Stops = std::array<QRgb, 17>; // at t = 0, 1/16, ..., 1

// Sampled from matplotlib 3.6 (viridis, cividis, magma, RdBu_r) at 17 evenly spaced points.
constexpr Stops kViridis{0x440154, 0x48186a, 0x472d7b, 0x424086, 0x3b528b, 0x33638d,
                         0x2c728e, 0x26828e, 0x21918c, 0x1fa088, 0x28ae80, 0x3fbc73,
                         0x5ec962, 0x84d44b, 0xaddc30, 0xd8e219, 0xfde725};
constexpr Stops kCividis{0x00224e, 0x002e6a, 0x1a386f, 0x32436d, 0x434e6c, 0x535a6d,
                         0x61656f, 0x6f7073, 0x7d7c78, 0x8c8878, 0x9b9476, 0xaba072,
                         0xbcae6c, 0xcdbb63, 0xdec958, 0xf0d846, 0xfee838};
constexpr Stops kMagma{0x000004, 0x0a0822, 0x1d1147, 0x36106b, 0x51127c, 0x6a1c81,
                       0x832681, 0x9c2e7f, 0xb73779, 0xd0416f, 0xe75263, 0xf56b5c,
                       0xfc8961, 0xfea772, 0xfec488, 0xfde2a3, 0xfcfdbf};
constexpr Stops kDiverging{0x053061, 0x175290, 0x2a71b2, 0x3f8ec0, 0x6bacd1, 0x9bc9e0,
                           0xc2ddec, 0xe0ecf3, 0xf7f6f6, 0xfbe5d8, 0xfbccb4, 0xf5aa89,
                           0xe48066, 0xd05548, 0xba2832, 0x930e26, 0x67001f};

// Greyscale for print runs from white (0) to near-black (1), so that high weights carry ink.
Stops grayStops()
{
    Stops stops{};
    for (std::size_t i = 0; i < stops.size(); ++i) {
        const int v = int(std::lround(255.0 - (255.0 - 24.0) * double(i) / 16.0));
        stops[i] = qRgb(v, v, v);
    }
    return stops;
}

const Stops& stopsOf(Colormap map)
{
    static const Stops gray = grayStops();
    switch (map) {
    case Colormap::Viridis:
        return kViridis;
    case Colormap::Cividis:
        return kCividis;
    case Colormap::Magma:
        return kMagma;
    case Colormap::Gray:
        return gray;
    case Colormap::Diverging:
        return kDiverging;
    }
    return kViridis;
}

constexpr core::EnumNames<Colormap, 5> kNames{{{Colormap::Viridis, "viridis"},
                                               {Colormap::Cividis, "cividis"},
                                               {Colormap::Magma, "magma"},
                                               {Colormap::Gray, "gray"},
                                               {Colormap::Diverging, "diverging"}}};

} // namespace

std::optional<Colormap> parseColormap(const QString& name)
{
    if (const auto map = core::enumFromName(kNames, name, Qt::CaseInsensitive))
        return map;
    if (name.compare(QLatin1String("grey"), Qt::CaseInsensitive) == 0)
        return Colormap::Gray;
    return std::nullopt;
}

QString colormapName(Colormap map)
{
    return core::enumQName(kNames, map);
}

QStringList sequentialColormapNames()
{
    return {QStringLiteral("viridis"), QStringLiteral("cividis"), QStringLiteral("magma"),
            QStringLiteral("gray")};
}

QCPColorGradient colorGradient(Colormap map)
{
    QCPColorGradient gradient;
    gradient.clearColorStops();
    const Stops& stops = stopsOf(map);
    for (std::size_t i = 0; i < stops.size(); ++i)
        gradient.setColorStopAt(double(i) / 16.0, QColor(stops[i]));
    gradient.setColorInterpolation(QCPColorGradient::ciRGB);
    gradient.setLevelCount(256);
    gradient.setNanHandling(QCPColorGradient::nhNanColor);
    gradient.setNanColor(QColor(kMaskedCell)); // masked cells in score views
    return gradient;
}

QColor colorAt(Colormap map, double t)
{
    const Stops& stops = stopsOf(map);
    const double x = std::clamp(std::isfinite(t) ? t : 0.0, 0.0, 1.0) * 16.0;
    const int i = std::min(15, int(x));
    const double f = x - i;
    const QColor a(stops[std::size_t(i)]), b(stops[std::size_t(i) + 1]);
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * f),
                            float(a.greenF() + (b.greenF() - a.greenF()) * f),
                            float(a.blueF() + (b.blueF() - a.blueF()) * f));
}

QColor textColorOn(const QColor& background)
{
    auto linear = [](double c) {
        return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    const double luminance = 0.2126 * linear(background.redF()) +
                             0.7152 * linear(background.greenF()) +
                             0.0722 * linear(background.blueF());
    // Contrast against white (1.05 / (L + 0.05)) versus against black ((L + 0.05) / 0.05).
    return (1.05 / (luminance + 0.05)) > ((luminance + 0.05) / 0.05) ? Qt::white : Qt::black;
}

} // namespace attn::ui
