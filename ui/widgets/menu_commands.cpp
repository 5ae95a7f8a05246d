#include "ui/widgets/menu_commands.h"

#include "ui/widgets/standard_keys.h"

#include <QAction>
#include <QMenu>

namespace attn::ui {

QAction* MenuCommands::add(QMenu* menu, const QString& text, const QKeySequence& shortcut,
                           std::function<void()> slot) const
{
    QAction* action = menu->addAction(text);
    action->setShortcut(shortcut);
    QObject::connect(action, &QAction::triggered, m_context, std::move(slot));
    return action;
}

QAction* MenuCommands::addStandard(QMenu* menu, const QString& text,
                                   QKeySequence::StandardKey standard,
                                   const QKeySequence& advertised, std::function<void()> slot) const
{
    QAction* action = add(menu, text, QKeySequence(), std::move(slot));
    action->setShortcuts(standardKeys(standard, advertised));
    return action;
}

} // namespace attn::ui
