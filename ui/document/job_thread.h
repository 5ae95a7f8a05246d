#pragma once

#include "ui/document/thread_mailbox.h"

#include <atomic>
#include <functional>
#include <thread>

namespace attn::ui {

// The one worker thread of a background job (opening a model, generating, translating, head
// importance, the lens tabs): started at most once, asked to stop through a flag that the work
// polls, joined when the job is destroyed. What the work hands back runs on the UI thread
// through a ThreadMailbox, whose tasks die with it. A job declares its JobThread last, so that
// it goes first: the thread has ended before anything it reads is destroyed.
class JobThread
{
public:
    JobThread() = default;
    JobThread(const JobThread&) = delete;
    JobThread& operator=(const JobThread&) = delete;
    ~JobThread(); // cancels and waits

    // Runs `work` on the thread, which ends by calling finish(); false when it ran already.
    bool start(std::function<void()> work);
    void cancel() { m_cancel = true; }
    bool cancelled() const { return m_cancel; }
    std::atomic<bool>* cancelFlag() { return &m_cancel; }
    // On the UI thread: from start() until finish()'s task runs.
    bool isRunning() const { return m_running; }

    // From the work: `task` runs on the UI thread, after those posted before it.
    void post(std::function<void()> task) { m_mailbox.post(std::move(task)); }
    // From the work, last: `task` runs on the UI thread once isRunning() is false.
    void finish(std::function<void()> task);

private:
    ThreadMailbox m_mailbox;
    std::atomic<bool> m_cancel{false};
    bool m_running = false;
    std::thread m_thread;
};

} // namespace attn::ui
