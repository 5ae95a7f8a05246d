#pragma once

#include "ui/figures/figure_spec.h"

#include "core/model/model_result.h"

#include <QFont>
#include <QRectF>
#include <QString>
#include <optional>
#include <vector>

class QPainter;

namespace attn::ui {

// One predicted token with what the unedited model gave it.
struct PredictionRow
{
    QString text; // as a reader sees it
    int id = -1;
    double probability = 0.0;
    std::optional<double> before; // the unedited model's probability of the same token
};

// The top-k at one predicted position: the next token of a causal model, or one [MASK].
struct PredictionBlock
{
    QString heading;
    std::vector<PredictionRow> rows;
};

// The blocks of a run, compared with `baseline` (the same text, no interventions; null or the
// run itself: no comparison). At most `count` rows each.
std::vector<PredictionBlock> predictionBlocks(const core::ModelResult& result,
                                              const core::ModelResult* baseline, int count);
// Why a run has nothing to show (no language-model head, no [MASK]); empty when it has.
QString predictionsMessage(const core::ModelResult& result);

// The predictions as bars with their probabilities, and beside each the change from the
// unedited model: an arrow up or down and the old probability. Colour is never the only cue
// (arrows and numbers carry it). The window's panel and exported figures draw through this.
class PredictionsPainter
{
public:
    struct Geometry
    {
        std::vector<QRectF> bars; // one per row, blocks in order
    };
    // `fill`: rows spread (up to three times their height) and centred to use the target's height,
    // as an exported figure's page is; the window's panel keeps them at the top.
    static Geometry paint(QPainter& painter, const QRectF& target,
                          const std::vector<PredictionBlock>& blocks, const QString& message,
                          const QString& title, const QFont& font, const FigureStyle& style,
                          bool fill = false);
    // The height the blocks need at `width` (the panel's minimum).
    static double heightFor(const std::vector<PredictionBlock>& blocks, const QFont& font,
                            const QString& title);
};

} // namespace attn::ui
