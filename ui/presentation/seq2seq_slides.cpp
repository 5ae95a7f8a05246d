#include "ui/presentation/seq2seq_slides.h"

#include "ui/presentation/slide_builder_p.h"

#include <QCoreApplication>
#include <QTextDocument>
#include <algorithm>
#include <cmath>
#include <numeric>

namespace attn::ui {
namespace {

using slide_detail::cellNumber;
using slide_detail::mathFont;
using slide_detail::sansFont;

struct Words
{
    Q_DECLARE_TR_FUNCTIONS(Seq2SeqSlides)
};

QString targetWord(const core::Seq2SeqModel& model, int id)
{
    if (id == core::Seq2SeqVocabulary::kEos)
        return QStringLiteral("<EOS>");
    if (id == core::Seq2SeqVocabulary::kSos)
        return QStringLiteral("<SOS>");
    if (std::size_t(id) < model.target.words.size()) {
        const QString word = QString::fromStdString(model.target.words[std::size_t(id)]);
        return word == QStringLiteral(" ") ? QStringLiteral("␣") : word;
    }
    return QString::number(id);
}

// "(0.12, −0.40, 0.33, …)": the first `shown` numbers of a vector.
QString vectorText(const core::RowVector& v, int shown = 3)
{
    QStringList parts;
    for (Eigen::Index i = 0; i < std::min<Eigen::Index>(v.size(), shown); ++i)
        parts << cellNumber(double(v(i)), 2);
    if (v.size() > shown)
        parts << QStringLiteral("…");
    return QStringLiteral("(%1)").arg(parts.join(QStringLiteral(", ")));
}

class Seq2SeqSlideBuilder
{
public:
    Seq2SeqSlideBuilder(const core::Seq2SeqModel& model, const core::Seq2SeqDecoding& d,
                        PresentationTheme theme, QSizeF size)
        : m(model), d(d), style(presentationStyle(theme)), colormap(presentationColormap(theme)),
          weightCells(colormap), signedCells(style.signedColormap)
    {
        s = std::max(0.3, size.height() / kSlideReferenceHeight);
        slide.size = size;
        slide.background = style.background;
        for (const std::string& word : d.sourceWords)
            source << QString::fromStdString(word);
        source << QStringLiteral("<EOS>");
    }

    Slide build(int index)
    {
        const int count = seq2seqSlideCount(d);
        index = std::clamp(index, 0, count - 1);
        const double margin = 28.0 * s;
        double y = margin;
        const double width = slide.size.width() - 2 * margin;
        const QString header =
            index == 0 ? Words::tr("Step %1 of %2 · The encoder").arg(1).arg(count)
                       : Words::tr("Step %1 of %2 · Decoder step %3 → “%4”")
                             .arg(index + 1)
                             .arg(count)
                             .arg(index)
                             .arg(targetWord(m, d.steps[std::size_t(index - 1)].outputId));
        addText(SlideText::Role::Header, header, sansFont(24 * s), style.mutedText,
                QRectF(margin, y, width, 32 * s), Qt::AlignLeft | Qt::AlignVCenter);
        y += 40 * s;
        std::vector<std::pair<QString, QString>> lines =
            index == 0 ? encoderLines() : stepLines(d.steps[std::size_t(index - 1)]);
        for (const auto& [equation, numbers] : lines) {
            // Each column's line shrinks to fit its width (a 1024-pixel projector included).
            const double split = width * 0.4;
            addText(SlideText::Role::Caption, equation, fitted(equation, 30 * s, split - 12 * s),
                    style.text, QRectF(margin, y, split - 12 * s, 40 * s),
                    Qt::AlignLeft | Qt::AlignVCenter, true);
            addText(SlideText::Role::Numbers, numbers, fitted(numbers, 30 * s, width - split),
                    style.accent, QRectF(margin + split, y, width - split, 40 * s),
                    Qt::AlignLeft | Qt::AlignVCenter, true);
            y += 44 * s;
        }
        const QRectF body(margin, y + 16 * s, width, slide.size.height() - y - 16 * s - margin);
        if (index == 0)
            encoderPanels(body);
        else
            stepPanels(body, d.steps[std::size_t(index - 1)]);
        return std::move(slide);
    }

private:
    // The math font at `pixels`, or smaller until `html` fits one line of `width`.
    static QFont fitted(const QString& html, double pixels, double width)
    {
        QTextDocument document;
        document.setDocumentMargin(0);
        QFont font = mathFont(pixels);
        for (; pixels > 9.0; pixels *= 0.93) {
            font = mathFont(pixels);
            document.setDefaultFont(font);
            document.setHtml(html);
            if (document.idealWidth() <= width)
                break;
        }
        return font;
    }

