#pragma once

#include <QObject>

#include <functional>
#include <vector>

class QDockWidget;
class QMainWindow;

namespace attn::ui {

// The least room a heatmap figure (its title, token labels and colour bar included) is given
// on screen, in logical pixels: the 11 tokens of the explorer's example sentence still get
// cells of about 15 pixels, large enough to click and to tell their colour, once the labels
// (about 70 pixels across, 80 down) and the colour bar (60 across) have theirs.
inline constexpr int kUsableFigureWidth = 300;
inline constexpr int kUsableFigureHeight = 250;

// A figure-first arrangement of a main window's docks. Where the docks side by side would
// leave the figures in the middle narrower than `figureWidth`, they first shrink to their own
// minimum, and if that is not enough they become tabs of one column, the first dock's (its
// tab in front); once the window is wide enough again `spread` puts them back as they were
// built. Docks the user has floated or closed are left where they are.
class FigureFirstDocks : public QObject
{
    Q_OBJECT

public:
    FigureFirstDocks(QMainWindow& window, QDockWidget& first, std::vector<QDockWidget*> others,
                     int figureWidth, std::function<void()> spread);

    // Are the other docks tabs of the first one's column?
    bool isTabbed() const;
    // Arranges the docks for the window's width now (also done after each resize).
    void fit();

signals:
    void tabbedChanged(bool tabbed);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    int spreadWidth() const;
    void setWindowMinimum();

    QMainWindow& m_window;
    QDockWidget& m_first;
    std::vector<QDockWidget*> m_others;
    int m_figureWidth;
    std::function<void()> m_spread;
    bool m_fitQueued = false;
};

} // namespace attn::ui
