#include "ui/presentation/presentation_extras.h"
#include "ui/presentation/presentation_steps_p.h"

#include <QStringList>
#include <algorithm>

namespace attn::ui::steps_detail {
namespace {

// Which of the three layers a mixing step shows (fully connected, convolution, attention).
int layerOf(PresentationStep step)
{
    return step == PresentationStep::MixingFullyConnected ? 0
           : step == PresentationStep::MixingConvolution  ? 1
                                                          : 2;
}

QString quoted(const QStringList& tokens)
{
    return QStringLiteral("“%1”").arg(tokens.join(QLatin1Char(' ')).toHtmlEscaped());
}

} // namespace

QString mixingCaption(PresentationStep step, const core::Problem& p, const PresentationExtras& e)
{
    const QString m = scalar(QStringLiteral("M"), QStringLiteral("ij"));
    const QString mixing = vec(QStringLiteral("y"), QStringLiteral("i")) + QStringLiteral(" = ∑") +
                           sub(it(QStringLiteral("j"))) + QStringLiteral(" ") + m +
                           vec(QStringLiteral("x"), QStringLiteral("j"));
    switch (step) {
    case PresentationStep::MixingFullyConnected:
        return mixing + kGap +
               Words::tr("fully connected: %1 is drawn once and tied to the positions; it never "
                         "reads the words")
                   .arg(it(QStringLiteral("M")));
    case PresentationStep::MixingConvolution:
        return mixing + kGap +
               Words::tr("convolution: %1 = ¼, ½, ¼ for %2 = %3 − 1, %3, %3 + 1, one window slid "
                         "along the sentence")
                   .arg(m, it(QStringLiteral("j")), it(QStringLiteral("i")));
    case PresentationStep::MixingAttention:
        return caption(PresentationStep::Normalized, p) + kGap +
               Words::tr("attention: the weights are computed from the words");
    case PresentationStep::MixingChanges:
        return Words::tr("%1 → %2: the fixed weights stay, attention's move")
            .arg(quoted(e.before), quoted(e.after));
    default:
        return {};
    }
}

QString mixingNumbers(PresentationStep step, const PresentationExtras& e, int head, int i, int j)
{
    const PresentationExtras::Mixing& m =
        e.mixing[std::size_t(std::clamp(head, 0, int(e.mixing.size()) - 1))];
    if (step == PresentationStep::MixingChanges)
        return Words::tr("largest change: fully connected %1, convolution %2, attention %3")
            .arg(num(m.largest[0]), num(m.largest[1]), num(m.largest[2]));
    const int l = layerOf(step);
    const auto& [before, after] = m.matrices[std::size_t(l)];
    const QString name =
        l == 2 ? QStringLiteral("α") + sub(QStringLiteral("%1,%2").arg(i + 1).arg(j + 1))
               : indexed(QStringLiteral("M"), i, j);
    return Words::tr("%1 = %2 before, %3 after")
               .arg(name, num(double(before(i, j))), num(double(after(i, j)))) +
           kGap + Words::tr("largest change in the matrix: %1").arg(num(m.largest[std::size_t(l)]));
}

} // namespace attn::ui::steps_detail
