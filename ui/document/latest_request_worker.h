#pragma once

#include <QtGlobal>
#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace attn::ui {

// One worker thread that runs the newest of the jobs handed to it, so the UI never waits:
// - a job handed over while another runs sets the running one's cancel flag (the backends and
//   the model forward stop at their next block of rows or layer by throwing core::Cancelled;
//   such a job simply ends, unanswered);
// - jobs that wait replace each other: only the newest runs next;
// - every job gets a generation number, counted on the UI thread, so its owner can tell a reply
//   for the newest request from an older one (answer, isBusy).
// The owner's destructor calls stop() first: the jobs and `atExit` refer to the owner.
class LatestRequestWorker
{
public:
    using Job = std::function<void(quint64 generation, const std::atomic<bool>* cancel)>;

    // `atExit` runs on the worker thread as it ends: a backend that holds a Vulkan device is
    // released on the thread that used it.
    explicit LatestRequestWorker(std::function<void()> atExit = {});
    ~LatestRequestWorker();
    LatestRequestWorker(const LatestRequestWorker&) = delete;
    LatestRequestWorker& operator=(const LatestRequestWorker&) = delete;

    // Drops a waiting job, cancels the running one and waits for the thread (a block of rows
    // on the CPU; one Vulkan submission runs to its end). Twice is harmless.
    void stop();

    // UI thread from here down.
    quint64 submit(Job job);
    quint64 latestGeneration() const { return m_generation; }
    // A reply for `generation` arrived: false when one at least as new was answered already.
    bool answer(quint64 generation);
    // True while the newest request has not been answered.
    bool isBusy() const { return m_answered < m_generation; }
    // Jobs that a newer request (or stop) cancelled while they ran; any thread.
    int cancelledJobs() const { return m_cancelled; }

private:
    void run(const std::function<void()>& atExit);

    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::optional<std::pair<quint64, Job>> m_pending; // guarded by m_mutex
    bool m_stop = false;                              // guarded by m_mutex
    bool m_running = false;                           // guarded by m_mutex
    std::atomic<bool> m_cancel{false};                // the running job is no longer wanted
    std::atomic<int> m_cancelled{0};
    quint64 m_generation = 0; // UI thread
    quint64 m_answered = 0;   // UI thread
    std::thread m_thread;     // last: started once everything above exists
};

} // namespace attn::ui
