#include "ui/seq2seq/seq2seq_figures.h"

#include "ui/figures/painted_figure.h"

#include "core/error.h"

#include <QCoreApplication>
#include <qcustomplot.h>

#include <algorithm>

namespace attn::ui {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("Seq2SeqFigures", text);
}

QString tokenText(const std::string& token)
{
    // A space token (the dates' characters) would be an invisible label.
    return token == " " ? QStringLiteral("␣") : QString::fromStdString(token);
}

int shownSteps(const core::Seq2SeqDecoding& decoding, int steps)
{
    const int all = int(decoding.steps.size());
    return steps < 0 ? all : std::min(steps, all);
}

} // namespace

std::optional<Seq2SeqFigure> parseSeq2SeqFigure(std::string_view name)
{
    if (name == "alignment")
        return Seq2SeqFigure::Alignment;
    if (name == "states")
        return Seq2SeqFigure::HiddenStates;
    return std::nullopt;
}

QStringList seq2seqSourceLabels(const core::Seq2SeqDecoding& decoding)
{
    QStringList labels;
    for (const std::string& word : decoding.sourceWords)
        labels << tokenText(word);
    while (labels.size() < qsizetype(decoding.sourceIds.size()) - 1)
        labels << QString::number(decoding.sourceIds[std::size_t(labels.size())]);
    labels << QStringLiteral("<EOS>");
    return labels;
}

QStringList seq2seqTargetLabels(const core::Seq2SeqModel& model,
                                const core::Seq2SeqDecoding& decoding, int steps)
{
    QStringList labels;
    for (int i = 0; i < shownSteps(decoding, steps); ++i) {
        const int id = decoding.outputIds[std::size_t(i)];
        labels << (id == core::Seq2SeqVocabulary::kEos ? QStringLiteral("<EOS>")
                   : std::size_t(id) < model.target.words.size()
                       ? tokenText(model.target.words[std::size_t(id)])
                       : QString::number(id));
    }
    return labels;
}

std::vector<MatrixPanel> seq2seqPanels(Seq2SeqFigure figure, const core::Seq2SeqModel& model,
                                       const core::Seq2SeqDecoding& decoding, int steps,
                                       int current)
{
    const int shown = shownSteps(decoding, steps);
    const QStringList source = seq2seqSourceLabels(decoding);
    const QStringList target = seq2seqTargetLabels(model, decoding, shown);
    if (figure == Seq2SeqFigure::Alignment) {
        MatrixPanel panel;
        panel.title = tr("Alignment: attention of each output word over the source");
        panel.matrix = core::Matrix::Zero(shown, Eigen::Index(decoding.sourceIds.size()));
        for (int i = 0; i < shown; ++i)
            if (decoding.steps[std::size_t(i)].attention.size() == panel.matrix.cols())
                panel.matrix.row(i) = decoding.steps[std::size_t(i)].attention;
        panel.rowLabels = target;
        panel.columnLabels = source;
        panel.rowAxis = tr("output");
        panel.columnAxis = tr("source");
        panel.scaleLabel = tr("attention weight");
        panel.highlightRow = current;
        panel.valueDecimals = 2;
        return {panel};
    }
    // GRU states lie in (-1, 1): h' is a convex mix of tanh and the previous state.
    MatrixPanel encoder;
    encoder.title = tr("Encoder states h_j (the keys and values)");
    encoder.matrix = decoding.encoderStates;
    encoder.rowLabels = source;
    encoder.rowAxis = tr("source");
    encoder.columnAxis = tr("unit");
    encoder.map = Colormap::Diverging;
    encoder.low = -1.0;
    encoder.high = 1.0;
    encoder.scaleLabel = tr("state");
    MatrixPanel decoder = encoder;
    decoder.title = tr("Decoder states s_i after each step");
    decoder.matrix = core::Matrix::Zero(shown, model.hiddenSize);
    for (int i = 0; i < shown; ++i)
        decoder.matrix.row(i) = decoding.steps[std::size_t(i)].hidden;
    decoder.rowLabels = target;
    decoder.rowAxis = tr("output");
    decoder.highlightRow = current;
    return {encoder, decoder};
}

QByteArray seq2seqFigureBytes(Seq2SeqFigure figure, const core::Seq2SeqModel& model,
                              const core::Seq2SeqDecoding& decoding, QSize size, double dpi,
                              FigureFormat format)
{
    if (figure == Seq2SeqFigure::Alignment && model.attention == core::Seq2SeqAttention::None)
        throw core::Error("the model has no attention: its decoder sees only the encoder's last "
                          "state, so there is no alignment to draw");
    const std::vector<MatrixPanel> panels = seq2seqPanels(figure, model, decoding);
    return paintedFigureBytes(
        [&](QPainter& painter, const QRectF& target, const QFont& font, const FigureStyle& style,
            bool vector) {
            paintMatrixPanels(painter, target, panels, QString(), font, style, vector);
        },
        size, dpi, format);
}

void setUpTrainingCurves(QCustomPlot& plot, const QString& lossName, const QString& lossAxis,
                         const QString& accuracyName, const QString& stepAxis)
{
    plot.addGraph();
    plot.graph(0)->setName(lossName);
    plot.graph(0)->setPen(QPen(QColor(0x00, 0x72, 0xb2), 1.5));
    plot.addGraph(plot.xAxis, plot.yAxis2);
    plot.graph(1)->setName(accuracyName);
    plot.graph(1)->setPen(QPen(QColor(0xd5, 0x5e, 0x00), 2));
    plot.graph(1)->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    plot.xAxis->setLabel(stepAxis);
    plot.yAxis->setLabel(lossAxis);
    plot.yAxis2->setLabel(accuracyName);
    plot.yAxis2->setVisible(true);
    plot.yAxis2->setRange(0, 1);
    plot.legend->setVisible(true);
}

void addTrainingPoint(QCustomPlot& plot, int step, double loss, double accuracy)
{
    plot.graph(0)->addData(step, loss);
    if (accuracy >= 0.0)
        plot.graph(1)->addData(step, accuracy);
    plot.yAxis->rescale();
    plot.yAxis->setRangeLower(0);
    plot.replot(QCustomPlot::rpQueuedReplot);
}

} // namespace attn::ui
