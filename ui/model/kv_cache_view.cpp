#include "ui/model/kv_cache_view.h"

#include "ui/document/preferences.h"
#include "ui/figures/heatmap_painter.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/model/model_loader.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace attn::ui {

namespace {

// At most this many rows of the cache are drawn (the newest ones): more would be thinner than
// a line of text on a projector.
constexpr int kDrawnRows = 40;

int keyValueHeads(const core::ModelConfig& config)
{
    return config.kvHeads > 0 ? config.kvHeads : config.heads;
}

// "1.23 M": three significant digits and an SI prefix, the same in every language.
QString siNumber(double value)
{
    static const char* prefixes[] = {"", " k", " M", " G", " T", " P"};
    int p = 0;
    while (std::abs(value) >= 1000.0 && p < 5) {
        value /= 1000.0;
        ++p;
    }
    return QString::number(value, 'g', 3) + QLatin1String(prefixes[p]);
}

bool hasCache(const core::ModelResult* result)
{
    return result && result->model && result->model->config().causal &&
           !result->model->config().encoderDecoder() && result->layerCount() > 0 &&
           !result->tokens.empty();
}

// The figure's widget: paints what kvCacheFigureBytes writes.
class KvFigureWidget : public QWidget
{
public:
    explicit KvFigureWidget(KvCacheView* view) : QWidget(view), m_view(view)
    {
        setMinimumHeight(320);
        setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    }
    void setStyle(const FigureStyle& style)
    {
        m_style = style;
        update();
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        painter.fillRect(rect(), m_style.background);
        const KvCacheFigure figure = m_view->figure();
        if (!hasCache(figure.result.get()))
            return;
        painter.setRenderHint(QPainter::Antialiasing);
        paintKvCacheFigure(painter, QRectF(rect()).adjusted(8, 8, -8, -8), figure, font(), m_style);
    }

private:
    KvCacheView* m_view;
    FigureStyle m_style;
};

} // namespace

std::int64_t kvCacheBytes(const core::ModelConfig& config, int tokens)
{
    return std::int64_t(config.layers) * keyValueHeads(config) * tokens * config.dHead * 2 * 4;
}

double stepFlops(const core::ModelConfig& config, int tokens, bool cached)
{
    const double d = config.dModel;
    const double h = config.heads;
    const double g = keyValueHeads(config);
    const double dh = config.dHead;
    const double n = cached ? 1.0 : tokens;
    // The (query, key) cells the new rows meet: causal, capped by a sliding window.
    double keys = 0.0;
    for (int position = cached ? tokens - 1 : 0; position < tokens; ++position)
        keys += config.slidingWindow ? std::min(position + 1, *config.slidingWindow) : position + 1;
    const double matrices = config.feedForward == core::FeedForwardKind::Gated ? 3.0 : 2.0;
    const double layer = 2.0 * n * d * (h + 2.0 * g) * dh + 2.0 * h * dh * keys * 2.0 +
                         2.0 * n * h * dh * d + 2.0 * n * d * config.dFeedForward * matrices;
    return config.layers * layer + 2.0 * d * config.vocab;
}

