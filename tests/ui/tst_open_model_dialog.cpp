// File > Open Model: the Hugging Face cache is listed and each config.json read on a worker
// thread, so that a file that will not open (a FIFO named config.json waits for a writer for
// ever) never holds up the window. Also run under ThreadSanitizer (the tsan preset).
#include "ui/model/open_model_dialog.h"

#include <QDir>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <fcntl.h>
#include <mutex>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

using namespace attn;

namespace {

// Should anything block opening `fifo` for reading (the bug guarded against), this opens it for
// writing after 10 s, again and again, so that the reader sees the end of the file and the test
// fails instead of hanging.
class FifoWatchdog
{
public:
    explicit FifoWatchdog(const QString& fifo) : m_fifo(QFile::encodeName(fifo))
    {
        m_thread = std::thread([this] {
            std::unique_lock lock(m_mutex);
            if (m_wake.wait_for(lock, std::chrono::seconds(10), [this] { return m_done; }))
                return;
            while (
                !m_wake.wait_for(lock, std::chrono::milliseconds(50), [this] { return m_done; })) {
                const int fd = ::open(m_fifo.constData(), O_WRONLY | O_NONBLOCK);
                if (fd >= 0)
                    ::close(fd);
            }
        });
    }
    ~FifoWatchdog()
    {
        {
            const std::lock_guard lock(m_mutex);
            m_done = true;
        }
        m_wake.notify_all();
        m_thread.join();
    }

private:
    QByteArray m_fifo;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_done = false; // guarded by m_mutex
    std::thread m_thread;
};

} // namespace

class TestOpenModelDialog : public QObject
{
    Q_OBJECT

private slots:
    void cleanup() { qunsetenv("HF_HOME"); }

    // The probe: a folder in the cache whose config.json is a FIFO froze the window for good.
    // Now the dialog opens at once, still reading, and lists the model greyed with the reason.
    void fifoConfigDoesNotBlockTheWindow()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        const QString snapshot =
            home.filePath(QStringLiteral("hub/models--test-org--fifo/snapshots/0123abcd"));
        QVERIFY(QDir().mkpath(snapshot));
        const QString fifo = snapshot + QStringLiteral("/config.json");
        QVERIFY(::mkfifo(QFile::encodeName(fifo).constData(), 0600) == 0);
        qputenv("HF_HOME", home.path().toUtf8());
        qunsetenv("HF_HUB_CACHE");

        const FifoWatchdog watchdog(fifo); // outlives the dialog, whose worker it would release
        QElapsedTimer timer;
        timer.start();
        ui::OpenModelDialog dialog;
        QVERIFY2(timer.elapsed() < 5000, "the dialog read the cache on the UI thread");
        // Nothing has been read on this thread: the rows come through its event loop.
        QVERIFY(dialog.isReading());
        QCOMPARE(dialog.modelList()->topLevelItemCount(), 0);
        QSignalSpy listed(&dialog, &ui::OpenModelDialog::listed);
        dialog.show();
        QVERIFY(listed.wait(10000));
        QVERIFY(!dialog.isReading());

        QTreeWidget* list = dialog.modelList();
        QCOMPARE(list->topLevelItemCount(), 1);
        QTreeWidgetItem* item = list->topLevelItem(0);
        QCOMPARE(item->text(0), QStringLiteral("test-org/fifo"));
        QCOMPARE(item->text(1), QStringLiteral("cannot open"));
        QVERIFY(item->isDisabled());
        QCOMPARE(item->toolTip(1), fifo + QStringLiteral(" is not a regular file (a FIFO)"));
    }

    // Reading again while a reading runs: only the newest is shown, once.
    void refreshWhileReading()
    {
        QTemporaryDir home;
        QVERIFY(home.isValid());
        QVERIFY(QDir().mkpath(home.filePath(QStringLiteral("hub/models--org--a/snapshots/1"))));
        QFile config(home.filePath(QStringLiteral("hub/models--org--a/snapshots/1/config.json")));
        QVERIFY(config.open(QIODevice::WriteOnly) && config.write("{}") == 2);
        config.close();
        qputenv("HF_HOME", home.path().toUtf8());
        qunsetenv("HF_HUB_CACHE");
        ui::OpenModelDialog dialog;
        QSignalSpy listed(&dialog, &ui::OpenModelDialog::listed);
        dialog.refresh();
        dialog.refresh();
        QVERIFY(listed.wait(10000));
        QTest::qWait(50);
        QCOMPARE(listed.size(), 1);
        QCOMPARE(dialog.modelList()->topLevelItemCount(), 1);
        QCOMPARE(dialog.modelList()->topLevelItem(0)->text(1), QStringLiteral("cannot open"));
        QVERIFY(dialog.modelList()->topLevelItem(0)->toolTip(1).startsWith(
            QStringLiteral("config.json: ")));
    }
};

QTEST_MAIN(TestOpenModelDialog)
#include "tst_open_model_dialog.moc"
