#pragma once

#include "core/model/logit_lens.h"
#include "core/model/model_result.h"

#include <QWidget>
#include <vector>

namespace attn::ui {

// Under the prediction: the followed token's rank after each layer (the number, and a bar on
// a log scale: full for rank 1), its probability in the tooltip, at the first predicted position,
// as the logit lens reads them. Hidden while there is no lens for the run shown.
class LensTraceView : public QWidget
{
    Q_OBJECT

public:
    explicit LensTraceView(QWidget* parent = nullptr);

    // Null: nothing to show (hidden).
    void setLens(const core::ModelResult* result, const core::LogitLens* lens);
    QString caption() const { return m_caption; }
    const std::vector<int>& ranks() const { return m_ranks; }
    const std::vector<float>& probabilities() const { return m_probabilities; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    QRectF barsRect() const;
    int layerAt(QPointF point) const; // -1: none

    QString m_caption;
    QString m_token;
    double m_vocabulary = 1.0;
    std::vector<int> m_ranks;
    std::vector<float> m_probabilities;
};

} // namespace attn::ui