void paintKvCacheFigure(QPainter& painter, const QRectF& target, const KvCacheFigure& figure,
                        const QFont& font, const FigureStyle& style)
{
    const core::ModelResult& result = *figure.result;
    const core::ModelConfig& config = result.model->config();
    const int layer = std::clamp(figure.layer, 0, result.layerCount() - 1);
    const core::AttentionResult& attention = *result.layers[std::size_t(layer)];
    const int head = std::clamp(figure.head, 0, int(attention.heads.size()) - 1);
    const core::HeadResult& h = attention.heads[std::size_t(head)];
    // What the cache holds: the keys after the rotary step where the model has one.
    const core::Matrix& keys = h.rotatedK.size() ? h.rotatedK : h.K;
    const core::Matrix& values = h.V;
    const int t = int(keys.rows());
    const int first = std::max(0, t - kDrawnRows);
    const int shown = t - first;
    const int group = std::max(1, config.heads / keyValueHeads(config));
    const int kvHead = head / group;

    painter.save();
    QFont bold = font;
    bold.setBold(true);
    const QFontMetricsF metrics(font, painter.device());
    const double line = metrics.height();
    const int wrap = Qt::AlignLeft | Qt::TextWordWrap;
    // Text wrapped to the figure's width: returns its height.
    auto paragraph = [&](double top, const QString& text, const QFont& with) {
        painter.setFont(with);
        const QRectF room(target.left(), top, target.width(), target.height());
        const QRectF used = painter.boundingRect(room, wrap, text);
        painter.drawText(room, wrap, text);
        return used.height();
    };
    double y = target.top();
    painter.setPen(style.text);
    y += paragraph(y,
                   figure.title.isEmpty()
                       ? KvCacheView::tr("Layer %1 · head %2 · what the newest token meets")
                             .arg(layer + 1)
                             .arg(head + 1)
                       : figure.title,
                   bold) +
         line * 0.3;
    const QString shared =
        group > 1 ? KvCacheView::tr("Query head %1 reads key/value head %2, shared by query "
                                    "heads %3 to %4 (grouped-query attention).")
                        .arg(head + 1)
                        .arg(kvHead + 1)
                        .arg(kvHead * group + 1)
                        .arg(kvHead * group + group)
                  : KvCacheView::tr("Each head has keys and values of its own.");
    y += paragraph(y, shared, font) + line * 0.6;
    const QString earlier =
        first > 0 ? KvCacheView::tr(" (the %1 earlier rows are not drawn)").arg(first) : QString();
    const QString legend =
        KvCacheView::tr("Rows 1 to %1: keys (K) and values (V) kept from earlier steps%2. Row %3 "
                        "(framed): the newest token, the only row computed now; its query meets "
                        "every cached key. Colours: each matrix's values, blue negative, red "
                        "positive.")
            .arg(t - 1)
            .arg(earlier)
            .arg(t);
    const double footer =
        painter.boundingRect(QRectF(0, 0, target.width(), target.height()), wrap, legend).height() +
        line * 0.6;

    // Columns: token | K (d_head cells) | V (d_head cells) | the newest query's weight.
    double labelWidth = metrics.horizontalAdvance(KvCacheView::tr("token"));
    for (int i = first; i < t; ++i)
        labelWidth = std::max(
            labelWidth, metrics.horizontalAdvance(result.tokens[std::size_t(i)].text.trimmed()) +
                            metrics.horizontalAdvance(QStringLiteral("00 ")));
    labelWidth = std::min(labelWidth, target.width() * 0.3) + line * 0.5;
    const double gap = line;
    const double barWidth = std::max(target.width() * 0.25, line * 6);
    const double rowHeight = std::clamp(
        (target.bottom() - y - line * 1.4 - footer) / std::max(1, shown), 2.0, line * 1.3);
    const double matrixRoom = target.width() - labelWidth - barWidth - 3 * gap;
    const double cell =
        std::clamp(matrixRoom / std::max(1.0, 2.0 * keys.cols()), 0.5, rowHeight * 1.2);
    const double kLeft = target.left() + labelWidth;
    const double vLeft = kLeft + cell * double(keys.cols()) + gap;
    const double barLeft = vLeft + cell * double(values.cols()) + gap;

    painter.setPen(style.text);
    painter.setFont(font);
    // Headers cut to their column (a narrow figure's d_head cells are narrower than the words).
    auto header = [&](double left, double width, const QString& text) {
        painter.drawText(QRectF(left, y, width, line), Qt::AlignLeft,
                         metrics.elidedText(text, Qt::ElideRight, width));
    };
    header(target.left(), labelWidth, KvCacheView::tr("token"));
    header(kLeft, vLeft - kLeft - gap / 2, KvCacheView::tr("K (keys)"));
    header(vLeft, barLeft - vLeft - gap / 2, KvCacheView::tr("V (values)"));
    header(barLeft, target.right() - barLeft, KvCacheView::tr("the newest query's weight"));
    y += line * 1.4;

    const double kScale = std::max(1e-12f, keys.middleRows(first, shown).cwiseAbs().maxCoeff());
    const double vScale = std::max(1e-12f, values.middleRows(first, shown).cwiseAbs().maxCoeff());
    const core::RowVector newest = h.weights.row(h.weights.rows() - 1);
    const bool labels = rowHeight >= line * 0.8;
    for (int i = first; i < t; ++i) {
        const double top = y + (i - first) * rowHeight;
        if (labels) {
            painter.setPen(i == t - 1 ? style.accent : style.text);
            // A long token is cut at its end, never its number.
            const double room = labelWidth - line * 0.3;
            painter.drawText(QRectF(target.left(), top, room, rowHeight),
                             Qt::AlignRight | Qt::AlignVCenter,
                             metrics.elidedText(QStringLiteral("%1 %2").arg(i + 1).arg(
                                                    result.tokens[std::size_t(i)].text.trimmed()),
                                                Qt::ElideRight, room));
        }
        paint::drawCellRow(painter, QRectF(kLeft, top, cell * double(keys.cols()), rowHeight * 0.9),
                           keys.row(i), Colormap::Diverging, -kScale, kScale);
        paint::drawCellRow(painter,
                           QRectF(vLeft, top, cell * double(values.cols()), rowHeight * 0.9),
                           values.row(i), Colormap::Diverging, -vScale, vScale);
        const double w = i < newest.size() ? newest(i) : 0.0;
        painter.fillRect(QRectF(barLeft, top, barWidth * 0.7 * w, rowHeight * 0.8),
                         i == t - 1 ? style.accent : colorAt(Colormap::Viridis, 0.35));
        if (labels) {
            painter.setPen(style.text);
            painter.drawText(QRectF(barLeft + barWidth * 0.7 * w + line * 0.3, top,
                                    barWidth * 0.3 + line, rowHeight),
                             Qt::AlignLeft | Qt::AlignVCenter,
                             QString::number(100.0 * w, 'f', 1) + QLatin1Char('%'));
        }
    }
    // The newest row: its K and V were computed in this step, the rows above read from the cache.
    const double newestTop = y + (t - 1 - first) * rowHeight;
    painter.setPen(QPen(style.accent, 2.0 * style.lineScale));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(
        QRectF(target.left(), newestTop - 1, barLeft - target.left() - gap / 2, rowHeight + 1));
    y += shown * rowHeight + line * 0.6;
    painter.setPen(style.text);
    paragraph(y, legend, font);
    painter.restore();
}

