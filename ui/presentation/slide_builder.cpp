#include "ui/presentation/slide_builder.h"

#include "ui/figures/colormap.h"
#include "ui/presentation/slide_builder_p.h"

#include "core/error.h"

#include <QFontMetricsF>
#include <algorithm>
#include <cmath>
#include <tuple>

namespace attn::ui {

using core::Matrix;

namespace slide_detail {

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
                .arg(stepCount)
                .arg(presentationStepName(int(kind))),
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
         {std::tuple{SlideText::Role::Caption, presentationCaption(int(kind), p, o.extras.get()),
                     40.0},
          std::tuple{SlideText::Role::Numbers,
                     presentationNumbers(int(kind), r, head, query, key, o.extras.get()), 32.0}}) {
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
    return panel.weights ? weightFill(value) : signedFill(value, panel.signedTop);
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
    switch (kind) {
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
    default: // a stacked block's and the mixing weights' (slide_scene_panels.cpp)
        return scenePanels();
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
        switch (kind) {
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
    if (kind == S::Tokens)
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

} // namespace slide_detail

using slide_detail::SlideBuilder;

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
    o.step = std::clamp(o.step, 1, int(presentationSteps(o.extras.get()).size()));
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
