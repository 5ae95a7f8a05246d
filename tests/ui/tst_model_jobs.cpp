// The model window's worker threads without the window: opening a checkpoint (ModelLoadJob),
// running it (ModelComputeController) and head importance (HeadImportanceJob) on the tiny GPT-2
// of tests/data/models, whose attention PyTorch computed (expected.json, make_tiny_models.py).
// Also run under ThreadSanitizer (the tsan-core preset): what each thread hands the UI thread
// goes through a lock it can see.
#include "ui/model/head_importance_job.h"
#include "ui/model/model_compute_controller.h"
#include "ui/model/model_load_job.h"

#include "core/cpu_backend.h"
#include "support/model_fixtures.h"

#include <QJsonArray>
#include <QSignalSpy>
#include <QTest>

using namespace attn;

namespace {

const QString kFolder = test::modelFixturesDir() + QStringLiteral("/gpt2");

std::shared_ptr<const core::Model> load(const QString& folder, QString* error = nullptr)
{
    ui::ModelLoadJob job(folder);
    QSignalSpy loaded(&job, &ui::ModelLoadJob::loaded);
    QSignalSpy failed(&job, &ui::ModelLoadJob::failed);
    job.start();
    if (!QTest::qWaitFor([&] { return loaded.size() + failed.size() > 0; }, 30000))
        return nullptr;
    if (error && !failed.isEmpty())
        *error = failed.at(0).at(0).toString();
    return loaded.isEmpty() ? nullptr
                            : loaded.at(0).at(0).value<std::shared_ptr<const core::Model>>();
}

} // namespace

class TestModelJobs : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { qRegisterMetaType<std::shared_ptr<const core::Model>>(); }

    void loadReportsProgressThenTheModel()
    {
        ui::ModelLoadJob job(kFolder);
        QSignalSpy progress(&job, &ui::ModelLoadJob::progress);
        QSignalSpy loaded(&job, &ui::ModelLoadJob::loaded);
        job.start();
        QVERIFY(job.isRunning());
        QVERIFY(loaded.wait(30000));
        QVERIFY(!job.isRunning());
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().at(0).toInt(),
                 progress.last().at(1).toInt()); // the last says done
        const auto model = loaded.at(0).at(0).value<std::shared_ptr<const core::Model>>();
        QVERIFY(model);
        QCOMPARE(model->config().layers, 2); // config.json: n_layer 2, n_head 4
        QCOMPARE(model->config().heads, 4);
    }

    void aFolderThatIsNoModelFails()
    {
        QString error;
        QVERIFY(!load(test::modelFixturesDir() + QStringLiteral("/no-such-model"), &error));
        QVERIFY2(error.contains(QStringLiteral("no-such-model")), qPrintable(error));
    }

    // A model bigger than the memory there is (a budget of 1 MiB here) fails with both sizes,
    // before a weight is read: the fixture's 63048 bytes of float32, an eighth more and 64 MiB.
    void notEnoughMemorySaysHowMuch()
    {
        qputenv("ATTN_MEMORY_LIMIT_MIB", "1");
        QString error;
        const auto model = load(kFolder, &error);
        qunsetenv("ATTN_MEMORY_LIMIT_MIB");
        QVERIFY(!model);
        QCOMPARE(error, QStringLiteral(
                            "not enough memory: the model needs 64.1 MiB, 1.0 MiB are available "
                            "(ATTN_MEMORY_LIMIT_MIB)"));
    }

    void computeGivesPyTorchsAttention()
    {
        const auto model = load(kFolder);
        QVERIFY(model);
        const QJsonObject expected =
            test::expectedFor(QStringLiteral("gpt2"))[QLatin1String("cases")]
                .toArray()[0]
                .toObject();
        ui::ModelComputeController controller(std::make_unique<core::CpuBackend>());
        QSignalSpy finished(&controller, &ui::ModelComputeController::finished);
        // Two requests at once: the first may be replaced or cancelled, the second is answered.
        controller.request({model, QStringLiteral("a different text"), {}});
        const quint64 last =
            controller.request({model, expected[QLatin1String("text")].toString(), {}});
        QVERIFY(QTest::qWaitFor([&] { return !controller.isBusy(); }, 30000));
        QVERIFY(!finished.isEmpty());
        const auto reply = finished.last().at(0).value<ui::ModelComputeReply>();
        QCOMPARE(reply.generation, last);
        QVERIFY2(reply.result, qPrintable(reply.error));
        const QJsonArray attention = expected[QLatin1String("attention")].toArray();
        QCOMPARE(reply.result->layerCount(), 2);
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 4; ++h)
                QVERIFY(test::maxDifference(
                            reply.result->layers[std::size_t(l)]->heads[std::size_t(h)].weights,
                            test::matrixOf(attention[l][h])) < 1e-5);
    }

    void headImportanceCoversEveryHead()
    {
        const auto model = load(kFolder);
        QVERIFY(model);
        core::CpuBackend backend;
        const auto base = core::runModel(
            model, core::modelTokens(*model, QStringLiteral("The cat sat on the")), {}, backend);
        ui::HeadImportanceJob job(base, std::make_unique<core::CpuBackend>());
        QSignalSpy progress(&job, &ui::HeadImportanceJob::progress);
        QSignalSpy finished(&job, &ui::HeadImportanceJob::finished);
        job.start();
        QVERIFY(finished.wait(30000));
        const auto importance = finished.at(0).at(0).value<core::HeadImportance>();
        QCOMPARE(importance.drop.rows(), 2);
        QCOMPARE(importance.drop.cols(), 4);
        QCOMPARE(progress.last().at(0).toInt(), 8); // one step per head
        QCOMPARE(progress.last().at(1).toInt(), 8);
        QVERIFY(importance.drop.allFinite());
    }
};

QTEST_GUILESS_MAIN(TestModelJobs)
#include "tst_model_jobs.moc"