QByteArray kvCacheFigureBytes(const KvCacheFigure& figure, QSize size, double dpi,
                              FigureFormat format, double fontPoints)
{
    if (!hasCache(figure.result.get()))
        throw core::Error("the key/value cache is shown for a causal model's run only");
    return writeFigureFile(size, dpi, format, [&](QPaintDevice& device, bool) {
        QPainter painter(&device);
        painter.setRenderHint(QPainter::Antialiasing);
        QFont font;
        font.setPointSizeF(fontPoints);
        const double margin = dpi * 0.15;
        paintKvCacheFigure(
            painter,
            QRectF(margin, margin, device.width() - 2 * margin, device.height() - 2 * margin),
            figure, font, FigureStyle{});
    });
}

KvCacheView::KvCacheView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    m_idea = new QLabel(
        tr("<b>The key/value cache.</b> In a causal model a token only looks back, so its keys "
           "and values never change once computed. When the model writes a token, or you type "
           "at the end of the sentence, every layer keeps the keys and values of the tokens "
           "before (the cache) and computes only the new token's query, key and value; its "
           "query meets the cached keys. Editing an earlier word computes again from that word "
           "on."),
        this);
    m_idea->setWordWrap(true);
    m_layers = new QLabel(this);
    m_layers->setObjectName(QStringLiteral("kvCacheLayers"));
    m_layers->setWordWrap(true);
    m_size = new QLabel(this);
    m_size->setObjectName(QStringLiteral("kvCacheSize"));
    m_size->setWordWrap(true);
    m_cost = new QLabel(this);
    m_cost->setObjectName(QStringLiteral("kvCacheCost"));
    m_cost->setWordWrap(true);
    m_cost->setToolTip(
        tr("<p>Floating-point operations of the matrix products, 2 per multiply-add, per layer "
           "for n query rows meeting K key cells in all:<br>"
           "2·n·d·(h + 2g)·d_head (Q, K, V) + 2·h·d_head·K·2 (scores, weights × V)<br>"
           "+ 2·n·h·d_head·d (W_O) + 2·n·d·d_ff·m (feed-forward, m = 3 when gated, else 2),<br>"
           "times the layers, plus 2·d·vocab for the logits. With the cache n = 1 and K = T; "
           "without it n = T and K = T(T + 1)/2. Norms and softmax are left out.</p>"));
    m_figure = new KvFigureWidget(this);
    m_figure->setObjectName(QStringLiteral("kvCacheFigure"));
    m_export = new QPushButton(tr("E&xport Figure…"), this);
    m_export->setObjectName(QStringLiteral("kvCacheExport"));
    m_export->setToolTip(tr("The cached rows of the selected head as PDF, SVG or PNG"));
    connect(m_export, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(
            this, tr("Export Figure"),
            QDir(preferences::sceneDirectory()).filePath(QStringLiteral("kv-cache.pdf")),
            tr("PDF (*.pdf);;SVG (*.svg);;PNG (*.png)"));
        if (!path.isEmpty() && !exportFigure(path))
            m_cost->setText(m_error);
    });
    layout->addWidget(m_idea);
    layout->addWidget(m_size);
    layout->addWidget(m_cost);
    layout->addWidget(m_figure, 1);
    auto* buttons = new QHBoxLayout;
    buttons->addStretch(1);
    buttons->addWidget(m_export);
    layout->addLayout(buttons);
    layout->addWidget(m_layers);
    update();
}

