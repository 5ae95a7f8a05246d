#include "ui/presentation/presentation_extras.h"
#include "ui/presentation/presentation_steps_p.h"

#include <cmath>

namespace attn::ui::steps_detail {
namespace {

// Block b's matrix: X<sup>(2)</sup>, counted from 1.
QString ofBlock(const QString& name, int block)
{
    return it(name) + sup(QStringLiteral("(%1)").arg(block + 1));
}

// ε as a power of ten where it is one (10⁻⁵), else its digits.
QString epsilonText(double eps)
{
    const double exponent = std::round(std::log10(eps));
    if (std::abs(std::pow(10.0, exponent) - eps) <= 1e-6 * eps) // a float's 1e-5 too
        return QStringLiteral("10") +
               sup(QString::number(int(exponent)).replace(QLatin1Char('-'), QChar(0x2212)));
    return number(eps);
}

// A row z of a layer norm's input: LN(z) with its mean and variance (Ba et al. 2016, eq. 4,
// the biased variance), and the row it makes.
QString normNumbers(const QString& out, const QString& in, const core::Matrix& input,
                    const core::Matrix& output, int i)
{
    const Eigen::RowVectorXd z = input.row(i).cast<double>();
    const double mean = z.mean();
    const double variance = (z.array() - mean).square().mean();
    return bold(out, i) + QStringLiteral(" = LN(%1) = LN(%2):").arg(in, vectorText(input, i)) +
           kGap + QStringLiteral("μ = %1, σ").arg(num(mean)) + sup(QStringLiteral("2")) +
           QStringLiteral(" = %1").arg(num(variance)) + kGap + bold(out, i) +
           QStringLiteral(" = ") + vectorText(output, i);
}

} // namespace

QString blockCaption(PresentationStep step, const PresentationExtras& e)
{
    const QString eq = QStringLiteral(" = ");
    const QString X = it(QStringLiteral("X"));
    const QString H = it(QStringLiteral("H"));
    const QString Y = it(QStringLiteral("Y"));
    const QString block = H + eq + QStringLiteral("LN(%1 + MHA(%1)),").arg(X) +
                          QStringLiteral(" ") + Y + eq + QStringLiteral("LN(%1 + FFN(%1))").arg(H);
    const int dModel = int(e.blocks[std::size_t(e.layer)].normed.cols());
    switch (step) {
    case PresentationStep::AddNorm:
        return H + eq + QStringLiteral("LN(%1 + MHA(%1))").arg(X) + kGap +
               Words::tr("LN(%1) = (%1 − μ) / √(σ%2 + ε) in each row (ε = %3)")
                   .arg(QStringLiteral("<b>z</b>"), sup(QStringLiteral("2")),
                        epsilonText(e.normEps));
    case PresentationStep::FeedForward:
        return QStringLiteral("FFN(%1) = max(0, %1%2 + %3)%4 + %5")
                   .arg(H, indexed(QStringLiteral("W"), 0), bold(QStringLiteral("b"), 0),
                        indexed(QStringLiteral("W"), 1), bold(QStringLiteral("b"), 1)) +
               kGap +
               Words::tr("(%1 = %2 → %3 = %4 → %2: each row alone)")
                   .arg(it(QStringLiteral("d")) + sub(QStringLiteral("model")),
                        QString::number(dModel),
                        it(QStringLiteral("d")) + sub(QStringLiteral("ff")),
                        QString::number(e.hidden.cols()));
    case PresentationStep::AddNormOutput:
        return Y + eq + QStringLiteral("LN(%1 + FFN(%1))").arg(H) + kGap +
               Words::tr("(block %1: %2)").arg(e.layer + 1).arg(block);
    case PresentationStep::NextBlock:
        if (e.layer + 1 >= e.layerCount)
            return Words::tr("%1 is the output of the stack of %2 blocks")
                .arg(ofBlock(QStringLiteral("Y"), e.layer))
                .arg(e.layerCount);
        return ofBlock(QStringLiteral("X"), e.layer + 1) + eq +
               ofBlock(QStringLiteral("Y"), e.layer) + kGap +
               Words::tr("block %1 computes %2 again").arg(e.layer + 2).arg(block);
    default:
        return {};
    }
}

QString blockNumbers(PresentationStep step, const PresentationExtras& e, int i)
{
    const core::BlockForward& b = e.blocks[std::size_t(e.layer)];
    const QString eq = QStringLiteral(" = ");
    switch (step) {
    case PresentationStep::AddNorm:
        return normNumbers(QStringLiteral("h"),
                           bold(QStringLiteral("x"), i) + QStringLiteral(" + ") +
                               bold(QStringLiteral("a"), i),
                           b.residual, b.normed, i);
    case PresentationStep::FeedForward:
        return bold(QStringLiteral("f"), i) + eq +
               QStringLiteral("max(0, %1%2 + %3)%4 + %5")
                   .arg(bold(QStringLiteral("h"), i), indexed(QStringLiteral("W"), 0),
                        bold(QStringLiteral("b"), 0), indexed(QStringLiteral("W"), 1),
                        bold(QStringLiteral("b"), 1)) +
               eq + vectorText(e.hidden, i) + indexed(QStringLiteral("W"), 1) +
               QStringLiteral(" + ") + bold(QStringLiteral("b"), 1) + eq +
               vectorText(b.feedForward, i);
    case PresentationStep::AddNormOutput:
        return normNumbers(QStringLiteral("y"),
                           bold(QStringLiteral("h"), i) + QStringLiteral(" + ") +
                               bold(QStringLiteral("f"), i),
                           b.feedForwardResidual, b.output, i);
    case PresentationStep::NextBlock: {
        if (e.layer + 1 >= e.layerCount)
            return bold(QStringLiteral("y"), i) + eq + vectorText(b.output, i);
        const core::Matrix& next = e.blocks[std::size_t(e.layer) + 1].attention->queryInput();
        const double largest = (next - b.output).cwiseAbs().maxCoeff();
        return bold(QStringLiteral("x"), i) + sup(QStringLiteral("(%1)").arg(e.layer + 2)) + eq +
               bold(QStringLiteral("y"), i) + sup(QStringLiteral("(%1)").arg(e.layer + 1)) + eq +
               vectorText(next, i) + kGap +
               Words::tr("largest difference of the two: %1").arg(num(largest));
    }
    default:
        return {};
    }
}

} // namespace attn::ui::steps_detail
