#include "ui/presentation/slide_builder_p.h"

#include "ui/figures/colormap.h"

#include <QFontMetricsF>
#include <algorithm>
#include <array>
#include <cmath>

namespace attn::ui::slide_detail {

// --- One query: its scores, their normalization as bars, the weighted sum of the values ---

void SlideBuilder::buildFocus(QRectF body)
{
    const core::HeadResult& h = r.heads[std::size_t(head)];
    const int keyCount = p.keyCount();
    const int dv = int(h.V.cols());
    const int shown = std::min(dv, 6);
    if (shown < dv)
        addNote(Words::tr("v and αv: the first %1 of %2 values").arg(shown).arg(dv));
    const QString fill =
        p.fill == core::MaskFill::NegativeInfinity ? QStringLiteral("−∞") : QStringLiteral("−9e15");
    auto masked = [&](int j) { return mask->isMasked(query, j); };
    // What each numeric column shows, to size the numbers.
    double sTop = 0.0, vTop = 0.0, avTop = 0.0;
    Matrix weighted(keyCount, shown);
    for (int j = 0; j < keyCount; ++j) {
        if (!masked(j))
            sTop = std::max(sTop, std::abs(double(h.maskedScores(query, j))));
        for (int c = 0; c < shown; ++c) {
            weighted(j, c) = h.weights(query, j) * h.V(j, c);
            vTop = std::max(vTop, std::abs(double(h.V(j, c))));
            avTop = std::max(avTop, std::abs(double(weighted(j, c))));
        }
    }
    for (int c = 0; c < shown; ++c)
        avTop = std::max(avTop, std::abs(double(h.output(query, c))));
    const Matrix scoreColumn = h.maskedScores.row(query).transpose();
    const Matrix weightColumn = h.weights.row(query).transpose();
    const Matrix values = h.V.leftCols(shown);
    const Matrix output = h.output.row(query).leftCols(shown);
    const int sDecimals = decimalsFor(scoreColumn, nullptr);
    const int vDecimals = decimalsFor(values, nullptr);
    const int avDecimals = std::max(decimalsFor(weighted, nullptr), decimalsFor(output, nullptr));
    const QFontMetricsF unit(sansFont(100.0));
    // The widest number of a column block: its largest or its most negative value.
    auto unitWidth = [&](const Matrix& m, int decimals) {
        double width = 0.0;
        for (double v : {double(m.maxCoeff()), double(m.minCoeff())})
            if (std::isfinite(v))
                width = std::max(width, unit.horizontalAdvance(cellNumber(v, decimals)));
        return width / 100.0;
    };
    Matrix finiteScores = scoreColumn;
    for (int j = 0; j < keyCount; ++j)
        if (masked(j))
            finiteScores(j, 0) = 0.0f;
    const double numberUnit =
        std::max({unitWidth(finiteScores, sDecimals), unit.horizontalAdvance(fill) / 100.0,
                  unitWidth(values, vDecimals), unitWidth(weighted, avDecimals),
                  unitWidth(output, avDecimals)});
    const QString titles[] = {Words::tr("key"), Words::tr("score s"), Words::tr("weight α"),
                              Words::tr("value v"), QStringLiteral("α × v")};

    // Sizes: the largest label size at which every key has its row and the numbers fit.
    double label = std::floor(kSlideLabelPixels * s);
    double w = 0.0, rowH = 0.0, labelW = 0.0, gap = 0.0, bar = 0.0, value = 0.0, scoreW = 0.0;
    int characters = 0;
    int step = 1;
    bool fitted = false;
    for (int attempt = 0; !fitted; ++attempt) {
        characters = attempt == 0   ? 0
                     : attempt <= 3 ? std::array{12, 8, 5}[std::size_t(attempt - 1)]
                                    : 5;
        step = attempt <= 3 ? 1 : attempt - 2;
        for (label = std::floor(kSlideLabelPixels * s);
             label >= std::floor(kSlideMinLabelPixels * s); label -= 1.0) {
            const QFontMetricsF metrics(sansFont(label));
            const QFontMetricsF titleMetrics(sansFont(label * 1.05, true));
            QStringList cutKeys;
            for (const QString& k : keys)
                cutKeys.append(cut(k, characters));
            labelW = std::max(widest(metrics, cutKeys, step),
                              titleMetrics.horizontalAdvance(titles[0])) +
                     label * 0.35;
            gap = std::max(label * 1.2, 18.0 * s);
            const double titleH = titleMetrics.height() + label * 0.35;
            rowH = (body.height() - titleH - gap) / (keyCount + 1); // keys, then the sum
            // Columns: the score, the values and the weighted values; the bars take four.
            const int cellsWide = 1 + 2 * shown;
            w = (body.width() - labelW - 3 * gap) / (cellsWide + 4);
            w = std::min(w, 3.0 * rowH);
            if (rowH * step < metrics.height() * 1.02 || w < metrics.height())
                continue;
            value =
                std::floor(std::min({44.0 * s, label * 1.3, w * 0.86 / numberUnit, rowH / 1.12}));
            // The score column as wide as its title, so the titles keep apart.
            scoreW = std::max(w, titleMetrics.horizontalAdvance(titles[1]) + label * 0.5);
            bar =
                std::min(body.width() - labelW - 3 * gap - (cellsWide - 1) * w - scoreW, 10.0 * w);
            fitted = true;
            break;
        }
        if (attempt > keyCount + 4)
            break;
    }
    if (!fitted) { // a page too small for the table: the smallest of everything
        w = std::max(1.0, w);
        rowH = std::max(1.0, rowH);
        bar = std::max(1.0, bar);
        scoreW = std::max(w, scoreW);
    }
    if (characters > 0)
        addNote(Words::tr("long tokens cut to %1 characters").arg(characters));
    if (step > 1)
        addNote(step == 2 ? Words::tr("labels: every 2nd key")
                          : Words::tr("labels: every %1th key").arg(step));
    if (value < 11.0 * s)
        value = 0.0;
    m_slide.labelPixels = label;
    m_slide.valuePixels = value;
    m_slide.labelStep = step;
    m_slide.labelCharacters = characters;
    const QFont labelFont = sansFont(label);
    const QFont titleFont = sansFont(label * 1.05, true);
    const QFont valueFont = sansFont(std::max(1.0, value));
    const QFontMetricsF titleMetrics(titleFont);
    const double titleH = titleMetrics.height() + label * 0.35;
    const double width = labelW + scoreW + 2 * shown * w + bar + 3 * gap;
    const double height = titleH + (keyCount + 1) * rowH + gap;
    const double left = body.left() + std::max(0.0, (body.width() - width) / 2);
    const double top = body.top() + std::max(0.0, (body.height() - height) / 2) + titleH;
    const double xScore = left + labelW;
    const double xBar = xScore + scoreW + gap;
    const double xValues = xBar + bar + gap;
    const double xWeighted = xValues + shown * w + gap;
    const double sumTop = top + keyCount * rowH + gap;

    // Panels, for hits and tests: each column block is one.
    auto panel = [&](const QString& name, const QString& title, QRectF cells, int rows,
                     int columns) {
        SlidePanel out;
        out.name = name;
        out.title = title;
        out.cells = cells;
        out.bounds = cells.adjusted(0, -titleH, 0, 0);
        out.rows = rows;
        out.columns = columns;
        out.head = head;
        out.queryRows = false; // rows are keys
        m_slide.panels.push_back(out);
        addText(SlideText::Role::Title, title, titleFont, style.text,
                QRectF(cells.center().x() -
                           std::max(cells.width(), titleMetrics.horizontalAdvance(title)) / 2,
                       cells.top() - titleH,
                       std::max(cells.width(), titleMetrics.horizontalAdvance(title)),
                       titleMetrics.height()));
        return int(m_slide.panels.size()) - 1;
    };
    addText(SlideText::Role::Title, titles[0], titleFont, style.text,
            QRectF(left, top - titleH, labelW - label * 0.35, titleMetrics.height()),
            Qt::AlignRight | Qt::AlignVCenter);
    const int pScore = panel(QStringLiteral("focus scores"), titles[1],
                             QRectF(xScore, top, scoreW, keyCount * rowH), keyCount, 1);
    const int pBar = panel(QStringLiteral("focus weights"), titles[2],
                           QRectF(xBar, top, bar, keyCount * rowH), keyCount, 1);
    const int pValues = panel(QStringLiteral("focus values"), titles[3],
                              QRectF(xValues, top, shown * w, keyCount * rowH), keyCount, shown);
    const int pWeighted =
        panel(QStringLiteral("focus weighted"), titles[4],
              QRectF(xWeighted, top, shown * w, keyCount * rowH), keyCount, shown);
    // The first panel's bounds carry the key labels.
    m_slide.panels[std::size_t(pScore)].bounds.setLeft(left);

    // The signed columns' colour ranges: -top to top.
    const double sRange = sTop > 0 ? sTop : 1.0;
    const double vRange = vTop > 0 ? vTop : 1.0;
    const double avRange = avTop > 0 ? avTop : 1.0;
    const double tile = std::min(w, rowH) >= 10.0 * s ? 0.75 * s : 0.0;
    auto addCell = [&](int panelIndex, int row, int column, QRectF rect, QColor fillColour,
                       const QString& text, bool hatched = false) {
        SlideCell cell;
        cell.rect = rect.adjusted(tile, tile, -tile, -tile);
        cell.fill = fillColour;
        cell.hatched = hatched;
        cell.panel = panelIndex;
        cell.row = row;
        cell.column = column;
        m_slide.cells.push_back(cell);
        if (value <= 0.0 || text.isEmpty())
            return;
        SlideText number;
        number.role = SlideText::Role::Value;
        number.text = text;
        number.font = valueFont;
        number.color = textColorOn(fillColour);
        number.box = rect;
        number.panel = panelIndex;
        number.index = row;
        m_slide.texts.push_back(number);
    };
    for (int j = 0; j < keyCount; ++j) {
        const double y = top + j * rowH;
        if (j % step == 0) {
            SlideText t;
            t.role = SlideText::Role::Label;
            t.text = cut(keys.value(j), characters);
            t.font = labelFont;
            t.color = j == key ? style.accent : style.text;
            t.font.setBold(j == key);
            t.box = QRectF(left, y, labelW - label * 0.35, rowH);
            t.align = Qt::AlignRight | Qt::AlignVCenter;
            t.panel = pScore;
            t.index = j;
            m_slide.texts.push_back(t);
        }
        const bool isMasked = masked(j);
        const double sv = double(h.maskedScores(query, j));
        addCell(pScore, j, 0, QRectF(xScore, y, scoreW, rowH),
                isMasked ? style.masked : signedFill(sv, sRange),
                isMasked ? fill : cellNumber(sv, sDecimals), isMasked && style.hatchMasked);
        // The bar: its length the weight (on the weights' colour scale), its number beside it.
        const double a = double(h.weights(query, j));
        const double length =
            std::clamp(std::abs(a) / std::max(1.0, std::abs(weightColour.high)), 0.0, 1.0) * bar;
        SlideShape shape;
        shape.kind = SlideShape::Kind::Bar;
        shape.rect = QRectF(xBar, y + rowH * 0.12, length, rowH * 0.76);
        shape.brush = weightFill(a);
        shape.pen = style.mutedText;
        shape.penWidth = 1.0 * s;
        m_slide.shapes.push_back(shape);
        SlideShape track; // the bar's full length, faint: where 1 is
        track.kind = SlideShape::Kind::Frame;
        track.rect = QRectF(xBar, y + rowH * 0.12, bar, rowH * 0.76);
        track.pen = style.placeholder.lightness() > 128 ? style.placeholder.darker(115)
                                                        : style.placeholder.lighter(140);
        track.penWidth = 1.0 * s;
        m_slide.shapes.push_back(track);
        if (value > 0.0) {
            const QString text = weightNumber(a, 2);
            const double textWidth = QFontMetricsF(valueFont).horizontalAdvance(text) + value * 0.4;
            const bool inside = length >= textWidth;
            SlideText number;
            number.role = SlideText::Role::Value;
            number.text = text;
            number.font = valueFont;
            number.color = inside ? textColorOn(shape.brush) : style.text;
            number.box = inside ? QRectF(xBar, y, length - value * 0.2, rowH)
                                : QRectF(xBar + length + value * 0.2, y, bar, rowH);
            number.align = (inside ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter;
            number.panel = pBar;
            number.index = j;
            m_slide.texts.push_back(number);
        }
        for (int c = 0; c < shown; ++c) {
            const double v = double(h.V(j, c));
            addCell(pValues, j, c, QRectF(xValues + c * w, y, w, rowH), signedFill(v, vRange),
                    cellNumber(v, vDecimals));
            const double av = double(weighted(j, c));
            addCell(pWeighted, j, c, QRectF(xWeighted + c * w, y, w, rowH), signedFill(av, avRange),
                    cellNumber(av, avDecimals));
        }
    }
    // The sum: o_i under the weighted values, and the weights' total under the bars.
    const int pSum = int(m_slide.panels.size());
    {
        SlidePanel out;
        out.name = QStringLiteral("focus output");
        out.title = QStringLiteral("o");
        out.cells = QRectF(xWeighted, sumTop, shown * w, rowH);
        out.bounds = out.cells;
        out.rows = 1;
        out.columns = shown;
        out.head = head;
        m_slide.panels.push_back(out);
    }
    for (int c = 0; c < shown; ++c) {
        const double v = double(h.output(query, c));
        addCell(pSum, 0, c, QRectF(xWeighted + c * w, sumTop, w, rowH), signedFill(v, avRange),
                cellNumber(v, avDecimals));
    }
    SlideShape rule;
    rule.kind = SlideShape::Kind::Rule;
    rule.rect = QRectF(xBar, sumTop - gap * 0.5 - 1.0 * s, xWeighted + shown * w - xBar, 2.0 * s);
    rule.brush = style.text;
    m_slide.shapes.push_back(rule);
    double total = 0.0;
    for (int j = 0; j < keyCount; ++j)
        total += double(h.weights(query, j));
    // The row's name ends where o begins; the weights' total starts under the bars. On a small
    // screen the name drops the query, then the total gives way, so the two never overlap.
    const QString totalText =
        value > 0.0 ? QStringLiteral("∑ α = %1").arg(cellNumber(total, 2)) : QString();
    const double totalWidth =
        totalText.isEmpty() ? 0.0 : QFontMetricsF(valueFont).horizontalAdvance(totalText) + gap;
    const double labelRight = xWeighted - gap * 0.5;
    QString sumLabel =
        Words::tr("o = ∑ αv  (query %1, “%2”)").arg(query + 1).arg(queries.value(query));
    if (labelRight - titleMetrics.horizontalAdvance(sumLabel) < xBar + totalWidth)
        sumLabel = Words::tr("o = ∑ αv");
    const bool totalFits =
        labelRight - titleMetrics.horizontalAdvance(sumLabel) >= xBar + totalWidth;
    addText(SlideText::Role::Title, sumLabel, titleFont, style.text,
            QRectF(left, sumTop, labelRight - left, rowH), Qt::AlignRight | Qt::AlignVCenter);
    if (!totalText.isEmpty() && totalFits)
        addText(SlideText::Role::Value, totalText, valueFont, style.mutedText,
                QRectF(xBar, sumTop, bar, rowH), Qt::AlignLeft | Qt::AlignVCenter);
    // The chosen key's row, across the table.
    highlight(QRectF(xScore, top + key * rowH, xWeighted + shown * w - xScore, rowH));
    for (SlidePanel& each : m_slide.panels)
        if (each.name.startsWith(QLatin1String("focus")))
            each.subject = true;
    m_slide.panels[std::size_t(pScore)].bounds = m_slide.panels[std::size_t(pScore)].bounds.united(
        QRectF(left, top, labelW, keyCount * rowH));
    m_slide.panels[std::size_t(pSum)].bounds = m_slide.panels[std::size_t(pSum)].bounds.united(
        QRectF(left, sumTop, xWeighted - left, rowH));
}

} // namespace attn::ui::slide_detail
