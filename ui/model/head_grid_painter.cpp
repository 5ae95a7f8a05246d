#include "ui/model/head_grid_painter.h"

#include "ui/figures/legible_text.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPaintDevice>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace attn::ui {

namespace {

// tr() for this file: lupdate takes the context from Q_DECLARE_TR_FUNCTIONS (through a free
// helper function it gave the strings a context the program never asked for).
struct Words
{
    Q_DECLARE_TR_FUNCTIONS(HeadGridPainter)
};

QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() + (b.redF() - a.redF()) * t),
                            float(a.greenF() + (b.greenF() - a.greenF()) * t),
                            float(a.blueF() + (b.blueF() - a.blueF()) * t));
}

constexpr qint64 kMaxVectorCells = 60000; // more cells than this go into a PDF as images

// Queries beside each layer's first head, keys under each head of the last layer: each head
// is read along its row and its column without a legend.
void paintTokenLabels(QPainter& painter, const HeadGridPainter::Geometry& g, double u)
{
    const int t = int(g.tokens.size());
    if (t == 0 || g.side <= 0)
        return;
    painter.setFont(g.tokenFont);
    for (int l = 0; l < g.layers; ++l)
        paint::drawRowLabels(painter, g.cellRect(l, 0), g.tokens, t, g.queryLabelWidth, 3 * u,
                             g.tokenStep, Qt::TextDontClip);
    const QStringList& keys = g.keyTokens.isEmpty() ? g.tokens : g.keyTokens;
    const int tk = int(keys.size());
    const int keyStep = std::max(1, int(std::lround(double(g.tokenStep) * tk / t)));
    for (int h = 0; h < g.heads; ++h)
        paint::drawColumnLabels(painter, g.cellRect(g.layers - 1, h), keys, tk, g.keyLabelHeight,
                                3 * u, 3 * u, keyStep, Qt::TextDontClip);
}

} // namespace

QRectF HeadGridPainter::Geometry::cellRect(int layer, int head) const
{
    return QRectF(cells.left() + head * pitch, cells.top() + layer * pitch, side, side);
}

std::optional<HeadGridPainter::Geometry::Hit> HeadGridPainter::Geometry::hitAt(QPointF point,
                                                                               int tokens) const
{
    if (!cells.contains(point) || pitch <= 0)
        return std::nullopt;
    Hit hit;
    hit.head = std::min(heads - 1, int((point.x() - cells.left()) / pitch));
    hit.layer = std::min(layers - 1, int((point.y() - cells.top()) / pitch));
    const QRectF cell = cellRect(hit.layer, hit.head);
    if (tokens > 0 && cell.contains(point)) {
        hit.query =
            std::clamp(int((point.y() - cell.top()) / cell.height() * tokens), 0, tokens - 1);
        hit.key = std::clamp(int((point.x() - cell.left()) / cell.width() * tokens), 0, tokens - 1);
    }
    return hit;
}

