#pragma once

#include <QFrame>
#include <QString>
#include <functional>
#include <vector>

class QHBoxLayout;
class QLabel;
class QToolButton;

namespace attn::ui {

// A non-blocking message above the figures (KMessageWidget's idea): the reason for an
// error, with optional actions and a close button. The work in the window is never
// interrupted or lost. Messages have a key so that one source replaces or clears its own.
class MessageBar : public QFrame
{
    Q_OBJECT

public:
    enum class Level { Information, Warning, Error };
    struct Action
    {
        QString text;
        std::function<void()> triggered; // the bar closes after it runs
    };

    explicit MessageBar(QWidget* parent = nullptr);

    void showMessage(const QString& key, Level level, const QString& text, std::vector<Action> actions = {});
    // Hides the message if `key` shows it.
    void clearMessage(const QString& key);
    QString key() const { return isVisibleTo(parentWidget()) ? m_key : QString(); }
    QString text() const;
    Level level() const { return m_level; }

signals:
    void messageShown(const QString& text);
    // The user closed the message showing under `key` (not a clearMessage).
    void dismissed(const QString& key);

private:
    void dismiss();

    QLabel* m_icon = nullptr;
    QLabel* m_text = nullptr;
    QHBoxLayout* m_actions = nullptr;
    QToolButton* m_close = nullptr;
    QString m_key;
    Level m_level = Level::Information;
};

} // namespace attn::ui
