#pragma once

#include <QKeySequence>
#include <QString>
#include <functional>

class QAction;
class QMenu;
class QObject;

namespace attn::ui {

// Adds a window's commands to its menus, each one's slot called while `context` lives: the one
// way both windows make a menu entry with its keys.
class MenuCommands
{
public:
    explicit MenuCommands(QObject* context) : m_context(context) {}

    // `text` with `shortcut` (none: an empty sequence).
    QAction* add(QMenu* menu, const QString& text, const QKeySequence& shortcut,
                 std::function<void()> slot) const;
    // A standard command: the key the menu and the README name, and the platform's others
    // (standardKeys).
    QAction* addStandard(QMenu* menu, const QString& text, QKeySequence::StandardKey standard,
                         const QKeySequence& advertised, std::function<void()> slot) const;

private:
    QObject* m_context;
};

} // namespace attn::ui
