// The scene file type (resources/desktop): the window saves NAME.attention.json, the
// extension the installed MIME type opens in the app, and takes .attention.json and .json
// scenes alike when they are dropped on it.
#include "core/cpu_backend.h"
#include "core/scene_json.h"
#include "ui/explorer/explorer_window.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

using namespace attn;

class TestSceneFileType : public QObject
{
    Q_OBJECT

private:
    // Drags `path` over the window and drops it; true when the window accepted the drag.
    static bool drop(ui::ExplorerWindow& window, const QString& path)
    {
        QMimeData data;
        data.setUrls({QUrl::fromLocalFile(path)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton,
                              Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &enter);
        if (!enter.isAccepted())
            return false;
        QDropEvent dropped(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &dropped);
        return dropped.isAccepted();
    }

private slots:
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(QStringLiteral("attention-explorer-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_scene_file_type"));
    }

    void savesWithTheSceneExtension()
    {
        QTemporaryDir dir;
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.setScene(core::loadScene(QStringLiteral(":/examples/01-this-is-a-cat.json")),
                        QString());
        QVERIFY(
            window.suggestedSavePath().endsWith(QStringLiteral("/this-is-a-cat.attention.json")));
        const QString path = dir.filePath(QStringLiteral("this-is-a-cat.attention.json"));
        QVERIFY(window.saveFile(path));
        QCOMPARE(core::loadScene(path).text, window.document()->scene().text);
    }

    void dropOpensBothExtensions_data()
    {
        QTest::addColumn<QString>("name");
        QTest::newRow("attention.json") << QStringLiteral("lesson.attention.json");
        QTest::newRow("json") << QStringLiteral("lesson.json");
        QTest::newRow("upper case") << QStringLiteral("LESSON.ATTENTION.JSON");
    }

    void dropOpensBothExtensions()
    {
        QFETCH(QString, name);
        QTemporaryDir dir;
        const QString path = dir.filePath(name);
        core::Scene scene = core::loadScene(QStringLiteral(":/examples/07-local-window.json"));
        core::saveScene(scene, path);
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        window.setScene(core::loadScene(QStringLiteral(":/examples/01-this-is-a-cat.json")),
                        QString());
        QVERIFY(drop(window, path));
        QCOMPARE(window.document()->filePath(), QFileInfo(path).absoluteFilePath());
        QCOMPARE(window.document()->scene().text, scene.text);
    }

    void dropRefusesOtherFiles()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("notes.txt"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("not a scene");
        file.close();
        ui::ExplorerWindow window(std::make_unique<core::CpuBackend>(), QString());
        QVERIFY(!drop(window, path));
    }
};

QTEST_MAIN(TestSceneFileType)
#include "tst_scene_file_type.moc"
