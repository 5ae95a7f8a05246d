// File > Download Model…: the dialog against the loopback Hub of tests/hub/hub_test_server.h.

#include "core/hub/hub_downloader.h"
#include "hub/hub_test_server.h"
#include "ui/hub/download_model_dialog.h"

#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

using attn::test::HubTestServer;
using attn::ui::DownloadModelDialog;
using namespace attn::core::hub;

class TestDownloadModelDialog : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_home;

    HubSettings settings(const HubTestServer& server) const
    {
        HubSettings s;
        s.endpoint = server.endpoint();
        s.cacheFolder = m_home.filePath("hub");
        return s;
    }

private slots:
    void init()
    {
        QDir(m_home.path()).removeRecursively();
        QDir().mkpath(m_home.path());
        qputenv("HF_HOME", m_home.path().toUtf8());
        qunsetenv("HF_HUB_CACHE");
        qunsetenv("HUGGINGFACE_HUB_CACHE");
    }

    void galleryListsModelsAndCache()
    {
        // A model in the cache that the gallery does not name is listed after it.
        QDir().mkpath(m_home.filePath("hub/models--org--cached/snapshots/abc"));
        QFile config(m_home.filePath("hub/models--org--cached/snapshots/abc/config.json"));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("{}");
        config.close();
        HubTestServer server(ATTN_TEST_DATA_DIR "/models/distilbert");
        DownloadModelDialog dialog(settings(server));
        QTreeWidget* gallery = dialog.gallery();
        QCOMPARE(gallery->topLevelItemCount(), 11);
        QCOMPARE(gallery->topLevelItem(0)->text(0), QString("openai-community/gpt2"));
        QCOMPARE(gallery->topLevelItem(0)->text(1), QString("548 MB"));
        QCOMPARE(gallery->topLevelItem(8)->text(0), QString("Helsinki-NLP/opus-mt-en-fr"));
        QCOMPARE(gallery->topLevelItem(10)->text(0), QString("org/cached"));
        QCOMPARE(gallery->topLevelItem(10)->text(2), QString("yes"));
        QVERIFY(!dialog.downloadButton()->isEnabled());
        gallery->setCurrentItem(gallery->topLevelItem(1));
        QCOMPARE(dialog.idEdit()->text(), QString("distilbert/distilgpt2"));
        QVERIFY(dialog.downloadButton()->isEnabled());
    }

    void downloadsAndAccepts()
    {
        HubTestServer server(ATTN_TEST_DATA_DIR "/models/distilbert");
        DownloadModelDialog dialog(settings(server));
        dialog.show();
        dialog.idEdit()->setText("test-org/tiny-distilbert");
        QTest::mouseClick(dialog.downloadButton(), Qt::LeftButton);
        QVERIFY(!dialog.downloadButton()->isEnabled());
        QVERIFY(QTest::qWaitFor([&] { return dialog.result() == QDialog::Accepted; }, 20000));
        QCOMPARE(
            dialog.selectedFolder(),
            m_home.filePath("hub/models--test-org--tiny-distilbert/snapshots/" + server.commit));
        QCOMPARE(dialog.progressBar()->value(), 1000);
        QVERIFY2(dialog.statusLabel()->text().startsWith("39.3 kB of 39.3 kB"),
                 qPrintable(dialog.statusLabel()->text()));
    }

    void cancelKeepsDialogOpen()
    {
        HubTestServer server(ATTN_TEST_DATA_DIR "/models/distilbert");
        server.slowFile = "model.safetensors";
        server.slowIntervalMs = 5;
        DownloadModelDialog dialog(settings(server));
        dialog.show();
        dialog.idEdit()->setText("test-org/tiny-distilbert");
        QTest::mouseClick(dialog.downloadButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return dialog.progressBar()->value() > 12; }, 20000));
        dialog.reject(); // the Cancel button
        QVERIFY(!dialog.downloader()->isRunning());
        QVERIFY(dialog.isVisible());
        QVERIFY2(
            dialog.statusLabel()->text().startsWith("test-org/tiny-distilbert: download cancelled"),
            qPrintable(dialog.statusLabel()->text()));
        QVERIFY(dialog.downloadButton()->isEnabled());
        dialog.reject();
        QVERIFY(!dialog.isVisible());
    }

    void failureIsShown()
    {
        HubTestServer server(ATTN_TEST_DATA_DIR "/models/distilbert");
        server.apiStatus = 401;
        server.apiErrorCode = "GatedRepo";
        DownloadModelDialog dialog(settings(server));
        dialog.show();
        dialog.idEdit()->setText("test-org/tiny-distilbert");
        QTest::mouseClick(dialog.downloadButton(), Qt::LeftButton);
        QVERIFY(QTest::qWaitFor([&] { return dialog.downloadButton()->isEnabled(); }, 20000));
        QVERIFY2(dialog.statusLabel()->text().startsWith(
                     "test-org/tiny-distilbert: the Hub asks for a token (HTTP 401"),
                 qPrintable(dialog.statusLabel()->text()));
        QVERIFY(dialog.isVisible());
    }
};

QTEST_MAIN(TestDownloadModelDialog)
#include "tst_download_model_dialog.moc"
