#pragma once

#include "core/tokenizer.h"

#include <QHash>
#include <QRect>
#include <QWidget>
#include <climits>
#include <vector>

class QScrollBar;

namespace attn::ui {

// The tokens of a sentence as rounded chips that wrap like text. Clicking a chip (or Space
// on the focused one; Tab and the arrow keys move between chips) asks to toggle it as
// padding; the owner changes its document and calls setTokens again. One widget paints
// every chip from a cached layout; past six rows it scrolls. Text is measured
// lazily: a chip's width is estimated from its length until it comes into view, and
// measured widths are kept by text, so a keystroke in a 16,384-token sentence measures the
// few chips on screen rather than every chip (shaping each text is what costs).
class TokenChips : public QWidget
{
    Q_OBJECT

public:
    explicit TokenChips(QWidget* parent = nullptr);
    ~TokenChips() override;

    // `padding` and `fallback` are per token; shorter vectors mean false for the rest.
    // A fallback chip is one whose word vector was missing (a hashed vector stands in).
    void setTokens(const std::vector<core::Token>& tokens, const std::vector<bool>& padding,
                   const std::vector<bool>& fallback = {});

    int chipCount() const { return int(m_chips.size()); }
    // The chip's rectangle in widget coordinates (scrolled); empty for a bad index.
    QRect chipRect(int index) const;
    // The chip under a point of the widget, or -1.
    int chipAt(QPoint point) const;
    // The chip with the keyboard focus ring, or -1.
    int currentChip() const { return m_current; }
    void setCurrentChip(int index);
    bool isPadding(int index) const;
    QString chipToolTip(int index) const;
    // How many chip texts were measured with the font since construction (each text once per
    // font): what keeps a long sentence fast.
    int measuredTextCount() const { return m_measuredTexts; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;

signals:
    void paddingToggled(int index);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void focusInEvent(QFocusEvent* event) override;
    void focusOutEvent(QFocusEvent* event) override;
    bool focusNextPrevChild(bool next) override;
    void changeEvent(QEvent* event) override;

private:
    struct Chip
    {
        QString text;  // as drawn (elided when very long)
        int width = 0; // the chip's full width, padding included: estimated until measured
        bool measured = false;
        QRect rect; // in content coordinates (before scrolling)
        bool padding = false;
        bool fallback = false;
        bool special = false;
    };

    // Positions every chip for a content width (into `chips` when given, m_chips's
    // size); returns the content height, or a height past `stopAfter` once it is reached.
    int layoutChips(int width, std::vector<Chip>* chips, int stopAfter = INT_MAX) const;
    void relayout();
    // Every chip's text and a width (the cached measurement, else an estimate).
    void prepareChips();
    // Measures the chips in view that are estimated; true when any was.
    bool measureVisible();
    int contentWidth() const;
    int rowHeight() const;
    void updateScrollBar();
    void ensureVisible(int index);
    void toggle(int index);
    QPalette::ColorGroup group() const;

    std::vector<core::Token> m_tokens;
    std::vector<Chip> m_chips;
    QHash<QString, int> m_widths; // measured chip widths by text, for the current font
    int m_measuredTexts = 0;
    bool m_inLayout = false;
    QScrollBar* m_scroll = nullptr;
    int m_contentHeight = 0;
    int m_laidOutWidth = -1;
    int m_maxRows = 6;
    int m_current = -1;
    int m_hover = -1;
};

} // namespace attn::ui
