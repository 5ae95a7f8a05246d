#include "parallel.h"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace attn::core {
namespace {

// Runs a batch of independent jobs on the calling thread and one helper thread per further
// core (OMP_NUM_THREADS or the core count). Helpers sleep between batches: OpenMP's default
// barrier spins for milliseconds, which on a shared 2-core machine made a T = 128 compute take
// 35-70 ms instead of 5. Jobs are taken from a counter, so the caller does whatever a helper
// that is not scheduled leaves. Every thread multiplies with Eigen serially.
class JobRunner
{
public:
    static JobRunner& shared()
    {
        static JobRunner runner(std::max(1, omp_get_max_threads()));
        return runner;
    }
    int threads() const { return int(m_helpers.size()) + 1; }

    // job(index, thread) for every index in [0, count); thread < threads().
    void run(int count, const std::function<void(int, int)>& job)
    {
        std::lock_guard one(m_runMutex); // one batch at a time
        Batch batch(&job, count);
        {
            std::lock_guard lock(m_mutex);
            m_batch = &batch;
            ++m_generation;
        }
        m_wake.notify_all();
        {
            const SerialEigen serial;
            work(batch, 0);
        }
        std::unique_lock lock(m_mutex);
        m_batch = nullptr; // helpers that have not joined by now skip it
        m_idle.wait(lock, [this] { return m_busy == 0; });
        if (batch.error)
            std::rethrow_exception(batch.error); // out of memory, most likely
    }

    ~JobRunner()
    {
        {
            std::lock_guard lock(m_mutex);
            m_stop = true;
        }
        m_wake.notify_all();
        for (std::thread& helper : m_helpers)
            helper.join();
    }

    // Eigen's GEMM starts its own OpenMP team unless the thread's OpenMP thread count is 1.
    struct SerialEigen
    {
        int saved = omp_get_max_threads();
        SerialEigen() { omp_set_num_threads(1); }
        ~SerialEigen() { omp_set_num_threads(saved); }
    };

private:
    struct Batch
    {
        Batch(const std::function<void(int, int)>* j, int n) : job(j), count(n) {}
        const std::function<void(int, int)>* job;
        int count;
        std::atomic<int> next{0};
        std::exception_ptr error; // the first job that threw; the others are skipped
    };

    explicit JobRunner(int threads)
    {
        for (int t = 1; t < threads; ++t)
            m_helpers.emplace_back([this, t] { helper(t); });
    }

    void work(Batch& batch, int thread)
    {
        for (int i = batch.next++; i < batch.count; i = batch.next++) {
            try {
                (*batch.job)(i, thread);
            } catch (...) {
                std::lock_guard lock(m_mutex);
                if (!batch.error)
                    batch.error = std::current_exception();
                batch.next = batch.count;
            }
        }
    }

    void helper(int thread)
    {
        omp_set_num_threads(1);
        std::uint64_t seen = 0;
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
            if (m_stop)
                return;
            seen = m_generation;
            Batch* batch = m_batch;
            if (!batch)
                continue;
            ++m_busy;
            lock.unlock();
            work(*batch, thread);
            lock.lock();
            if (--m_busy == 0)
                m_idle.notify_all();
        }
    }

    std::mutex m_runMutex;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_idle;
    Batch* m_batch = nullptr;
    std::uint64_t m_generation = 0;
    int m_busy = 0;
    bool m_stop = false;
    std::vector<std::thread> m_helpers;
};

} // namespace

void parallelFor(int count, const std::function<void(int, int)>& job)
{
    JobRunner::shared().run(count, job);
}

int parallelThreads()
{
    return JobRunner::shared().threads();
}

void serialFor(int count, const std::function<void(int, int)>& job)
{
    const JobRunner::SerialEigen serial;
    for (int i = 0; i < count; ++i)
        job(i, 0);
}

} // namespace attn::core
