#include "ui/presentation/slide_builder_p.h"

#include "ui/figures/colormap.h"

#include <QFontMetricsF>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace attn::ui::slide_detail {

namespace {

// The ways to put n panels in rows, in their order: [0, 0, 1] puts the third on a second
// row. Every way up to four panels; past that (many heads) grids of k panels a row.
std::vector<std::vector<int>> arrangements(int n)
{
    std::vector<std::vector<int>> out;
    if (n <= 4) {
        for (unsigned breaks = 0; breaks < (1u << std::max(0, n - 1)); ++breaks) {
            std::vector<int> rows{0};
            for (int k = 1; k < n; ++k)
                rows.push_back(rows.back() + ((breaks >> (k - 1)) & 1u ? 1 : 0));
            out.push_back(std::move(rows));
        }
        return out;
    }
    for (int perRow = 1; perRow <= n; ++perRow) {
        std::vector<int> rows;
        for (int k = 0; k < n; ++k)
            rows.push_back(k / perRow);
        out.push_back(std::move(rows));
    }
    return out;
}

// Panels side by side share their rows' labels: a panel is labelled when it starts a row of
// panels or its rows are other tokens than its neighbour's (K and V of cross-attention).
bool labelsRows(const std::vector<MatrixPanel>& panels, const std::vector<int>& rowsOf,
                std::size_t k)
{
    if (panels[k].rowLabels.isEmpty())
        return false;
    return k == 0 || rowsOf[k] != rowsOf[k - 1] || panels[k].rowLabels != panels[k - 1].rowLabels ||
           panels[k].matrix->rows() != panels[k - 1].matrix->rows();
}

} // namespace

MatrixFit SlideBuilder::fitMatrices(const std::vector<MatrixPanel>& panels, QRectF body,
                                    const std::vector<int>& rowsOf, double label, int characters,
                                    int step) const
{
    MatrixFit fit;
    fit.rowsOf = rowsOf;
    fit.label = label;
    const int rowCount = rowsOf.back() + 1;
    const QFontMetricsF metrics(sansFont(label));
    const QFontMetricsF titleMetrics(sansFont(label * 1.05, true));
    const double gap = std::max(label * 1.2, 18.0 * s);
    const double pad = label * 0.35;
    // Per row of panels: columns of cells, what labels take beside them, rows of cells.
    std::vector<double> columns(std::size_t(rowCount), 0.0), chromeX(std::size_t(rowCount), 0.0);
    std::vector<int> cellRows(std::size_t(rowCount), 0), panelsIn(std::size_t(rowCount), 0);
    std::vector<double> widestColumn(std::size_t(rowCount), 0.0);
    std::vector<bool> titled(std::size_t(rowCount), false);
    for (std::size_t k = 0; k < panels.size(); ++k) {
        const MatrixPanel& panel = panels[k];
        const std::size_t row = std::size_t(rowsOf[k]);
        columns[row] += double(panel.matrix->cols());
        if (labelsRows(panels, rowsOf, k))
            chromeX[row] += labelWidth(label, characters, panel.rowLabels, step) + pad;
        if (panelsIn[row]++ > 0)
            chromeX[row] += gap;
        cellRows[row] = std::max(cellRows[row], int(panel.matrix->rows()));
        if (!panel.columnLabels.isEmpty())
            widestColumn[row] = std::max(widestColumn[row],
                                         labelWidth(label, characters, panel.columnLabels, step));
        titled[row] = titled[row] || !panel.title.isEmpty();
        chromeX[row] = std::max(chromeX[row], 0.0);
    }
    double w = std::numeric_limits<double>::max();
    for (int row = 0; row < rowCount; ++row) {
        w = std::min(w, (body.width() - chromeX[std::size_t(row)]) /
                            std::max(1.0, columns[std::size_t(row)]));
        // A title wider than its matrix widens the matrix's share.
    }
    int totalRows = 0;
    for (int n : cellRows)
        totalRows += n;
    fit.vertical.assign(std::size_t(rowCount), false);
    double h = 0.0;
    for (int pass = 0; pass < 2; ++pass) {
        double chromeY = gap * (rowCount - 1);
        for (int row = 0; row < rowCount; ++row) {
            if (titled[std::size_t(row)])
                chromeY += titleMetrics.height() + pad;
            const double wc = widestColumn[std::size_t(row)];
            if (wc <= 0.0)
                continue;
            // Upright where a column holds its label, turned where a column holds a line.
            if (wc + pad <= w) {
                fit.vertical[std::size_t(row)] = false;
                chromeY += metrics.height() + pad;
            } else if (metrics.height() * 1.08 <= w * step) {
                fit.vertical[std::size_t(row)] = true;
                chromeY += wc + pad;
            } else {
                return fit; // not even turned
            }
        }
        h = (body.height() - chromeY) / std::max(1, totalRows);
        if (h * step < metrics.height() * 1.02 || h <= 0)
            return fit; // rows too low for their labels
        if (pass == 0) {
            // Cells no wider than three times their height, no taller than twice their width.
            const double capped = std::min(w, 3.0 * h);
            if (capped == w)
                break;
            w = capped;
        }
    }
    h = std::min(h, 2.0 * w);
    fit.cellW = w;
    fit.cellH = h;
    // Numbers: the size every panel's widest number fits its cells at, within bounds.
    double value = std::min(44.0 * s, label * 1.3);
    bool any = false;
    for (const MatrixPanel& panel : panels) {
        const double byWidth = w * 0.86 / std::max(1e-6, panel.unitNumberWidth);
        const double byHeight = h / 1.12;
        const double fits = std::min(byWidth, byHeight);
        if (fits < 11.0 * s)
            continue; // this panel shows colours only
        value = std::min(value, fits);
        any = true;
    }
    fit.value = any ? std::floor(value) : 0.0;
    // Labels readable from the back first (24 px at 1080p), then the largest numbers, then
    // larger labels; fewer rows of panels break a tie.
    fit.quality = std::min(label, 24.0 * s) * 1e6 + fit.value * 1e3 + label - rowCount * 0.01;
    fit.ok = true;
    return fit;
}

