#include "ui/presentation/slide_builder.h"

#include "ui/figures/colormap.h"
#include "ui/figures/figure_builder.h"
#include "ui/presentation/presentation_steps.h"

#include "core/error.h"
#include "core/mask.h"
#include "core/token_display.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QLocale>
#include <QTextDocument>
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <tuple>

namespace attn::ui {

using core::Matrix;

namespace {

// tr() for the presentation's words (no QObject here): lupdate reads the context from it.
struct Words
{
    Q_DECLARE_TR_FUNCTIONS(SlideBuilder)
};

using S = PresentationStep;

// Set like a textbook: a serif with real italics, whichever of these is installed.
QFont mathFont(double pixels)
{
    QFont font;
    font.setFamilies({QStringLiteral("Latin Modern Roman"), QStringLiteral("CMU Serif"),
                      QStringLiteral("STIX Two Text"), QStringLiteral("Cambria"),
                      QStringLiteral("TeX Gyre Termes"), QStringLiteral("Nimbus Roman"),
                      QStringLiteral("Times New Roman"), QStringLiteral("DejaVu Serif")});
    font.setStyleHint(QFont::Serif);
    font.setPixelSize(std::max(1, int(std::lround(pixels))));
    return font;
}

QFont sansFont(double pixels, bool bold = false)
{
    QFont font;
    font.setPixelSize(std::max(1, int(std::floor(pixels))));
    font.setBold(bold);
    // A hair of letter spacing turns ligatures off (as in the figures): "fi" stays f-i in
    // the PDF, so its labels can be searched and copied.
    font.setLetterSpacing(QFont::AbsoluteSpacing, 0.05);
    return font;
}

// A number as a cell shows it: `decimals` places, a real minus sign, never "-0".
QString cellNumber(double value, int decimals)
{
    QString text = QLocale::c().toString(value, 'f', decimals);
    if (text.startsWith(QLatin1Char('-'))) {
        const bool zero = std::all_of(text.begin() + 1, text.end(), [](QChar c) {
            return c == QLatin1Char('0') || c == QLatin1Char('.');
        });
        text = zero ? text.mid(1) : QChar(0x2212) + text.mid(1);
    }
    return text;
}

// An attention weight as a slide writes it: a proportion, so without the leading zero
// (".85", as tables of proportions are set), which keeps 24-pixel numbers in cells of 34
// tokens side by side. 0 and 1 stay whole.
QString weightNumber(double value, int decimals)
{
    QString text = cellNumber(value, decimals);
    if (text.startsWith(QLatin1String("0.")))
        text.remove(0, 1);
    else if (text.startsWith(QString(QChar(0x2212)) + QLatin1String("0.")))
        text.remove(1, 1);
    return text;
}

// The fewest decimals, up to two, that write every shown number of a matrix exactly: a
// one-hot embedding is 0 and 1, not 0.00 and 1.00, and its cells can be narrower.
int decimalsFor(const Matrix& m, const core::Mask* mask)
{
    // Numbers of 10 and more keep one decimal, of 100 and more none: three digits say enough
    // on a slide, and the chosen cell's exact value is in the equation above it.
    double top = 0.0;
    for (int i = 0; i < int(m.rows()); ++i)
        for (int j = 0; j < int(m.cols()); ++j)
            if (std::isfinite(m(i, j)) && !(mask && mask->isMasked(i, j)))
                top = std::max(top, std::abs(double(m(i, j))));
    const int most = top >= 100.0 ? 0 : top >= 10.0 ? 1 : 2;
    int decimals = 0;
    for (int i = 0; i < int(m.rows()); ++i)
        for (int j = 0; j < int(m.cols()); ++j) {
            const double v = double(m(i, j));
            if (!std::isfinite(v) || (mask && mask->isMasked(i, j)))
                continue;
            while (decimals < most) {
                const double scaled = v * std::pow(10.0, decimals);
                if (std::abs(scaled - std::round(scaled)) <= 1e-4 * std::max(1.0, std::abs(scaled)))
                    break;
                ++decimals;
            }
            if (decimals == most)
                return most;
        }
    return decimals;
}

QString cut(const QString& text, int characters)
{
    if (characters <= 0 || text.size() <= characters)
        return text;
    return text.left(characters - 1) + QChar(0x2026);
}

QStringList tokenTexts(const std::vector<core::Token>& tokens)
{
    QStringList out;
    for (const core::Token& token : tokens)
        out.append(token.text.isEmpty() ? QStringLiteral("␣") : core::tokenDisplayText(token.text));
    return out;
}

double widest(const QFontMetricsF& metrics, const QStringList& texts, int step = 1)
{
    double w = 0.0;
    for (qsizetype i = 0; i < texts.size(); i += std::max(1, step))
        w = std::max(w, metrics.horizontalAdvance(texts[i]));
    return w;
}

// A matrix to draw: its numbers, labels, colours and what its masked cells say.
struct MatrixPanel
{
    QString name;
    QString title;
    const Matrix* matrix = nullptr;
    QStringList rowLabels;    // empty: none
    QStringList columnLabels; // empty: none
    int head = 0;
    bool queryRows = true;
    bool keyColumns = false;
    bool subject = true;
    bool weights = false; // coloured by the shared weight colours, else a diverging map
    const core::Mask* mask = nullptr;
    QString maskedText;            // what a masked cell says ("−∞", "0"); empty: its number
    std::vector<int> columnGroups; // the column where each group starts (Concat: one per head)

