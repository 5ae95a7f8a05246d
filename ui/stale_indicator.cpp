#include "stale_indicator.h"

#include <QGraphicsOpacityEffect>
#include <QLabel>
#include <QWidget>

namespace attn::ui {

StaleIndicator::StaleIndicator(QLabel* note, const std::vector<QWidget*>& dimmed, QObject* parent)
    : QObject(parent), m_note(note)
{
    for (QWidget* widget : dimmed) {
        auto* effect = new QGraphicsOpacityEffect(widget); // the widget owns it
        effect->setOpacity(kOpacity);
        effect->setEnabled(false); // an enabled effect renders through an offscreen pixmap
        widget->setGraphicsEffect(effect);
        m_effects.emplace_back(effect);
    }
    if (m_note)
        m_note->hide();
}

void StaleIndicator::setStale(const QString& note)
{
    m_stale = !note.isEmpty();
    for (const auto& effect : m_effects)
        if (effect)
            effect->setEnabled(m_stale);
    if (m_note) {
        m_note->setText(note);
        m_note->setVisible(m_stale);
    }
}

QString StaleIndicator::note() const
{
    return m_stale && m_note ? m_note->text() : QString();
}

} // namespace attn::ui
