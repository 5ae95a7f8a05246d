#include "ui/widgets/stale_indicator.h"

#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QStringList>
#include <QWidget>

namespace attn::ui {

namespace {

// A translucent layer in the window's colour over a widget's whole area.
class Veil : public QWidget
{
public:
    explicit Veil(QWidget* parent) : QWidget(parent)
    {
        setObjectName(QStringLiteral("staleVeil"));
        setAttribute(Qt::WA_TransparentForMouseEvents);
        setAttribute(Qt::WA_NoSystemBackground);
        setFocusPolicy(Qt::NoFocus);
        hide();
    }

protected:
    void paintEvent(QPaintEvent*) override
    {
        QPainter painter(this);
        QColor veil = palette().color(QPalette::Window);
        veil.setAlpha(StaleIndicator::kVeilAlpha);
        painter.fillRect(rect(), veil);
    }
};

} // namespace

StaleIndicator::StaleIndicator(QLabel* note, const std::vector<QWidget*>& dimmed, QObject* parent)
    : QObject(parent), m_note(note)
{
    for (QWidget* widget : dimmed) {
        auto* veil = new Veil(widget); // the widget owns it
        veil->setGeometry(widget->rect());
        widget->installEventFilter(this); // follows its size; stays on top of new children
        m_veils.emplace_back(widget, veil);
    }
    if (m_note)
        m_note->hide();
}

void StaleIndicator::setStale(const QString& note)
{
    m_stale = !note.isEmpty();
    for (const auto& [widget, veil] : m_veils)
        if (widget && veil) {
            veil->setGeometry(widget->rect());
            veil->setVisible(m_stale);
            veil->raise();
        }
    if (m_note) {
        m_note->setText(note);
        m_note->setVisible(m_stale);
    }
}

QLabel* StaleIndicator::makeNote(QWidget* parent)
{
    auto* note = new QLabel(parent);
    note->setObjectName(QStringLiteral("staleNote"));
    note->setWordWrap(true);
    note->setMinimumWidth(1); // wraps instead of widening the window
    note->setStyleSheet(
        QStringLiteral("QLabel { background: palette(mid); color: palette(bright-text);"
                       " padding: 4px 8px; border-radius: 3px; }"));
    return note;
}

QString StaleIndicator::earlierInputNote(const std::vector<core::Token>& shown)
{
    QStringList words;
    for (const core::Token& token : shown)
        words.append(token.text);
    QString text = words.join(QLatin1Char(' '));
    if (text.size() > 48)
        text = text.left(47) + QChar(0x2026);
    return tr("Not current: the figures show an earlier input, “%1”; the input as it is now "
              "cannot be computed (the message above says why).")
        .arg(text);
}

QString StaleIndicator::note() const
{
    return m_stale && m_note ? m_note->text() : QString();
}

QWidget* StaleIndicator::veil(const QWidget* widget) const
{
    for (const auto& [w, veil] : m_veils)
        if (w == widget)
            return veil;
    return nullptr;
}

bool StaleIndicator::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::Resize || event->type() == QEvent::ChildAdded)
        for (const auto& [widget, veil] : m_veils)
            if (widget == watched && veil) {
                veil->setGeometry(widget->rect());
                if (m_stale)
                    veil->raise();
            }
    return QObject::eventFilter(watched, event);
}

} // namespace attn::ui
