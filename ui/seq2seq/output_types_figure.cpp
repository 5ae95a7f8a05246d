#include "ui/seq2seq/output_types_figure.h"

#include "ui/figures/heatmap_painter.h"
#include "ui/figures/painted_figure.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>

namespace attn::ui {
namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("OutputTypesFigure", text);
}

// Okabe & Ito's colours for categories, told apart by colour-blind readers too.
QColor labelColour(int label)
{
    static const QColor colours[] = {QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00),
                                     QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                     QColor(0x56, 0xb4, 0xe9), QColor(0xe6, 0x9f, 0x00)};
    return colours[std::size_t(label) % std::size(colours)];
}

// A state vector as a strip of cells, -1 blue to +1 red (the states are tanh's, or an LSTM's
// o tanh(c), within [-1, 1]).
void paintStrip(QPainter& p, const QRectF& r, const core::RowVector& values,
                const FigureStyle& style)
{
    if (values.size() == 0)
        return;
    paint::drawCellRow(p, r, values, style.signedColormap, -1.0, 1.0, 0.2);
    p.setPen(QPen(style.mutedText, 0.6 * style.lineScale));
    p.setBrush(Qt::NoBrush);
    p.drawRect(r);
}

void paintArrow(QPainter& p, QPointF from, QPointF to, const QColor& colour, double width)
{
    p.setPen(QPen(colour, width, Qt::SolidLine, Qt::RoundCap));
    p.drawLine(from, to);
    const double head = 3.0 + 2.0 * width;
    const QPointF d = to - from;
    const double length = std::hypot(d.x(), d.y());
    if (length < head)
        return;
    const QPointF u = d / length, n(-u.y(), u.x());
    QPainterPath path;
    path.moveTo(to);
    path.lineTo(to - u * head + n * head * 0.5);
    path.lineTo(to - u * head - n * head * 0.5);
    path.closeSubpath();
    p.fillPath(path, colour);
}

QString percent(double p)
{
    return QStringLiteral("%1").arg(p, 0, 'f', 2);
}

// What every panel shares: the words down the left, each with its encoder state beside it.
struct Rows
{
    QRectF body;
    double rowHeight = 0.0;
    double wordRight = 0.0;
    double stateLeft = 0.0, stateRight = 0.0;
    double y(int i) const { return body.top() + rowHeight * (double(i) + 0.5); }
};

Rows layoutRows(const QRectF& body, const QStringList& words, const QFontMetricsF& fm)
{
    Rows rows;
    rows.body = body;
    const int n = std::max<int>(1, int(words.size()));
    rows.rowHeight = std::min(fm.height() * 2.0, body.height() / double(n));
    double widest = 0.0;
    for (const QString& word : words)
        widest = std::max(widest, fm.horizontalAdvance(word));
    rows.wordRight = body.left() + std::min(widest, body.width() * 0.3);
    rows.stateLeft = rows.wordRight + fm.averageCharWidth();
    rows.stateRight = rows.stateLeft + std::min(body.width() * 0.22, fm.height() * 3.5);
    return rows;
}

void paintWordsAndStates(QPainter& p, const Rows& rows, const QStringList& words,
                         const core::Matrix* states, const QFont& font, const FigureStyle& style)
{
    p.setFont(font);
    for (int i = 0; i < words.size(); ++i) {
        const double y = rows.y(i);
        p.setPen(style.text);
        p.drawText(QRectF(rows.body.left(), y - rows.rowHeight / 2,
                          rows.wordRight - rows.body.left(), rows.rowHeight),
                   Qt::AlignRight | Qt::AlignVCenter, words[i]);
        if (states && i < states->rows())
            paintStrip(p,
                       QRectF(rows.stateLeft, y - rows.rowHeight * 0.3,
                              rows.stateRight - rows.stateLeft, rows.rowHeight * 0.6),
                       states->row(i), style);
    }
}

