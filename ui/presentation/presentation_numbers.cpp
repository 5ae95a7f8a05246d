#include "ui/presentation/presentation_steps_p.h"

#include "core/attention_result.h"
#include "core/mask.h"
#include "core/token_display.h"

#include <cmath>
#include <limits>

#include <QStringList>
#include <algorithm>

namespace attn::ui::steps_detail {
namespace {

QString quotedToken(const std::vector<core::Token>& tokens, int i)
{
    if (i < 0 || i >= int(tokens.size()))
        return {};
    return QStringLiteral("“%1”").arg(
        core::tokenDisplayText(tokens[std::size_t(i)].text).toHtmlEscaped());
}

// Sum of `terms` products a × b, written out when short, else the first three and "…".
QString dotTerms(const core::Matrix& a, int i, const core::Matrix& b, int j)
{
    const int n = int(a.cols());
    QStringList terms;
    for (int c = 0; c < std::min(n, n <= 4 ? n : 3); ++c)
        terms.append(
            QStringLiteral("%1 × %2").arg(factor(double(a(i, c))), factor(double(b(j, c)))));
    QString text = terms.join(QStringLiteral(" + "));
    if (n > 4)
        text += Words::tr(" + … (%1 terms)").arg(n);
    return text;
}

// Why cell (i, j) is masked: the rules of the problem's mask that mask it.
QString maskReason(const core::Problem& p, int i, int j)
{
    const core::MaskRules rules =
        core::maskRulesAt(p.mask, p.keyIsPadding, p.queryCount(), p.keyCount(), i, j);
    QStringList reasons;
    if (rules.causal)
        reasons.append(Words::tr("causal: %1 &gt; %2").arg(j + 1).arg(i + 1));
    if (rules.window)
        reasons.append(Words::tr("outside the window"));
    if (rules.padding)
        reasons.append(Words::tr("padding"));
    if (rules.custom)
        reasons.append(Words::tr("masked by hand"));
    return reasons.join(QStringLiteral(", "));
}

// The weighted sum of the value vectors for query i: the two largest terms and the result.
QString weightedSum(const core::HeadResult& h, int i)
{
    std::vector<int> order;
    for (int j = 0; j < int(h.weights.cols()); ++j)
        if (h.weights(i, j) != 0.0f)
            order.push_back(j);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return std::abs(h.weights(i, a)) > std::abs(h.weights(i, b));
    });
    QStringList terms;
    for (std::size_t k = 0; k < std::min<std::size_t>(2, order.size()); ++k)
        terms.append(QStringLiteral("%1 %2").arg(factor(double(h.weights(i, order[k]))),
                                                 bold(QStringLiteral("v"), order[k])));
    if (order.size() > 2)
        terms.append(QStringLiteral("…"));
    if (terms.isEmpty())
        terms.append(QStringLiteral("0"));
    return terms.join(QStringLiteral(" + "));
}
} // namespace

