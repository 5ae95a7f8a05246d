// The crash-recovery store (ui/document/recovery_store): autosave during continuous editing, on
// a worker thread, a failed write keeping the last copy, copies keyed by a session id, no stale
// locks left behind. No window: also run under ThreadSanitizer (the tsan-core preset).
#include "ui/document/recovery_store.h"

#include "support/file_size_limit.h"
#include "support/recovery_copies.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <chrono>
#include <thread>

using namespace attn;

namespace {

QString recoveryDir()
{
    static QTemporaryDir dir;
    return dir.path() + QStringLiteral("/recovery");
}

QString leaveCopy(const QByteArray& content, const QString& original, qint64 pid)
{
    return test::leaveRecoveryCopy(recoveryDir(), content, original, pid);
}

using test::filesIn;

} // namespace

class TestRecoveryStore : public QObject
{
    Q_OBJECT

private slots:
    void init() { QDir(recoveryDir()).removeRecursively(); }

    // The clock starts at the first edit and later edits do not restart it: a copy is
    // written while the edits go on, not only once they stop.
    void continuousEditingIsSaved()
    {
        int version = 0;
        ui::RecoveryStore store(recoveryDir(), [&]() -> std::optional<ui::RecoveryStore::Snapshot> {
            return ui::RecoveryStore::Snapshot{[version] { return QByteArray::number(version); },
                                               QStringLiteral("/lessons/a.json")};
        });
        store.setInterval(200);
        QSignalSpy failed(&store, &ui::RecoveryStore::saveFailed);
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 1000 && !QFile::exists(store.copyPath())) {
            ++version;
            store.noteEdit();
            QTest::qWait(20);
        }
        QVERIFY2(failed.isEmpty(),
                 failed.isEmpty() ? "" : qPrintable(failed.front().front().toString()));
        QVERIFY2(QFile::exists(store.copyPath()), "no copy after 1 s of edits 20 ms apart");
        QVERIFY(clock.elapsed() < 600);
        QFile copy(store.copyPath());
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QVERIFY(copy.readAll().toInt() >= 5);
        QFile original(store.copyPath() + QStringLiteral(".path"));
        QVERIFY(original.open(QIODevice::ReadOnly));
        QCOMPARE(original.readAll(), QByteArray("/lessons/a.json"));
        // Nothing unsaved any more: the next save removes the copy.
        ui::RecoveryStore::SnapshotSource none = [] {
            return std::optional<ui::RecoveryStore::Snapshot>();
        };
        ui::RecoveryStore quiet(recoveryDir(), none);
        quiet.noteEdit();
        QVERIFY(quiet.isPending());
        QVERIFY(quiet.saveNow());
        QVERIFY(!QFile::exists(quiet.copyPath()));
        store.clear();
        QVERIFY(!QFile::exists(store.copyPath()));
    }

    // The timed autosave writes the copy out on a worker thread (a scene of d_model 1024 and
    // 16 heads takes a second as JSON): the UI thread only takes the snapshot. A clear() while
    // a copy is being written out wins: the copy does not come back after it.
    void autosaveWritesOffTheUiThread()
    {
        const std::thread::id uiThread = std::this_thread::get_id();
        std::atomic<bool> started{false};
        std::atomic<bool> release{false};
        std::atomic<bool> onUiThread{false};
        ui::RecoveryStore store(recoveryDir(), [&] {
            return std::optional<ui::RecoveryStore::Snapshot>(ui::RecoveryStore::Snapshot{
                [&] {
                    onUiThread = std::this_thread::get_id() == uiThread;
                    started = true;
                    // 5 s at most, so that a bug fails the test instead of hanging it.
                    for (int i = 0; i < 500 && !release; ++i)
                        std::this_thread::sleep_for(std::chrono::milliseconds(10));
                    return QByteArray("slow");
                },
                QString()});
        });
        store.setInterval(10);
        store.noteEdit();
        QVERIFY(QTest::qWaitFor([&] { return started.load(); }, 5000));
        QVERIFY(!onUiThread);
        QElapsedTimer clock;
        clock.start();
        store.clear(); // the work was saved meanwhile: no waiting for the serialisation
        QVERIFY(clock.elapsed() < 1000);
        release = true;
        QTest::qWait(200);
        QVERIFY(!QFile::exists(store.copyPath()));
        // The next timed save writes again.
        store.noteEdit();
        QVERIFY(QTest::qWaitFor([&] { return QFile::exists(store.copyPath()); }, 5000));
        QFile copy(store.copyPath());
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), QByteArray("slow"));
        store.clear();
    }

    // An autosave that cannot be written (a full disk) says why and keeps the last copy.
    void failedAutosaveKeepsTheLastCopy()
    {
        QByteArray content("first");
        ui::RecoveryStore store(recoveryDir(), [&] {
            return std::optional<ui::RecoveryStore::Snapshot>(
                ui::RecoveryStore::Snapshot{[content] { return content; }, QString()});
        });
        QVERIFY(store.saveNow());
        QSignalSpy failed(&store, &ui::RecoveryStore::saveFailed);
        content = QByteArray(1 << 16, 'x');
        {
            test::FileSizeLimit limit(1024);
            QVERIFY(!store.saveNow());
        }
        QCOMPARE(failed.size(), 1);
        QVERIFY2(failed[0][0].toString().contains(QStringLiteral("File too large")),
                 qPrintable(failed[0][0].toString()));
        QFile copy(store.copyPath());
        QVERIFY(copy.open(QIODevice::ReadOnly));
        QCOMPARE(copy.readAll(), QByteArray("first"));
        store.clear();
    }

    // A restarted container gets the crashed process's id again. Its copy is still offered;
    // a copy of a live window in this same process is not.
    void sameProcessIdAsTheCrash()
    {
        const QString left = leaveCopy("crashed", QString(), QCoreApplication::applicationPid());
        QVERIFY(!left.isEmpty());
        ui::RecoveryStore live(recoveryDir(), [] {
            return std::optional<ui::RecoveryStore::Snapshot>(
                ui::RecoveryStore::Snapshot{[] { return QByteArray("live"); }, QString()});
        });
        QVERIFY(live.saveNow());
        QVERIFY(live.copyPath() != left);

        ui::RecoveryStore next(recoveryDir(), {});
        const auto copies = next.claimLeftCopies();
        QCOMPARE(int(copies.size()), 1);
        QCOMPARE(copies[0].path, left);
        // Claimed: a window started meanwhile does not offer it a second time.
        ui::RecoveryStore other(recoveryDir(), {});
        QVERIFY(other.claimLeftCopies().empty());
        next.remove(copies[0]);
        const QString base = left.chopped(5);
        QVERIFY(!QFile::exists(left));
        QVERIFY(!QFile::exists(left + QStringLiteral(".path")));
        QVERIFY(!QFile::exists(base + QStringLiteral(".lock")));
    }

    // Locks of sessions that ended before their first autosave are removed; live ones stay.
    void locksWithoutCopiesAreRemoved()
    {
        const QString left = leaveCopy("x", QString(), 999999);
        QVERIFY(QFile::remove(left));
        QVERIFY(QFile::remove(left + QStringLiteral(".path")));
        const QString orphan = left.chopped(5) + QStringLiteral(".lock");
        QVERIFY(QFile::exists(orphan));
        ui::RecoveryStore live(recoveryDir(), {});
        ui::RecoveryStore next(recoveryDir(), {});
        QVERIFY(next.claimLeftCopies().empty());
        QVERIFY(!QFile::exists(orphan));
        QCOMPARE(filesIn(recoveryDir()).filter(QStringLiteral(".lock")).size(), 2); // live, next
    }
};

QTEST_GUILESS_MAIN(TestRecoveryStore)
#include "tst_recovery_store.moc"
