#include "ui/presentation/presentation_extras.h"
#include "ui/presentation/slide_builder_p.h"

#include <QLocale>
#include <algorithm>

namespace attn::ui::slide_detail {

namespace {

// A block's number as a title writes it: X⁽²⁾ (at most four blocks, scene_layers.h).
QString blockMark(int block)
{
    static const QString digits = QStringLiteral("¹²³⁴⁵⁶⁷⁸⁹");
    return QStringLiteral("⁽") + digits.mid(std::clamp(block, 0, 8), 1) + QStringLiteral("⁾");
}

} // namespace

// The panels of the steps a scene adds (presentation_extras.h): what the step makes is its
// subject, the matrices it reads stand beside it.
std::vector<MatrixPanel> SlideBuilder::scenePanels()
{
    const PresentationExtras& e = *o.extras;
    std::vector<MatrixPanel> panels;
    auto beside = [](MatrixPanel panel) {
        panel.subject = false;
        return panel;
    };
    if (kind >= S::AddNorm && kind <= S::NextBlock) {
        const core::BlockForward& b = e.blocks[std::size_t(e.layer)];
        switch (kind) {
        case S::AddNorm:
            panels.push_back(beside(signedPanel(QStringLiteral("X"), QStringLiteral("X"),
                                                b.attention->queryInput(), false)));
            panels.push_back(beside(signedPanel(QStringLiteral("MHA"), QStringLiteral("MHA(X)"),
                                                b.attention->output, false)));
            panels.push_back(signedPanel(QStringLiteral("X + MHA"), QStringLiteral("X + MHA(X)"),
                                         b.residual, false));
            panels.push_back(signedPanel(QStringLiteral("H"), QStringLiteral("H = LN(X + MHA(X))"),
                                         b.normed, false));
            break;
        case S::FeedForward:
            panels.push_back(
                beside(signedPanel(QStringLiteral("H"), QStringLiteral("H"), b.normed, false)));
            panels.push_back(signedPanel(QStringLiteral("hidden"),
                                         QStringLiteral("max(0, H W₁ + b₁)"), e.hidden, false));
            panels.push_back(
                signedPanel(QStringLiteral("FFN"), QStringLiteral("FFN(H)"), b.feedForward, false));
            break;
        case S::AddNormOutput:
            panels.push_back(
                beside(signedPanel(QStringLiteral("H"), QStringLiteral("H"), b.normed, false)));
            panels.push_back(beside(signedPanel(QStringLiteral("FFN"), QStringLiteral("FFN(H)"),
                                                b.feedForward, false)));
            panels.push_back(signedPanel(QStringLiteral("H + FFN"), QStringLiteral("H + FFN(H)"),
                                         b.feedForwardResidual, false));
            panels.push_back(signedPanel(QStringLiteral("Y"), QStringLiteral("Y = LN(H + FFN(H))"),
                                         b.output, false));
            break;
        default: { // NextBlock
            const QString y = QStringLiteral("Y") + blockMark(e.layer);
            if (e.layer + 1 >= e.layerCount) {
                panels.push_back(signedPanel(QStringLiteral("Y"),
                                             Words::tr("%1: the stack's output").arg(y), b.output,
                                             false));
                break;
            }
            const core::AttentionResult& next = *e.blocks[std::size_t(e.layer) + 1].attention;
            const QString x = QStringLiteral("X") + blockMark(e.layer + 1);
            panels.push_back(beside(signedPanel(
                QStringLiteral("Y"), Words::tr("%1: block %2's output").arg(y).arg(e.layer + 1),
                b.output, false)));
            panels.push_back(
                signedPanel(QStringLiteral("next X"),
                            Words::tr("%1 = %2: block %3's input").arg(x, y).arg(e.layer + 2),
                            next.queryInput(), false));
            const int g = std::clamp(head, 0, int(next.heads.size()) - 1);
            panels.push_back(squarePanel(
                QStringLiteral("next weights"),
                Words::tr("block %1, head %2: α").arg(e.layer + 2).arg(g + 1),
                next.heads[std::size_t(g)].weights, g, true, QStringLiteral("0"), true));
            break;
        }
        }
        return panels;
    }
    if (kind >= S::KernelFixed && kind <= S::KernelContrast) {
        const PresentationExtras::Kernel& k = *e.kernel;
        // Rows are the two ends of the line, columns the points: not the scene's tokens, so
        // no query or key of the sentence is framed.
        auto kernelPanel = [&](const QString& name, const QString& title, const Matrix& matrix,
                               const QStringList& rows, bool weights) {
            MatrixPanel panel;
            panel.name = name;
            panel.title = title;
            panel.matrix = &matrix;
            panel.rowLabels = rows;
            panel.columnLabels = k.keys;
            panel.queryRows = false;
            panel.framed = false;
            panel.head = head;
            panel.weights = weights;
            return panel;
        };
        const QLocale locale;
        auto at = [&](double v) { return locale.toString(v, 'g', 2); };
        const QString fixedTitle =
            Words::tr("fixed kernel: h = %1 everywhere").arg(at(k.bandwidth));
        const QString learnedTitle =
            Words::tr("learned maps: width %1 at %2, %3 at %4")
                .arg(at(k.widths[0]), k.endLabels[0], at(k.widths[1]), k.endLabels[1]);
        if (kind == S::KernelFixed || kind == S::KernelContrast)
            panels.push_back(
                kernelPanel(QStringLiteral("fixed"), fixedTitle, k.fixedRows, k.endLabels, true));
        if (kind == S::KernelLearned || kind == S::KernelContrast)
            panels.push_back(kernelPanel(QStringLiteral("learned"), learnedTitle, k.learnedRows,
                                         k.endLabels, true));
        if (kind == S::KernelFits)
            panels.push_back(kernelPanel(QStringLiteral("curves"),
                                         Words::tr("the data and both fits at each point"),
                                         k.curves, k.curveNames, false));
        return panels;
    }
    // The mixing weights: before and after the word changed, or every layer's change.
    const PresentationExtras::Mixing& m =
        e.mixing[std::size_t(std::clamp(head, 0, int(e.mixing.size()) - 1))];
    auto mixingPanel = [&](const QString& name, const QString& title, const Matrix& matrix,
                           const QStringList& tokens, bool weights) {
        // Positions by positions, as a head's weights, with the sentence's own tokens.
        MatrixPanel panel = squarePanel(name, title, matrix, head, false, {}, false);
        panel.rowLabels = tokens;
        panel.columnLabels = tokens;
        panel.weights = weights;
        return panel;
    };
    static const char* const kLayerNames[] = {QT_TRANSLATE_NOOP("SlideBuilder", "fully connected"),
                                              QT_TRANSLATE_NOOP("SlideBuilder", "convolution"),
                                              QT_TRANSLATE_NOOP("SlideBuilder", "attention")};
    if (kind == S::MixingChanges) {
        for (int l = 0; l < 3; ++l)
            panels.push_back(mixingPanel(QStringLiteral("change"),
                                         Words::tr("%1: change").arg(Words::tr(kLayerNames[l])),
                                         m.changes[std::size_t(l)], e.after, false));
        return panels;
    }
    const int l = kind == S::MixingFullyConnected ? 0 : kind == S::MixingConvolution ? 1 : 2;
    const QString symbol = l == 2 ? QStringLiteral("α") : QStringLiteral("M");
    panels.push_back(mixingPanel(QStringLiteral("before"), Words::tr("%1 before").arg(symbol),
                                 m.matrices[std::size_t(l)][0], queries, true));
    panels.push_back(mixingPanel(QStringLiteral("after"), Words::tr("%1 after").arg(symbol),
                                 m.matrices[std::size_t(l)][1], e.after, true));
    panels.push_back(mixingPanel(QStringLiteral("change"), Words::tr("after − before"),
                                 m.changes[std::size_t(l)], e.after, false));
    return panels;
}

} // namespace attn::ui::slide_detail
