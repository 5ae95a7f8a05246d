#pragma once

namespace attn::ui {

// A drag, scrub or typing burst: edits between begin and end merge into one undo step.
// end(serial) ends only the gesture begin returned, so a typing pause cannot end a slider
// drag that started meanwhile; end() ends whichever is open. Held by each window's document.
class UndoGesture
{
public:
    int begin()
    {
        m_current = ++m_last;
        return m_current;
    }
    void end(int serial = 0)
    {
        if (serial == 0 || serial == m_current)
            m_current = 0;
    }
    // The open gesture's serial, 0 when none is open.
    int current() const { return m_current; }

private:
    int m_current = 0;
    int m_last = 0;
};

} // namespace attn::ui
