#pragma once

#include "ui/figures/figure_spec.h"

#include "core/attention_result.h"

#include <QByteArray>
#include <QSize>
#include <QString>
#include <functional>
#include <optional>

class QCustomPlot;
class QPaintDevice;
class QPainter;

namespace attn::ui {

enum class FigureFormat { Png, Svg, Pdf };

// From the file name's suffix (.png, .svg, .pdf, any case).
std::optional<FigureFormat> figureFormatForPath(const QString& path);

// The one writer of figure files: `paint` draws the figure on the device it is given (`vector`
// for SVG and PDF). PNG is `size` pixels on white with the DPI in its metadata; SVG and PDF
// are vector with text kept as text, and measure size * 72 / dpi points.
QByteArray writeFigureFile(QSize size, double dpi, FigureFormat format,
                           const std::function<void(QPaintDevice& device, bool vector)>& paint);

// A PDF of `pages` pages, each `size` pixels at `dpi` (size * 72 / dpi points), the presentation's
// handout: paintPage(painter, page) draws page 0, 1, ... with one unit of the painter one pixel
// of `size`, text kept as text. `title` goes into the document's metadata. Throws core::Error
// when the PDF cannot be started.
QByteArray writePdfPages(QSize size, double dpi, int pages, const QString& title,
                         const std::function<void(QPainter& painter, int page)>& paintPage);

// The bytes of a figure file of a plot already built for `size` pixels (FigureBuilder).
// PNG is `size` pixels with the DPI in its metadata; SVG and PDF are vector with text kept
// as text, and measure size * 72 / dpi points, so a 1200 px figure at 300 DPI is 4 inches.
QByteArray renderFigure(QCustomPlot& plot, QSize size, double dpi, FigureFormat format);

// Builds the figure of `result` off screen and returns the file's bytes. Throws core::Error
// when the figure cannot be drawn (a view the result cannot show). `valuesLeftOut`, when
// given, is set as FigureBuilder::valuesLeftOut.
QByteArray figureBytes(const core::AttentionResult& result, const FigureSpec& spec, QSize size,
                       FigureFormat format, const core::AttentionResult* compare = nullptr,
                       bool* valuesLeftOut = nullptr);

} // namespace attn::ui