HeadGridPainter::Geometry HeadGridPainter::layout(const QRectF& target, int layers, int heads,
                                                  const QFont& font, const HeadGridOptions& options,
                                                  const QPaintDevice* device,
                                                  const QStringList& tokens)
{
    Geometry g;
    g.layers = layers;
    g.heads = heads;
    g.font = font;
    if (layers <= 0 || heads <= 0)
        return g;
    const double u = device ? device->logicalDpiX() / 96.0 : 1.0;
    const QFontMetricsF fm(font, device);
    QRectF area = target.adjusted(4 * u, 4 * u, -4 * u, -4 * u);
    if (!options.title.isEmpty()) {
        const QFontMetricsF ft(paint::scaled(font, 1.25, true), device);
        g.title = QRectF(area.left(), area.top(), area.width(), ft.height() * 1.4);
        area.setTop(g.title.bottom() + ft.height() * 0.3);
    }
    const double left = fm.horizontalAdvance(Words::tr("Layer %1").arg(layers)) + 8 * u;
    const double top = fm.height() * 1.4;
    const double bar =
        options.colorBar ? 16 * u + fm.horizontalAdvance(QStringLiteral("0.00")) + 16 * u : 0.0;
    const int t = int(tokens.size());
    g.tokens = tokens;
    g.tokenFont = paint::scaled(font, 0.85);
    // Widths of the labels at the token font, then the thumbnails' pitch in what is left.
    const auto measure = [&] {
        const QFontMetricsF ft(g.tokenFont, device);
        double widest = 0.0;
        for (const QString& token : tokens)
            widest = std::max(widest, ft.horizontalAdvance(token));
        g.queryLabelWidth = t ? std::min(widest + 6 * u, area.width() * 0.2) : 0.0;
        g.keyLabelHeight = t ? std::min(widest + 6 * u, area.height() * 0.2) : 0.0;
        const double width = area.width() - left - g.queryLabelWidth - bar;
        const double height = area.height() - top - g.keyLabelHeight;
        g.pitch = std::max(0.0, std::min(width / heads, height / layers));
        g.side = std::max(0.0, g.pitch - std::clamp(g.pitch * 0.08, 1.0 * u, 6.0 * u));
        return ft.height();
    };
    double line = measure();
    if (t > 0 && line * 0.95 > g.side / t) {
        // Rows too short for the labels: a smaller font, down to the legible minimum, before
        // any label is left out.
        const double floor =
            font.pointSizeF() > 0
                ? smallestLegiblePoints(g.tokenFont.pointSizeF()) / g.tokenFont.pointSizeF()
                : 2.0 / 3.0;
        g.tokenFont =
            paint::scaled(g.tokenFont, std::clamp(g.side / t / (line * 0.95), floor, 1.0));
        line = measure();
    }
    if (t > 0)
        g.tokenStep = paint::labelStep(g.side / t, line);
    const double blockWidth = g.pitch * heads;
    const double blockHeight = g.pitch * layers;
    const double width = area.width() - left - g.queryLabelWidth - bar;
    const double height = area.height() - top - g.keyLabelHeight;
    // Centred in the room left: a wide or tall canvas keeps its margins on both sides.
    const double x0 =
        area.left() + left + g.queryLabelWidth + std::max(0.0, (width - blockWidth) / 2);
    const double y0 = area.top() + top + std::max(0.0, (height - blockHeight) / 2);
    g.cells = QRectF(x0, y0, blockWidth, blockHeight);
    g.longHeadLabels = fm.horizontalAdvance(Words::tr("Head %1").arg(heads)) + 2 * u <= g.pitch;
    if (options.colorBar)
        g.colorBar = QRectF(g.cells.right() + 12 * u, g.cells.top(), bar - 12 * u,
                            std::min(g.cells.height(), 240 * u));
    return g;
}

QStringList HeadGridPainter::tokenLabels(const core::ModelResult& result)
{
    QStringList labels;
    for (const core::Token& token : result.tokens)
        labels << paint::tokenLabel(token.text);
    return labels;
}

QImage HeadGridPainter::thumbnail(const core::Matrix& weights, const ColourTable& colours,
                                  int focusToken, const QColor& background)
{
    QImage image = paint::cellImage(weights, colours, 0.0, 1.0);
    if (focusToken >= 0 && focusToken < image.height()) {
        // BertViz's head view, in every head: only the focus query's row at full strength.
        for (int i = 0; i < image.height(); ++i) {
            if (i == focusToken)
                continue;
            auto* line = reinterpret_cast<QRgb*>(image.scanLine(i));
            for (int j = 0; j < image.width(); ++j)
                line[j] = mix(QColor(line[j]), background, 0.8).rgb();
        }
    }
    return image;
}

QStringList HeadGridPainter::keyTokenLabels(const core::ModelResult& result)
{
    QStringList labels;
    if (result.layers.empty() || !result.layers.front()->problem->cross)
        return labels;
    for (const core::Token& token : result.layers.front()->problem->keyTokens)
        labels << paint::tokenLabel(token.text);
    return labels;
}

