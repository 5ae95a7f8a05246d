#pragma once

#include <QObject>
#include <QTimer>
#include <functional>

namespace attn::ui {

// Runs a call once, at the next pass of the event loop, however often it is scheduled before
// then: a burst of resizes and setting changes rebuilds a figure once. Work that also runs
// directly calls markDone() first, so a pending run that it overtook does nothing.
class DeferredCall
{
public:
    // `context` owns this object: the pending run goes with it.
    DeferredCall(QObject* context, std::function<void()> call)
        : m_context(context), m_call(std::move(call))
    {
    }

    void schedule()
    {
        if (m_pending)
            return;
        m_pending = true;
        QTimer::singleShot(0, m_context, [this] {
            if (m_pending)
                m_call();
        });
    }
    void markDone() { m_pending = false; }
    bool isPending() const { return m_pending; }

private:
    QObject* m_context;
    std::function<void()> m_call;
    bool m_pending = false;
};

} // namespace attn::ui
