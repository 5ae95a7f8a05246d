// Crash recovery: autosave during continuous editing, copies keyed by a session id, every
// copy offered, a copy deleted only once its work is safe, no stale locks left behind, and
// a real kill -9 of a window in the middle of editing.

#include "ui/document/recovery_store.h"
#include "ui/explorer/explorer_window.h"
#include "ui/explorer/message_bar.h"

#include "core/cpu_backend.h"
#include "core/scene_json.h"
#include "support/file_size_limit.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QLockFile>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUuid>

#include <atomic>
#include <chrono>
#include <csignal>
#include <iostream>
#include <thread>

using namespace attn;

namespace {

// Dates a copy a minute back, so that the order of copies does not rest on timing.
bool makeOlder(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadWrite) &&
           file.setFileTime(QDateTime::currentDateTime().addSecs(-60),
                            QFileDevice::FileModificationTime);
}

QString recoveryDir()
{
    return ui::ExplorerWindow::recoveryDirectory();
}

// A copy and its lock as a crashed session leaves them: the lock names a process id.
QString leaveCopy(const QByteArray& content, const QString& original, qint64 pid)
{
    const QDir dir(recoveryDir());
    dir.mkpath(QStringLiteral("."));
    const QString base =
        dir.filePath(QStringLiteral("scene-") + QUuid::createUuid().toString(QUuid::WithoutBraces));
    QFile copy(base + QStringLiteral(".json"));
    if (!copy.open(QIODevice::WriteOnly) || copy.write(content) != content.size())
        return QString();
    copy.close();
    QFile path(base + QStringLiteral(".json.path"));
    if (!path.open(QIODevice::WriteOnly))
        return QString();
    path.write(original.toUtf8());
    QFile lock(base + QStringLiteral(".lock"));
    if (!lock.open(QIODevice::WriteOnly))
        return QString();
    lock.write(QByteArray::number(pid) + "\ntst_crash_recovery\n" +
               QSysInfo::machineHostName().toUtf8() + "\n");
    return base + QStringLiteral(".json");
}

core::Scene sceneWithTemperature(float temperature)
{
    core::Scene scene = core::makeScene(QStringLiteral("unsaved work survives"), 8, 2, 9);
    scene.temperature = temperature;
    return scene;
}

QPushButton* barButton(ui::MessageBar* bar, const QString& text)
{
    for (QPushButton* button : bar->findChildren<QPushButton*>())
        if (button->text() == text && button->isVisibleTo(bar))
            return button;
    return nullptr;
}

QStringList filesIn(const QString& dir)
{
    return QDir(dir).entryList(QDir::Files | QDir::Hidden, QDir::Name);
}

// The child of killedDuringEditing(): a window whose temperature changes every 100 ms until it is
// killed, each value printed once it is set.
int editUntilKilled()
{
    ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
    QTimer edits;
    int step = 0;
    QObject::connect(&edits, &QTimer::timeout, [&] {
        ++step;
        window.document()->setTemperature(1.0f + 0.01f * float(step));
        std::cout << step << std::endl;
    });
    edits.start(100);
    return QApplication::exec();
}

void useTestLocations()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer-tests"));
    QCoreApplication::setApplicationName(QStringLiteral("tst_crash_recovery"));
}

} // namespace

class TestCrashRecovery : public QObject
{
    Q_OBJECT

private slots:
    void init() { QDir(recoveryDir()).removeRecursively(); }
    void cleanupTestCase() { QDir(recoveryDir()).removeRecursively(); }

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

    // Two crashed copies: both are offered, one after the other; Discard removes only the one it
    // names; Restore removes its copy only after this window's own copy holds the work.
    void everyCopyIsOfferedAndRemovedOnlyWhenSafe()
    {
        const QString older =
            leaveCopy(core::sceneToJson(sceneWithTemperature(0.25f)), QString(), 999998);
        QVERIFY(makeOlder(older));
        const QString newer =
            leaveCopy(core::sceneToJson(sceneWithTemperature(0.5f)), QString(), 999999);

        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        ui::MessageBar* bar = window.messageBar();
        QCOMPARE(bar->key(), QStringLiteral("recovery"));
        QVERIFY2(bar->text().contains(QStringLiteral("waiting after this one: 1")),
                 qPrintable(bar->text()));
        barButton(bar, QStringLiteral("Discard"))->click();
        QVERIFY(!QFile::exists(newer));
        QVERIFY(QFile::exists(older));
        QCOMPARE(bar->key(), QStringLiteral("recovery")); // the next one
        QVERIFY(!bar->text().contains(QStringLiteral("waiting")));

        barButton(bar, QStringLiteral("Restore"))->click();
        QCOMPARE(window.document()->scene().temperature, 0.25f);
        QVERIFY(window.document()->isModified());
        QVERIFY(!QFile::exists(older));
        // Written at once, not two seconds later: a crash now loses nothing.
        QVERIFY(QFile::exists(window.recoveryStore()->copyPath()));
        QCOMPARE(core::loadScene(window.recoveryStore()->copyPath()).temperature, 0.25f);
        QVERIFY(bar->key() != QLatin1String("recovery"));
        window.document()->undoStack()->setClean();
        QVERIFY(!QFile::exists(window.recoveryStore()->copyPath()));
        QCOMPARE(filesIn(recoveryDir()).filter(QStringLiteral(".json")).size(), 0);
    }

