#include "ui/presentation/presentation_extras.h"
#include "ui/presentation/presentation_steps_p.h"

namespace attn::ui::steps_detail {
namespace {

// α_ij = softmax_j(−(x_i − x_j)² / 2h²): Nadaraya-Watson with a Gaussian kernel of width h.
QString fixedKernel()
{
    return scalar(QStringLiteral("α"), QStringLiteral("ij")) + QStringLiteral(" = softmax") +
           sub(it(QStringLiteral("j"))) + QStringLiteral("(−(") +
           scalar(QStringLiteral("x"), QStringLiteral("i")) + QStringLiteral(" − ") +
           scalar(QStringLiteral("x"), QStringLiteral("j")) + QStringLiteral(")") +
           sup(QStringLiteral("2")) + QStringLiteral(" / 2") + it(QStringLiteral("h")) +
           sup(QStringLiteral("2")) + QStringLiteral(")");
}

// The same Gaussian of width 1 on learned maps: α_ij = softmax_j(−(φ_q(x_i) − φ_k(x_j))² / 2).
QString learnedKernel()
{
    auto phi = [](const QString& map, const QString& index) {
        return QStringLiteral("φ") + sub(it(map)) + QStringLiteral("(") +
               scalar(QStringLiteral("x"), index) + QStringLiteral(")");
    };
    return scalar(QStringLiteral("α"), QStringLiteral("ij")) + QStringLiteral(" = softmax") +
           sub(it(QStringLiteral("j"))) + QStringLiteral("(−(") +
           phi(QStringLiteral("q"), QStringLiteral("i")) + QStringLiteral(" − ") +
           phi(QStringLiteral("k"), QStringLiteral("j")) + QStringLiteral(")") +
           sup(QStringLiteral("2")) + QStringLiteral(" / 2)");
}

QString atEnds(const PresentationExtras::Kernel& k, double first, double last)
{
    return Words::tr("%1 at %2, %3 at %4")
        .arg(number(first), k.endLabels[0], number(last), k.endLabels[1]);
}

QString largestWeights(const PresentationExtras::Kernel& k, const core::Matrix& rows)
{
    return Words::tr("largest weight: %1")
        .arg(Words::tr("%1 at %2, %3 at %4")
                 .arg(num(double(rows.row(0).maxCoeff())), k.endLabels[0],
                      num(double(rows.row(1).maxCoeff())), k.endLabels[1]));
}

} // namespace

QString kernelCaption(PresentationStep step, const PresentationExtras::Kernel& k)
{
    switch (step) {
    case PresentationStep::KernelFixed:
        return fixedKernel() + kGap +
               Words::tr("one width everywhere: %1 = %2")
                   .arg(it(QStringLiteral("h")), number(k.bandwidth));
    case PresentationStep::KernelLearned:
        return learnedKernel() + QStringLiteral(",") + kGap + QStringLiteral("φ(") +
               it(QStringLiteral("x")) + QStringLiteral(") = <b>w</b> · (") +
               it(QStringLiteral("x")) + QStringLiteral(", ") + it(QStringLiteral("x")) +
               sup(QStringLiteral("2")) + QStringLiteral(")");
    case PresentationStep::KernelFits:
        return it(QStringLiteral("f")) + QStringLiteral("(") + it(QStringLiteral("x")) +
               sub(it(QStringLiteral("i"))) + QStringLiteral(") = ∑") +
               sub(it(QStringLiteral("j"))) + QStringLiteral(" ") +
               scalar(QStringLiteral("α"), QStringLiteral("ij")) +
               scalar(QStringLiteral("y"), QStringLiteral("j")) +
               (k.data.isEmpty() ? QString() : kGap + k.data.toHtmlEscaped());
    case PresentationStep::KernelContrast:
        return Words::tr("Kernel machines adjust the kernel and fix the embedding; attention "
                         "fixes the kernel and learns the embedding.");
    default:
        return {};
    }
}

QString kernelNumbers(PresentationStep step, const PresentationExtras::Kernel& k)
{
    switch (step) {
    case PresentationStep::KernelFixed:
        return Words::tr("width %1").arg(atEnds(k, k.bandwidth, k.bandwidth)) + kGap +
               largestWeights(k, k.fixedRows);
    case PresentationStep::KernelLearned:
        return Words::tr("width 1 / |φ<sub>k</sub>′(x)|: %1")
                   .arg(atEnds(k, k.widths[0], k.widths[1])) +
               kGap + largestWeights(k, k.learnedRows);
    case PresentationStep::KernelFits:
        return Words::tr("leave-one-out squared error: fixed kernel %1, learned maps %2")
            .arg(number(k.losses[0]), number(k.losses[1]));
    case PresentationStep::KernelContrast:
        return Words::tr("kernel machine: %1, %2 = %3")
                   .arg(fixedKernel(), it(QStringLiteral("h")), number(k.bandwidth)) +
               kGap + Words::tr("attention: %1").arg(learnedKernel());
    default:
        return {};
    }
}

} // namespace attn::ui::steps_detail