    // Measured once.
    int decimals = 2;
    double unitNumberWidth = 0.0; // the widest number at a 1-pixel font
    double signedTop = 1.0;
};

// Where the layout search ended: sizes of cells and type, and how labels were fitted.
struct MatrixFit
{
    bool ok = false;
    double label = 0.0; // label pixels
    double value = 0.0; // number pixels (0: none)
    double cellW = 0.0;
    double cellH = 0.0;
    std::vector<int> rowsOf;    // which row of panels each panel stands in
    std::vector<bool> vertical; // per row of panels: its column labels turned
    double quality = 0.0;
};

class SlideBuilder
{
public:
    SlideBuilder(const core::AttentionResult& result, const SlideOptions& options, QSizeF size)
        : r(result), p(*result.problem), o(options), m_size(size)
    {
        s = std::max(0.3, size.height() / kSlideReferenceHeight);
        style = presentationStyle(o.theme);
        colormap = presentationColormap(o.theme);
        head = std::clamp(o.head, 0, int(r.heads.size()) - 1);
        query = o.query >= 0 ? std::clamp(o.query, 0, p.queryCount() - 1) : defaultQuery(r, head);
        key = o.key >= 0 ? std::clamp(o.key, 0, p.keyCount() - 1) : defaultKey(r, head, query);
        mask = std::make_unique<core::Mask>(p.makeMask());
        queries = tokenTexts(p.queryTokens);
        keys = tokenTexts(p.keyTokens);
        std::vector<const Matrix*> all;
        for (const core::HeadResult& each : r.heads)
            all.push_back(&each.weights);
        weightColour = weightColours(r, all, o.weightScale, colormap, style.signedColormap);
    }

    Slide build();

private:
    double margin() const { return 24.0 * s; }
    void addText(SlideText::Role role, const QString& text, const QFont& font, QColor color,
                 QRectF box, Qt::Alignment align = Qt::AlignCenter, bool rich = false)
    {
        SlideText t;
        t.role = role;
        t.text = text;
        t.font = font;
        t.color = color;
        t.box = box;
        t.align = align;
        t.rich = rich;
        m_slide.texts.push_back(std::move(t));
    }
    // Rich text fitted to one line of `width`: the largest of its pixel sizes that fits.
    double fitRich(const QString& html, double pixels, double width, QFont& font,
                   QSizeF& size) const
    {
        QTextDocument document;
        document.setDocumentMargin(0);
        for (; pixels > 8.0; pixels *= 0.93) {
            font = mathFont(pixels);
            document.setDefaultFont(font);
            document.setHtml(QStringLiteral("<body>%1</body>").arg(html));
            if (document.idealWidth() <= width)
                break;
        }
        size = QSizeF(document.idealWidth(), document.size().height());
        return pixels;
    }

