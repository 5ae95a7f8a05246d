// The crash-recovery store (ui/document/recovery_store): autosave during continuous editing, on
// a worker thread, a failed write keeping the last copy, copies keyed by a session id, one file
// per copy, no stale locks or temporaries left behind, large copies written less often. No
// window: also run under ThreadSanitizer (the tsan-core preset).
#include "ui/document/recovery_store.h"

#include "support/file_size_limit.h"
#include "support/recovery_copies.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <atomic>
#include <chrono>
#include <fcntl.h>
#include <sys/file.h>
#include <thread>
#include <unistd.h>

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

using Kind = ui::RecoveryStore::Kind;
using Snapshot = ui::RecoveryStore::Snapshot;

QByteArray contents(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("(unreadable)");
}

} // namespace

class TestRecoveryStore : public QObject
{
    Q_OBJECT

private slots:
    void init() { QDir(recoveryDir()).removeRecursively(); }

    // The clock starts at the first edit and later edits do not restart it: a copy is
    // written while the edits go on, not only once they stop. Edits come every 10 ms, far
    // more often than the 100 ms interval: a clock restarted by each edit would never run out
    // (on a loaded machine an edit may come late, which can only let such a clock run out).
    void continuousEditingIsSaved()
    {
        int version = 0;
        ui::RecoveryStore store(recoveryDir(), Kind::Scene, [&]() -> std::optional<Snapshot> {
            return Snapshot{[version] { return QByteArray::number(version); },
                            QStringLiteral("/lessons/a.json"), QStringLiteral("a.json")};
        });
        store.setInterval(100);
        QSignalSpy failed(&store, &ui::RecoveryStore::saveFailed);
        QTimer edits;
        QObject::connect(&edits, &QTimer::timeout, [&] {
            ++version;
            store.noteEdit();
        });
        edits.start(10);
        QVERIFY2(QTest::qWaitFor([&] { return QFile::exists(store.copyPath()); }, 20000),
                 "no copy while edits went on");
        const int editsWhenWritten = version;
        edits.stop();
        QVERIFY2(failed.isEmpty(),
                 failed.isEmpty() ? "" : qPrintable(failed.front().front().toString()));
        // The copy is whole and carries its original path: it was renamed into place at once.
        const ui::RecoveryStore::LeftCopy copy = ui::RecoveryStore::describe(store.copyPath());
        QCOMPARE(copy.originalPath, QStringLiteral("/lessons/a.json"));
        QCOMPARE(copy.name, QStringLiteral("a.json"));
        const int saved = ui::RecoveryStore::readContent(store.copyPath()).toInt();
        QVERIFY2(saved >= 1 && saved <= editsWhenWritten,
                 qPrintable(QStringLiteral("%1 of %2").arg(saved).arg(editsWhenWritten)));
        // Nothing unsaved any more: the next save removes the copy.
        ui::RecoveryStore quiet(recoveryDir(), Kind::Scene,
                                [] { return std::optional<Snapshot>(); });
        quiet.noteEdit();
        QVERIFY(quiet.isPending());
        QVERIFY(quiet.saveNow());
        QVERIFY(!QFile::exists(quiet.copyPath()));
        store.clear();
        QVERIFY(!QFile::exists(store.copyPath()));
    }

    // A copy is one file, renamed into place whole: its original path, name and kind are its
    // first line, so a crash can never leave work without the file it came from (two files,
    // renamed one after the other, could).
    void aCopyIsOneFile()
    {
        ui::RecoveryStore store(recoveryDir(), Kind::Model, [] {
            return std::optional<Snapshot>(Snapshot{[] { return QByteArray("{\"work\": 1}\n"); },
                                                    QStringLiteral("/lessons/gpt2 edited.json"),
                                                    QStringLiteral("gpt2 edited.json")});
        });
        QVERIFY(store.saveNow());
        const QString base = QFileInfo(store.copyPath()).completeBaseName();
        QCOMPARE(filesIn(recoveryDir()),
                 QStringList({base + QStringLiteral(".json"), base + QStringLiteral(".lock")}));
        QCOMPARE(contents(store.copyPath()),
                 QByteArray("{\"attentionExplorerRecoveryCopy\":1,\"kind\":\"model\","
                            "\"name\":\"gpt2 edited.json\","
                            "\"originalPath\":\"/lessons/gpt2 edited.json\"}\n{\"work\": 1}\n"));
        QCOMPARE(ui::RecoveryStore::readContent(store.copyPath()), QByteArray("{\"work\": 1}\n"));
        const ui::RecoveryStore::LeftCopy copy = ui::RecoveryStore::describe(store.copyPath());
        QCOMPARE(copy.kind, Kind::Model);
        QCOMPARE(copy.originalPath, QStringLiteral("/lessons/gpt2 edited.json"));
        store.clear();
        QCOMPARE(filesIn(recoveryDir()), QStringList({base + QStringLiteral(".lock")}));
    }

