#include "ui/model/predictions_view.h"

#include <QPainter>

namespace attn::ui {

PredictionsView::PredictionsView(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Minimum);
    setAccessibleName(tr("Predictions"));
}

void PredictionsView::setResults(std::shared_ptr<const core::ModelResult> result,
                                 std::shared_ptr<const core::ModelResult> baseline)
{
    m_result = std::move(result);
    m_baseline = std::move(baseline);
    m_blocks = m_result ? predictionBlocks(*m_result, m_baseline.get(), m_rows)
                        : std::vector<PredictionBlock>{};
    m_message = m_result ? predictionsMessage(*m_result) : tr("Nothing computed yet.");
    // For screen readers and tests: the first prediction in words.
    if (!m_blocks.empty() && !m_blocks.front().rows.empty()) {
        const PredictionRow& top = m_blocks.front().rows.front();
        setAccessibleDescription(tr("%1: %2 %3 %")
                                     .arg(m_blocks.front().heading, top.text)
                                     .arg(top.probability * 100, 0, 'f', 1));
    }
    updateGeometry();
    update();
}

void PredictionsView::setFigureStyle(const FigureStyle& style)
{
    m_style = style;
    update();
}

int PredictionsView::heightForWidth(int) const
{
    return int(PredictionsPainter::heightFor(m_blocks, font(), QString())) + 8;
}

QSize PredictionsView::sizeHint() const
{
    return QSize(320, std::max(60, heightForWidth(320)));
}

QSize PredictionsView::minimumSizeHint() const
{
    return QSize(200, std::max(60, heightForWidth(200)));
}

void PredictionsView::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    FigureStyle style = m_style;
    style.text = palette().color(QPalette::WindowText);
    style.background = palette().color(QPalette::Window);
    style.placeholder = palette().color(QPalette::Base).lightness() > 128
                            ? QColor(0xe8, 0xe8, 0xe8)
                            : QColor(0x40, 0x40, 0x40);
    style.mutedText = palette().color(QPalette::PlaceholderText);
    PredictionsPainter::paint(painter, QRectF(rect()), m_blocks, m_message, QString(), font(),
                              style);
}

} // namespace attn::ui
