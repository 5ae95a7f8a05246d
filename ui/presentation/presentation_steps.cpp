#include "ui/presentation/presentation_steps.h"

#include "core/attention_result.h"
#include "core/mask.h"
#include "core/problem.h"
#include "core/token_display.h"

#include <cmath>
#include <limits>

#include <QCoreApplication>
#include <QStringList>
#include <algorithm>
#include <array>
#include <utility>

namespace attn::ui {
namespace {

// tr() for the presentation's words (no QObject here): lupdate reads the context from it.
struct Words
{
    Q_DECLARE_TR_FUNCTIONS(PresentationSteps)
};

// Math as a textbook sets it: scalars and indices italic, vectors bold, function names
// upright, and real subscripts and superscripts.
QString it(const QString& s)
{
    return QStringLiteral("<i>%1</i>").arg(s);
}
QString sub(const QString& s)
{
    return QStringLiteral("<sub>%1</sub>").arg(s);
}
QString sup(const QString& s)
{
    return QStringLiteral("<sup>%1</sup>").arg(s);
}
QString vec(const QString& name, const QString& index)
{
    return QStringLiteral("<b>%1</b>").arg(name) + sub(it(index));
}
QString scalar(const QString& name, const QString& indices)
{
    return it(name) + sub(it(indices));
}
const QString kGap = QStringLiteral("&nbsp;&nbsp;&nbsp;&nbsp;"); // rich text collapses other spaces
const QString kDk = it(QStringLiteral("d")) + sub(it(QStringLiteral("k")));
const QString kTau = QStringLiteral("τ");

QString number(double value)
{
    return QString::number(value, 'g', 3).replace(QLatin1Char('-'), QChar(0x2212));
}

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

// The score of query i and key `key` as the problem's score function computes it.
QString scoreExpression(core::ScoreKind kind, const QString& key)
{
    const QString q = vec(QStringLiteral("q"), QStringLiteral("i"));
    const QString k = vec(QStringLiteral("k"), key);
    switch (kind) {
    case core::ScoreKind::Dot:
    case core::ScoreKind::ScaledDot:
        return q + QStringLiteral(" · ") + k;
    case core::ScoreKind::Additive: // seed 001's additive score
        return QStringLiteral("<b>w</b>") + sup(QStringLiteral("T")) +
               QStringLiteral(" tanh(%1 + %2)").arg(q, k);
    case core::ScoreKind::Bilinear:
        return q + sup(QStringLiteral("T")) + QStringLiteral(" ") + it(QStringLiteral("M")) +
               QStringLiteral(" ") + k;
    case core::ScoreKind::Cosine:
        return QStringLiteral("cos(%1, %2)").arg(q, k);
    }
    return {};
}

// What the scores are divided by ("" when nothing): sqrt(d_k) and the temperature.
QString divisor(const core::Problem& p)
{
    const bool scaled = p.score == core::ScoreKind::ScaledDot;
    const bool tempered = p.temperature != 1.0f;
    if (scaled && tempered)
        return QStringLiteral("(%1√%2)").arg(kTau, kDk);
    if (scaled)
        return QStringLiteral("√") + kDk;
    if (tempered)
        return kTau;
    return {};
}

QString fillValue(core::MaskFill fill)
{
    return fill == core::MaskFill::NegativeInfinity
               ? QStringLiteral("−∞")
               : QStringLiteral("−9·10") + sup(QStringLiteral("15"));
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
    }
    return {};
}

} // namespace

