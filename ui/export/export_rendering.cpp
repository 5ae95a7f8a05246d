#include "ui/export/export_dialog.h"

#include "ui/export/export_dialog_p.h"

#include <QClipboard>
#include <QGuiApplication>
#include <QMimeData>
#include <algorithm>
#include <cmath>

// The sizes, and the figure's bytes, that the dialog writes and the window copies.
namespace attn::ui {

// --- Sizing -----------------------------------------------------------------------------

double unitInches(SizeUnit unit, double dpi)
{
    switch (unit) {
    case SizeUnit::Centimeters:
        return 1.0 / 2.54;
    case SizeUnit::Inches:
        return 1.0;
    case SizeUnit::Pixels:
        return 1.0 / dpi;
    }
    return 1.0;
}

QSize figurePixels(QSizeF size, SizeUnit unit, double dpi)
{
    // Pixels are counted directly, not through 1/dpi * dpi, which may land a hair below n.
    const double perUnit = unit == SizeUnit::Pixels ? 1.0 : unitInches(unit, dpi) * dpi;
    auto pixels = [&](double length) {
        return int(std::lround(std::clamp(length * perUnit, 1.0, 1e9)));
    };
    return {pixels(size.width()), pixels(size.height())};
}

QSizeF figurePoints(QSize pixels, double dpi)
{
    return {pixels.width() * 72.0 / dpi, pixels.height() * 72.0 / dpi};
}

QSizeF convertFigureSize(QSizeF size, SizeUnit from, SizeUnit to, double dpi)
{
    return size * (unitInches(from, dpi) / unitInches(to, dpi));
}

FigureSpec ExportSettings::figureSpec() const
{
    FigureSpec spec;
    spec.view = view;
    spec.head = head;
    spec.colormap = colormap;
    spec.weightScale = weightScale;
    spec.title = title;
    spec.colorBar = colorBar;
    spec.showValues = showValues;
    spec.precision = precision;
    spec.fontPoints = fontPoints;
    spec.dpi = dpi;
    spec.transposed = transposed;
    spec.compareLabel = compareLabel;
    return spec;
}

// --- Rendering --------------------------------------------------------------------------

namespace export_detail {

std::optional<QString> sizeProblem(QSize pixels, int dpi)
{
    if (std::min(pixels.width(), pixels.height()) >= kMinFigurePixels &&
        std::max(pixels.width(), pixels.height()) <= kMaxFigurePixels)
        return std::nullopt;
    return QObject::tr(
               "At %1 DPI this figure is %2 \u00d7 %3 pixels. A side must be %4 to %5 pixels: "
               "change the size or the DPI.")
        .arg(dpi)
        .arg(pixels.width())
        .arg(pixels.height())
        .arg(kMinFigurePixels)
        .arg(kMaxFigurePixels);
}

} // namespace export_detail

using export_detail::sizeProblem;
using export_detail::withFigure;

QByteArray exportFigureBytes(const ExportSource& source, const ExportSettings& settings,
                             FigureFormat format)
{
    const QSize pixels = settings.pixels();
    if (const auto problem = sizeProblem(pixels, settings.dpi))
        throw core::Error(problem->toStdString());
    return withFigure(source, settings, pixels, settings.dpi, [&](QCustomPlot& plot) {
        return renderFigure(plot, pixels, settings.dpi, format);
    });
}

ExportSettings windowExportSettings(const ExportSource& source)
{
    ExportSettings settings;
    settings.view = windowView(source);
    settings.head = source.spec.head;
    settings.colormap = source.spec.colormap;
    settings.weightScale = source.spec.weightScale;
    settings.transposed = source.spec.transposed;
    settings.compareLabel = source.spec.compareLabel;
    settings.showValues = source.spec.showValues;
    settings.precision = source.spec.precision;
    return settings;
}

void copyFigureToClipboard(const ExportSource& source, const ExportSettings& settings)
{
    auto mime = std::make_unique<QMimeData>();
    const QByteArray png = exportFigureBytes(source, settings, FigureFormat::Png);
    mime->setData(QStringLiteral("image/png"), png);
    mime->setData(QStringLiteral("image/svg+xml"),
                  exportFigureBytes(source, settings, FigureFormat::Svg));
    mime->setImageData(QImage::fromData(png, "PNG"));
    QGuiApplication::clipboard()->setMimeData(mime.release());
}

FigureView windowView(const ExportSource& source)
{
    if (source.lines)
        return FigureView::Lines;
    if (source.spec.view == FigureView::Difference && !source.compare)
        return FigureView::Head;
    return source.spec.view;
}

} // namespace attn::ui