void paintNote(QPainter& p, const QRectF& r, const QString& note, const QFont& font,
               const FigureStyle& style)
{
    QFont italic = font;
    italic.setItalic(true);
    p.setFont(italic);
    p.setPen(style.mutedText);
    p.drawText(r, Qt::AlignCenter | Qt::TextWordWrap, note);
}

void paintTagging(QPainter& p, const Rows& rows, const OutputTypesFigure& f, const QFont& font,
                  const FigureStyle& style)
{
    const core::OutputHeadResult& r = *f.tagging;
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF fm(bold, p.device());
    const double arrowEnd = rows.stateRight + std::max(fm.height() * 1.2, 14.0);
    for (int i = 0; i < int(r.labels.size()) && i < f.words.size(); ++i) {
        const double y = rows.y(i);
        const int label = r.labels[std::size_t(i)];
        paintArrow(p, QPointF(rows.stateRight + 2, y), QPointF(arrowEnd, y), style.mutedText,
                   1.0 * style.lineScale);
        p.setFont(bold);
        p.setPen(labelColour(label));
        const QString tag = f.tagNames.value(label);
        p.drawText(QPointF(arrowEnd + 3, y + fm.ascent() / 2 - 1), tag);
        p.setFont(font);
        p.setPen(style.mutedText);
        p.drawText(QPointF(arrowEnd + 6 + fm.horizontalAdvance(tag),
                           y + QFontMetricsF(font, p.device()).ascent() / 2 - 1),
                   percent(double(r.probabilities(i, label))));
    }
}

void paintClassification(QPainter& p, const Rows& rows, const OutputTypesFigure& f,
                         const QFont& font, const FigureStyle& style)
{
    const core::OutputHeadResult& r = *f.classification;
    const int n = int(std::min<Eigen::Index>(r.states.rows(), f.words.size()));
    const double right = rows.body.right();
    const double room = right - rows.stateRight;
    const double stripWidth = std::min(rows.stateRight - rows.stateLeft, room * 0.3);
    const double pooledLeft = rows.stateRight + room * 0.22;
    const double centre = rows.y(0) + (rows.y(std::max(0, n - 1)) - rows.y(0)) / 2;
    const QRectF pooled(pooledLeft, centre - rows.rowHeight * 0.3, stripWidth,
                        rows.rowHeight * 0.6);
    // The lines from the states the classifier reads; the others faint.
    for (int i = 0; i < n; ++i) {
        const bool read = f.pooling == core::SentencePooling::Mean ||
                          (f.pooling == core::SentencePooling::First && i == 0) ||
                          (f.pooling == core::SentencePooling::Last && i == n - 1);
        QColor colour = read ? style.accent : style.mutedText;
        colour.setAlphaF(read ? (f.pooling == core::SentencePooling::Mean ? 0.55 : 1.0) : 0.25);
        p.setPen(
            QPen(colour, (read ? 1.4 : 0.8) * style.lineScale, read ? Qt::SolidLine : Qt::DotLine));
        p.drawLine(QPointF(rows.stateRight + 2, rows.y(i)), QPointF(pooled.left(), centre));
    }
    paintStrip(p, pooled, r.pooled, style);
    QFont small = font;
    small.setPointSizeF(font.pointSizeF() * 0.85);
    p.setFont(small);
    p.setPen(style.mutedText);
    const QString pooledName = f.pooling == core::SentencePooling::Mean    ? tr("mean")
                               : f.pooling == core::SentencePooling::First ? tr("h_1")
                                                                           : tr("h_n");
    p.drawText(QRectF(pooled.left() - 20, pooled.top() - rows.rowHeight, pooled.width() + 40,
                      rows.rowHeight * 0.7),
               Qt::AlignHCenter | Qt::AlignBottom, pooledName);
    // One prediction, every class's probability under it.
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF fm(bold, p.device());
    const double arrowEnd = pooled.right() + std::max(fm.height() * 1.2, 14.0);
    paintArrow(p, QPointF(pooled.right() + 2, centre), QPointF(arrowEnd, centre), style.mutedText,
               1.0 * style.lineScale);
    const int label = r.labels.empty() ? 0 : r.labels.front();
    p.setFont(bold);
    p.setPen(labelColour(label));
    p.drawText(QPointF(arrowEnd + 3, centre + fm.ascent() / 2 - 1), f.classNames.value(label));
    p.setFont(small);
    const QFontMetricsF sm(small, p.device());
    for (int c = 0; c < f.classNames.size() && c < r.probabilities.cols(); ++c) {
        p.setPen(c == label ? labelColour(c) : style.text);
        p.drawText(QPointF(arrowEnd + 3, centre + fm.height() * 0.6 + sm.height() * (c + 1)),
                   QStringLiteral("%1 %2").arg(f.classNames[c], percent(r.probabilities(0, c))));
    }
}

