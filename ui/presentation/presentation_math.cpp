#include "ui/presentation/presentation_steps_p.h"

#include <cmath>

#include <QStringList>
#include <algorithm>

namespace attn::ui::steps_detail {

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

const QString kGap = QStringLiteral("&nbsp;&nbsp;&nbsp;&nbsp;");
const QString kDk = it(QStringLiteral("d")) + sub(it(QStringLiteral("k")));
const QString kTau = QStringLiteral("τ");

QString number(double value)
{
    return QString::number(value, 'g', 3).replace(QLatin1Char('-'), QChar(0x2212));
}

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

QString factor(double v)
{
    const QString text = num(v);
    return v < 0 ? QStringLiteral("(%1)").arg(text) : text;
}

QString vectorText(const core::Matrix& m, int row, int shown)
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

} // namespace attn::ui::steps_detail
