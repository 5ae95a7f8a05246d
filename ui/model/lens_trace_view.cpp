#include "ui/model/lens_trace_view.h"

#include "ui/model/matrix_painter.h"

#include "core/model/model_loader.h"
#include "core/tokenizers/hf_tokenizer.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace attn::ui {

LensTraceView::LensTraceView(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("lensTrace"));
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setVisible(false);
    setToolTip(tr("The logit lens at the predicted position: the bar is full for rank 1 (a log "
                  "scale down to the vocabulary's last rank), the number is the rank"));
}

void LensTraceView::setLens(const core::ModelResult* result, const core::LogitLens* lens)
{
    m_ranks.clear();
    m_probabilities.clear();
    m_caption.clear();
    const bool shown = result && lens && lens->layerCount() > 0 && !result->predictions.empty();
    if (shown) {
        const int position = result->predictions.front().position;
        const int token = lens->followed[std::size_t(position)];
        for (int l = 0; l < lens->layerCount(); ++l) {
            m_ranks.push_back(lens->rank(l, position));
            m_probabilities.push_back(lens->probability(l, position));
        }
        const auto& top = lens->top.back()[std::size_t(position)];
        m_vocabulary = double(result->model->weights.outputEmbedding().rows());
        m_token = paint::tokenLabel(top.front().id == token
                                        ? top.front().text
                                        : result->model->tokenizer->displayText(token));
        if (!m_token.startsWith(QChar(0x201c))) // "a" reads as a word in the sentence
            m_token = QChar(0x201c) + m_token + QChar(0x201d);
        // The first layer from which the token stays the top one.
        int from = int(m_ranks.size());
        while (from > 0 && m_ranks[std::size_t(from - 1)] == 1)
            --from;
        m_caption =
            from < int(m_ranks.size())
                ? tr("Rank of %1 after each layer: 1 from layer %2").arg(m_token).arg(from + 1)
                : tr("Rank of %1 after each layer: %2 at the last")
                      .arg(m_token)
                      .arg(m_ranks.back());
        QStringList ranks;
        for (int rank : m_ranks)
            ranks << QString::number(rank);
        setAccessibleDescription(tr("%1; ranks by layer: %2").arg(m_caption, ranks.join(u", ")));
    }
    setVisible(shown);
    updateGeometry();
    update();
}

QSize LensTraceView::sizeHint() const
{
    return QSize(300, fontMetrics().height() * 4 + 48);
}

QSize LensTraceView::minimumSizeHint() const
{
    return QSize(160, sizeHint().height());
}

QRectF LensTraceView::barsRect() const
{
    const double line = fontMetrics().height();
    // Two lines for the caption (it wraps in a narrow dock), two under the bars.
    return QRectF(4, 2 * line + 4, width() - 8, height() - 4 * line - 8);
}

int LensTraceView::layerAt(QPointF point) const
{
    const QRectF bars = barsRect();
    if (m_ranks.empty() || point.x() < bars.left() || point.x() >= bars.right())
        return -1;
    return std::clamp(int((point.x() - bars.left()) / bars.width() * double(m_ranks.size())), 0,
                      int(m_ranks.size()) - 1);
}

bool LensTraceView::event(QEvent* event)
{
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int layer = layerAt(help->pos());
        if (layer < 0)
            QToolTip::showText(help->globalPos(), toolTip(), this);
        else
            QToolTip::showText(help->globalPos(),
                               tr("After layer %1: %2 is rank %3, p = %4")
                                   .arg(layer + 1)
                                   .arg(m_token)
                                   .arg(m_ranks[std::size_t(layer)])
                                   .arg(double(m_probabilities[std::size_t(layer)]), 0, 'g', 3),
                               this);
        return true;
    }
    return QWidget::event(event);
}

void LensTraceView::paintEvent(QPaintEvent*)
{
    if (m_ranks.empty())
        return;
    QPainter painter(this);
    const QFontMetrics metrics = fontMetrics();
    const double line = metrics.height();
    painter.setPen(palette().color(QPalette::WindowText));
    painter.drawText(QRectF(4, 0, width() - 8, 2 * line),
                     Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, m_caption);
    const QRectF bars = barsRect();
    const int n = int(m_ranks.size());
    const double column = bars.width() / n;
    const double gap = std::min(3.0, column * 0.2);
    // Layer numbers where each column holds one (32 layers in a narrow dock do not); a rank
    // where its column holds it (the small ones, which matter, fit first).
    const bool layerNumbers = column >= metrics.horizontalAdvance(QStringLiteral("L99")) + 2;
    const QColor track = palette().color(QPalette::Base).lightness() > 128
                             ? QColor(0xe8, 0xe8, 0xe8)
                             : QColor(0x40, 0x40, 0x40);
    for (int l = 0; l < n; ++l) {
        const QRectF cell(bars.left() + l * column + gap / 2, bars.top(), column - gap,
                          bars.height());
        painter.fillRect(cell, track);
        // Ecco's rankings: a full bar is rank 1, an empty one the vocabulary's last.
        const double rank = std::log(double(m_ranks[std::size_t(l)]));
        const double fill =
            m_vocabulary > 1 ? std::clamp(1.0 - rank / std::log(m_vocabulary), 0.0, 1.0) : 1.0;
        painter.fillRect(QRectF(cell.left(), cell.bottom() - cell.height() * fill, cell.width(),
                                cell.height() * fill),
                         palette().color(QPalette::Highlight));
        const QRectF rankRow(cell.left() - gap / 2, bars.bottom() + 2, column, line);
        const QRectF layerRow(rankRow.translated(0, line));
        painter.setPen(palette().color(QPalette::WindowText));
        const QString rankText = QString::number(m_ranks[std::size_t(l)]);
        if (metrics.horizontalAdvance(rankText) <= column || n == 1)
            painter.drawText(rankRow, Qt::AlignCenter, rankText);
        painter.setPen(palette().color(QPalette::PlaceholderText));
        if (layerNumbers || l == 0 || l == n - 1)
            painter.drawText(layerRow, Qt::AlignCenter, tr("L%1").arg(l + 1));
    }
}

} // namespace attn::ui