    QString cellName() const
    {
        return m.cell == core::Seq2SeqCell::Gru ? QStringLiteral("GRU") : QStringLiteral("LSTM");
    }

    std::vector<std::pair<QString, QString>> encoderLines() const
    {
        std::vector<std::pair<QString, QString>> lines;
        lines.emplace_back(
            m.bidirectional
                ? Words::tr(
                      "<i>h</i><sub><i>j</i></sub> = [%1<sub>→</sub>(<i>E x</i><sub><i>j</i></"
                      "sub>, …); %1<sub>←</sub>(<i>E x</i><sub><i>j</i></sub>, …)]")
                      .arg(cellName())
                : Words::tr("<i>h</i><sub><i>j</i></sub> = %1(<i>E x</i><sub><i>j</i></sub>, "
                            "<i>h</i><sub><i>j</i>−1</sub>)")
                      .arg(cellName()),
            Words::tr("%1 tokens with EOS: %1 states of %2 numbers")
                .arg(d.encoderStates.rows())
                .arg(d.encoderStates.cols()));
        const core::RowVector last = d.encoderStates.bottomRows(1);
        lines.emplace_back(Words::tr("the decoder starts from the last state"),
                           Words::tr("<i>h</i><sub>%1</sub> = %2")
                               .arg(d.encoderStates.rows())
                               .arg(vectorText(last)));
        return lines;
    }

