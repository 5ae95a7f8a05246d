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
// A notice (Level::Information) takes one line, elided, beside a More button that shows the
// whole of it: on a small screen it must not take the figures' room. Warnings and errors show
// in full.
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

    void showMessage(const QString& key, Level level, const QString& text,
                     std::vector<Action> actions = {});
    // Hides the message if `key` shows it.
    void clearMessage(const QString& key);
    QString key() const { return isVisibleTo(parentWidget()) ? m_key : QString(); }
    QString text() const;
    // Is the text cut to one line (More shows the rest)?
    bool isElided() const;
    Level level() const { return m_level; }

signals:
    void messageShown(const QString& text);
    // The user closed the message showing under `key` (not a clearMessage).
    void dismissed(const QString& key);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void dismiss();
    void fitText();

    QLabel* m_icon = nullptr;
    QLabel* m_text = nullptr;
    QHBoxLayout* m_actions = nullptr;
    QToolButton* m_close = nullptr;
    QToolButton* m_more = nullptr;
    QString m_key;
    QString m_fullText;
    bool m_expanded = false;
    Level m_level = Level::Information;
};

} // namespace attn::ui
