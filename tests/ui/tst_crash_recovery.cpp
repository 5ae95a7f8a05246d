// Crash recovery in the window: every copy offered, a copy deleted only once its work is safe,
// a copy that cannot be read kept, and a real kill -9 of a window in the middle of editing.
// The store itself (autosave, session ids, locks) is tst_recovery_store.

#include "ui/document/recovery_store.h"
#include "ui/explorer/explorer_window.h"
#include "ui/widgets/message_bar.h"

#include "core/cpu_backend.h"
#include "core/scene_json.h"
#include "support/recovery_copies.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QPushButton>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <csignal>
#include <iostream>

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

QString leaveCopy(const QByteArray& content, const QString& original, qint64 pid)
{
    return test::leaveRecoveryCopy(recoveryDir(), content, original, pid);
}

using test::filesIn;

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
        QCOMPARE(
            core::sceneFromJson(ui::RecoveryStore::readContent(window.recoveryStore()->copyPath()))
                .temperature,
            0.25f);
        QVERIFY(bar->key() != QLatin1String("recovery"));
        window.document()->undoStack()->setClean();
        QVERIFY(!QFile::exists(window.recoveryStore()->copyPath()));
        QCOMPARE(filesIn(recoveryDir()).filter(QStringLiteral(".json")).size(), 0);
    }

    // Untitled work is announced by the name its window's title bar shows (the scene's
    // title), not as "an untitled scene".
    void copiesAreAnnouncedByTheirName()
    {
        const QString title = QStringLiteral("The animal didn't cross the street");
        {
            ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
            core::Scene scene = sceneWithTemperature(0.5f);
            scene.title = title;
            window.setScene(scene, QString());
            window.document()->setTemperature(0.75f);
            QVERIFY(window.recoveryStore()->saveNow());
            QCOMPARE(ui::RecoveryStore::describe(window.recoveryStore()->copyPath()).name, title);
            window.document()->undoStack()->setClean();
        }
        test::leaveRecoveryCopy(recoveryDir(), core::sceneToJson(sceneWithTemperature(0.5f)),
                                QString(), 999999, QStringLiteral("scene"), title);
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        QVERIFY2(window.messageBar()->text().contains(
                     QStringLiteral("Restore the unsaved changes to %1 from").arg(title)),
                 qPrintable(window.messageBar()->text()));
        barButton(window.messageBar(), QStringLiteral("Discard"))->click();
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
        ui::RecoveryStore second(recoveryDir(), ui::RecoveryStore::Kind::Scene, {});
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
