#pragma once

#include <QColor>
#include <QFont>
#include <QPointF>
#include <QRectF>
#include <QSizeF>
#include <QString>
#include <optional>
#include <vector>

class QPainter;

namespace attn::ui {

// One page of a presentation, laid out: every cell, bar, frame and text with its place in
// the page's pixels. SlideBuilder makes it; paintSlide draws it on the screen and into the
// PDF handout alike, so what is projected is what is printed. Tests read it to check what
// a hall sees: the sizes of labels and numbers, that no label is dropped, what fills the page.
struct SlideText
{
    enum class Role {
        Header,  // "Step 4 of 12 · Scores", the settings
        Caption, // the step's equation (rich text)
        Numbers, // the equation with the chosen cell's numbers (rich text)
        Title,   // a matrix's name
        Label,   // a token naming a row or a column (or a token chip)
        Value,   // a number in a cell or beside a bar
        Note,    // what the slide left out ("labels: every 2nd token")
    };
    Role role = Role::Label;
    QString text; // plain, or HTML when `rich`
    bool rich = false;
    QFont font;
    QColor color;
    // Unrotated: the box the text is aligned in. Rotated: the box before rotation, about its
    // own centre by `rotation` degrees (-90: reads upwards).
    QRectF box;
    Qt::Alignment align = Qt::AlignCenter;
    double rotation = 0.0;
    int panel = -1;       // Label: the panel it names; -1 for a token chip
    int index = -1;       // Label: the token's index; Value: the row
    bool columns = false; // Label: names a column (else a row)
};

struct SlideCell
{
    QRectF rect;
    QColor fill;
    bool hatched = false; // masked, in a greyscale theme
    int panel = 0;
    int row = 0;
    int column = 0;
};

struct SlideShape
{
    enum class Kind { Bar, Frame, Chip, Rule };
    Kind kind = Kind::Frame;
    QRectF rect;
    QColor brush = Qt::transparent;
    QColor pen = Qt::transparent;
    double penWidth = 0.0;
    double radius = 0.0;
    bool highlight = false; // what the pointer or the keys chose
};

// A matrix (or a column of bars) on the slide.
struct SlidePanel
{
    QString name;  // "weights", "Q", "scores", "bars", ... (what a hit reports)
    QString title; // as drawn
    QRectF cells;  // the matrix's cells
    QRectF bounds; // cells, labels and title
    int rows = 0;
    int columns = 0;
    int head = 0;
    bool queryRows = true;   // rows are queries (else keys: K, V, and the focus step's rows)
    bool keyColumns = false; // columns are keys (scores, weights)
    bool subject = true;     // part of what the step is about
};

// Which cell of which panel a point of the slide is over.
struct SlideHit
{
    int panel = -1;
    int row = -1;
    int column = -1;
    int chip = -1;           // a token chip (the tokens step) ...
    bool sourceChip = false; // ... of the source sentence (cross-attention)
};

struct Slide
{
    QSizeF size;
    QColor background = Qt::white;
    std::vector<SlidePanel> panels;
    std::vector<SlideCell> cells;
    std::vector<SlideShape> shapes; // bars and chips under the texts, frames over the cells
    std::vector<SlideText> texts;
    QRectF subject;           // what the step is about, with its labels
    int labelStep = 1;        // 1: every token labelled; n: every n-th (a note says so)
    int labelCharacters = 0;  // 0: labels whole; n: longer ones cut to n characters
    double labelPixels = 0.0; // the token labels' size
    double valuePixels = 0.0; // the numbers' size; 0 when the cells are too small for them

    std::optional<SlideHit> hit(QPointF point) const;
    // The texts of one role, for tests and the window ("what is on the page").
    std::vector<const SlideText*> textsOf(SlideText::Role role) const;
};

// Draws `slide` with the painter's current transform: a widget's pixels or a PDF page's.
// Text stays text (QPainter::drawText, QTextDocument), so a PDF keeps it selectable.
void paintSlide(QPainter& painter, const Slide& slide);

// The box `text` covers once rotated, in the slide's pixels.
QRectF textBounds(const SlideText& text);

} // namespace attn::ui
