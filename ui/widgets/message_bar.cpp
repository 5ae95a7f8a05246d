#include "ui/widgets/message_bar.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QTextDocument>
#include <QToolButton>

namespace attn::ui {

namespace {

// A tint of the level's colour over the window background, so the bar follows a light or a
// dark palette.
QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t),
                            float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

} // namespace

MessageBar::MessageBar(QWidget* parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("messageBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 4, 6, 4);
    layout->setSpacing(8);
    m_icon = new QLabel(this);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_text->installEventFilter(this); // its width decides where the notice is cut
    m_more = new QToolButton(this);
    m_more->setObjectName(QStringLiteral("messageMoreButton"));
    m_more->setAutoRaise(true);
    m_more->setText(tr("More"));
    m_more->setToolTip(tr("Show the whole message"));
    m_more->hide();
    connect(m_more, &QToolButton::clicked, this, [this] {
        m_expanded = !m_expanded;
        fitText();
    });
    m_actions = new QHBoxLayout;
    m_actions->setSpacing(6);
    m_close = new QToolButton(this);
    m_close->setObjectName(QStringLiteral("messageDismissButton"));
    m_close->setAutoRaise(true);
    m_close->setIcon(style()->standardIcon(QStyle::SP_TitleBarCloseButton));
    m_close->setToolTip(tr("Dismiss"));
    m_close->setAccessibleName(tr("Dismiss")); // an icon only: the tooltip is no name
    connect(m_close, &QToolButton::clicked, this, [this] {
        const QString key = m_key;
        dismiss();
        emit dismissed(key);
    });
    layout->addWidget(m_icon, 0, Qt::AlignTop);
    layout->addWidget(m_text, 1);
    layout->addWidget(m_more, 0, Qt::AlignTop);
    layout->addLayout(m_actions);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    hide();
}

void MessageBar::showMessage(const QString& key, Level level, const QString& text,
                             std::vector<Action> actions)
{
    m_key = key;
    m_level = level;
    m_fullText = text;
    m_expanded = false;
    fitText();
    const QStyle::StandardPixmap icon = level == Level::Error ? QStyle::SP_MessageBoxCritical
                                        : level == Level::Warning
                                            ? QStyle::SP_MessageBoxWarning
                                            : QStyle::SP_MessageBoxInformation;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(size, size));
    const QColor tint = level == Level::Error     ? QColor(0xd9, 0x3f, 0x3f)
                        : level == Level::Warning ? QColor(0xe0, 0xa1, 0x1b)
                                                  : QColor(0x3d, 0x8b, 0xd9);
    QPalette p = palette();
    const QColor base = parentWidget() ? parentWidget()->palette().color(QPalette::Window)
                                       : p.color(QPalette::Window);
    p.setColor(QPalette::Window, mix(base, tint, 0.18));
    setPalette(p);

    while (QLayoutItem* item = m_actions->takeAt(0)) {
        // Later: this may run inside one of these buttons' own clicked signal.
        item->widget()->hide();
        item->widget()->deleteLater();
        delete item;
    }
    for (Action& action : actions) {
        auto* button = new QPushButton(action.text, this);
        connect(button, &QPushButton::clicked, this, [this, run = std::move(action.triggered)] {
            dismiss();
            if (run)
                run();
        });
        m_actions->addWidget(button);
    }
    show();
    emit messageShown(text);
}

void MessageBar::clearMessage(const QString& key)
{
    if (key == m_key)
        dismiss();
}

QString MessageBar::text() const
{
    return isVisibleTo(parentWidget()) ? m_fullText : QString();
}

bool MessageBar::isElided() const
{
    return m_more->isVisibleTo(this) && !m_expanded;
}

bool MessageBar::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_text && event->type() == QEvent::Resize)
        fitText();
    return QFrame::eventFilter(watched, event);
}

void MessageBar::fitText()
{
    const bool oneLine =
        m_level == Level::Information && !m_expanded && !Qt::mightBeRichText(m_fullText);
    m_text->setWordWrap(!oneLine);
    // Ignored: the one line never widens the window; it is cut to the room it gets.
    m_text->setSizePolicy(oneLine ? QSizePolicy::Ignored : QSizePolicy::Expanding,
                          QSizePolicy::Preferred);
    if (!oneLine) {
        m_text->setText(m_fullText);
        m_text->setToolTip(QString());
        m_more->setText(tr("Less"));
        m_more->setToolTip(QString());
        m_more->setVisible(m_expanded);
        return;
    }
    const QString line = QString(m_fullText).replace(QLatin1Char('\n'), QLatin1Char(' '));
    // The room the text has without the More button decides whether it is needed, so that
    // showing the button (which narrows the text) never hides it again.
    const int room =
        m_text->width() + (m_more->isVisible() ? m_more->width() + layout()->spacing() : 0);
    const bool fits = m_text->fontMetrics().horizontalAdvance(line) <= room;
    m_more->setText(tr("More"));
    m_more->setToolTip(tr("Show the whole message"));
    m_more->setVisible(!fits);
    m_text->setText(fits ? line
                         : m_text->fontMetrics().elidedText(line, Qt::ElideRight, m_text->width()));
    m_text->setToolTip(fits ? QString() : m_fullText);
}

void MessageBar::dismiss()
{
    m_key.clear();
    hide();
}

} // namespace attn::ui