    std::vector<std::pair<QString, QString>> stepLines(const core::Seq2SeqStep& step) const
    {
        std::vector<std::pair<QString, QString>> lines;
        const bool luong = m.attention == core::Seq2SeqAttention::Dot ||
                           m.attention == core::Seq2SeqAttention::General ||
                           m.attention == core::Seq2SeqAttention::Concat;
        const QString input = targetWord(m, step.inputId);
        if (m.attention == core::Seq2SeqAttention::None) {
            lines.emplace_back(Words::tr("<i>s</i><sub><i>t</i></sub> = %1(relu(<i>E "
                                         "y</i><sub><i>t</i>−1</sub>), <i>s</i><sub><i>t</i>−1</"
                                         "sub>): no scores, no context")
                                   .arg(cellName()),
                               Words::tr("reads “%1”: <i>s</i><sub><i>t</i></sub> = %2")
                                   .arg(input.toHtmlEscaped(), vectorText(step.hidden)));
        } else {
            Eigen::Index best = 0;
            step.attention.maxCoeff(&best);
            const QString score =
                m.attention == core::Seq2SeqAttention::Dot
                    ? QStringLiteral("<i>s</i><sub><i>t</i></sub> · <i>h</i><sub><i>j</i></sub>")
                : m.attention == core::Seq2SeqAttention::General
                    ? QStringLiteral("<i>s</i><sub><i>t</i></sub> · <i>W</i><sub><i>a</i></sub> "
                                     "<i>h</i><sub><i>j</i></sub>")
                : m.attention == core::Seq2SeqAttention::Concat
                    ? QStringLiteral("<i>v</i><sub><i>a</i></sub><sup>T</sup> "
                                     "tanh(<i>W</i><sub><i>a</i></sub> [<i>s</i><sub><i>t</i></"
                                     "sub>; <i>h</i><sub><i>j</i></sub>])")
                    : QStringLiteral("<i>v</i><sub><i>a</i></sub><sup>T</sup> "
                                     "tanh(<i>W</i><sub><i>a</i></sub> <i>s</i><sub><i>t</i>−1</"
                                     "sub> + <i>U</i><sub><i>a</i></sub> "
                                     "<i>h</i><sub><i>j</i></sub>)");
            const QString word = source.value(int(best)).toHtmlEscaped();
            lines.emplace_back(QStringLiteral("<i>e</i><sub><i>j</i></sub> = %1").arg(score),
                               Words::tr("highest: <i>e</i><sub>%1</sub> = %2 (“%3”)")
                                   .arg(best + 1)
                                   .arg(cellNumber(double(step.scores(best)), 2), word));
            lines.emplace_back(
                m.attention == core::Seq2SeqAttention::Hard
                    ? Words::tr("hard: <i>α</i> = one-hot(argmax<sub><i>j</i></sub> "
                                "<i>e</i><sub><i>j</i></sub>)")
                    : QStringLiteral("<i>α</i><sub><i>j</i></sub> = exp(<i>e</i><sub><i>j</i></"
                                     "sub>) / ∑<sub><i>k</i></sub> exp(<i>e</i><sub><i>k</i></"
                                     "sub>)"),
                m.attention == core::Seq2SeqAttention::Hard
                    ? QStringLiteral("<i>α</i><sub>%1</sub> = 1").arg(best + 1)
                    : QStringLiteral("<i>α</i><sub>%1</sub> = exp(%2) / ∑<sub><i>k</i></sub> "
                                     "exp(<i>e</i><sub><i>k</i></sub>) = %3")
                          .arg(best + 1)
                          .arg(cellNumber(double(step.scores(best)), 2),
                               cellNumber(double(step.attention(best)), 2)));
            // The two largest weights written out, the rest summed in "…".
            std::vector<Eigen::Index> order(std::size_t(step.attention.size()));
            std::iota(order.begin(), order.end(), Eigen::Index(0));
            std::sort(order.begin(), order.end(), [&](Eigen::Index a, Eigen::Index b) {
                return step.attention(a) > step.attention(b);
            });
            QStringList terms;
            for (std::size_t k = 0; k < std::min<std::size_t>(2, order.size()); ++k)
                terms << QStringLiteral("%1 <i>h</i><sub>%2</sub>")
                             .arg(cellNumber(double(step.attention(order[k])), 2))
                             .arg(order[k] + 1);
            if (order.size() > 2)
                terms << QStringLiteral("…");
            lines.emplace_back(QStringLiteral("<i>c</i><sub><i>t</i></sub> = ∑<sub><i>j</i></sub> "
                                              "<i>α</i><sub><i>j</i></sub> "
                                              "<i>h</i><sub><i>j</i></sub>"),
                               QStringLiteral("%1 = %2").arg(terms.join(QStringLiteral(" + ")),
                                                             vectorText(step.context)));
            if (luong)
                lines.emplace_back(
                    QStringLiteral("<i>h̃</i><sub><i>t</i></sub> = tanh(<i>W</i><sub><i>c</i></"
                                   "sub> [<i>c</i><sub><i>t</i></sub>; <i>s</i><sub><i>t</i></"
                                   "sub>])"),
                    QStringLiteral("<i>h̃</i><sub><i>t</i></sub> = %1")
                        .arg(vectorText(step.attentional)));
            else
                lines.emplace_back(
                    Words::tr("<i>s</i><sub><i>t</i></sub> = %1([<i>E y</i><sub><i>t</i>−1</"
                              "sub>; <i>c</i><sub><i>t</i></sub>], <i>s</i><sub><i>t</i>−1</sub>)")
                        .arg(cellName()),
                    Words::tr("reads [“%1”; <i>c</i><sub><i>t</i></sub>]: "
                              "<i>s</i><sub><i>t</i></sub> = %2")
                        .arg(input.toHtmlEscaped(), vectorText(step.hidden)));
        }
        const double p = std::exp(double(step.logProbs(step.outputId)));
        lines.emplace_back(
            luong ? QStringLiteral("<i>p</i>(<i>y</i><sub><i>t</i></sub>) = "
                                   "softmax(<i>W</i><sub><i>o</i></sub> <i>h̃</i><sub><i>t</i></"
                                   "sub> + <i>b</i><sub><i>o</i></sub>)")
                  : QStringLiteral("<i>p</i>(<i>y</i><sub><i>t</i></sub>) = "
                                   "softmax(<i>W</i><sub><i>o</i></sub> <i>s</i><sub><i>t</i></"
                                   "sub> + <i>b</i><sub><i>o</i></sub>)"),
            Words::tr("chosen: “%1”, <i>p</i> = %2")
                .arg(targetWord(m, step.outputId).toHtmlEscaped(), cellNumber(p, 2)));
        return lines;
    }

