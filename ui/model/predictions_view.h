#pragma once

#include "ui/figures/figure_spec.h"
#include "ui/model/predictions_painter.h"

#include "core/model/model_result.h"

#include <QWidget>
#include <memory>

namespace attn::ui {

// The predictions panel: PredictionsPainter's bars for the current run against the unedited
// one, recomputed when either changes.
class PredictionsView : public QWidget
{
    Q_OBJECT

public:
    explicit PredictionsView(QWidget* parent = nullptr);

    void setResults(std::shared_ptr<const core::ModelResult> result,
                    std::shared_ptr<const core::ModelResult> baseline);
    void setFigureStyle(const FigureStyle& style);
    const std::vector<PredictionBlock>& blocks() const { return m_blocks; }
    QString message() const { return m_message; }

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::shared_ptr<const core::ModelResult> m_result;
    std::shared_ptr<const core::ModelResult> m_baseline;
    std::vector<PredictionBlock> m_blocks;
    QString m_message;
    FigureStyle m_style;
    int m_rows = 10;
};

} // namespace attn::ui
