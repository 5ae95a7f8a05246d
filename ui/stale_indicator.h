#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <vector>

class QGraphicsOpacityEffect;
class QLabel;
class QWidget;

namespace attn::ui {

// Makes figures that no longer match the input look it: while stale, the given widgets are
// dimmed and a note says why ("Not current: …"). A figure that stays after a compute error
// or during a long compute must never pass for the input as typed.
class StaleIndicator : public QObject
{
    Q_OBJECT

public:
    // `note` is shown while stale; `dimmed` fade to `opacity`. The indicator owns neither.
    StaleIndicator(QLabel* note, const std::vector<QWidget*>& dimmed, QObject* parent = nullptr);

    // Non-empty: stale, with this note. Empty: current.
    void setStale(const QString& note);
    bool isStale() const { return m_stale; }
    QString note() const;

    static constexpr double kOpacity = 0.35;

private:
    QPointer<QLabel> m_note;
    std::vector<QPointer<QGraphicsOpacityEffect>> m_effects;
    bool m_stale = false;
};

} // namespace attn::ui
