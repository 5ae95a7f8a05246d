#pragma once

// A window's keyboard shortcuts as a user meets them, for the window tests.

#include <QAction>
#include <QApplication>
#include <QKeySequence>
#include <QShortcut>
#include <QSignalSpy>
#include <QStringList>
#include <QTest>
#include <QTimer>
#include <QWidget>

#include <map>

namespace attn::test {

// The enabled actions of `window` that `key` triggers there: a window or application shortcut.
inline QList<QAction*> actionsForKey(QWidget& window, const QKeySequence& key)
{
    QList<QAction*> found;
    for (QAction* action : window.findChildren<QAction*>())
        if (action->isEnabled() && action->shortcutContext() != Qt::WidgetShortcut &&
            action->shortcutContext() != Qt::WidgetWithChildrenShortcut &&
            action->shortcuts().contains(key))
            found.append(action);
    return found;
}

// Each key that two enabled actions or shortcuts of `window` share (or one registers twice),
// with their names: Qt fires neither ("Ambiguous shortcut overload").
inline QStringList sharedKeys(QWidget& window)
{
    std::map<QString, QStringList> owners;
    for (QAction* action : window.findChildren<QAction*>())
        if (action->isEnabled() && action->shortcutContext() != Qt::WidgetShortcut &&
            action->shortcutContext() != Qt::WidgetWithChildrenShortcut)
            for (const QKeySequence& key : action->shortcuts())
                owners[key.toString()].append(action->text());
    for (QShortcut* shortcut : window.findChildren<QShortcut*>())
        if (shortcut->isEnabled() && shortcut->context() != Qt::WidgetShortcut &&
            shortcut->context() != Qt::WidgetWithChildrenShortcut)
            for (const QKeySequence& key : shortcut->keys())
                owners[key.toString()].append(shortcut->objectName());
    QStringList shared;
    for (const auto& [key, names] : owners)
        if (names.size() > 1)
            shared.append(key + QStringLiteral(": ") + names.join(QStringLiteral(", ")));
    return shared;
}

// Closes every modal dialog that opens while it lives (a file dialog a shortcut opens), so
// that the test goes on.
class ModalCloser
{
public:
    ModalCloser()
    {
        QObject::connect(&m_timer, &QTimer::timeout, [] {
            if (QWidget* modal = QApplication::activeModalWidget())
                modal->close();
        });
        m_timer.start(20);
    }

private:
    QTimer m_timer;
};

// Presses `key` on `window`, with `focus` focused, as a user does, and checks that no two
// commands of the window share a key, that exactly one enabled action has `key`, that it is
// `command`, and that it fires. Callers check QTest::currentTestFailed() after it.
inline void pressKeyOfCommand(QWidget& window, QWidget& focus, const QKeySequence& key,
                              const QString& command)
{
    const QStringList shared = sharedKeys(window);
    QVERIFY2(shared.isEmpty(), qPrintable(shared.join(QLatin1Char('\n'))));
    const QList<QAction*> actions = actionsForKey(window, key);
    QCOMPARE(actions.size(), 1);
    QVERIFY2(actions.front()->text().remove(QLatin1Char('&')).startsWith(command),
             qPrintable(actions.front()->text()));
    QSignalSpy fired(actions.front(), &QAction::triggered);
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    focus.setFocus();
    const ModalCloser closer; // the file dialogs the keys open
    QTest::keyClick(&window, key[0].key(), key[0].keyboardModifiers());
    QTRY_COMPARE(fired.count(), 1);
}

} // namespace attn::test