    void addText(SlideText::Role role, const QString& text, const QFont& font, QColor color,
                 QRectF box, Qt::Alignment align = Qt::AlignCenter, bool rich = false,
                 int panel = -1, int index = -1)
    {
        SlideText t;
        t.role = role;
        t.text = text;
        t.rich = rich;
        t.font = font;
        t.color = color;
        t.box = box;
        t.align = align;
        t.panel = panel;
        t.index = index;
        slide.texts.push_back(std::move(t));
    }

    // A column of cells, one per source token, its numbers written in when they fit; the
    // source tokens beside the first column only.
    void addColumn(const QString& name, const QString& title, const core::RowVector& values,
                   bool weights, QRectF area)
    {
        const int panel = int(slide.panels.size());
        const int rows = int(values.size());
        const double cellH = std::min(72.0 * s, (area.height() - 48 * s) / std::max(1, rows));
        SlidePanel p;
        p.name = name;
        p.title = title;
        p.rows = rows;
        p.columns = 1;
        p.cells = QRectF(area.left(), area.top() + 48 * s, area.width(), cellH * rows);
        p.bounds = area;
        slide.panels.push_back(p);
        addText(SlideText::Role::Title, title, sansFont(26 * s, true), style.text,
                QRectF(area.left(), area.top(), area.width(), 40 * s));
        const double extent = std::max(1e-6, double(values.cwiseAbs().maxCoeff()));
        const double numberPixels = std::min(28.0 * s, cellH * 0.55);
        for (int r = 0; r < rows; ++r) {
            const double v = double(values(r));
            SlideCell cell;
            cell.rect = QRectF(p.cells.left(), p.cells.top() + r * cellH, p.cells.width(), cellH);
            cell.fill = weights ? weightCells.at(v, 0.0, 1.0) : signedCells.at(v, -extent, extent);
            cell.panel = panel;
            cell.row = r;
            slide.cells.push_back(cell);
            if (numberPixels >= 9.0)
                addText(SlideText::Role::Value, cellNumber(v, 2), mathFont(numberPixels),
                        textColorOn(cell.fill), cell.rect, Qt::AlignCenter, false, panel, r);
        }
        slide.valuePixels = numberPixels >= 9.0 ? numberPixels : 0.0;
    }

    void addSourceLabels(QRectF cells, int rows)
    {
        const double cellH = cells.height() / std::max(1, rows);
        const double pixels = std::min(30.0 * s, cellH * 0.7);
        slide.labelPixels = pixels;
        for (int r = 0; r < rows; ++r)
            addText(SlideText::Role::Label, source.value(r),
                    sansFont(pixels, r < int(d.sourceWords.size())), style.text,
                    QRectF(cells.left() - 200 * s, cells.top() + r * cellH, 190 * s, cellH),
                    Qt::AlignRight | Qt::AlignVCenter, false, 0, r);
    }

    void encoderPanels(QRectF body)
    {
        const int rows = int(d.encoderStates.rows());
        const int columns = int(d.encoderStates.cols());
        const double left = body.left() + 210 * s;
        const double cellH = std::min(72.0 * s, (body.height() - 48 * s) / std::max(1, rows));
        const double cellW = std::min(110.0 * s, (body.right() - left) / std::max(1, columns));
        SlidePanel p;
        p.name = QStringLiteral("states");
        p.title = Words::tr("encoder states h (a row per source token)");
        p.rows = rows;
        p.columns = columns;
        p.cells = QRectF(left, body.top() + 48 * s, cellW * columns, cellH * rows);
        p.bounds = body;
        slide.panels.push_back(p);
        addText(SlideText::Role::Title, p.title, sansFont(26 * s, true), style.text,
                QRectF(left, body.top(), body.right() - left, 40 * s),
                Qt::AlignLeft | Qt::AlignVCenter);
        const double extent = std::max(1e-6, double(d.encoderStates.cwiseAbs().maxCoeff()));
        const double numberPixels = std::min({24.0 * s, cellH * 0.5, cellW * 0.28});
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < columns; ++c) {
                const double v = double(d.encoderStates(r, c));
                SlideCell cell;
                cell.rect = QRectF(left + c * cellW, p.cells.top() + r * cellH, cellW, cellH);
                cell.fill = signedCells.at(v, -extent, extent);
                cell.row = r;
                cell.column = c;
                slide.cells.push_back(cell);
                if (numberPixels >= 9.0)
                    addText(SlideText::Role::Value, cellNumber(v, 2), mathFont(numberPixels),
                            textColorOn(cell.fill), cell.rect, Qt::AlignCenter, false, 0, r);
            }
        slide.valuePixels = numberPixels >= 9.0 ? numberPixels : 0.0;
        addSourceLabels(p.cells, rows);
        slide.subject = p.bounds;
    }