void paintSeq2Seq(QPainter& p, const Rows& rows, const OutputTypesFigure& f, const QFont& font,
                  const FigureStyle& style)
{
    const core::Seq2SeqDecoding& d = *f.decoding;
    const int sourceRows = int(std::min<Eigen::Index>(d.encoderStates.rows(), f.words.size()));
    const int steps = int(d.steps.size());
    if (steps == 0)
        return;
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF fm(bold, p.device());
    double widest = 0.0;
    for (const QString& word : f.targetWords)
        widest = std::max(widest, fm.horizontalAdvance(word));
    const double wordLeft = rows.body.right() - std::min(widest + 4, rows.body.width() * 0.3);
    const double stripWidth = rows.stateRight - rows.stateLeft;
    const double stripLeft = wordLeft - fm.averageCharWidth() - stripWidth;
    // The decoder's steps down the right, as many as it decided (up to EOS).
    const double stepHeight = std::min(rows.rowHeight, rows.body.height() / double(steps));
    const auto stepY = [&](int i) { return rows.body.top() + stepHeight * (double(i) + 0.5); };
    for (int i = 0; i < steps; ++i) {
        const core::Seq2SeqStep& s = d.steps[std::size_t(i)];
        // Each step reads the source states through its attention: a line per weight.
        for (int j = 0; j < sourceRows && j < s.attention.size(); ++j) {
            const double w = double(s.attention(j));
            if (w < 0.05)
                continue;
            QColor colour = style.accent;
            colour.setAlphaF(std::min(1.0, 0.15 + w));
            p.setPen(QPen(colour, (0.5 + 2.0 * w) * style.lineScale));
            p.drawLine(QPointF(rows.stateRight + 2, rows.y(j)), QPointF(stripLeft - 2, stepY(i)));
        }
        paintStrip(p, QRectF(stripLeft, stepY(i) - stepHeight * 0.3, stripWidth, stepHeight * 0.6),
                   s.hidden, style);
        const int id = i < int(d.outputIds.size()) ? d.outputIds[std::size_t(i)] : 0;
        p.setFont(bold);
        p.setPen(id == core::Seq2SeqVocabulary::kEos ? style.mutedText : labelColour(2));
        p.drawText(QPointF(wordLeft, stepY(i) + fm.ascent() / 2 - 1), f.targetWords.value(i));
    }
}

} // namespace