void SlideBuilder::buildMatrices(QRectF body, std::vector<MatrixPanel> panels)
{
    if (panels.empty())
        return;
    const QFontMetricsF unit(sansFont(100.0));
    for (MatrixPanel& panel : panels) {
        const Matrix& m = *panel.matrix;
        panel.decimals = decimalsFor(m, panel.mask);
        double top = 0.0, largest = 0.0, smallest = 0.0;
        double wide = panel.maskedText.isEmpty() ? 0.0 : unit.horizontalAdvance(panel.maskedText);
        for (int i = 0; i < int(m.rows()); ++i)
            for (int j = 0; j < int(m.cols()); ++j) {
                const double v = double(m(i, j));
                if (!std::isfinite(v) || (panel.mask && panel.mask->isMasked(i, j)))
                    continue;
                top = std::max(top, std::abs(v));
                largest = std::max(largest, v);
                smallest = std::min(smallest, v);
            }
        // The widest number is the largest or the most negative (a minus sign is wide).
        for (double v : {largest, smallest})
            wide = std::max(wide,
                            unit.horizontalAdvance(panel.weights ? weightNumber(v, panel.decimals)
                                                                 : cellNumber(v, panel.decimals)));
        panel.unitNumberWidth = wide / 100.0;
        panel.signedTop = top > 0.0 ? top : 1.0;
    }
    // Row labels once per row of panels, and again where the rows' tokens change (K and V
    // of cross-attention): panels side by side share their rows.
    // Search: whole labels at every size from the largest down, then shorter labels, and
    // only then every n-th label: rotate, shrink, abbreviate before thinning.
    const int tokens = std::max(p.queryCount(), p.keyCount());
    const std::vector<std::vector<int>> shapes = arrangements(int(panels.size()));
    MatrixFit best;
    int characters = 0;
    int step = 1;
    for (int attempt = 0; !best.ok && step <= tokens; ++attempt) {
        if (attempt == 0)
            characters = 0;
        else if (attempt <= 3)
            characters = std::array{12, 8, 5}[std::size_t(attempt - 1)];
        else
            ++step;
        for (double label = std::floor(kSlideLabelPixels * s);
             label >= std::floor(kSlideMinLabelPixels * s); label -= 1.0) {
            for (const std::vector<int>& rows : shapes) {
                const MatrixFit fit = fitMatrices(panels, body, rows, label, characters, step);
                if (fit.ok && (!best.ok || fit.quality > best.quality))
                    best = fit;
            }
            // Smaller labels win only by larger numbers, and numbers never outgrow 1.3 labels.
            if (best.ok && (best.value >= label * 1.3 || best.value >= 44.0 * s))
                break;
        }
        if (attempt > 64)
            break;
    }
    if (!best.ok) { // a page too small for anything: the smallest of everything
        best = fitMatrices(panels, body, std::vector<int>(panels.size(), 0),
                           std::floor(kSlideMinLabelPixels * s), 5, tokens);
        best.ok = true;
        best.cellW = std::max(best.cellW, 1.0);
        best.cellH = std::max(best.cellH, 1.0);
    }
    if (characters > 0)
        addNote(Words::tr("long tokens cut to %1 characters").arg(characters));
    if (step > 1)
        addNote(step == 2 ? Words::tr("labels: every 2nd token")
                          : Words::tr("labels: every %1th token").arg(step));
    placeMatrices(panels, body, best, characters, step);
}

