#pragma once

#include "core/tokenizer.h"

#include <QObject>
#include <QPointer>
#include <QString>
#include <vector>

class QLabel;
class QWidget;

namespace attn::ui {

// Makes figures that no longer match the input look it: while stale, a translucent veil in
// the window's colour lies over the given widgets (greying them out; clicks go through) and a
// note says why ("Not current: …"). A figure that stays after a compute error or during a
// long compute must never pass for the input as typed. (A veil rather than a
// QGraphicsOpacityEffect: the effect's cached image ghosted QCustomPlot's replots.)
class StaleIndicator : public QObject
{
    Q_OBJECT

public:
    // `note` is shown while stale; `dimmed` are veiled. The indicator owns neither.
    StaleIndicator(QLabel* note, const std::vector<QWidget*>& dimmed, QObject* parent = nullptr);

    // Non-empty: stale, with this note. Empty: current.
    void setStale(const QString& note);
    bool isStale() const { return m_stale; }
    QString note() const;
    // The veil over `widget` (objectName "staleVeil"), visible while stale.
    QWidget* veil(const QWidget* widget) const;

    // A label for the note, set off from the figures it stands above.
    static QLabel* makeNote(QWidget* parent);
    // The note for figures that stay while the input cannot be computed: they show `shown`,
    // the tokens of the last input that could.
    static QString earlierInputNote(const std::vector<core::Token>& shown);

    static constexpr int kVeilAlpha = 150; // of 255: the figure stays readable, plainly dimmed

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QPointer<QLabel> m_note;
    std::vector<std::pair<QPointer<QWidget>, QPointer<QWidget>>> m_veils; // widget, its veil
    bool m_stale = false;
};

} // namespace attn::ui