void KvCacheView::setRun(std::shared_ptr<const core::ModelResult> result, int cachedPositions,
                         double milliseconds)
{
    if (result && result != m_result) {
        const int t = int(result->tokens.size());
        if (cachedPositions > 0) {
            m_cachedMs = milliseconds;
            m_cachedComputed = t - cachedPositions;
            m_cachedTokens = t;
        } else if (result->firstComputedLayer == 0) {
            m_wholeMs = milliseconds;
            m_wholeTokens = t;
        }
    }
    m_result = std::move(result);
    m_cachedPositions = cachedPositions;
    m_milliseconds = milliseconds;
    update();
}

void KvCacheView::setSelection(int layer, int head)
{
    m_layer = layer;
    m_head = head;
    m_figure->update();
}

void KvCacheView::setFigureStyle(const FigureStyle& style)
{
    m_style = style;
    static_cast<KvFigureWidget*>(m_figure)->setStyle(style);
}

KvCacheFigure KvCacheView::figure() const
{
    KvCacheFigure figure;
    figure.result = m_result;
    figure.layer = m_layer;
    figure.head = m_head;
    if (m_result && m_result->model)
        figure.title = tr("%1 · layer %2 · head %3 · the key/value cache")
                           .arg(m_result->model->name)
                           .arg(m_layer + 1)
                           .arg(m_head + 1);
    return figure;
}

bool KvCacheView::exportFigure(const QString& path, QSize size, double dpi)
{
    const auto format = figureFormatForPath(path);
    if (!format) {
        m_error = tr("Export: the file name must end in .png, .svg or .pdf");
        return false;
    }
    try {
        core::writeFileAtomically(path, kvCacheFigureBytes(figure(), size, dpi, *format));
    } catch (const std::exception& error) {
        m_error = tr("The figure was not exported: %1").arg(QString::fromUtf8(error.what()));
        return false;
    }
    m_error.clear();
    return true;
}

namespace {

// Tall enough that each drawn row keeps its token label (a row of 0.8 of a line, as
// paintKvCacheFigure asks) beside the title, header and legend: the tab scrolls instead.
int figureMinimumHeight(const QWidget& figure, int tokens)
{
    const double line = QFontMetricsF(figure.font()).height();
    return std::max(320, int(std::ceil(line * (14.0 + 0.85 * std::min(tokens, kDrawnRows)))));
}

} // namespace