void SlideBuilder::placeMatrices(std::vector<MatrixPanel>& panels, QRectF body,
                                 const MatrixFit& fit, int characters, int step)
{
    const double label = fit.label;
    const QFont labelFont = sansFont(label);
    const QFont titleFont = sansFont(label * 1.05, true);
    const QFontMetricsF metrics(labelFont);
    const QFontMetricsF titleMetrics(titleFont);
    const double gap = std::max(label * 1.2, 18.0 * s);
    const double pad = label * 0.35;
    const double w = fit.cellW;
    const double h = fit.cellH;
    const QFont valueFont = sansFont(fit.value);
    const double tile = std::min(w, h) >= 10.0 * s ? 0.75 * s : 0.0;
    m_slide.labelPixels = label;
    m_slide.valuePixels = fit.value;
    m_slide.labelStep = step;
    m_slide.labelCharacters = characters;
    const int rowCount = fit.rowsOf.back() + 1;

    // Heights of each row of panels, then everything centred in the body.
    struct RowBox
    {
        double width = 0.0;
        double height = 0.0;
        double title = 0.0;
        double cells = 0.0;
        double columnLabels = 0.0;
    };
    std::vector<RowBox> rows(static_cast<std::size_t>(rowCount));
    std::vector<double> rowLabelWidth(panels.size(), 0.0);
    for (std::size_t k = 0; k < panels.size(); ++k) {
        RowBox& row = rows[std::size_t(fit.rowsOf[k])];
        rowLabelWidth[k] = labelsRows(panels, fit.rowsOf, k)
                               ? labelWidth(label, characters, panels[k].rowLabels, step) + pad
                               : 0.0;
        if (row.width > 0)
            row.width += gap;
        row.width += rowLabelWidth[k] + double(panels[k].matrix->cols()) * w;
        row.cells = std::max(row.cells, double(panels[k].matrix->rows()) * h);
        if (!panels[k].title.isEmpty())
            row.title = titleMetrics.height() + pad;
        if (!panels[k].columnLabels.isEmpty()) {
            row.columnLabels =
                std::max(row.columnLabels,
                         fit.vertical[std::size_t(fit.rowsOf[k])]
                             ? labelWidth(label, characters, panels[k].columnLabels, step) + pad
                             : metrics.height() + pad);
        }
    }
    double total = gap * (rowCount - 1);
    for (RowBox& row : rows) {
        row.height = row.title + row.cells + row.columnLabels;
        total += row.height;
    }
    double y = body.top() + std::max(0.0, (body.height() - total) / 2);
    std::vector<double> rowTop(static_cast<std::size_t>(rowCount)),
        rowLeft(static_cast<std::size_t>(rowCount));
    for (int row = 0; row < rowCount; ++row) {
        rowTop[std::size_t(row)] = y;
        rowLeft[std::size_t(row)] =
            body.left() + std::max(0.0, (body.width() - rows[std::size_t(row)].width) / 2);
        y += rows[std::size_t(row)].height + gap;
    }
    std::vector<double> x = rowLeft;
    for (std::size_t k = 0; k < panels.size(); ++k) {
        const MatrixPanel& panel = panels[k];
        const Matrix& m = *panel.matrix;
        const std::size_t row = std::size_t(fit.rowsOf[k]);
        const int panelIndex = int(m_slide.panels.size());
        const double left = x[row] + rowLabelWidth[k];
        const double top = rowTop[row] + rows[row].title;
        const QRectF cells(left, top, double(m.cols()) * w, double(m.rows()) * h);
        x[row] = cells.right() + gap;

        SlidePanel out;
        out.name = panel.name;
        out.title = panel.title;
        out.cells = cells;
        out.rows = int(m.rows());
        out.columns = int(m.cols());
        out.head = panel.head;
        out.queryRows = panel.queryRows;
        out.keyColumns = panel.keyColumns;
        out.subject = panel.subject;
        QRectF bounds = cells.adjusted(-rowLabelWidth[k], -rows[row].title, 0, 0);
        if (!panel.columnLabels.isEmpty())
            bounds.setBottom(cells.bottom() + rows[row].columnLabels);

        if (!panel.title.isEmpty()) {
            const double titleWidth = titleMetrics.horizontalAdvance(panel.title);
            const QRectF box(cells.center().x() - std::max(cells.width(), titleWidth) / 2,
                             rowTop[row], std::max(cells.width(), titleWidth),
                             titleMetrics.height());
            addText(SlideText::Role::Title, panel.title, titleFont,
                    panel.subject ? style.text : style.mutedText, box);
            bounds = bounds.united(box);
        }
        // Cells and their numbers.
        const QColor maskedColour = style.masked;
        for (int i = 0; i < int(m.rows()); ++i)
            for (int j = 0; j < int(m.cols()); ++j) {
                const double v = double(m(i, j));
                const bool masked = panel.mask && panel.mask->isMasked(i, j);
                SlideCell cell;
                // Cells as tiles: a hair of background between them keeps neighbouring
                // numbers apart.
                cell.rect =
                    QRectF(left + j * w, top + i * h, w, h).adjusted(tile, tile, -tile, -tile);
                cell.fill = masked || !std::isfinite(v) ? maskedColour : cellColour(panel, v);
                cell.hatched = masked && style.hatchMasked;
                cell.panel = panelIndex;
                cell.row = i;
                cell.column = j;
                m_slide.cells.push_back(cell);
                if (fit.value <= 0.0 ||
                    fit.value >
                        std::min(w * 0.86 / std::max(1e-6, panel.unitNumberWidth), h / 1.12) + 0.5)
                    continue;
                SlideText number;
                number.role = SlideText::Role::Value;
                number.text = masked && !panel.maskedText.isEmpty() ? panel.maskedText
                              : std::isfinite(v) ? (panel.weights ? weightNumber(v, panel.decimals)
                                                                  : cellNumber(v, panel.decimals))
                                                 : QStringLiteral("−∞");
                number.font = valueFont;
                number.color = textColorOn(cell.fill);
                number.box = cell.rect.adjusted(-tile, -tile, tile, tile);
                number.panel = panelIndex;
                number.index = i;
                m_slide.texts.push_back(number);
            }
        // Lines between the heads' columns of a concatenation.
        for (int c : panel.columnGroups) {
            SlideShape rule;
            rule.kind = SlideShape::Kind::Rule;
            rule.rect =
                QRectF(left + c * w - 1.5 * s, top - pad * 0.5, 3 * s, cells.height() + pad);
            rule.brush = style.text; // where one head's columns end and the next head's begin
            m_slide.shapes.push_back(rule);
        }
        // Row labels, right-aligned beside their rows; every `step`-th.
        for (int i = 0; i < int(m.rows()) && rowLabelWidth[k] > 0.0; i += step) {
            SlideText t;
            t.role = SlideText::Role::Label;
            t.text = cut(panel.rowLabels.value(i), characters);
            t.font = labelFont;
            const bool chosen = panel.framed && (panel.queryRows ? i == query : i == key);
            t.color = chosen ? style.accent : style.text;
            if (chosen)
                t.font.setBold(true);
            t.box = QRectF(left - rowLabelWidth[k], top + i * h, rowLabelWidth[k] - pad, h);
            t.align = Qt::AlignRight | Qt::AlignVCenter;
            t.panel = panelIndex;
            t.index = i;
            m_slide.texts.push_back(t);
        }
        // Column labels under their columns: upright, or turned to read upwards.
        const bool vertical = fit.vertical[row];
        for (int j = 0; j < int(m.cols()) && !panel.columnLabels.isEmpty(); j += step) {
            SlideText t;
            t.role = SlideText::Role::Label;
            t.text = cut(panel.columnLabels.value(j), characters);
            t.font = labelFont;
            const bool chosen = panel.framed && j == key;
            t.color = chosen ? style.accent : style.text;
            if (chosen)
                t.font.setBold(true);
            const double cx = left + (j + 0.5) * w;
            if (vertical) {
                const double length = rows[row].columnLabels - pad;
                // The box before turning: centred where, turned by -90°, it hangs under column j.
                const QPointF centre(cx, cells.bottom() + pad + length / 2);
                t.box = QRectF(centre.x() - length / 2, centre.y() - metrics.height() / 2, length,
                               metrics.height());
                t.rotation = -90.0;
                t.align = Qt::AlignRight | Qt::AlignVCenter; // the end of the word at the matrix
            } else {
                t.box = QRectF(cx - w / 2, cells.bottom() + pad * 0.5, w, metrics.height());
                t.align = Qt::AlignHCenter | Qt::AlignTop;
            }
            t.panel = panelIndex;
            t.index = j;
            t.columns = true;
            m_slide.texts.push_back(t);
        }
        // The chosen cell: one cell of a queries x keys matrix, else the row it belongs to.
        if (panel.framed && panel.keyColumns)
            highlight(QRectF(left + key * w, top + query * h, w, h));
        else if (panel.framed && (panel.queryRows ? query < m.rows() : key < m.rows()))
            highlight(QRectF(left, top + (panel.queryRows ? query : key) * h, cells.width(), h));
        out.bounds = bounds;
        m_slide.panels.push_back(out);
    }
}

} // namespace attn::ui::slide_detail
