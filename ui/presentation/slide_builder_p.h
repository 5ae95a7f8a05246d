#pragma once

#include "ui/figures/figure_builder.h"
#include "ui/figures/heatmap_painter.h"
#include "ui/presentation/presentation_steps.h"
#include "ui/presentation/presentation_theme.h"
#include "ui/presentation/slide_builder.h"

#include "core/mask.h"

#include <QCoreApplication>
#include <QFont>
#include <QFontMetricsF>
#include <QStringList>
#include <QTextDocument>
#include <map>
#include <memory>
#include <tuple>
#include <vector>

// The parts of buildSlide, one file each: slide_builder.cpp (the frame, each step's panels and
// the tokens), slide_text.cpp (type and numbers), slide_matrices.cpp (the layout search for
// rows of matrices), slide_focus.cpp (the one-query slide) and slide_scene_panels.cpp (the
// panels of the steps a scene adds). seq2seq_slides.cpp sets its type
// with the same functions.
namespace attn::ui::slide_detail {

using core::Matrix;

// tr() for the presentation's words (no QObject here): lupdate reads the context from it.
struct Words
{
    Q_DECLARE_TR_FUNCTIONS(SlideBuilder)
};

using S = PresentationStep;

// ---- Type and numbers: slide_text.cpp ---------------------------------------------------------

QFont mathFont(double pixels);
QFont sansFont(double pixels, bool bold = false);
QString cellNumber(double value, int decimals);
QString weightNumber(double value, int decimals);
int decimalsFor(const Matrix& m, const core::Mask* mask);
QString cut(const QString& text, int characters);
QStringList tokenTexts(const std::vector<core::Token>& tokens);
double widest(const QFontMetricsF& metrics, const QStringList& texts, int step = 1);

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
    bool framed = true;   // marks the chosen query and key (false: rows and columns are not tokens)
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
        const std::vector<PresentationStep> steps = presentationSteps(o.extras.get());
        stepCount = int(steps.size());
        kind = steps[std::size_t(std::clamp(o.step, 1, stepCount) - 1)];
        query = o.query >= 0 ? std::clamp(o.query, 0, p.queryCount() - 1) : defaultQuery(r, head);
        key = o.key >= 0 ? std::clamp(o.key, 0, p.keyCount() - 1) : defaultKey(r, head, query);
        mask = std::make_unique<core::Mask>(p.makeMask());
        queries = tokenTexts(p.queryTokens);
        keys = tokenTexts(p.keyTokens);
        std::vector<const Matrix*> all;
        for (const core::HeadResult& each : r.heads)
            all.push_back(&each.weights);
        weightColour = weightColours(r, all, o.weightScale, colormap, style.signedColormap);
        weightCells = ColourTable(weightColour.map);
        signedCells = ColourTable(style.signedColormap);
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
    // Cell colours as the figure kit paints them (ColourTable), so that a slide shows a matrix
    // in the colours of the model grid and the panels.
    QColor cellColour(const MatrixPanel& panel, double value) const;
    QColor weightFill(double weight) const { return weightCells.at(weightColour.position(weight)); }
    QColor signedFill(double value, double top) const { return signedCells.at(value, -top, top); }
    std::vector<MatrixPanel> panelsOfStep();
    std::vector<MatrixPanel> scenePanels();
    MatrixPanel signedPanel(const QString& name, const QString& title, const Matrix& m,
                            bool keyRows) const;
    MatrixPanel squarePanel(const QString& name, const QString& title, const Matrix& m,
                            int headIndex, bool weights, const QString& maskedText,
                            bool masked) const;

    const core::AttentionResult& r;
    const core::Problem& p;
    SlideOptions o;
    PresentationStep kind = PresentationStep::Tokens; // what step o.step shows
    int stepCount = kPresentationSteps;
    QSizeF m_size;
    double s = 1.0; // type and lines scale with the page's height
    FigureStyle style;
    Colormap colormap = Colormap::Viridis;
    WeightColours weightColour;
    ColourTable weightCells; // weightColour.map's
    ColourTable signedCells; // style.signedColormap's
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

} // namespace attn::ui::slide_detail
