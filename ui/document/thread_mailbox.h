#pragma once

#include <QObject>
#include <deque>
#include <functional>
#include <mutex>

namespace attn::ui {

// Hands work from a worker thread to the thread this object lives on (the UI thread): post()
// from any thread, and the tasks run there in order. Tasks wait in a queue under a std::mutex
// and are called by name through Qt's event loop, so everything a task carries is handed over
// under a lock that ThreadSanitizer sees (a lambda queued by Qt itself is handed over inside
// QtCore, which Debian does not build with ThreadSanitizer: every such hand-over looked like a
// race). Tasks still waiting when the mailbox is destroyed are dropped, never run.
class ThreadMailbox : public QObject
{
    Q_OBJECT

public:
    using QObject::QObject;
    ~ThreadMailbox() override;

    void post(std::function<void()> task);

private:
    Q_INVOKABLE void runPosted();

    std::mutex m_mutex;
    std::deque<std::function<void()>> m_tasks; // guarded by m_mutex
    bool m_scheduled = false;                  // guarded by m_mutex
};

} // namespace attn::ui
