// ui/document/thread_mailbox: tasks posted from another thread run on the mailbox's thread in
// the order posted, and a task may destroy the mailbox (a job's result handler deleting the
// job): the tasks after it are dropped and nothing of the mailbox is touched again (the
// AddressSanitizer run of the suite reads freed memory otherwise); and a job's thread is
// stopped and joined when the job goes.
#include "ui/document/job_thread.h"
#include "ui/document/thread_mailbox.h"

#include <QTest>
#include <QThread>
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using namespace attn;

class TestThreadMailbox : public QObject
{
    Q_OBJECT

private slots:
    void tasksFromAnotherThreadRunHereInOrder()
    {
        ui::ThreadMailbox mailbox;
        std::vector<int> order;
        bool allHere = true;
        std::thread worker([&] {
            for (int i = 0; i < 100; ++i)
                mailbox.post([&, i] {
                    order.push_back(i);
                    allHere = allHere && QThread::currentThread() == thread();
                });
        });
        worker.join();
        QTRY_COMPARE(order.size(), std::size_t(100));
        for (int i = 0; i < 100; ++i)
            QCOMPARE(order[std::size_t(i)], i);
        QVERIFY(allHere);
    }

    void aTaskMayDestroyTheMailbox()
    {
        auto* mailbox = new ui::ThreadMailbox;
        int ran = 0;
        mailbox->post([&] {
            ++ran;
            delete mailbox;
        });
        mailbox->post([&] { ran += 10; });
        QTest::qWait(50);
        QCOMPARE(ran, 1);
    }
    // ui/document/job_thread: destroyed while its work runs, a JobThread asks the work to stop
    // and waits for it, so nothing the work reads goes first (without the wait, `ended` is
    // read while the thread writes it: a race under ThreadSanitizer, false here).
    void aJobThreadStopsAndWaitsWhenDestroyed()
    {
        bool ended = false;
        std::atomic<bool> started{false};
        {
            ui::JobThread thread;
            QVERIFY(thread.start([&] {
                started = true;
                while (!thread.cancelled())
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                ended = true;
                thread.finish([] {});
            }));
            QVERIFY(thread.isRunning());
            QVERIFY(!thread.start([] {})); // one work per thread
            while (!started)
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
        }
        QVERIFY(ended);
    }
};

QTEST_GUILESS_MAIN(TestThreadMailbox)
#include "tst_thread_mailbox.moc"
