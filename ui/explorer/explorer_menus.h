#pragma once

#include <QObject>
#include <vector>

class QAction;
class QDockWidget;

namespace attn::ui {

class ExplorerWindow;
class SceneFiles;
class ViewBar;

// The explorer's menu bar and tool bar, built on the window's public commands: the actions
// live apart from the window that uses them, as Tiled keeps them in its ActionManager.
class ExplorerMenus : public QObject
{
    Q_OBJECT

public:
    // Fills `window`'s menu bar and adds its tool bar. View > Numbers in Cells and Colours
    // Scaled to the Data follow `viewBar`'s checks both ways; View lists `docks` to show and hide.
    ExplorerMenus(ExplorerWindow& window, SceneFiles& files, ViewBar& viewBar,
                  const std::vector<QDockWidget*>& docks);

    // The actions whose shortcuts win over a text field's own use of the keys (Ctrl+E is the
    // end of the line on X11).
    std::vector<QAction*> windowShortcuts() const
    {
        return {m_exportAction, m_copyFigureAction, m_presentAction};
    }

private:
    void buildMenus(SceneFiles& files, ViewBar& viewBar, const std::vector<QDockWidget*>& docks);
    void buildToolBar();

    ExplorerWindow& m_window;
    QAction* m_newAction = nullptr;
    QAction* m_openAction = nullptr;
    QAction* m_saveAction = nullptr;
    QAction* m_undoAction = nullptr;
    QAction* m_redoAction = nullptr;
    QAction* m_exportAction = nullptr;
    QAction* m_copyFigureAction = nullptr;
    QAction* m_presentAction = nullptr;
};

} // namespace attn::ui
