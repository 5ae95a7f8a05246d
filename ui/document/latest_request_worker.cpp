#include "ui/document/latest_request_worker.h"

#include "core/error.h"

namespace attn::ui {

LatestRequestWorker::LatestRequestWorker(std::function<void()> atExit)
    : m_thread([this, atExit = std::move(atExit)] { run(atExit); })
{
}

LatestRequestWorker::~LatestRequestWorker()
{
    stop();
}

void LatestRequestWorker::stop()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stop = true;
        m_pending.reset();
    }
    m_cancel = true;
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

quint64 LatestRequestWorker::submit(Job job)
{
    const quint64 generation = ++m_generation;
    {
        const std::lock_guard lock(m_mutex);
        m_pending.emplace(generation, std::move(job)); // a waiting job is dropped unanswered
        if (m_running)
            m_cancel = true; // the running job is for an older request
    }
    m_wake.notify_one();
    return generation;
}

bool LatestRequestWorker::answer(quint64 generation)
{
    if (generation <= m_answered)
        return false;
    m_answered = generation;
    return true;
}

void LatestRequestWorker::run(const std::function<void()>& atExit)
{
    for (;;) {
        std::pair<quint64, Job> job;
        {
            std::unique_lock lock(m_mutex);
            m_running = false;
            m_wake.wait(lock, [this] { return m_stop || m_pending.has_value(); });
            if (m_stop)
                break;
            job = std::move(*m_pending);
            m_pending.reset();
            m_running = true;
            m_cancel = false;
        }
        try {
            job.second(job.first, &m_cancel);
        } catch (const core::Cancelled&) {
            ++m_cancelled; // a newer job waits (or the owner is closing): it is answered instead
        }
    }
    if (atExit)
        atExit();
}

} // namespace attn::ui