QString presentationStepName(int step)
{
    static const std::array<const char*, kPresentationSteps> names{
        QT_TRANSLATE_NOOP("PresentationSteps", "Tokens"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Embeddings + positions"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Queries, keys, values"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Scores"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Scaling"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Masking"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Normalization"),
        QT_TRANSLATE_NOOP("PresentationSteps", "One query"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Weighted sum"),
        QT_TRANSLATE_NOOP("PresentationSteps", "All heads"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Concatenation"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Output projection")};
    if (step < 1 || step > kPresentationSteps)
        return {};
    return Words::tr(names[std::size_t(step - 1)]);
}

QString presentationCaption(int step, const core::Problem& problem)
{
    if (step < 1 || step > kPresentationSteps)
        return {};
    return caption(PresentationStep(step), problem);
}

namespace {

// --- The numbers line: the step's equation for the chosen cell -------------------------

// A number as the line sets it: at most two decimals, trailing zeros dropped, a real minus
// sign, tiny values as a power of ten, infinities as ∞.
QString num(double v)
{
    if (std::isinf(v))
        return v < 0 ? QStringLiteral("−∞") : QStringLiteral("∞");
    if (std::isnan(v))
        return QStringLiteral("NaN");
    QString text;
    if (v != 0.0 && std::abs(v) < 0.005) {
        const int exponent = int(std::floor(std::log10(std::abs(v))));
        const double mantissa = v / std::pow(10.0, exponent);
        text = QString::number(mantissa, 'f', 1) + QStringLiteral("·10") +
               sup(QString::number(exponent));
    } else {
        text = QString::number(v, 'f', 2);
        while (text.contains(QLatin1Char('.')) &&
               (text.endsWith(QLatin1Char('0')) || text.endsWith(QLatin1Char('.'))))
            text.chop(1);
        if (text == QLatin1String("-0"))
            text = QStringLiteral("0");
    }
    return text.replace(QLatin1Char('-'), QChar(0x2212));
}

// In a product a negative factor takes parentheses: 3 × (−2).
QString factor(double v)
{
    const QString text = num(v);
    return v < 0 ? QStringLiteral("(%1)").arg(text) : text;
}

// A row of a matrix as a vector: all of it up to `shown` entries, else the first ones and "…".
QString vectorText(const core::Matrix& m, int row, int shown = 4)
{
    QStringList parts;
    const int n = int(m.cols());
    for (int c = 0; c < std::min(n, shown); ++c)
        parts.append(num(double(m(row, c))));
    if (n > shown)
        parts.append(QStringLiteral("…"));
    return QStringLiteral("(%1)").arg(parts.join(QStringLiteral(", ")));
}

QString indexed(const QString& name, int a)
{
    return it(name) + sub(QString::number(a + 1));
}
QString indexed(const QString& name, int a, int b)
{
    return it(name) + sub(QStringLiteral("%1,%2").arg(a + 1).arg(b + 1));
}
QString bold(const QString& name, int a)
{
    return QStringLiteral("<b>%1</b>").arg(name) + sub(QString::number(a + 1));
}
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
    QStringList reasons;
    auto rule = [&](const QString& name, auto enable) {
        core::MaskSpec only;
        only.padding = false;
        enable(only);
        if (core::Mask(only, p.keyIsPadding, p.queryCount(), p.keyCount()).isMasked(i, j))
            reasons.append(name);
    };
    rule(Words::tr("causal: %1 &gt; %2").arg(j + 1).arg(i + 1),
         [&](core::MaskSpec& s) { s.causal = p.mask.causal; });
    rule(Words::tr("outside the window"), [&](core::MaskSpec& s) {
        s.window = p.mask.window;
        s.windowCausal = p.mask.windowCausal;
    });
    rule(Words::tr("padding"), [&](core::MaskSpec& s) { s.padding = p.mask.padding; });
    rule(Words::tr("masked by hand"),
         [&](core::MaskSpec& s) { s.customCells = p.mask.customCells; });
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
    }
    return {};
}

} // namespace

QString presentationNumbers(int step, const core::AttentionResult& result, int head, int query,
                            int key)
{
    if (step < 1 || step > kPresentationSteps || result.heads.empty() ||
        !result.intermediatesKept || result.pooling.pooled)
        return {};
    head = std::clamp(head, 0, int(result.heads.size()) - 1);
    query = std::clamp(query, 0, std::max(0, result.problem->queryCount() - 1));
    key = std::clamp(key, 0, std::max(0, result.problem->keyCount() - 1));
    return numbers(PresentationStep(step), result, head, query, key);
}

} // namespace attn::ui