std::vector<QImage> HeadGridPainter::thumbnails(const core::ModelResult& result,
                                                const HeadGridOptions& options)
{
    const ColourTable colours(options.colormap);
    std::vector<QImage> images;
    for (const auto& layer : result.layers)
        for (const core::HeadResult& head : layer->heads)
            images.push_back(
                thumbnail(head.weights, colours, options.focusToken, options.style.background));
    return images;
}

void HeadGridPainter::paint(QPainter& painter, const Geometry& geometry,
                            const core::ModelResult& result, const HeadGridOptions& options,
                            bool vector)
{
    const int t = int(result.tokens.size());
    const qint64 cells = qint64(geometry.layers) * geometry.heads * t * t;
    if (vector && cells <= kMaxVectorCells) {
        paint(painter, geometry, result, options, std::vector<QImage>{}); // rectangles
        return;
    }
    paint(painter, geometry, result, options, thumbnails(result, options));
}

void HeadGridPainter::paint(QPainter& painter, const Geometry& g, const core::ModelResult& result,
                            const HeadGridOptions& options, const std::vector<QImage>& thumbnails)
{
    painter.save();
    const double u = paint::unit(painter);
    const FigureStyle& style = options.style;
    const QFontMetricsF fm(g.font, painter.device());
    if (!options.title.isEmpty()) {
        painter.setFont(paint::scaled(g.font, 1.25, true));
        painter.setPen(style.text);
        painter.drawText(g.title, Qt::AlignCenter,
                         QFontMetricsF(painter.font(), painter.device())
                             .elidedText(options.title, Qt::ElideRight, g.title.width()));
    }
    if (g.side <= 0) {
        painter.restore();
        return;
    }
    painter.setFont(g.font);
    painter.setPen(style.text);
    // Labels: text, so that PDF and SVG readers can search them.
    const double layerWidth = fm.horizontalAdvance(Words::tr("Layer %1").arg(g.layers));
    const double layerRight = g.cells.left() - g.queryLabelWidth - 6 * u;
    for (int l = 0; l < g.layers; ++l) {
        const QRectF cell = g.cellRect(l, 0);
        if (g.pitch >= fm.height() * 0.9 ||
            l % int(std::ceil(fm.height() / std::max(g.pitch, 1.0))) == 0)
            painter.drawText(QRectF(layerRight - layerWidth - 2 * u, cell.top(), layerWidth + 2 * u,
                                    cell.height()),
                             Qt::AlignRight | Qt::AlignVCenter, Words::tr("Layer %1").arg(l + 1));
    }
    paintTokenLabels(painter, g, u);
    painter.setFont(g.font);
    const double labelTop = g.cells.top() - fm.height() * 1.3;
    for (int h = 0; h < g.heads; ++h) {
        const QRectF cell = g.cellRect(0, h);
        painter.drawText(
            QRectF(cell.left() - g.pitch, labelTop, cell.width() + 2 * g.pitch, fm.height() * 1.2),
            Qt::AlignHCenter | Qt::AlignBottom,
            g.longHeadLabels ? Words::tr("Head %1").arg(h + 1) : QString::number(h + 1));
    }
    if (!g.longHeadLabels)
        painter.drawText(QRectF(layerRight - layerWidth - 2 * u, labelTop, layerWidth + 2 * u,
                                fm.height() * 1.2),
                         Qt::AlignRight | Qt::AlignBottom, Words::tr("Head"));

    const ColourTable colours(options.colormap);
    const int t = int(result.tokens.size());
    const bool images = !thumbnails.empty();
    for (int l = 0; l < g.layers && l < result.layerCount(); ++l) {
        const auto& layer = *result.layers[std::size_t(l)];
        for (int h = 0; h < g.heads && h < int(layer.heads.size()); ++h) {
            const QRectF cell = g.cellRect(l, h);
            // The thumbnails made beforehand, or for vector output their colours cell by cell.
            paint::drawCellImage(
                painter, cell,
                images ? thumbnails[std::size_t(l) * std::size_t(g.heads) + std::size_t(h)]
                       : thumbnail(layer.heads[std::size_t(h)].weights, colours, options.focusToken,
                                   style.background),
                !images);
            const bool off = options.headsOff.count({l, h}) > 0;
            const bool edited = options.edited.count({l, h}) > 0;
            if (off) {
                // Still computed and shown (its output is what is left out), washed out and
                // struck through.
                QColor wash = style.background;
                wash.setAlphaF(0.6f);
                painter.fillRect(cell, wash);
                painter.setPen(QPen(style.accent, 1.5 * u));
                painter.drawLine(cell.bottomLeft(), cell.topRight());
            }
            if (edited || off) {
                painter.setPen(QPen(style.accent, 2 * u));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(cell.adjusted(u, u, -u, -u));
            }
            if (edited) {
                const double s = std::max(4 * u, cell.width() * 0.22);
                const QPointF corner[3] = {cell.topRight(), cell.topRight() - QPointF(s, 0),
                                           cell.topRight() + QPointF(0, s)};
                painter.setPen(Qt::NoPen);
                painter.setBrush(style.accent);
                painter.drawPolygon(corner, 3);
            }
            if (options.focusToken >= 0 && options.focusToken < t) {
                const double row = cell.height() / t;
                painter.setPen(QPen(style.text, 0.75 * u));
                painter.setBrush(Qt::NoBrush);
                painter.drawRect(
                    QRectF(cell.left(), cell.top() + options.focusToken * row, cell.width(), row));
            }
        }
    }
    if (options.selectedLayer >= 0 && options.selectedHead >= 0 &&
        options.selectedLayer < g.layers && options.selectedHead < g.heads) {
        const QRectF cell = g.cellRect(options.selectedLayer, options.selectedHead);
        const double pad = std::min(3 * u, (g.pitch - g.side) / 2 + 1.5 * u);
        painter.setBrush(Qt::NoBrush);
        painter.setPen(QPen(style.background, 4.5 * u));
        painter.drawRect(cell.adjusted(-pad, -pad, pad, pad));
        painter.setPen(
            QPen(QColor(0x00, 0x72, 0xb2), 2.5 * u)); // Okabe-Ito blue: apart from the accent
        painter.drawRect(cell.adjusted(-pad, -pad, pad, pad));
    }
    if (!g.colorBar.isEmpty())
        paint::drawColourBar(painter, g.colorBar, colours, 0.0, 1.0, Words::tr("weight"),
                             paint::scaled(g.font, 0.9), style.text);
    painter.restore();
}

QString HeadGridPainter::describe(const core::ModelResult& result, int layer, int head, int query)
{
    if (layer < 0 || layer >= result.layerCount())
        return {};
    const auto& heads = result.layers[std::size_t(layer)]->heads;
    if (head < 0 || head >= int(heads.size()))
        return {};
    QString text = Words::tr("Layer %1, head %2").arg(layer + 1).arg(head + 1);
    if (result.interventions.headsOff.count({layer, head}))
        text += Words::tr(" (switched off)");
    const core::Matrix& w = heads[std::size_t(head)].weights;
    // The layer's own tokens: a cross-attention head's keys are the source's.
    const core::Problem& tokens = *result.layers[std::size_t(layer)]->problem;
    if (query >= 0 && query < w.rows() && w.cols() > 0) {
        Eigen::Index key = 0;
        const float strongest = w.row(query).maxCoeff(&key);
        text += Words::tr(": %1 attends most to %2 (%3)")
                    .arg(paint::tokenLabel(tokens.queryTokens[std::size_t(query)].text, 24),
                         paint::tokenLabel(tokens.keyTokens[std::size_t(key)].text, 24))
                    .arg(double(strongest), 0, 'f', 2);
    }
    return text;
}

} // namespace attn::ui