    void stepPanels(QRectF body, const core::Seq2SeqStep& step)
    {
        const double left = body.left() + 210 * s;
        const double column = std::min(170.0 * s, body.width() * 0.13);
        const double gap = 24 * s;
        double x = left;
        if (step.attention.size() > 0) {
            addColumn(QStringLiteral("scores"), Words::tr("scores e"), step.scores, false,
                      QRectF(x, body.top(), column, body.height()));
            x += column + gap;
            addColumn(QStringLiteral("weights"), Words::tr("weights α"), step.attention, true,
                      QRectF(x, body.top(), column, body.height()));
            x += column + gap;
            addSourceLabels(slide.panels.front().cells, int(step.scores.size()));
        }
        nextWordBars(QRectF(x + gap, body.top(), body.right() - x - gap, body.height()), step);
        slide.subject = body;
    }

    // The likeliest five next words as bars, the chosen one marked.
    void nextWordBars(QRectF area, const core::Seq2SeqStep& step)
    {
        const int panel = int(slide.panels.size());
        std::vector<int> order(std::size_t(step.logProbs.size()));
        std::iota(order.begin(), order.end(), 0);
        const std::size_t top = std::min<std::size_t>(5, order.size());
        std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(top), order.end(),
                          [&](int a, int b) { return step.logProbs(a) > step.logProbs(b); });
        SlidePanel p;
        p.name = QStringLiteral("next");
        p.title = Words::tr("next word: the likeliest five");
        p.rows = int(top);
        p.columns = 1;
        p.keyColumns = false;
        p.bounds = area;
        const double rowH = std::min(80.0 * s, (area.height() - 48 * s) / 5.0);
        const double wordW = std::min(220.0 * s, area.width() * 0.35);
        const QRectF bars(area.left() + wordW + 12 * s, area.top() + 48 * s,
                          area.width() - wordW - 110 * s, rowH * double(top));
        p.cells = bars;
        slide.panels.push_back(p);
        addText(SlideText::Role::Title, p.title, sansFont(26 * s, true), style.text,
                QRectF(area.left(), area.top(), area.width(), 40 * s),
                Qt::AlignLeft | Qt::AlignVCenter);
        for (std::size_t k = 0; k < top; ++k) {
            const int id = order[k];
            const double probability = std::exp(double(step.logProbs(id)));
            const double y = bars.top() + double(k) * rowH;
            const bool chosen = id == step.outputId;
            SlideShape bar;
            bar.kind = SlideShape::Kind::Bar;
            bar.rect = QRectF(bars.left(), y + rowH * 0.15, bars.width() * probability, rowH * 0.7);
            bar.brush = chosen ? style.accent : colorAt(colormap, 0.35);
            bar.highlight = chosen;
            slide.shapes.push_back(bar);
            const double pixels = std::min(30.0 * s, rowH * 0.5);
            addText(SlideText::Role::Label, targetWord(m, id), sansFont(pixels, chosen), style.text,
                    QRectF(area.left(), y, wordW, rowH), Qt::AlignRight | Qt::AlignVCenter, false,
                    panel, int(k));
            addText(SlideText::Role::Value, cellNumber(probability, 2), mathFont(pixels),
                    style.text, QRectF(bar.rect.right() + 8 * s, y, 100 * s, rowH),
                    Qt::AlignLeft | Qt::AlignVCenter, false, panel, int(k));
        }
    }

    const core::Seq2SeqModel& m;
    const core::Seq2SeqDecoding& d;
    FigureStyle style;
    Colormap colormap;
    ColourTable weightCells; // colormap's, as the figure kit paints cells
    ColourTable signedCells; // style.signedColormap's
    double s = 1.0;
    QStringList source;
    Slide slide;
};

} // namespace

int seq2seqSlideCount(const core::Seq2SeqDecoding& decoding)
{
    return 1 + int(decoding.steps.size());
}

Slide buildSeq2SeqSlide(const core::Seq2SeqModel& model, const core::Seq2SeqDecoding& decoding,
                        int index, PresentationTheme theme, QSizeF size)
{
    return Seq2SeqSlideBuilder(model, decoding, theme, size).build(index);
}

} // namespace attn::ui