QString numbers(PresentationStep step, const core::AttentionResult& r, int hIndex, int i, int j)
{
    const core::Problem& p = *r.problem;
    const core::HeadResult& h = r.heads[std::size_t(hIndex)];
    const QString eq = QStringLiteral(" = ");
    const QString s_ij = indexed(QStringLiteral("s"), i, j);
    switch (step) {
    case PresentationStep::Tokens: {
        QString text = indexed(QStringLiteral("t"), i) + eq + quotedToken(p.queryTokens, i) +
                       Words::tr(" (query %1 of %2)").arg(i + 1).arg(p.queryCount());
        if (p.cross)
            text += kGap + indexed(QStringLiteral("s"), j) + eq + quotedToken(p.keyTokens, j) +
                    Words::tr(" (source token %1 of %2)").arg(j + 1).arg(p.keyCount());
        return text;
    }
    case PresentationStep::Embeddings:
        return bold(QStringLiteral("x"), i) + eq + bold(QStringLiteral("e"), i) +
               QStringLiteral(" + ") + bold(QStringLiteral("p"), i) + eq +
               vectorText(p.queryEmbedding, i) + QStringLiteral(" + ") +
               vectorText(p.queryPositionOrZeros(), i) + eq + vectorText(r.queryInput(), i);
    case PresentationStep::Projections:
        return bold(QStringLiteral("q"), i) + eq + bold(QStringLiteral("x"), i) +
               it(QStringLiteral("W")) + sup(it(QStringLiteral("Q"))) + eq + vectorText(h.Q, i) +
               QStringLiteral(",") + kGap + bold(QStringLiteral("k"), j) + eq + vectorText(h.K, j) +
               QStringLiteral(",") + kGap + bold(QStringLiteral("v"), j) + eq + vectorText(h.V, j);
    case PresentationStep::Scores: {
        const QString e = indexed(QStringLiteral("e"), i, j);
        const double value = double(h.rawScores(i, j));
        const core::Matrix& q = h.rotatedQ.size() ? h.rotatedQ : h.Q;
        const core::Matrix& k = h.rotatedK.size() ? h.rotatedK : h.K;
        if (p.score == core::ScoreKind::Dot || p.score == core::ScoreKind::ScaledDot)
            return e + eq + bold(QStringLiteral("q"), i) + QStringLiteral(" · ") +
                   bold(QStringLiteral("k"), j) + eq + dotTerms(q, i, k, j) + eq + num(value);
        return e + eq +
               scoreExpression(p.score, QString::number(j + 1))
                   .replace(QStringLiteral("<i>i</i>"), QString::number(i + 1)) +
               eq + num(value);
    }
    case PresentationStep::Scaled: {
        const double e = double(h.rawScores(i, j));
        const double s = double(h.scaledScores(i, j));
        const double scale = double(p.scoreScale());
        if (scale == 1.0)
            return s_ij + eq + indexed(QStringLiteral("e"), i, j) + eq + num(s) +
                   Words::tr(" (not scaled)");
        return s_ij + eq + indexed(QStringLiteral("e"), i, j) + QStringLiteral(" / ") + divisor(p) +
               eq + num(e) + QStringLiteral(" / ") + num(1.0 / scale) + eq + num(s);
    }
    case PresentationStep::Masked: {
        const QString m = indexed(QStringLiteral("M"), i, j);
        const double s = double(h.scaledScores(i, j));
        const QString reason = maskReason(p, i, j);
        if (reason.isEmpty())
            return s_ij + QStringLiteral(" + ") + m + eq + num(s) + QStringLiteral(" + 0") + eq +
                   num(s) + Words::tr(" (not masked)");
        return s_ij + QStringLiteral(" + ") + m + eq + num(s) + QStringLiteral(" + (") +
               fillValue(p.fill) + QStringLiteral(")") + eq + fillValue(p.fill) +
               QStringLiteral(" (%1)").arg(reason);
    }
    case PresentationStep::Normalized: {
        const QString a = QStringLiteral("α") + sub(QStringLiteral("%1,%2").arg(i + 1).arg(j + 1));
        const double alpha = double(h.weights(i, j));
        const auto row = h.maskedScores.row(i);
        const core::Mask mask = p.makeMask();
        switch (p.normalization) {
        case core::Normalization::Softmax: {
            // With the row's largest logit taken out, as it is computed (no overflow).
            double max = -std::numeric_limits<double>::infinity();
            for (int c = 0; c < int(row.size()); ++c)
                if (!mask.isMasked(i, c))
                    max = std::max(max, double(row(c)));
            if (!std::isfinite(max))
                return a + eq + Words::tr("0 (every key of query %1 is masked)").arg(i + 1);
            double sum = 0.0;
            for (int c = 0; c < int(row.size()); ++c)
                if (!mask.isMasked(i, c))
                    sum += std::exp(double(row(c)) - max);
            const bool masked = mask.isMasked(i, j);
            const double top = masked ? 0.0 : std::exp(double(row(j)) - max);
            const QString shift = max == 0.0 ? QString() : QStringLiteral(" − %1").arg(num(max));
            return a + eq +
                   QStringLiteral("exp(%1%2) / ∑")
                       .arg(masked ? fillValue(p.fill) : num(double(row(j))), shift) +
                   sub(it(QStringLiteral("j"))) +
                   QStringLiteral(" exp(%1%2)")
                       .arg(it(QStringLiteral("s")) +
                                sub(QString::number(i + 1) + it(QStringLiteral("j"))),
                            shift) +
                   eq + num(top) + QStringLiteral(" / ") + num(sum) + eq + num(alpha);
        }
        case core::Normalization::Hard: {
            int best = 0;
            for (int c = 1; c < int(row.size()); ++c)
                if (row(c) > row(best))
                    best = c;
            // Seed 000: what the argmax drops of the row that softmax would spread.
            double sum = 0.0;
            for (int c = 0; c < int(row.size()); ++c)
                if (!mask.isMasked(i, c))
                    sum += std::exp(double(row(c)) - double(row(best)));
            const double kept = sum > 0.0 ? 1.0 / sum : 0.0;
            return a + eq + num(alpha) +
                   Words::tr(" (the largest score of row %1 is key %2’s, %3)")
                       .arg(i + 1)
                       .arg(best + 1)
                       .arg(num(double(row(best)))) +
                   Words::tr("; softmax would keep %1 there, the argmax drops %2")
                       .arg(num(kept), num(1.0 - kept));
        }
        case core::Normalization::Relu: {
            double sum = 0.0;
            for (int c = 0; c < int(row.size()); ++c)
                if (!mask.isMasked(i, c))
                    sum += std::max(0.0, double(row(c)));
            const double top = mask.isMasked(i, j) ? 0.0 : std::max(0.0, double(row(j)));
            return a + eq + QStringLiteral("ReLU(%1) / ∑").arg(num(double(row(j)))) +
                   sub(it(QStringLiteral("j"))) + QStringLiteral(" ReLU(") +
                   it(QStringLiteral("s")) + sub(QString::number(i + 1) + it(QStringLiteral("j"))) +
                   QStringLiteral(")") + eq + num(top) + QStringLiteral(" / ") + num(sum) + eq +
                   num(alpha);
        }
        case core::Normalization::Sparsemax: {
            // The threshold τ: any key in the support has α = s − τ.
            double tau = std::numeric_limits<double>::quiet_NaN();
            for (int c = 0; c < int(row.size()); ++c)
                if (h.weights(i, c) > 0.0f) {
                    tau = double(row(c)) - double(h.weights(i, c));
                    break;
                }
            return a + eq +
                   QStringLiteral("max(%1 − τ, 0) = max(%1 − %2, 0)")
                       .arg(num(double(row(j))), num(tau)) +
                   eq + num(alpha);
        }
        case core::Normalization::None:
            return a + eq + s_ij + QStringLiteral(" + ") + indexed(QStringLiteral("M"), i, j) + eq +
                   num(alpha);
        }
        return {};
    }
    case PresentationStep::QueryFocus:
        return bold(QStringLiteral("o"), i) + eq + weightedSum(h, i) + eq +
               vectorText(h.output, i, 6);
    case PresentationStep::WeightedSum: {
        QStringList terms;
        const int n = int(h.weights.cols());
        for (int c = 0; c < std::min(n, 3); ++c)
            terms.append(QStringLiteral("%1 × %2").arg(factor(double(h.weights(i, c))),
                                                       factor(double(h.V(c, 0)))));
        if (n > 3)
            terms.append(QStringLiteral("…"));
        return indexed(QStringLiteral("O"), i, 0) + eq + QStringLiteral("∑") +
               sub(it(QStringLiteral("j"))) + QStringLiteral(" α") +
               sub(QString::number(i + 1) + it(QStringLiteral("j"))) + QStringLiteral(" ") +
               it(QStringLiteral("V")) + sub(it(QStringLiteral("j")) + QStringLiteral(",1")) + eq +
               terms.join(QStringLiteral(" + ")) + eq + num(double(h.output(i, 0)));
    }
    case PresentationStep::Heads: {
        QStringList parts;
        for (int g = 0; g < std::min<int>(6, int(r.heads.size())); ++g)
            parts.append(Words::tr("head %1: %2")
                             .arg(g + 1)
                             .arg(num(double(r.heads[std::size_t(g)].weights(i, j)))));
        if (r.heads.size() > 6)
            parts.append(QStringLiteral("…"));
        return QStringLiteral("α") + sub(QStringLiteral("%1,%2").arg(i + 1).arg(j + 1)) +
               Words::tr(" in ") + parts.join(QStringLiteral(", "));
    }
    case PresentationStep::Concat:
        return QStringLiteral("Concat") + sub(QString::number(i + 1)) + eq +
               vectorText(r.concat(), i, 6) +
               Words::tr(" (%1 heads × %2 values)").arg(r.heads.size()).arg(p.weights->dV);
    case PresentationStep::Output:
        return bold(QStringLiteral("y"), i) + eq + QStringLiteral("Concat") +
               sub(QString::number(i + 1)) + QStringLiteral(" ") + it(QStringLiteral("W")) +
               sup(it(QStringLiteral("O"))) +
               (p.weights->bo.size() ? QStringLiteral(" + <b>b</b>") + sup(it(QStringLiteral("O")))
                                     : QString()) +
               eq + vectorText(r.output, i, 6);
    default: // the steps a scene adds: presentation_block_steps.cpp, presentation_mixing_steps.cpp
        break;
    }
    return {};
}

} // namespace attn::ui::steps_detail
