#include "ui/document/job_thread.h"

namespace attn::ui {

JobThread::~JobThread()
{
    m_cancel = true;
    if (m_thread.joinable())
        m_thread.join();
}

bool JobThread::start(std::function<void()> work)
{
    if (m_running || m_thread.joinable())
        return false;
    m_running = true;
    m_thread = std::thread(std::move(work));
    return true;
}

void JobThread::finish(std::function<void()> task)
{
    m_mailbox.post([this, task = std::move(task)] {
        m_running = false;
        task();
    });
}

} // namespace attn::ui
