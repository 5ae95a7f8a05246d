// ui/document/thread_mailbox: tasks posted from another thread run on the mailbox's thread in
// the order posted, and a task may destroy the mailbox (a job's result handler deleting the
// job): the tasks after it are dropped and nothing of the mailbox is touched again (the
// AddressSanitizer run of the suite reads freed memory otherwise).
#include "ui/document/thread_mailbox.h"

#include <QTest>
#include <QThread>
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
};

QTEST_GUILESS_MAIN(TestThreadMailbox)
#include "tst_thread_mailbox.moc"