    // The widest of `labels` cut to `characters` (every `step`-th) at `pixels`: measured once.
    double labelWidth(double pixels, int characters, const QStringList& labels, int step) const
    {
        // Lists are the builder's own `queries` and `keys`, shared: their data names them.
        const auto key = std::make_tuple(int(pixels), characters, step,
                                         static_cast<const void*>(labels.constData()));
        const auto found = m_labelWidths.find(key);
        if (found != m_labelWidths.end())
            return found->second;
        const QFontMetricsF metrics(sansFont(pixels));
        double w = 0.0;
        for (qsizetype i = 0; i < labels.size(); i += std::max(1, step))
            w = std::max(w, metrics.horizontalAdvance(cut(labels[i], characters)));
        m_labelWidths.emplace(key, w);
        return w;
    }
    QRectF layoutFrame();
    void buildTokens(QRectF body);
    void buildMatrices(QRectF body, std::vector<MatrixPanel> panels);
    MatrixFit fitMatrices(const std::vector<MatrixPanel>& panels, QRectF body,
                          const std::vector<int>& rowsOf, double label, int characters,
                          int step) const;
    void placeMatrices(std::vector<MatrixPanel>& panels, QRectF body, const MatrixFit& fit,
                       int characters, int step);
    void buildFocus(QRectF body);
    void addNote(const QString& text);
    void highlight(QRectF rect);
    QColor cellColour(const MatrixPanel& panel, double value) const;
    std::vector<MatrixPanel> panelsOfStep();
    MatrixPanel signedPanel(const QString& name, const QString& title, const Matrix& m,
                            bool keyRows) const;
    MatrixPanel squarePanel(const QString& name, const QString& title, const Matrix& m,
                            int headIndex, bool weights, const QString& maskedText,
                            bool masked) const;