void paintOutputTypes(QPainter& p, const QRectF& target, const OutputTypesFigure& f,
                      const QFont& font, const FigureStyle& style)
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing);
    p.fillRect(target, style.background);
    const QFontMetricsF fm(font, p.device());
    const double gap = fm.height();
    const double width = (target.width() - 2 * gap) / 3.0;
    const OutputType order[] = {OutputType::Tagging, OutputType::Classification,
                                OutputType::Seq2Seq};
    const QString pooling = f.pooling == core::SentencePooling::Mean ? tr("the mean of the states")
                            : f.pooling == core::SentencePooling::First ? tr("the first state")
                                                                        : tr("the last state");
    for (int k = 0; k < 3; ++k) {
        const OutputType type = order[k];
        const QRectF panel(target.left() + double(k) * (width + gap), target.top(), width,
                           target.height());
        if (type == f.chosen) {
            p.setPen(QPen(style.accent, 2.0 * style.lineScale));
            p.setBrush(Qt::NoBrush);
            p.drawRoundedRect(panel.adjusted(1, 1, -1, -1), 6, 6);
        }
        const QRectF inner = panel.adjusted(gap * 0.5, gap * 0.4, -gap * 0.5, -gap * 0.4);
        QFont bold = font;
        bold.setBold(true);
        bold.setPointSizeF(font.pointSizeF() * 1.1);
        const QString title = type == OutputType::Tagging          ? tr("Tagging")
                              : type == OutputType::Classification ? tr("Classification")
                                                                   : tr("Sequence to sequence");
        const QString subtitle =
            type == OutputType::Tagging ? tr("one label a word: every state through the classifier")
            : type == OutputType::Classification
                ? tr("one label a sentence: the classifier reads %1").arg(pooling)
                : tr("the decoder decides the length: each step reads the states through its "
                     "attention");
        p.setFont(bold);
        p.setPen(style.text);
        const QFontMetricsF bm(bold, p.device());
        p.drawText(QRectF(inner.left(), inner.top(), inner.width(), bm.height()),
                   Qt::AlignLeft | Qt::AlignTop, title);
        p.setFont(font);
        p.setPen(style.mutedText);
        const QRectF subtitleBox(inner.left(), inner.top() + bm.height(), inner.width(),
                                 fm.height() * 3);
        const QRectF used = p.boundingRect(subtitleBox, Qt::AlignLeft | Qt::TextWordWrap, subtitle);
        p.drawText(subtitleBox, Qt::AlignLeft | Qt::TextWordWrap, subtitle);
        const QRectF body(inner.left(), used.bottom() + fm.height() * 0.6, inner.width(),
                          inner.bottom() - used.bottom() - fm.height() * 0.6);
        const Rows rows = layoutRows(body, f.words, fm);
        const core::Matrix* states =
            type == OutputType::Tagging && f.tagging                 ? &f.tagging->states
            : type == OutputType::Classification && f.classification ? &f.classification->states
            : type == OutputType::Seq2Seq && f.decoding              ? &f.decoding->encoderStates
                                                                     : nullptr;
        paintWordsAndStates(p, rows, f.words, states, font, style);
        const QRectF outputs(rows.stateRight + gap * 0.5, body.top(),
                             body.right() - rows.stateRight - gap * 0.5, body.height());
        if (!states) {
            paintNote(p, outputs, f.notes[int(type)], font, style);
            continue;
        }
        if (type == OutputType::Tagging)
            paintTagging(p, rows, f, font, style);
        else if (type == OutputType::Classification)
            paintClassification(p, rows, f, font, style);
        else
            paintSeq2Seq(p, rows, f, font, style);
    }
    p.restore();
}

QSize outputTypesFigureSize(const OutputTypesFigure& figure, double dpi, double fontPoints)
{
    // A line of text is about 1.2 em; a row is two lines, the titles and margins seven.
    const double line = fontPoints * dpi / 72.0 * 1.2;
    const qsizetype rows = std::max({qsizetype(4), figure.words.size(), figure.targetWords.size()});
    return QSize(int(std::lround(line * 60.0)),
                 int(std::lround(line * (7.0 + 2.0 * double(rows)))));
}

QByteArray outputTypesFigureBytes(const OutputTypesFigure& figure, QSize size, double dpi,
                                  FigureFormat format)
{
    return paintedFigureBytes([&](QPainter& painter, const QRectF& target, const QFont& font,
                                  const FigureStyle& style,
                                  bool) { paintOutputTypes(painter, target, figure, font, style); },
                              size, dpi, format);
}

} // namespace attn::ui
