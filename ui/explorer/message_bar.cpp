#include "ui/explorer/message_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QStyle>
#include <QToolButton>

namespace attn::ui {

namespace {

// A tint of the level's colour over the window background, so the bar follows a light or a
// dark palette.
QColor mix(const QColor& a, const QColor& b, double t)
{
    return QColor::fromRgbF(float(a.redF() * (1 - t) + b.redF() * t), float(a.greenF() * (1 - t) + b.greenF() * t),
                            float(a.blueF() * (1 - t) + b.blueF() * t));
}

} // namespace

MessageBar::MessageBar(QWidget* parent) : QFrame(parent)
{
    setObjectName(QStringLiteral("messageBar"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(10, 6, 6, 6);
    layout->setSpacing(8);
    m_icon = new QLabel(this);
    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_text->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_actions = new QHBoxLayout;
    m_actions->setSpacing(6);
    m_close = new QToolButton(this);
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
    layout->addLayout(m_actions);
    layout->addWidget(m_close, 0, Qt::AlignTop);
    hide();
}

void MessageBar::showMessage(const QString& key, Level level, const QString& text, std::vector<Action> actions)
{
    m_key = key;
    m_level = level;
    m_text->setText(text);
    const QStyle::StandardPixmap icon = level == Level::Error     ? QStyle::SP_MessageBoxCritical
                                        : level == Level::Warning ? QStyle::SP_MessageBoxWarning
                                                                  : QStyle::SP_MessageBoxInformation;
    const int size = style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, this);
    m_icon->setPixmap(style()->standardIcon(icon).pixmap(size, size));
    const QColor tint = level == Level::Error     ? QColor(0xd9, 0x3f, 0x3f)
                        : level == Level::Warning ? QColor(0xe0, 0xa1, 0x1b)
                                                  : QColor(0x3d, 0x8b, 0xd9);
    QPalette p = palette();
    const QColor base = parentWidget() ? parentWidget()->palette().color(QPalette::Window) : p.color(QPalette::Window);
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
    return isVisibleTo(parentWidget()) ? m_text->text() : QString();
}

void MessageBar::dismiss()
{
    m_key.clear();
    hide();
}

} // namespace attn::ui
