#include "ui/document/thread_mailbox.h"

namespace attn::ui {

ThreadMailbox::~ThreadMailbox()
{
    // Under the lock: tasks a worker posted after the last run are dropped in order with it.
    const std::lock_guard lock(m_mutex);
    m_tasks.clear();
}

void ThreadMailbox::post(std::function<void()> task)
{
    bool schedule = false;
    {
        std::lock_guard lock(m_mutex);
        m_tasks.push_back(std::move(task));
        schedule = !m_scheduled;
        m_scheduled = true;
    }
    // By name, so that no functor of ours crosses the threads inside QtCore.
    if (schedule)
        QMetaObject::invokeMethod(this, "runPosted", Qt::QueuedConnection);
}

void ThreadMailbox::runPosted()
{
    // One task per call, the next call queued before the task runs: a task may destroy this
    // mailbox (a job's result handler deleting the job), so nothing of it is touched after the
    // task, and Qt drops the queued call with the object.
    std::function<void()> task;
    bool more = false;
    {
        std::lock_guard lock(m_mutex);
        if (m_tasks.empty()) {
            m_scheduled = false;
            return;
        }
        task = std::move(m_tasks.front());
        m_tasks.pop_front();
        more = !m_tasks.empty();
        m_scheduled = more;
    }
    if (more)
        QMetaObject::invokeMethod(this, "runPosted", Qt::QueuedConnection);
    task();
}

} // namespace attn::ui
