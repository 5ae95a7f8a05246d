#include "ui/model/predictions_painter.h"

#include "ui/model/matrix_painter.h"

#include "core/model/model_loader.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>

#include <cmath>

namespace attn::ui {

namespace {

// tr() for this file: lupdate takes the context from Q_DECLARE_TR_FUNCTIONS (through a free
// helper function it gave the strings a context the program never asked for).
struct Words
{
    Q_DECLARE_TR_FUNCTIONS(PredictionsPainter)
};

// softmax(logits)[id], in double with the maximum subtracted (as the core's probabilities).
double probabilityOf(const core::RowVector& logits, int id)
{
    if (id < 0 || id >= logits.size())
        return 0.0;
    const double max = double(logits.maxCoeff());
    double sum = 0.0;
    for (Eigen::Index j = 0; j < logits.size(); ++j)
        sum += std::exp(double(logits(j)) - max);
    return std::exp(double(logits(id)) - max) / sum;
}

QString percent(double p)
{
    return p >= 0.0995 ? QString::number(p * 100, 'f', 1) + QStringLiteral(" %")
                       : QString::number(p * 100, 'f', 2) + QStringLiteral(" %");
}

// Okabe-Ito blue and vermillion: up and down, told apart by colour-blind eyes too.
const QColor kUp(0x00, 0x72, 0xb2);
const QColor kDown(0xd5, 0x5e, 0x00);

} // namespace

std::vector<PredictionBlock> predictionBlocks(const core::ModelResult& result,
                                              const core::ModelResult* baseline, int count)
{
    std::vector<PredictionBlock> blocks;
    const bool causal =
        result.model && result.model->config().objective == core::Objective::CausalLm;
    const bool compare = baseline && baseline != &result && !result.interventions.empty();
    for (std::size_t n = 0; n < result.predictions.size(); ++n) {
        const core::PositionPrediction& p = result.predictions[n];
        PredictionBlock block;
        const QString after =
            p.position >= 0 && p.position < int(result.tokens.size())
                ? paint::tokenLabel(result.tokens[std::size_t(p.position)].text, 20)
                : QString();
        block.heading = causal ? Words::tr("Next token after %1").arg(after)
                               : Words::tr("[MASK] at token %1").arg(p.position + 1);
        const core::PositionPrediction* old = nullptr;
        if (compare && n < baseline->predictions.size() &&
            baseline->predictions[n].position == p.position)
            old = &baseline->predictions[n];
        for (const core::Prediction& top : p.top) {
            if (int(block.rows.size()) >= count)
                break;
            PredictionRow row;
            row.text = top.text;
            row.id = top.id;
            row.probability = top.probability;
            if (old)
                row.before = probabilityOf(old->logits, top.id);
            block.rows.push_back(row);
        }
        blocks.push_back(std::move(block));
    }
    return blocks;
}

QString predictionsMessage(const core::ModelResult& result)
{
    if (!result.model)
        return {};
    if (result.model->config().objective == core::Objective::None)
        return Words::tr("%1 has no language-model head: it predicts nothing.")
            .arg(result.model->name);
    if (result.predictions.empty())
        return Words::tr(
            "The sentence has no [MASK] token: type one to see what the model fills in.");
    return {};
}

double PredictionsPainter::heightFor(const std::vector<PredictionBlock>& blocks, const QFont& font,
                                     const QString& title)
{
    const QFontMetricsF fm(font);
    double h = title.isEmpty() ? 0 : fm.height() * 2.0;
    for (const PredictionBlock& block : blocks)
        h += fm.height() * (1.8 + 1.5 * double(block.rows.size()));
    return h + fm.height();
}

PredictionsPainter::Geometry PredictionsPainter::paint(QPainter& painter, const QRectF& target,
                                                       const std::vector<PredictionBlock>& blocks,
                                                       const QString& message, const QString& title,
                                                       const QFont& font, const FigureStyle& style,
                                                       bool fill)
{
    Geometry geometry;
    painter.save();
    const double u = paint::unit(painter);
    const QFontMetricsF fm(font, painter.device());
    const QFont bold = paint::scaled(font, 1.0, true);
    QRectF area = target.adjusted(6 * u, 4 * u, -6 * u, -4 * u);
    painter.setPen(style.text);
    if (!title.isEmpty()) {
        const QFont titleFont = paint::scaled(font, 1.25, true);
        painter.setFont(titleFont);
        const QFontMetricsF ft(titleFont, painter.device());
        painter.drawText(QRectF(area.left(), area.top(), area.width(), ft.height() * 1.3),
                         Qt::AlignCenter, ft.elidedText(title, Qt::ElideRight, area.width()));
        area.setTop(area.top() + ft.height() * 1.7);
    }
    if (!message.isEmpty()) {
        painter.setFont(font);
        painter.setPen(style.mutedText);
        painter.drawText(area, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, message);
        painter.restore();
        return geometry;
    }
    // Columns: the token, the bar with its percentage, the change from the unedited model.
    double tokenWidth = 0;
    for (const PredictionBlock& block : blocks)
        for (const PredictionRow& row : block.rows)
            tokenWidth =
                std::max(tokenWidth, fm.horizontalAdvance(paint::tokenLabel(row.text, 18)));
    tokenWidth = std::min(tokenWidth + 8 * u, area.width() * 0.3);
    const bool anyChange = std::any_of(blocks.begin(), blocks.end(), [](const PredictionBlock& b) {
        return std::any_of(b.rows.begin(), b.rows.end(),
                           [](const PredictionRow& r) { return r.before.has_value(); });
    });
    const double numberWidth = fm.horizontalAdvance(QStringLiteral("100.0 %")) + 6 * u;
    // The change with the old probability where the bars keep a third of the width; in a narrow
    // panel without it: the tick on the bar marks the old probability.
    const double fullChangeWidth =
        fm.horizontalAdvance(QStringLiteral("▲ 100.0 % (was 100.0 %)")) + 6 * u;
    const bool sayWas =
        area.width() - tokenWidth - numberWidth - fullChangeWidth >= area.width() / 3;
    const double changeWidth = !anyChange ? 0.0
                               : sayWas   ? fullChangeWidth
                                        : fm.horizontalAdvance(QStringLiteral("▲ +100.0")) + 6 * u;
    const double barMax = std::max(10 * u, area.width() - tokenWidth - numberWidth - changeWidth);
    double rowHeight = fm.height() * 1.5;
    double y = area.top();
    if (fill) {
        double rows = 0.0; // in row heights: each block's heading and gap take 1.6
        for (const PredictionBlock& block : blocks)
            rows += double(block.rows.size()) + 1.6;
        const double natural = rows * rowHeight;
        if (natural > 0 && natural < area.height()) {
            const double grow = std::min(3.0, area.height() / natural);
            rowHeight *= grow;
            y += (area.height() - natural * grow) / 2;
        }
    }
    for (const PredictionBlock& block : blocks) {
        painter.setFont(bold);
        painter.setPen(style.text);
        painter.drawText(QRectF(area.left(), y, area.width(), fm.height() * 1.4),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         QFontMetricsF(bold, painter.device())
                             .elidedText(block.heading, Qt::ElideRight, area.width()));
        y += rowHeight * 1.2;
        painter.setFont(font);
        for (const PredictionRow& row : block.rows) {
            const QRectF line(area.left(), y, area.width(), rowHeight);
            painter.setPen(style.text);
            painter.drawText(
                QRectF(line.left(), y, tokenWidth - 6 * u, rowHeight),
                Qt::AlignRight | Qt::AlignVCenter,
                fm.elidedText(paint::tokenLabel(row.text, 18), Qt::ElideRight, tokenWidth - 6 * u));
            // Bars as thick as a line of text at most: spread rows keep bars, not slabs.
            const double thickness = std::min(rowHeight * 0.64, fm.height() * 1.3);
            const QRectF track(line.left() + tokenWidth, y + (rowHeight - thickness) / 2, barMax,
                               thickness);
            QRectF bar = track;
            bar.setWidth(std::max(1.0 * u, barMax * std::clamp(row.probability, 0.0, 1.0)));
            painter.fillRect(track, style.placeholder);
            painter.fillRect(bar, colorAt(Colormap::Viridis, 0.35));
            if (row.before) {
                // The unedited model's probability as a tick on the same track.
                const double x = track.left() + barMax * std::clamp(*row.before, 0.0, 1.0);
                painter.setPen(QPen(style.text, 1.5 * u));
                painter.drawLine(QPointF(x, track.top() - 2 * u),
                                 QPointF(x, track.bottom() + 2 * u));
            }
            geometry.bars.push_back(bar);
            painter.setPen(style.text);
            painter.drawText(QRectF(track.right() + 4 * u, y, numberWidth, rowHeight),
                             Qt::AlignLeft | Qt::AlignVCenter, percent(row.probability));
            if (row.before) {
                const double change = row.probability - *row.before;
                const bool same = std::abs(change) < 0.0005;
                const QString arrow = same         ? QStringLiteral("=")
                                      : change > 0 ? QStringLiteral("▲")
                                                   : QStringLiteral("▼");
                painter.setPen(same ? style.mutedText : change > 0 ? kUp : kDown);
                const QString points = (change >= 0 ? QStringLiteral("+") : QStringLiteral("−")) +
                                       QString::number(std::abs(change) * 100, 'f', 1);
                painter.drawText(
                    QRectF(track.right() + 4 * u + numberWidth, y, changeWidth, rowHeight),
                    Qt::AlignLeft | Qt::AlignVCenter,
                    sayWas ? Words::tr("%1 %2 (was %3)").arg(arrow, points, percent(*row.before))
                           : arrow + QLatin1Char(' ') + points);
            }
            y += rowHeight;
        }
        y += rowHeight * 0.4;
    }
    painter.restore();
    return geometry;
}

} // namespace attn::ui
