#include "ui/presentation/presentation_steps_p.h"

#include "core/problem.h"

#include <QStringList>
#include <algorithm>
#include <utility>

namespace attn::ui::steps_detail {
namespace {

bool anyPadding(const core::Problem& p)
{
    return p.mask.padding &&
           std::find(p.keyIsPadding.begin(), p.keyIsPadding.end(), true) != p.keyIsPadding.end();
}

// The rules that mask cells of this problem, each as its condition on (i, j).
QStringList maskConditions(const core::Problem& p)
{
    const QString i = it(QStringLiteral("i"));
    const QString j = it(QStringLiteral("j"));
    QStringList conditions;
    if (p.mask.causal)
        conditions.append(Words::tr("%1 &gt; %2 (causal)").arg(j, i));
    if (p.mask.window >= 0) {
        const QString w = QString::number(p.mask.window);
        conditions.append(p.mask.windowCausal
                              ? Words::tr("%1 ∉ [%2 − %3, %2] (window)").arg(j, i, w)
                              : Words::tr("|%1 − %2| &gt; %3 (window)").arg(i, j, w));
    }
    if (anyPadding(p))
        conditions.append(Words::tr("key %1 is padding").arg(j));
    if (!p.mask.customCells.empty())
        conditions.append(Words::tr("(%1, %2) masked by hand").arg(i, j));
    return conditions;
}

// The whole argument of the normalization for query i and key `key`: score, scaling, mask.
QString logit(const core::Problem& p, const QString& key)
{
    QString text = scoreExpression(p.score, key);
    const QString d = divisor(p);
    if (!d.isEmpty())
        text += QStringLiteral(" / ") + d;
    if (!maskConditions(p).isEmpty())
        text += QStringLiteral(" + ") + scalar(QStringLiteral("M"), QStringLiteral("i") + key);
    return text;
}

// s_ik, or s_ik + M_ik under a mask: the short name of a row's logits. An empty `key`
// names the whole row (bold: a vector).
QString shortLogit(const core::Problem& p, const QString& key)
{
    const QString i = it(QStringLiteral("i"));
    const QString s = key.isEmpty() ? QStringLiteral("<b>s</b>") + sub(i)
                                    : scalar(QStringLiteral("s"), QStringLiteral("i") + key);
    const QString m = key.isEmpty() ? QStringLiteral("<b>m</b>") + sub(i)
                                    : scalar(QStringLiteral("M"), QStringLiteral("i") + key);
    return maskConditions(p).isEmpty() ? s : s + QStringLiteral(" + ") + m;
}

// What the projections multiply: X, or in cross-attention the target's X for the queries and
// the source's for the keys and values.
std::pair<QString, QString> projectionInputs(const core::Problem& p)
{
    if (!p.cross)
        return {it(QStringLiteral("X")), it(QStringLiteral("X"))};
    return {it(QStringLiteral("X")) + sub(QStringLiteral("t")),
            it(QStringLiteral("X")) + sub(QStringLiteral("s"))};
}

QString headList(int heads)
{
    const QString head = QStringLiteral("head");
    return heads == 1
               ? head + sub(QStringLiteral("1"))
               : QStringLiteral("%1, …, %2")
                     .arg(head + sub(QStringLiteral("1")), head + sub(it(QStringLiteral("H"))));
}

QString normalizationName(core::Normalization n)
{
    switch (n) {
    case core::Normalization::Softmax:
        return QStringLiteral("softmax");
    case core::Normalization::Hard:
        return QStringLiteral("hardmax");
    case core::Normalization::Relu:
        return QStringLiteral("ReLU-normalize");
    case core::Normalization::Sparsemax:
        return QStringLiteral("sparsemax");
    case core::Normalization::None:
        return QStringLiteral("identity");
    }
    return {};
}

} // namespace

QString caption(PresentationStep step, const core::Problem& p)
{
    const QString i = it(QStringLiteral("i"));
    const QString j = it(QStringLiteral("j"));
    const QString alpha = QStringLiteral("α") + sub(it(QStringLiteral("ij")));
    const QString eq = QStringLiteral(" = ");
    const int heads = p.weights->headCount();
    switch (step) {
    case PresentationStep::Tokens: {
        auto tokens = [&](const QString& count, const QString& t, int n) {
            const QString last = QString::number(n);
            return Words::tr("%1 = %2 tokens %3")
                .arg(it(count), last,
                     n == 1 ? it(t) + sub(QStringLiteral("1"))
                            : QStringLiteral("%1, …, %2")
                                  .arg(it(t) + sub(QStringLiteral("1")), it(t) + sub(last)));
        };
        if (p.cross) // queries from the target sentence, keys and values from the source
            return Words::tr("target: %1;%2source: %3")
                .arg(tokens(QStringLiteral("T"), QStringLiteral("t"), p.queryCount()), kGap,
                     tokens(QStringLiteral("S"), QStringLiteral("s"), p.keyCount()));
        return tokens(QStringLiteral("T"), QStringLiteral("t"), p.queryCount());
    }
    case PresentationStep::Embeddings: {
        QString text =
            QStringLiteral("%1 = %2 + %3%4%5 = %6 + %7")
                .arg(it(QStringLiteral("X")), it(QStringLiteral("E")), it(QStringLiteral("P")),
                     kGap, vec(QStringLiteral("x"), QStringLiteral("i")),
                     vec(QStringLiteral("e"), QStringLiteral("i")),
                     vec(QStringLiteral("p"), QStringLiteral("i")));
        if (!p.hasPositions() || (p.queryPosition.isZero() && (!p.cross || p.keyPosition.isZero())))
            text += kGap + Words::tr("(no positions: %1 = 0)").arg(it(QStringLiteral("P")));
        return text;
    }
    case PresentationStep::Projections: {
        const auto [xq, xkv] = projectionInputs(p);
        const bool bias = std::any_of(
            p.weights->heads.begin(), p.weights->heads.end(),
            [](const core::HeadWeights& h) { return h.bq.size() || h.bk.size() || h.bv.size(); });
        QStringList parts;
        for (auto [name, x] : {std::pair{QStringLiteral("Q"), xq},
                               {QStringLiteral("K"), xkv},
                               {QStringLiteral("V"), xkv}}) {
            QString part = it(name) + eq + x + it(QStringLiteral("W")) + sup(it(name));
            if (bias)
                part += QStringLiteral(" + ") + QStringLiteral("<b>b</b>") + sup(it(name));
            parts.append(part);
        }
        QString text = parts.join(QStringLiteral(",") + kGap);
        const QString w = it(QStringLiteral("W"));
        if (heads > 1) // seed 002: one projection, then a reshape into heads
            text += kGap + Words::tr("%1 = [%2 … %3]: one projection cut into %4 heads")
                               .arg(w + sup(it(QStringLiteral("Q"))),
                                    w + sub(QStringLiteral("1")) + sup(it(QStringLiteral("Q"))),
                                    w + sub(QString::number(heads)) + sup(it(QStringLiteral("Q"))))
                               .arg(heads);
        if (bias) // Bishop p. 365: the bias is a row of the weights
            text += kGap + QStringLiteral("(%1%2 + <b>b</b> = [%1 1] [%2; <b>b</b>])")
                               .arg(it(QStringLiteral("X")), w);
        return text;
    }
    case PresentationStep::Scores: {
        const QString e = scalar(QStringLiteral("e"), QStringLiteral("ij"));
        if (p.score == core::ScoreKind::Cosine)
            return e + eq +
                   QStringLiteral("%1 · %2 / (‖%1‖ ‖%2‖)")
                       .arg(vec(QStringLiteral("q"), QStringLiteral("i")),
                            vec(QStringLiteral("k"), QStringLiteral("j")));
        QString text = e + eq + scoreExpression(p.score, QStringLiteral("j"));
        if (p.score == core::ScoreKind::Dot || p.score == core::ScoreKind::ScaledDot)
            text += kGap + QStringLiteral("(%1%2%3)")
                               .arg(it(QStringLiteral("Q")), it(QStringLiteral("K")),
                                    sup(QStringLiteral("T")));
        return text;
    }
    case PresentationStep::Scaled: {
        const QString s = scalar(QStringLiteral("s"), QStringLiteral("ij")) + eq +
                          scalar(QStringLiteral("e"), QStringLiteral("ij"));
        const QString d = divisor(p);
        if (d.isEmpty())
            return s + kGap +
                   Words::tr("(not scaled: the %1 score is used as it is)")
                       .arg(p.score == core::ScoreKind::Dot
                                ? Words::tr("dot-product")
                                : QString::fromUtf8(toString(p.score).data()));
        QStringList values;
        if (p.temperature != 1.0f)
            values.append(kTau + eq + number(double(p.temperature)));
        if (p.score == core::ScoreKind::ScaledDot)
            values.append(kDk + eq + QString::number(p.weights->dK));
        return s + QStringLiteral(" / ") + d + kGap +
               QStringLiteral("(%1)").arg(values.join(QStringLiteral(", ")));
    }
    case PresentationStep::Masked: {
        const QStringList conditions = maskConditions(p);
        const QString m = scalar(QStringLiteral("M"), QStringLiteral("ij"));
        if (conditions.isEmpty())
            return Words::tr("no mask: every query sees every key%1(%2 = 0)").arg(kGap, m);
        return Words::tr("%1 + %2,%3%2 = %4 where %5")
            .arg(scalar(QStringLiteral("s"), QStringLiteral("ij")), m, kGap, fillValue(p.fill),
                 conditions.join(Words::tr(" or ")));
    }
    case PresentationStep::Normalized: {
        const QString jPrime = QStringLiteral("j′");
        switch (p.normalization) {
        case core::Normalization::Softmax: // Vaswani et al. eq. 1, row by row
            return alpha + eq + QStringLiteral("softmax") + sub(j) +
                   QStringLiteral("(%1)").arg(logit(p, QStringLiteral("j")));
        case core::Normalization::Hard: // seed 000: one-hot at the argmax
            return alpha + eq + Words::tr("1 if %1 = argmax").arg(j) + sub(it(jPrime)) +
                   Words::tr(" (%1), else 0").arg(logit(p, jPrime));
        case core::Normalization::Relu:
            return alpha + eq +
                   QStringLiteral("ReLU(%1) / ∑%2 ReLU(%3)")
                       .arg(shortLogit(p, QStringLiteral("j")), sub(it(jPrime)),
                            shortLogit(p, jPrime));
        case core::Normalization::Sparsemax: // Martins & Astudillo 2016: projection onto the
                                             // simplex
            return QStringLiteral("α") + sub(i) + eq +
                   QStringLiteral("sparsemax(%1)").arg(shortLogit(p, QString())) + eq +
                   QStringLiteral("argmin") + sub(QStringLiteral("<b>p</b> ∈ Δ")) +
                   QStringLiteral(" ‖<b>p</b> − (%1)‖").arg(shortLogit(p, QString())) +
                   sup(QStringLiteral("2"));
        case core::Normalization::None: // seed 004's (X X^T) V: the scores themselves
            return alpha + eq + scalar(QStringLiteral("s"), QStringLiteral("ij")) + kGap +
                   Words::tr("(no normalization; a masked cell is 0)");
        }
        return {};
    }
    case PresentationStep::QueryFocus: {
        // One row of the three steps before: its logits, their normalization, the sum.
        const QString row = QStringLiteral("α") + sub(i) + eq + normalizationName(p.normalization) +
                            QStringLiteral("(%1)").arg(shortLogit(p, QString()));
        return vec(QStringLiteral("o"), QStringLiteral("i")) + eq + QStringLiteral("∑") + sub(j) +
               QStringLiteral(" ") + alpha + QStringLiteral(" ") +
               vec(QStringLiteral("v"), QStringLiteral("j")) + QStringLiteral(",") + kGap + row;
    }
    case PresentationStep::WeightedSum:
        return vec(QStringLiteral("o"), QStringLiteral("i")) + eq + QStringLiteral("∑") + sub(j) +
               QStringLiteral(" ") + alpha + QStringLiteral(" ") +
               vec(QStringLiteral("v"), QStringLiteral("j")) + kGap +
               QStringLiteral("(%1 = α%2)").arg(it(QStringLiteral("O")), it(QStringLiteral("V")));
    case PresentationStep::Heads: {
        const auto [xq, xkv] = projectionInputs(p);
        int off = 0;
        for (const core::HeadWeights& h : p.weights->heads)
            off += h.enabled ? 0 : 1;
        QString text = QStringLiteral("head") + sub(it(QStringLiteral("h"))) + eq +
                       QStringLiteral("Attention(%1, %2, %3)")
                           .arg(xq + it(QStringLiteral("W")) + sub(it(QStringLiteral("h"))) +
                                    sup(it(QStringLiteral("Q"))),
                                xkv + it(QStringLiteral("W")) + sub(it(QStringLiteral("h"))) +
                                    sup(it(QStringLiteral("K"))),
                                xkv + it(QStringLiteral("W")) + sub(it(QStringLiteral("h"))) +
                                    sup(it(QStringLiteral("V")))) +
                       QStringLiteral(",") + kGap + it(QStringLiteral("H")) + eq +
                       QString::number(heads);
        if (off > 0)
            text += Words::tr(" (%1 switched off)").arg(off);
        return text;
    }
    case PresentationStep::Concat:
        return QStringLiteral("Concat(%1)%2%3 × %4 %5 = %6 × %7")
            .arg(headList(heads), kGap, it(QStringLiteral("T")), it(QStringLiteral("H")),
                 it(QStringLiteral("d")) + sub(it(QStringLiteral("v"))),
                 QString::number(p.queryCount()), QString::number(heads * p.weights->dV));
    case PresentationStep::Output: {
        QString text =
            QStringLiteral("MultiHead = Concat(%1) %2")
                .arg(headList(heads), it(QStringLiteral("W")) + sup(it(QStringLiteral("O"))));
        if (p.weights->bo.size())
            text += QStringLiteral(" + <b>b</b>") + sup(it(QStringLiteral("O")));
        // Seed 004: a head's output depends on W_i^V and W_i^O only through their product.
        const QString i = it(QStringLiteral("i"));
        text +=
            kGap + QStringLiteral("= ∑%1 %2 %3 (%4 %5)")
                       .arg(sub(i), it(QStringLiteral("A")) + sub(i), projectionInputs(p).second,
                            it(QStringLiteral("W")) + sub(i) + sup(it(QStringLiteral("V"))),
                            it(QStringLiteral("W")) + sub(i) + sup(it(QStringLiteral("O"))));
        if (std::any_of(p.weights->heads.begin(), p.weights->heads.end(),
                        [](const core::HeadWeights& h) { return h.bv.size() != 0; }) ||
            p.weights->bo.size())
            text += QStringLiteral(" + …");
        return text;
    }
    default: // the steps a scene adds: presentation_block_steps.cpp, presentation_mixing_steps.cpp
        break;
    }
    return {};
}

} // namespace attn::ui::steps_detail
