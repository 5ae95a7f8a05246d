#pragma once

#include "ui/figures/figure_export.h"
#include "ui/figures/figure_spec.h"

#include "core/model/model_config.h"
#include "core/model/model_result.h"

#include <QFont>
#include <QWidget>
#include <cstdint>
#include <memory>

class QLabel;
class QPushButton;

namespace attn::ui {

// What a causal model keeps between steps, from its shapes (Pope et al. 2022, "Efficiently
// Scaling Transformer Inference", section 2): every layer's keys and values of every token so
// far, one K and one V of d_head per key/value head (grouped-query models share one among
// heads / kvHeads query heads).
// Bytes in float32: layers x kvHeads x tokens x d_head x 2 (K and V) x 4.
std::int64_t kvCacheBytes(const core::ModelConfig& config, int tokens);

// Floating-point operations (2 per multiply-add) of the matrix products one step of
// generation does at total length `tokens`: with the cache only the newest position's rows;
// without it every position's. Per layer, for n query rows that meet `keys` cells in all:
//   2 n d (h + 2 g) d_head   Q, K and V
// + 2 h d_head keys x 2      scores and weights x V
// + 2 n h d_head d           W_O
// + 2 n d d_ff m             feed-forward (m = 3 matrices when gated, else 2)
// plus 2 d vocab for the newest token's logits. With the cache n = 1 and keys = tokens; without
// it n = tokens and keys = tokens (tokens + 1) / 2 (causal); a sliding window caps each row's.
// Norms and softmax (a few operations per number) are left out.
double stepFlops(const core::ModelConfig& config, int tokens, bool cached);

// The figure: the cached keys and values of the selected layer and query head (its key/value
// head's, shared with the other query heads of its group), one row per token, beside the
// newest token's attention row over them.
struct KvCacheFigure
{
    std::shared_ptr<const core::ModelResult> result;
    int layer = 0;
    int head = 0; // the query head
    QString title;
};
void paintKvCacheFigure(QPainter& painter, const QRectF& target, const KvCacheFigure& figure,
                        const QFont& font, const FigureStyle& style);
QByteArray kvCacheFigureBytes(const KvCacheFigure& figure, QSize size, double dpi,
                              FigureFormat format, double fontPoints = 10.0);

// The KV-cache tab of the model window: what the cache holds in each layer and its size, what
// a step costs with and without it (counted and measured), and the cached rows the newest
// token's query meets. Fed by the window with each run it shows.
class KvCacheView : public QWidget
{
    Q_OBJECT

public:
    explicit KvCacheView(QWidget* parent = nullptr);

    // A run the window shows: `cachedPositions` of it came from the run before through the cache
    // (0: a whole forward), `milliseconds` on the worker.
    void setRun(std::shared_ptr<const core::ModelResult> result, int cachedPositions,
                double milliseconds);
    const std::shared_ptr<const core::ModelResult>& result() const { return m_result; }
    int cachedPositions() const { return m_cachedPositions; }
    void setSelection(int layer, int head);
    void setFigureStyle(const FigureStyle& style);
    KvCacheFigure figure() const;
    // PNG, SVG or PDF by the suffix; false with the reason in errorString().
    bool exportFigure(const QString& path, QSize size = QSize(1600, 1100), double dpi = 200.0);
    QString errorString() const { return m_error; }

    QLabel* layersLabel() const { return m_layers; }
    QLabel* sizeLabel() const { return m_size; }
    QLabel* costLabel() const { return m_cost; }
    QWidget* figureWidget() const { return m_figure; }
    QPushButton* exportButton() const { return m_export; }

private:
    void update();

    std::shared_ptr<const core::ModelResult> m_result;
    int m_cachedPositions = 0;
    double m_milliseconds = 0.0;
    // The last measured run of each kind, with its number of computed positions and length.
    double m_wholeMs = -1.0;
    int m_wholeTokens = 0;
    double m_cachedMs = -1.0;
    int m_cachedComputed = 0;
    int m_cachedTokens = 0;
    int m_layer = 0;
    int m_head = 0;
    FigureStyle m_style;
    QString m_error;

    QLabel* m_idea = nullptr;
    QLabel* m_layers = nullptr;
    QLabel* m_size = nullptr;
    QLabel* m_cost = nullptr;
    QWidget* m_figure = nullptr;
    QPushButton* m_export = nullptr;
};

} // namespace attn::ui