    // Copies from before the header (the work alone, the original path beside it in .path)
    // are still offered, read whole and removed with their .path file.
    void copiesWithoutAHeaderAreRead()
    {
        QDir().mkpath(recoveryDir());
        const QString left = recoveryDir() + QStringLiteral("/scene-old.json");
        QFile copy(left);
        QVERIFY(copy.open(QIODevice::WriteOnly));
        copy.write("{\"version\": 1}");
        copy.close();
        QFile original(left + QStringLiteral(".path"));
        QVERIFY(original.open(QIODevice::WriteOnly));
        original.write("/lessons/old.json");
        original.close();
        ui::RecoveryStore next(recoveryDir(), Kind::Scene, {});
        const auto copies = next.claimLeftCopies();
        QCOMPARE(int(copies.size()), 1);
        QCOMPARE(copies[0].kind, Kind::Scene);
        QCOMPARE(copies[0].originalPath, QStringLiteral("/lessons/old.json"));
        QCOMPARE(ui::RecoveryStore::readContent(left), QByteArray("{\"version\": 1}"));
        next.remove(copies[0]);
        QVERIFY(!QFile::exists(left));
        QVERIFY(!QFile::exists(left + QStringLiteral(".path")));
    }

    // An autosave killed while writing leaves its temporary file (".scene-<id>.json.XXXX.part",
    // as large as the copy): the next start removes it, but never one a live session is still
    // writing (it holds a lock on it).
    void killedWritesLeaveNothingBehind()
    {
        QDir().mkpath(recoveryDir());
        const QString stale = recoveryDir() + QStringLiteral("/.scene-dead.json.k3x9a.part");
        const QString live = recoveryDir() + QStringLiteral("/.scene-live.json.7q2mz0.part");
        const QString other = recoveryDir() + QStringLiteral("/.notes.txt.part"); // not ours
        for (const QString& path : {stale, live, other}) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly));
            file.write(QByteArray(4096, 'x'));
        }
        const int writer = ::open(QFile::encodeName(live).constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY(writer >= 0);
        QCOMPARE(::flock(writer, LOCK_EX | LOCK_NB), 0);
        {
            ui::RecoveryStore next(recoveryDir(), Kind::Scene, {});
            QVERIFY(!QFile::exists(stale));
            QVERIFY(QFile::exists(live));
            QVERIFY(QFile::exists(other));
        }
        ::close(writer); // the writer dies: its temporary is stale now
        ui::RecoveryStore later(recoveryDir(), Kind::Scene, {});
        QVERIFY(!QFile::exists(live));
        QVERIFY(QFile::exists(other));
    }

    // A copy that takes long to write (a scene of hundreds of megabytes) is not written again
    // 2 s later: the clock waits ten times as long as the last copy took.
    void slowCopiesAreWrittenLessOften()
    {
        ui::RecoveryStore store(recoveryDir(), Kind::Scene, [] {
            return std::optional<Snapshot>(Snapshot{[] {
                                                        std::this_thread::sleep_for(
                                                            std::chrono::milliseconds(300));
                                                        return QByteArray("large");
                                                    },
                                                    QString(), QString()});
        });
        QCOMPARE(store.nextDelay(), 2000);
        QVERIFY(store.saveNow());
        QVERIFY2(store.nextDelay() >= 3000, qPrintable(QString::number(store.nextDelay())));
        store.clear();
    }

    // While a copy is being written no other is taken (each costs the UI thread a copy of
    // the scene, and the worker a second write right after): the clock for the edits made
    // meanwhile starts once it is out.
    void noCopyIsTakenWhileOneIsWritten()
    {
        std::atomic<bool> started{false};
        std::atomic<bool> release{false};
        int snapshots = 0;
        ui::RecoveryStore store(recoveryDir(), Kind::Scene, [&] {
            ++snapshots;
            return std::optional<Snapshot>(Snapshot{[&] {
                                                        started = true;
                                                        for (int i = 0; i < 500 && !release; ++i)
                                                            std::this_thread::sleep_for(
                                                                std::chrono::milliseconds(10));
                                                        return QByteArray("copy");
                                                    },
                                                    QString(), QString()});
        });
        store.setInterval(10);
        store.noteEdit();
        QVERIFY(QTest::qWaitFor([&] { return started.load(); }, 5000));
        QTimer edits;
        QObject::connect(&edits, &QTimer::timeout, &store, &ui::RecoveryStore::noteEdit);
        edits.start(5);
        QTest::qWait(100);
        edits.stop();
        QCOMPARE(snapshots, 1);
        QVERIFY(store.isPending());
        release = true;
        QVERIFY(QTest::qWaitFor([&] { return snapshots == 2; }, 10000));
        store.clear();
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
        ui::RecoveryStore store(recoveryDir(), Kind::Scene, [&] {
            return std::optional<Snapshot>(
                Snapshot{[&] {
                             onUiThread = std::this_thread::get_id() == uiThread;
                             started = true;
                             // 5 s at most, so that a bug fails the test instead of hanging it.
                             for (int i = 0; i < 500 && !release; ++i)
                                 std::this_thread::sleep_for(std::chrono::milliseconds(10));
                             return QByteArray("slow");
                         },
                         QString(), QString()});
        });
        store.setInterval(10);
        store.noteEdit();
        QVERIFY(QTest::qWaitFor([&] { return started.load(); }, 5000));
        QVERIFY(!onUiThread);
        QElapsedTimer clock;
        clock.start();
        store.clear(); // the work was saved meanwhile: no waiting for the serialisation
        QVERIFY(clock.elapsed() < 3000); // the slow save takes 5 s: waiting for it would show
        release = true;
        QTest::qWait(200);
        QVERIFY(!QFile::exists(store.copyPath()));
        // The next timed save writes again.
        store.noteEdit();
        QVERIFY(QTest::qWaitFor([&] { return QFile::exists(store.copyPath()); }, 5000));
        QCOMPARE(ui::RecoveryStore::readContent(store.copyPath()), QByteArray("slow"));
        store.clear();
    }

    // An autosave that cannot be written (a full disk) says why and keeps the last copy.
    void failedAutosaveKeepsTheLastCopy()
    {
        QByteArray content("first");
        ui::RecoveryStore store(recoveryDir(), Kind::Scene, [&] {
            return std::optional<Snapshot>(
                Snapshot{[content] { return content; }, QString(), QString()});
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
        QCOMPARE(ui::RecoveryStore::readContent(store.copyPath()), QByteArray("first"));
        store.clear();
    }

    // A restarted container gets the crashed process's id again. Its copy is still offered;
    // a copy of a live window in this same process is not.
    void sameProcessIdAsTheCrash()
    {
        const QString left = leaveCopy("crashed", QString(), QCoreApplication::applicationPid());
        QVERIFY(!left.isEmpty());
        ui::RecoveryStore live(recoveryDir(), Kind::Scene, [] {
            return std::optional<Snapshot>(
                Snapshot{[] { return QByteArray("live"); }, QString(), QString()});
        });
        QVERIFY(live.saveNow());
        QVERIFY(live.copyPath() != left);

        ui::RecoveryStore next(recoveryDir(), Kind::Scene, {});
        const auto copies = next.claimLeftCopies();
        QCOMPARE(int(copies.size()), 1);
        QCOMPARE(copies[0].path, left);
        // Claimed: a window started meanwhile does not offer it a second time.
        ui::RecoveryStore other(recoveryDir(), Kind::Scene, {});
        QVERIFY(other.claimLeftCopies().empty());
        next.remove(copies[0]);
        const QString base = left.chopped(5);
        QVERIFY(!QFile::exists(left));
        QVERIFY(!QFile::exists(base + QStringLiteral(".lock")));
    }

    // Locks of sessions that ended before their first autosave are removed; live ones stay.
    void locksWithoutCopiesAreRemoved()
    {
        const QString left = leaveCopy("x", QString(), 999999);
        QVERIFY(QFile::remove(left));
        const QString orphan = left.chopped(5) + QStringLiteral(".lock");
        QVERIFY(QFile::exists(orphan));
        ui::RecoveryStore live(recoveryDir(), Kind::Scene, {});
        ui::RecoveryStore next(recoveryDir(), Kind::Scene, {});
        QVERIFY(next.claimLeftCopies().empty());
        QVERIFY(!QFile::exists(orphan));
        QCOMPARE(filesIn(recoveryDir()).filter(QStringLiteral(".lock")).size(), 2); // live, next
    }
};

QTEST_GUILESS_MAIN(TestRecoveryStore)
#include "tst_recovery_store.moc"
