#pragma once

#include "core/attention_result.h"

#include <QColor>
#include <QFont>
#include <QPixmap>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

class QPaintDevice;
class QPainter;

namespace attn::ui {

// BertViz's head view: query tokens in a left column, key tokens in a right column, and a
// line from every query to every key whose opacity and width grow with the weight.
// Hovering a token shows only its lines. The widget paints with the static render(), which
// the figure exporter calls too, so an exported PDF or SVG is what the screen shows (text
// kept as text, lines as vectors).
class LinesView : public QWidget
{
    Q_OBJECT

public:
    // More tokens than this on a side draw a message instead: the columns would be
    // unreadable and the lines uncountable. The heatmap shows such inputs.
    static constexpr int kMaxTokens = 1000;
    // At most this many lines are drawn (the strongest): beyond it painting slows down and
    // the extra lines are too faint to see.
    static constexpr int kMaxLines = 2000;

    enum class Side { Neither, Query, Key };
    struct Highlight
    {
        Side side = Side::Neither;
        int index = -1;
    };

    // Where render() puts things inside `target`, in the painter's device units.
    struct Geometry
    {
        QString message;   // not empty: nothing else is drawn (pooled result, bad head, ...)
        QFont font;        // the token font, smaller when the rows are tight
        int labelStep = 1; // every labelStep-th label is drawn when rows are tighter still
        double rowHeight = 0.0;
        QRectF queryHeading, keyHeading;
        std::vector<QRectF> queryLabels, keyLabels;    // one per token
        std::vector<QPointF> queryAnchors, keyAnchors; // where the lines end
    };

    explicit LinesView(QWidget* parent = nullptr);
    ~LinesView() override;

    // `head` counts from 0; -1 is the mean of the enabled heads.
    void setResult(std::shared_ptr<const core::AttentionResult> result, int head);
    std::shared_ptr<const core::AttentionResult> result() const { return m_result; }
    int head() const { return m_head; }
    void setColor(const QColor& color);
    QColor color() const { return m_color; }
    // The token under the pointer (tests set it directly).
    void setHighlight(Highlight highlight);
    Highlight highlight() const { return m_highlight; }
    Highlight tokenAt(QPointF point) const;

    // Draws into `target` without filling the background. Text takes the painter's pen
    // colour (a widget's painter starts with the palette's text colour, a generator's with
    // black) and `font`; lines take `color`.
    static void render(QPainter& painter, const QRectF& target, const core::AttentionResult& result,
                       int head, const QFont& font, const QColor& color);
    static void render(QPainter& painter, const QRectF& target, const core::AttentionResult& result,
                       int head, const QFont& font, const QColor& color, Highlight highlight);
    static Geometry layout(const QRectF& target, const core::AttentionResult& result, int head,
                           const QFont& font, const QPaintDevice* device);
    // Why this result cannot be drawn as lines, or empty when it can.
    static QString unavailableReason(const core::AttentionResult& result, int head);
    // A head's weights, or for -1 the mean of the enabled heads (zeros if none is).
    static core::Matrix headWeights(const core::AttentionResult& result, int head);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    void invalidate();
    const Geometry& geometry() const;
    const core::Matrix& weights() const;
    QString describe(Highlight highlight) const;

    std::shared_ptr<const core::AttentionResult> m_result;
    int m_head = 0;
    QColor m_color;
    Highlight m_highlight;
    // Derived from the result for the current size and font; dropped when either changes.
    mutable std::unique_ptr<Geometry> m_geometry;
    QPixmap m_cache; // every line, no highlight: leaving a token repaints no line
    mutable std::unique_ptr<core::Matrix> m_weights;
};

} // namespace attn::ui