    // A copy that cannot be read is kept and says where; the next one is still offered. One
    // naming a word-vector file beside the scene it came from is restored with that file, not
    // looked up in the recovery folder.
    void failedRestoreKeepsTheCopy()
    {
        QTemporaryDir lesson;
        QVERIFY(QFile::copy(QStringLiteral(ATTN_TEST_DATA_DIR "/wordvectors/analogy_8d.txt"),
                            lesson.filePath(QStringLiteral("vectors.txt"))));
        core::Scene scene = core::makeScene(QStringLiteral("king queen"), 8, 1, 3);
        scene.embedding.kind = core::EmbeddingKind::WordVectors;
        scene.embedding.wordVectorPath = QStringLiteral("vectors.txt");
        scene.temperature = 0.75f;
        const QString original = lesson.filePath(QStringLiteral("lesson.json"));
        const QString readable = leaveCopy(core::sceneToJson(scene), original, 999998);
        QVERIFY(makeOlder(readable));
        const QString broken = leaveCopy("{\"version\": 1, \"text\": ", QString(), 999999);

        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        ui::MessageBar* bar = window.messageBar();
        barButton(bar, QStringLiteral("Restore"))->click(); // the newer, broken one
        QCOMPARE(bar->level(), ui::MessageBar::Level::Error);
        QVERIFY2(bar->text().contains(QStringLiteral("Could not restore")) &&
                     bar->text().contains(QDir::toNativeSeparators(broken)),
                 qPrintable(bar->text()));
        QVERIFY(QFile::exists(broken));
        QVERIFY(!window.document()->isModified());

        barButton(bar, QStringLiteral("Next Copy"))->click();
        QCOMPARE(bar->key(), QStringLiteral("recovery"));
        barButton(bar, QStringLiteral("Restore"))->click();
        QVERIFY2(bar->level() != ui::MessageBar::Level::Error ||
                     bar->key() != QLatin1String("recovery"),
                 qPrintable(bar->text()));
        QCOMPARE(window.document()->scene().temperature, 0.75f);
        QCOMPARE(window.document()->filePath(), original);
        QVERIFY(window.document()->scene().embedding.wordVectors);
        QVERIFY(!QFile::exists(readable));
        QVERIFY(QFile::exists(broken)); // still kept, and offered by the next window
        window.document()->undoStack()->setClean();
    }

    // kill -9 of a window being edited every 100 ms: the next window offers the work as it
    // was at most a few seconds before the kill, and offers it once.
    void killedDuringEditing()
    {
        QProcess child;
        child.setProcessChannelMode(QProcess::SeparateChannels);
        child.start(QCoreApplication::applicationFilePath(),
                    {QStringLiteral("--edit-until-killed")});
        QVERIFY(child.waitForStarted(10000));
        int lastStep = 0;
        QElapsedTimer clock;
        clock.start();
        while (lastStep < 35 && clock.elapsed() < 30000) {
            child.waitForReadyRead(200);
            while (child.canReadLine())
                lastStep = child.readLine().trimmed().toInt();
        }
        QVERIFY2(lastStep >= 35, "the child did not edit for 3.5 s");
        ::kill(pid_t(child.processId()), SIGKILL);
        QVERIFY(child.waitForFinished(10000));
        while (child.canReadLine())
            lastStep = std::max(lastStep, child.readLine().trimmed().toInt());

        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        QCOMPARE(window.messageBar()->key(), QStringLiteral("recovery"));
        ui::RecoveryStore second(recoveryDir(), {});
        QVERIFY(second.claimLeftCopies().empty()); // offered once, by the first window
        barButton(window.messageBar(), QStringLiteral("Restore"))->click();
        const float restored = window.document()->scene().temperature;
        const int savedStep = int(std::lround((restored - 1.0f) / 0.01f));
        // Saved every 2 s at the latest: at most ~25 edits of 100 ms lost, with slack for a
        // loaded machine.
        QVERIFY2(
            savedStep >= lastStep - 30 && savedStep <= lastStep,
            qPrintable(
                QStringLiteral("restored step %1, last step %2").arg(savedStep).arg(lastStep)));
        window.document()->undoStack()->setClean();
    }
};

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    useTestLocations();
    if (argc == 2 && QByteArray(argv[1]) == "--edit-until-killed")
        return editUntilKilled();
    TestCrashRecovery test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_crash_recovery.moc"
