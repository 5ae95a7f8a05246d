#include "ui/model/token_focus_bar.h"

#include "ui/model/matrix_painter.h"
#include "ui/widgets/flow_layout.h"

#include <QToolButton>

namespace attn::ui {

TokenFocusBar::TokenFocusBar(QWidget* parent) : QWidget(parent)
{
    m_layout = new FlowLayout(this, 3, 3);
    m_layout->setContentsMargins(0, 0, 0, 0);
    setAccessibleName(tr("Query token in focus"));
}

QToolButton* TokenFocusBar::button(int token) const
{
    return token >= 0 && token < int(m_buttons.size()) ? m_buttons[std::size_t(token)] : nullptr;
}

void TokenFocusBar::setTokens(const std::vector<core::Token>& tokens)
{
    bool same = tokens.size() == m_buttons.size();
    for (std::size_t i = 0; same && i < tokens.size(); ++i)
        same = m_buttons[i]->text() == paint::tokenLabel(tokens[i].text, 16);
    if (same)
        return;
    for (QToolButton* button : m_buttons)
        delete button;
    m_buttons.clear();
    constexpr std::size_t kMaxButtons = 512; // past this the grid's rows are thinner than a pixel
    for (std::size_t i = 0; i < tokens.size() && i < kMaxButtons; ++i) {
        auto* button = new QToolButton(this);
        button->setText(paint::tokenLabel(tokens[i].text, 16));
        button->setToolTip(tr("Token %1 (id %2): show what it attends to in every head")
                               .arg(i + 1)
                               .arg(tokens[i].id));
        button->setCheckable(true);
        button->setAutoRaise(false);
        button->setFocusPolicy(Qt::TabFocus);
        const int index = int(i);
        connect(button, &QToolButton::clicked, this, [this, index](bool on) {
            setFocusToken(on ? index : -1);
            emit focusTokenChosen(m_focus);
        });
        m_layout->addWidget(button);
        m_buttons.push_back(button);
    }
    m_focus = -1;
    updateGeometry();
}

void TokenFocusBar::setFocusToken(int token)
{
    m_focus = token >= 0 && token < int(m_buttons.size()) ? token : -1;
    for (std::size_t i = 0; i < m_buttons.size(); ++i)
        m_buttons[i]->setChecked(int(i) == m_focus);
}

} // namespace attn::ui