void KvCacheView::update()
{
    m_figure->update();
    m_export->setEnabled(hasCache(m_result.get()));
    m_figure->setMinimumHeight(figureMinimumHeight(
        *m_figure, hasCache(m_result.get()) ? int(m_result->tokens.size()) : 0));
    if (!m_result || !m_result->model) {
        m_layers->clear();
        m_size->setText(tr("Open a causal model (GPT-2, Llama, …) to see what it caches."));
        m_cost->clear();
        return;
    }
    const core::ModelConfig& c = m_result->model->config();
    if (!hasCache(m_result.get())) {
        m_layers->clear();
        m_size->setText(
            tr("%1 reads the whole sentence at once (each token also looks ahead), so a new "
               "token changes every earlier one and nothing can be cached: the key/value cache "
               "is for causal models, which write left to right.")
                .arg(m_result->model->name));
        m_cost->clear();
        return;
    }
    const int t = int(m_result->tokens.size());
    const int g = keyValueHeads(c);
    const int group = std::max(1, c.heads / g);
    const std::int64_t bytes = kvCacheBytes(c, t);
    m_size->setText(tr("<b>Cached:</b> %1 layers × %2 key/value heads × %3 tokens × %4 (d_head) "
                       "× 2 (K and V) × 4 bytes = <b>%5 MiB</b> (%6 bytes).")
                        .arg(c.layers)
                        .arg(g)
                        .arg(t)
                        .arg(c.dHead)
                        .arg(QString::number(double(bytes) / (1024.0 * 1024.0), 'g', 3))
                        .arg(bytes));
    const double with = stepFlops(c, t, true);
    const double without = stepFlops(c, t, false);
    QString cost = tr("<b>The newest token:</b> %1FLOP with the cache, %2FLOP without it (a "
                      "whole forward of %3 tokens), %4× as many.")
                       .arg(siNumber(with), siNumber(without))
                       .arg(t)
                       .arg(QString::number(without / with, 'f', 1));
    cost += QLatin1Char(' ');
    cost += m_cachedPositions > 0
                ? tr("Measured: this run took %1 ms through the cache (%2 of %3 positions "
                     "computed, the first %4 reused).")
                      .arg(QString::number(m_milliseconds, 'f', 2))
                      .arg(t - m_cachedPositions)
                      .arg(t)
                      .arg(m_cachedPositions)
            : m_result->firstComputedLayer > 0
                ? tr("Measured: this run took %1 ms, layers %2 to %3 computed again after an "
                     "intervention.")
                      .arg(QString::number(m_milliseconds, 'f', 2))
                      .arg(m_result->firstComputedLayer + 1)
                      .arg(m_result->layerCount())
                : tr("Measured: this run took %1 ms, a whole forward of %2 positions.")
                      .arg(QString::number(m_milliseconds, 'f', 2))
                      .arg(t);
    if (m_cachedPositions > 0 && m_wholeMs >= 0.0)
        cost += QLatin1Char(' ') + tr("The last whole forward: %1 ms for %2 positions.")
                                       .arg(QString::number(m_wholeMs, 'f', 2))
                                       .arg(m_wholeTokens);
    else if (m_cachedPositions == 0 && m_cachedMs >= 0.0)
        cost += QLatin1Char(' ') + tr("The last run through the cache: %1 ms for %2 new of %3 "
                                      "positions.")
                                       .arg(QString::number(m_cachedMs, 'f', 2))
                                       .arg(m_cachedComputed)
                                       .arg(m_cachedTokens);
    else if (m_cachedPositions == 0)
        cost += QLatin1Char(' ') + tr("Type a word at the end of the sentence to measure a step "
                                      "through the cache.");
    m_cost->setText(cost);

    QString rows;
    for (int l = 0; l < c.layers; ++l)
        rows += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td align=right>%4</td></tr>")
                    .arg(l + 1)
                    .arg(group > 1 ? tr("%1 (each shared by %2 query heads)").arg(g).arg(group)
                                   : QString::number(g))
                    .arg(tr("%1 × %2 each").arg(t).arg(c.dHead))
                    .arg(kvCacheBytes(c, t) / c.layers);
    m_layers->setText(tr("<b>Per layer</b><table cellspacing=6><tr><th align=left>layer</th>"
                         "<th align=left>K and V heads</th><th align=left>K, V</th>"
                         "<th align=right>bytes</th></tr>%1</table>")
                          .arg(rows));
}

} // namespace attn::ui
