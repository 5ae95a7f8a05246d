#include "ui/presentation/slide.h"

#include "ui/figures/heatmap_painter.h"

#include <QAbstractTextDocumentLayout>
#include <QPainter>
#include <QTextDocument>
#include <QTransform>

namespace attn::ui {

std::optional<SlideHit> Slide::hit(QPointF point) const
{
    for (std::size_t p = 0; p < panels.size(); ++p) {
        const SlidePanel& panel = panels[p];
        if (!panel.cells.contains(point) || panel.rows <= 0 || panel.columns <= 0)
            continue;
        const int row = std::min(panel.rows - 1, int((point.y() - panel.cells.top()) /
                                                     panel.cells.height() * panel.rows));
        const int column = std::min(panel.columns - 1, int((point.x() - panel.cells.left()) /
                                                           panel.cells.width() * panel.columns));
        return SlideHit{int(p), row, column, -1};
    }
    for (const SlideText& text : texts)
        if (text.role == SlideText::Role::Label && text.panel < 0 && text.index >= 0 &&
            text.box.contains(point))
            return SlideHit{-1, -1, -1, text.index, text.columns};
    return std::nullopt;
}

std::vector<const SlideText*> Slide::textsOf(SlideText::Role role) const
{
    std::vector<const SlideText*> out;
    for (const SlideText& text : texts)
        if (text.role == role)
            out.push_back(&text);
    return out;
}

QRectF textBounds(const SlideText& text)
{
    if (text.rotation == 0.0)
        return text.box;
    QTransform t;
    t.translate(text.box.center().x(), text.box.center().y());
    t.rotate(text.rotation);
    t.translate(-text.box.center().x(), -text.box.center().y());
    return t.mapRect(text.box);
}

namespace {

void paintRich(QPainter& painter, const SlideText& text)
{
    QTextDocument document;
    document.setDocumentMargin(0);
    document.setDefaultFont(text.font);
    document.setDefaultStyleSheet(QStringLiteral("body { color: %1; }").arg(text.color.name()));
    document.setHtml(QStringLiteral("<body>%1</body>").arg(text.text));
    const QSizeF size(document.idealWidth(), document.size().height());
    QPointF at = text.box.topLeft();
    if (text.align & Qt::AlignHCenter)
        at.rx() += (text.box.width() - size.width()) / 2;
    else if (text.align & Qt::AlignRight)
        at.rx() += text.box.width() - size.width();
    if (text.align & Qt::AlignVCenter)
        at.ry() += (text.box.height() - size.height()) / 2;
    else if (text.align & Qt::AlignBottom)
        at.ry() += text.box.height() - size.height();
    painter.save();
    painter.translate(at);
    QAbstractTextDocumentLayout::PaintContext context;
    context.palette.setColor(QPalette::Text, text.color);
    document.documentLayout()->draw(&painter, context);
    painter.restore();
}

} // namespace

void paintSlide(QPainter& painter, const Slide& slide)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false); // cells meet edge to edge
    painter.fillRect(QRectF(QPointF(0, 0), slide.size), slide.background);
    for (const SlideCell& cell : slide.cells)
        paint::fillCell(painter, cell.rect, cell.fill, cell.hatched);
    painter.setRenderHint(QPainter::Antialiasing, true);
    auto drawShape = [&](const SlideShape& shape) {
        painter.setBrush(shape.brush.alpha() ? QBrush(shape.brush) : Qt::NoBrush);
        if (shape.penWidth > 0 && shape.pen.alpha()) {
            QPen pen(shape.pen, shape.penWidth);
            pen.setJoinStyle(Qt::MiterJoin);
            painter.setPen(pen);
        } else {
            painter.setPen(Qt::NoPen);
        }
        if (shape.radius > 0)
            painter.drawRoundedRect(shape.rect, shape.radius, shape.radius);
        else
            painter.drawRect(shape.rect);
    };
    for (const SlideShape& shape : slide.shapes)
        if (!shape.highlight)
            drawShape(shape);
    for (const SlideText& text : slide.texts) {
        if (text.rich) {
            paintRich(painter, text);
            continue;
        }
        painter.setFont(text.font);
        painter.setPen(text.color);
        if (text.rotation == 0.0) {
            painter.drawText(text.box, int(text.align), text.text);
            continue;
        }
        painter.save();
        painter.translate(text.box.center());
        painter.rotate(text.rotation);
        painter.drawText(text.box.translated(-text.box.center()), int(text.align), text.text);
        painter.restore();
    }
    for (const SlideShape& shape : slide.shapes) // the chosen cell's frames over everything
        if (shape.highlight)
            drawShape(shape);
    painter.restore();
}

} // namespace attn::ui
