// The settings kept between runs: typed, read back as written, empty export choices until the
// first export, and the keys earlier versions wrote still read (nothing a user had is lost).

#include "ui/document/preferences.h"

#include <QCoreApplication>
#include <QDir>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace attn::ui;

class TestPreferences : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_preferences"));
    }
    void init() { QSettings().clear(); }
    void cleanupTestCase() { QSettings().clear(); }

    void foldersStartAtHomeAndFollowFiles()
    {
        QCOMPARE(preferences::sceneDirectory(), QDir::homePath());
        QCOMPARE(preferences::modelDirectory(), QDir::homePath());
        QCOMPARE(preferences::exportDirectory(), QString());
        QTemporaryDir dir;
        preferences::rememberSceneFile(dir.filePath(QStringLiteral("a.json")));
        QCOMPARE(preferences::sceneDirectory(), dir.path());
        preferences::rememberExportFile(dir.filePath(QStringLiteral("figure.pdf")));
        QCOMPARE(preferences::exportDirectory(), dir.path());
        preferences::setModelDirectory(QStringLiteral("/models/gpt2"));
        QCOMPARE(preferences::modelDirectory(), QStringLiteral("/models/gpt2"));
    }

    void recentFilesNewestFirstAtMostEight()
    {
        for (int i = 0; i < 10; ++i)
            preferences::addRecentFile(QStringLiteral("/s/%1.json").arg(i));
        preferences::addRecentFile(QStringLiteral("/s/5.json")); // moves to the front
        const QStringList expected{QStringLiteral("/s/5.json"), QStringLiteral("/s/9.json"),
                                   QStringLiteral("/s/8.json"), QStringLiteral("/s/7.json"),
                                   QStringLiteral("/s/6.json"), QStringLiteral("/s/4.json"),
                                   QStringLiteral("/s/3.json"), QStringLiteral("/s/2.json")};
        QCOMPARE(preferences::recentFiles(), expected);
        QTemporaryDir model;
        preferences::addRecentModel(model.path(), QStringLiteral("The cat sat on the"));
        QCOMPARE(preferences::recentFiles().front(), model.path());
        QCOMPARE(preferences::recentModelText(model.path()), QStringLiteral("The cat sat on the"));
        QCOMPARE(preferences::recentModelText(QStringLiteral("/elsewhere")), QString());
        preferences::clearRecentFiles();
        QVERIFY(preferences::recentFiles().isEmpty());
    }

    void exportChoicesAreEmptyUntilStoredAndStoredFieldByField()
    {
        const preferences::ExportChoices none = preferences::exportChoices();
        QVERIFY(!none.format && !none.unit && !none.width && !none.height && !none.dpi &&
                !none.colormap && !none.fontPoints && !none.colorBar && !none.showValues &&
                !none.precision && !none.matrixStage && !none.matrixFormat);
        preferences::ExportChoices figure;
        figure.format = QStringLiteral("pdf");
        figure.width = 8.5;
        figure.dpi = 600;
        figure.colorBar = false;
        preferences::storeExportChoices(figure);
        preferences::ExportChoices matrix;
        matrix.matrixFormat = QStringLiteral("npy");
        preferences::storeExportChoices(matrix); // leaves the figure's choices as they were
        const preferences::ExportChoices read = preferences::exportChoices();
        QCOMPARE(read.format.value_or(QString()), QStringLiteral("pdf"));
        QCOMPARE(read.width.value_or(0.0), 8.5);
        QCOMPARE(read.dpi.value_or(0), 600);
        QCOMPARE(read.colorBar.value_or(true), false);
        QCOMPARE(read.matrixFormat.value_or(QString()), QStringLiteral("npy"));
        QVERIFY(!read.unit && !read.matrixStage);
    }

    // Written by earlier versions under these keys: still read.
    void earlierKeysStillRead()
    {
        QSettings settings;
        settings.setValue(QStringLiteral("lastDirectory"), QStringLiteral("/lessons"));
        settings.setValue(QStringLiteral("window/geometry"), QByteArray("geometry bytes"));
        settings.setValue(QStringLiteral("window/state"), QByteArray("state bytes"));
        settings.setValue(QStringLiteral("export/dpi"), 150);
        settings.setValue(QStringLiteral("recentFiles"),
                          QStringList{QStringLiteral("/lessons/a.json")});
        settings.sync();
        QCOMPARE(preferences::sceneDirectory(), QStringLiteral("/lessons"));
        const preferences::WindowLayout layout =
            preferences::windowLayout(QStringLiteral("explorer"));
        QCOMPARE(layout.geometry, QByteArray("geometry bytes"));
        QCOMPARE(layout.state, QByteArray("state bytes"));
        QCOMPARE(preferences::exportChoices().dpi.value_or(0), 150);
        QCOMPARE(preferences::recentFiles(), QStringList{QStringLiteral("/lessons/a.json")});
        preferences::setWindowLayout(QStringLiteral("explorer"),
                                     {QByteArray("g2"), QByteArray("s2")});
        QCOMPARE(QSettings().value(QStringLiteral("window/geometry")).toByteArray(),
                 QByteArray("g2"));
    }
};

QTEST_GUILESS_MAIN(TestPreferences)
#include "tst_preferences.moc"