    const core::AttentionResult& r;
    const core::Problem& p;
    SlideOptions o;
    QSizeF m_size;
    double s = 1.0; // type and lines scale with the page's height
    FigureStyle style;
    Colormap colormap = Colormap::Viridis;
    WeightColours weightColour;
    int head = 0;
    int query = 0;
    int key = 0;
    std::unique_ptr<core::Mask> mask;
    QStringList queries;
    QStringList keys;
    Matrix
        m_positions; // P as a panel shows it: zeros where the problem adds none (a model's layer)
    Matrix m_concat; // built for the panels that show it (the result does not keep it)
    Slide m_slide;
    QStringList m_notes;
    mutable std::map<std::tuple<int, int, int, const void*>, double> m_labelWidths;
};

// Header, caption, the chosen cell's numbers; what is left is the step's.
QRectF SlideBuilder::layoutFrame()
{
    const double m = margin();
    const double width = m_size.width() - 2 * m;
    double y = m * 0.4;
    // The header: where in the talk, and what is computed.
    const QFont header = sansFont(22.0 * s);
    const double headerHeight = QFontMetricsF(header).height();
    addText(SlideText::Role::Header,
            Words::tr("Step %1 of %2 · %3")
                .arg(o.step)
                .arg(kPresentationSteps)
                .arg(presentationStepName(o.step)),
            header, style.mutedText, QRectF(m, y, width * 0.5, headerHeight),
            Qt::AlignLeft | Qt::AlignVCenter);
    QString settings = FigureBuilder::settingsSummary(p);
    if (r.heads.size() > 1)
        settings = Words::tr("head %1 of %2 · ").arg(head + 1).arg(r.heads.size()) + settings;
    addText(SlideText::Role::Header,
            QFontMetricsF(header).elidedText(settings, Qt::ElideRight, width * 0.5), header,
            style.mutedText, QRectF(m + width * 0.5, y, width * 0.5, headerHeight),
            Qt::AlignRight | Qt::AlignVCenter);
    y += headerHeight + 4 * s;
    // The equation, large; then the same with the chosen cell's numbers.
    for (const auto& [role, html, pixels] :
         {std::tuple{SlideText::Role::Caption, presentationCaption(o.step, p), 40.0},
          std::tuple{SlideText::Role::Numbers, presentationNumbers(o.step, r, head, query, key),
                     32.0}}) {
        if (html.isEmpty())
            continue;
        QFont font;
        QSizeF size;
        fitRich(html, pixels * s, width, font, size);
        addText(role, html, font, style.text, QRectF(m, y, width, size.height()),
                Qt::AlignHCenter | Qt::AlignTop, true);
        y += size.height();
    }
    y += 6 * s;
    return QRectF(m, y, width, m_size.height() - y - m * 0.5);
}

void SlideBuilder::addNote(const QString& text)
{
    m_notes.append(text);
}

void SlideBuilder::highlight(QRectF rect)
{
    // A line in the text's colour on a halo of the background's: it reads on every colour.
    const double line = 3.0 * s * style.lineScale;
    SlideShape halo;
    halo.kind = SlideShape::Kind::Frame;
    halo.rect = rect;
    halo.pen = style.background;
    halo.penWidth = 3 * line;
    halo.highlight = true;
    m_slide.shapes.push_back(halo);
    SlideShape frame = halo;
    frame.pen = style.text;
    frame.penWidth = line;
    m_slide.shapes.push_back(frame);
}

QColor SlideBuilder::cellColour(const MatrixPanel& panel, double value) const
{
    if (panel.weights)
        return colorAt(weightColour.map, weightColour.position(value));
    return colorAt(style.signedColormap,
                   std::clamp((value + panel.signedTop) / (2 * panel.signedTop), 0.0, 1.0));
}

MatrixPanel SlideBuilder::signedPanel(const QString& name, const QString& title, const Matrix& m,
                                      bool keyRows) const
{
    MatrixPanel panel;
    panel.name = name;
    panel.title = title;
    panel.matrix = &m;
    panel.rowLabels = keyRows ? keys : queries;
    panel.queryRows = !keyRows;
    panel.head = head;
    return panel;
}

MatrixPanel SlideBuilder::squarePanel(const QString& name, const QString& title, const Matrix& m,
                                      int headIndex, bool weights, const QString& maskedText,
                                      bool masked) const
{
    MatrixPanel panel;
    panel.name = name;
    panel.title = title;
    panel.matrix = &m;
    panel.rowLabels = queries;
    panel.columnLabels = keys;
    panel.keyColumns = true;
    panel.head = headIndex;
    panel.weights = weights && p.normalization != core::Normalization::None;
    panel.mask = masked ? mask.get() : nullptr;
    panel.maskedText = maskedText;
    return panel;
}

// The matrices each step is about, in reading order.
std::vector<MatrixPanel> SlideBuilder::panelsOfStep()
{
    const core::HeadResult& h = r.heads[std::size_t(head)];
    const QString fill =
        p.fill == core::MaskFill::NegativeInfinity ? QStringLiteral("−∞") : QStringLiteral("−9e15");
    std::vector<MatrixPanel> panels;
    switch (PresentationStep(o.step)) {
    case S::Embeddings:
        m_positions = p.queryPositionOrZeros();
        panels.push_back(signedPanel(QStringLiteral("E"), Words::tr("E  (embeddings)"),
                                     p.queryEmbedding, false));
        panels.push_back(
            signedPanel(QStringLiteral("P"), Words::tr("P  (positions)"), m_positions, false));
        panels.push_back(
            signedPanel(QStringLiteral("X"),
                        p.cross ? QStringLiteral("Xₜ = E + P") : QStringLiteral("X = E + P"),
                        r.queryInput(), false));
        if (p.cross) // the source's tokens, which the keys and values are made of
            panels.push_back(signedPanel(QStringLiteral("X source"), Words::tr("Xₛ (source)"),
                                         r.keyInput(), true));
        break;
    case S::Projections:
        panels.push_back(signedPanel(QStringLiteral("Q"), QStringLiteral("Q"), h.Q, false));
        panels.push_back(signedPanel(QStringLiteral("K"), QStringLiteral("K"), h.K, true));
        panels.push_back(signedPanel(QStringLiteral("V"), QStringLiteral("V"), h.V, true));
        break;
    case S::Scores:
        panels.push_back(squarePanel(QStringLiteral("scores"), Words::tr("scores e"), h.rawScores,
                                     head, false, {}, false));
        break;
    case S::Scaled:
        panels.push_back(squarePanel(QStringLiteral("scaled scores"), Words::tr("scaled scores s"),
                                     h.scaledScores, head, false, {}, false));
        break;
    case S::Masked:
        panels.push_back(squarePanel(QStringLiteral("masked scores"),
                                     Words::tr("masked scores s + M"), h.maskedScores, head, false,
                                     fill, true));
        break;
    case S::Normalized:
        panels.push_back(squarePanel(QStringLiteral("weights"), Words::tr("weights α"), h.weights,
                                     head, true, QStringLiteral("0"), true));
        break;
    case S::WeightedSum: {
        panels.push_back(squarePanel(QStringLiteral("weights"), Words::tr("weights α"), h.weights,
                                     head, true, QStringLiteral("0"), true));
        panels.push_back(signedPanel(QStringLiteral("V"), QStringLiteral("V"), h.V, true));
        panels.push_back(
            signedPanel(QStringLiteral("output"), QStringLiteral("O = αV"), h.output, false));
        break;
    }
    case S::Heads:
        for (int g = 0; g < int(r.heads.size()); ++g)
            panels.push_back(squarePanel(
                QStringLiteral("weights"),
                Words::tr("head %1%2")
                    .arg(g + 1)
                    .arg(r.heads[std::size_t(g)].enabled ? QString() : Words::tr(" (off)")),
                r.heads[std::size_t(g)].weights, g, true, QStringLiteral("0"), true));
        break;
    case S::Concat: {
        m_concat = r.concat();
        MatrixPanel concat = signedPanel(
            QStringLiteral("concat"),
            QStringLiteral("Concat(head 1, …, head %1)").arg(r.heads.size()), m_concat, false);
        if (r.heads.size() == 1)
            concat.title = QStringLiteral("Concat(head 1)");
        for (int g = 1; g < int(r.heads.size()); ++g)
            concat.columnGroups.push_back(g * p.weights->dV);
        panels.push_back(std::move(concat));
        break;
    }
    case S::Output:
        m_concat = r.concat();
        panels.push_back(
            signedPanel(QStringLiteral("concat"), QStringLiteral("Concat"), m_concat, false));
        for (int g = 1; g < int(r.heads.size()); ++g)
            panels.back().columnGroups.push_back(g * p.weights->dV);
        panels.push_back(signedPanel(QStringLiteral("multi-head output"),
                                     Words::tr("output = Concat · Wᴼ"), r.output, false));
        break;
    case S::Tokens:
    case S::QueryFocus:
        break;
    }
    return panels;
}

Slide SlideBuilder::build()
{
    m_slide.size = m_size;
    m_slide.background = style.background;
    const QRectF body = layoutFrame();
    const std::size_t texts = m_slide.texts.size();
    auto layoutBody = [&](QRectF area) {
        switch (PresentationStep(o.step)) {
        case S::Tokens:
            buildTokens(area);
            break;
        case S::QueryFocus:
            buildFocus(area);
            break;
        default:
            buildMatrices(area, panelsOfStep());
            break;
        }
    };
    layoutBody(body);
    if (!m_notes.isEmpty()) {
        // What the slide left out goes under it: lay the body out again a line shorter.
        const QStringList notes = m_notes;
        const QFont font = sansFont(22.0 * s);
        const double noteHeight = QFontMetricsF(font).height() + 6 * s;
        m_slide.panels.clear();
        m_slide.cells.clear();
        m_slide.shapes.clear();
        m_slide.texts.resize(texts);
        m_notes.clear();
        layoutBody(body.adjusted(0, 0, 0, -noteHeight));
        m_notes.removeDuplicates();
        addText(SlideText::Role::Note, m_notes.join(QStringLiteral(" · ")), font, style.mutedText,
                QRectF(body.left(), body.bottom() - noteHeight + 6 * s, body.width(),
                       noteHeight - 6 * s),
                Qt::AlignLeft | Qt::AlignVCenter);
    }
    QRectF subject;
    for (const SlidePanel& panel : m_slide.panels)
        if (panel.subject)
            subject = subject.united(panel.bounds);
    if (PresentationStep(o.step) == S::Tokens)
        for (const SlideShape& shape : m_slide.shapes)
            if (shape.kind == SlideShape::Kind::Chip)
                subject = subject.united(shape.rect);
    m_slide.subject = subject;
    return std::move(m_slide);
}

// --- Tokens: the sentence as numbered chips, as large as the page allows -----------------

void SlideBuilder::buildTokens(QRectF body)
{
    struct Group
    {
        QString heading;
        QStringList tokens;
        bool keys;
    };
    std::vector<Group> groups{
        {p.cross ? Words::tr("target: the queries") : QString(), queries, false}};
    if (p.cross)
        groups.push_back({Words::tr("source: the keys and values"), keys, true});
    // Lines of chips, every line but a group's last stretched to the body's width (justified),
    // at the largest type with which they fit the body. Returns the height used, or -1.
    auto layout = [&](double pixels, bool place) -> double {
        const QFont font = sansFont(pixels);
        const QFont index = sansFont(std::max(12.0 * s, pixels * 0.4));
        const QFont heading = sansFont(std::max(22.0 * s, std::min(40.0 * s, pixels * 0.45)), true);
        const QFontMetricsF metrics(font);
        const QFontMetricsF indexMetrics(index);
        const QFontMetricsF headingMetrics(heading);
        const double padX = pixels * 0.35;
        const double gap = pixels * 0.3;
        const double chipHeight = metrics.height() + indexMetrics.height() + pixels * 0.25;
        double y = 0.0;
        struct Chip
        {
            int group, token;
            QRectF rect;
        };
        std::vector<Chip> chips;
        std::vector<std::pair<QString, QRectF>> headings;
        for (int g = 0; g < int(groups.size()); ++g) {
            const Group& group = groups[std::size_t(g)];
            if (!group.heading.isEmpty()) {
                headings.emplace_back(group.heading,
                                      QRectF(0, y, body.width(), headingMetrics.height()));
                y += headingMetrics.height() + gap * 0.5;
            }
            std::vector<std::vector<std::pair<int, double>>> lines(1);
            double x = 0.0;
            for (int t = 0; t < int(group.tokens.size()); ++t) {
                const double w = std::max(metrics.horizontalAdvance(group.tokens[t]),
                                          indexMetrics.horizontalAdvance(QString::number(t + 1))) +
                                 2 * padX;
                if (w > body.width())
                    return -1.0;
                if (x > 0 && x + w > body.width()) {
                    lines.emplace_back();
                    x = 0.0;
                }
                lines.back().emplace_back(t, w);
                x += w + gap;
            }
            for (std::size_t l = 0; l < lines.size(); ++l) {
                double natural = -gap;
                for (const auto& [t, w] : lines[l])
                    natural += w + gap;
                // A full line is justified; a group's last line keeps the others' stretch.
                const bool last = l + 1 == lines.size();
                const double stretch = !last || lines.size() == 1
                                           ? (body.width() - natural) / double(lines[l].size())
                                           : 0.0;
                double cx = last && lines.size() > 1 ? (body.width() - natural) / 2 : 0.0;
                for (const auto& [t, w] : lines[l]) {
                    chips.push_back({g, t, QRectF(cx, y, w + stretch, chipHeight)});
                    cx += w + stretch + gap;
                }
                y += chipHeight + gap;
            }
            y += gap;
        }
        const double used = y - 2 * gap;
        if (used > body.height())
            return -1.0;
        if (!place)
            return used;
        const double top = body.top() + (body.height() - used) / 2;
        for (const auto& [text, box] : headings)
            addText(SlideText::Role::Title, text, heading, style.mutedText,
                    box.translated(body.left(), top), Qt::AlignLeft | Qt::AlignVCenter);
        for (const Chip& chip : chips) {
            const Group& group = groups[std::size_t(chip.group)];
            const QRectF rect = chip.rect.translated(body.left(), top);
            const bool chosen = group.keys ? chip.token == key : chip.token == query;
            SlideShape shape;
            shape.kind = SlideShape::Kind::Chip;
            shape.rect = rect;
            shape.brush = style.placeholder;
            shape.pen = chosen ? style.accent : style.mutedText;
            shape.penWidth = (chosen ? 4.0 : 1.5) * s * style.lineScale;
            shape.radius = pixels * 0.25;
            m_slide.shapes.push_back(shape);
            SlideText text;
            text.role = SlideText::Role::Label;
            text.text = group.tokens[chip.token];
            text.font = font;
            text.color = style.text;
            text.box =
                QRectF(rect.left(), rect.top() + pixels * 0.1, rect.width(), metrics.height());
            text.index = chip.token;
            text.columns = group.keys; // a source token: a key
            text.panel = -1;
            m_slide.texts.push_back(text);
            addText(SlideText::Role::Value, QString::number(chip.token + 1), index, style.mutedText,
                    QRectF(rect.left(), rect.top() + pixels * 0.1 + metrics.height(), rect.width(),
                           indexMetrics.height()));
        }
        return used;
    };
    double pixels = 160.0 * s;
    for (; pixels > kSlideMinLabelPixels * s; pixels *= 0.97)
        if (layout(std::floor(pixels), false) >= 0.0)
            break;
    pixels = std::floor(pixels);
    m_slide.labelPixels = pixels;
    layout(pixels, true);
}

// --- Matrices: one or more rows of panels, cells as large as the page allows ---------------

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
            const bool chosen = panel.queryRows ? i == query : i == key;
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
            const bool chosen = j == key;
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
        if (panel.keyColumns)
            highlight(QRectF(left + key * w, top + query * h, w, h));
        else if (panel.queryRows ? query < m.rows() : key < m.rows())
            highlight(QRectF(left, top + (panel.queryRows ? query : key) * h, cells.width(), h));
        out.bounds = bounds;
        m_slide.panels.push_back(out);
    }
}

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

    MatrixPanel signedS; // colours of the signed columns
    signedS.signedTop = sTop > 0 ? sTop : 1.0;
    MatrixPanel signedV;
    signedV.signedTop = vTop > 0 ? vTop : 1.0;
    MatrixPanel signedAV;
    signedAV.signedTop = avTop > 0 ? avTop : 1.0;
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
                isMasked ? style.masked
                         : colorAt(style.signedColormap,
                                   (sv + signedS.signedTop) / (2 * signedS.signedTop)),
                isMasked ? fill : cellNumber(sv, sDecimals), isMasked && style.hatchMasked);
        // The bar: its length the weight (on the weights' colour scale), its number beside it.
        const double a = double(h.weights(query, j));
        const double length =
            std::clamp(std::abs(a) / std::max(1.0, std::abs(weightColour.high)), 0.0, 1.0) * bar;
        SlideShape shape;
        shape.kind = SlideShape::Kind::Bar;
        shape.rect = QRectF(xBar, y + rowH * 0.12, length, rowH * 0.76);
        shape.brush = colorAt(weightColour.map, weightColour.position(a));
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
            addCell(
                pValues, j, c, QRectF(xValues + c * w, y, w, rowH),
                colorAt(style.signedColormap, (v + signedV.signedTop) / (2 * signedV.signedTop)),
                cellNumber(v, vDecimals));
            const double av = double(weighted(j, c));
            addCell(
                pWeighted, j, c, QRectF(xWeighted + c * w, y, w, rowH),
                colorAt(style.signedColormap, (av + signedAV.signedTop) / (2 * signedAV.signedTop)),
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
        addCell(pSum, 0, c, QRectF(xWeighted + c * w, sumTop, w, rowH),
                colorAt(style.signedColormap, (v + signedAV.signedTop) / (2 * signedAV.signedTop)),
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

} // namespace

void checkPresentable(const core::AttentionResult& result)
{
    if (result.heads.empty())
        throw core::Error("the result has no heads");
    if (!result.intermediatesKept || result.pooling.pooled)
        throw core::Error(
            "a presentation needs every intermediate at full size: this input is long enough that "
            "the window keeps only its pooled weights (at most " +
            std::to_string(kMaxPresentationTokens) + " tokens can be presented)");
    if (std::max(result.problem->queryCount(), result.problem->keyCount()) > kMaxPresentationTokens)
        throw core::Error("a presentation shows every token, at most " +
                          std::to_string(kMaxPresentationTokens));
    if (result.problem->queryCount() == 0 || result.problem->keyCount() == 0)
        throw core::Error("there are no tokens to present");
}

Slide buildSlide(const core::AttentionResult& result, const SlideOptions& options, QSizeF size)
{
    checkPresentable(result);
    SlideOptions o = options;
    o.step = std::clamp(o.step, 1, kPresentationSteps);
    return SlideBuilder(result, o, size).build();
}

int defaultQuery(const core::AttentionResult& result, int head)
{
    if (result.heads.empty() || result.heads.front().weights.cols() == 0)
        return 0;
    const Matrix& w =
        result.heads[std::size_t(std::clamp(head, 0, int(result.heads.size()) - 1))].weights;
    // The keys each query may attend to: its largest weight is weighed against 1 / that many
    // (a weight of 0.5 among two keys chooses less than 0.4 among six).
    std::vector<int> allowed(std::size_t(w.rows()), int(w.cols()));
    const core::Problem* problem = result.problem.get();
    if (problem && problem->queryCount() == w.rows() && problem->keyCount() == w.cols()) {
        const core::Mask mask = problem->makeMask();
        std::vector<std::uint8_t> masked(std::size_t(w.cols()));
        for (int i = 0; i < int(w.rows()); ++i) {
            mask.fillRow(i, masked.data());
            allowed[std::size_t(i)] =
                int(std::count(masked.begin(), masked.end(), std::uint8_t(0)));
        }
    }
    // A query with one key has no choice: only where every query is so does it count.
    const bool anyChoice = std::any_of(allowed.begin(), allowed.end(), [](int n) { return n > 1; });
    int best = 0;
    float bestSharpness = -1.0f;
    for (int i = 0; i < int(w.rows()); ++i) {
        if (anyChoice && allowed[std::size_t(i)] < 2)
            continue;
        const float sharpness = w.row(i).maxCoeff() * float(std::max(1, allowed[std::size_t(i)]));
        if (sharpness > bestSharpness + 1e-6f) {
            bestSharpness = sharpness;
            best = i;
        }
    }
    return best;
}

int defaultKey(const core::AttentionResult& result, int head, int query)
{
    if (result.heads.empty())
        return 0;
    const Matrix& w =
        result.heads[std::size_t(std::clamp(head, 0, int(result.heads.size()) - 1))].weights;
    if (query < 0 || query >= w.rows() || w.cols() == 0)
        return 0;
    Eigen::Index best = 0;
    w.row(query).maxCoeff(&best);
    return int(best);
}

} // namespace attn::ui
