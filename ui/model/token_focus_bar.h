#pragma once

#include "core/tokenizer.h"

#include <QWidget>
#include <vector>

class QButtonGroup;
class QToolButton;

namespace attn::ui {

class FlowLayout;

// The model's tokens as buttons: pick one as the query in focus and every head of the grid
// shows what it attends to (BertViz's head view, for all layers at once); pick it again, or
// Escape, to see every row. The row wraps to the panel's width.
class TokenFocusBar : public QWidget
{
    Q_OBJECT

public:
    explicit TokenFocusBar(QWidget* parent = nullptr);

    void setTokens(const std::vector<core::Token>& tokens);
    int tokenCount() const { return int(m_buttons.size()); }
    QToolButton* button(int token) const;
    void setFocusToken(int token); // -1: none
    int focusToken() const { return m_focus; }

signals:
    void focusTokenChosen(int token); // -1: none

private:
    FlowLayout* m_layout = nullptr;
    std::vector<QToolButton*> m_buttons;
    int m_focus = -1;
};

} // namespace attn::ui
