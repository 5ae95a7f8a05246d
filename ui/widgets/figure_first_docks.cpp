#include "ui/widgets/figure_first_docks.h"

#include <QAction>
#include <QDockWidget>
#include <QEvent>
#include <QMainWindow>
#include <QStyle>
#include <QTimer>

#include <algorithm>

namespace attn::ui {

namespace {

// Spread again only this much past the width that tabbed them: a window dragged about that
// width does not flip its docks back and forth.
constexpr int kHysteresis = 40;

int minimumWidth(const QWidget& widget)
{
    return widget.minimumSizeHint().expandedTo(widget.minimumSize()).width();
}

} // namespace

FigureFirstDocks::FigureFirstDocks(QMainWindow& window, QDockWidget& first,
                                   std::vector<QDockWidget*> others, int figureWidth,
                                   std::function<void()> spread)
    : QObject(&window), m_window(window), m_first(first), m_others(std::move(others)),
      m_figureWidth(figureWidth), m_spread(std::move(spread))
{
    window.installEventFilter(this);
    setWindowMinimum();
}

bool FigureFirstDocks::isTabbed() const
{
    const QList<QDockWidget*> tabs = m_window.tabifiedDockWidgets(&m_first);
    bool any = false;
    for (QDockWidget* dock : m_others) {
        if (!dock->toggleViewAction()->isChecked() || dock->isFloating())
            continue;
        if (!tabs.contains(dock))
            return false;
        any = true;
    }
    return any;
}

int FigureFirstDocks::spreadWidth() const
{
    int others = 0;
    for (const QDockWidget* dock : m_others)
        others = std::max(others, minimumWidth(*dock));
    const int separator =
        m_window.style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, &m_window);
    return minimumWidth(m_first) + others + m_figureWidth + 2 * separator;
}

void FigureFirstDocks::setWindowMinimum()
{
    // The window may be narrower than its docks side by side need (a laptop's screen): they
    // become tabs on the resize that makes it so. Its least width is one column of docks and
    // one usable figure.
    int column = minimumWidth(m_first);
    for (const QDockWidget* dock : m_others)
        column = std::max(column, minimumWidth(*dock));
    const int separator =
        m_window.style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent, nullptr, &m_window);
    m_window.setMinimumWidth(column + separator + kUsableFigureWidth + 20);
}

void FigureFirstDocks::fit()
{
    m_fitQueued = false;
    setWindowMinimum();
    if (!m_first.toggleViewAction()->isChecked() || m_first.isFloating())
        return;
    std::vector<QDockWidget*> docked;
    for (QDockWidget* dock : m_others)
        if (dock->toggleViewAction()->isChecked() && !dock->isFloating())
            docked.push_back(dock);
    if (docked.empty())
        return;
    const int width = m_window.width();
    if (!isTabbed() && width < spreadWidth()) {
        // Only the docks not yet in the first one's tabs (a restored layout may have some there):
        // tabifying a dock into the group it is in moves it out and back under the tab bar.
        const QList<QDockWidget*> tabs = m_window.tabifiedDockWidgets(&m_first);
        for (QDockWidget* dock : docked)
            if (!tabs.contains(dock))
                m_window.tabifyDockWidget(&m_first, dock);
        m_first.raise();
        emit tabbedChanged(true);
    } else if (isTabbed() && width >= spreadWidth() + kHysteresis) {
        m_spread();
        emit tabbedChanged(false);
    }
    // Docks wider than their own minimum give the figures their room first.
    const QWidget* central = m_window.centralWidget();
    if (central && central->width() < m_figureWidth) {
        QList<QDockWidget*> columns{&m_first};
        QList<int> widths{minimumWidth(m_first)};
        const bool tabbed = isTabbed();
        for (QDockWidget* dock : docked) {
            if (tabbed) // one column: as wide as its widest tab needs
                widths.front() = std::max(widths.front(), minimumWidth(*dock));
            else if (m_window.dockWidgetArea(dock) != m_window.dockWidgetArea(&m_first)) {
                columns << dock;
                widths << minimumWidth(*dock);
            }
        }
        m_window.resizeDocks(columns, widths, Qt::Horizontal);
    }
}

bool FigureFirstDocks::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == &m_window &&
        (event->type() == QEvent::Resize || event->type() == QEvent::Show) && !m_fitQueued) {
        m_fitQueued = true;
        QTimer::singleShot(0, this, &FigureFirstDocks::fit);
    }
    return QObject::eventFilter(watched, event);
}

} // namespace attn::ui
