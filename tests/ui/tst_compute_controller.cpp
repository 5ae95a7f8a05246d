// The explorer's compute thread (ui/document/compute_controller): what comes back is the
// backend's result for the newest request, a newer request cancels the compute in progress and
// replaces those waiting, closing cancels too, a backend fault falls back to the CPU, and a
// closed controller delivers nothing. Also run under ThreadSanitizer (the tsan-core preset): every
// hand-over between the UI thread and the worker is one it can see.
#include "ui/document/compute_controller.h"

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/scene.h"

#include <QSignalSpy>
#include <QTest>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

using namespace attn;

namespace {

// The CPU backend behind a gate: each compute waits until the test opens it, so that the test
// knows which request is computing while it sends the next ones.
class GatedBackend : public core::Backend
{
public:
    struct Gate
    {
        std::mutex mutex;
        std::condition_variable changed;
        bool open = false;
        int entered = 0; // computes started
    };

    explicit GatedBackend(Gate& gate) : m_gate(gate) {}
    std::string name() const override { return "Gated"; }
    std::string deviceName() const override { return "a test gate"; }
    std::shared_ptr<const core::AttentionResult>
    compute(std::shared_ptr<const core::Problem> problem,
            const core::ComputeOptions& options) override
    {
        {
            std::unique_lock lock(m_gate.mutex);
            ++m_gate.entered;
            m_gate.changed.notify_all();
            m_gate.changed.wait(lock, [this] { return m_gate.open; });
        }
        return m_cpu.compute(std::move(problem), options);
    }
    core::BlockOps& blockOps() override { return m_cpu.blockOps(); }

private:
    Gate& m_gate;
    core::CpuBackend m_cpu;
};

// A device that is lost on every compute.
class LostDevice : public core::Backend
{
public:
    std::string name() const override { return "Lost"; }
    std::string deviceName() const override { return "a device that is lost"; }
    std::shared_ptr<const core::AttentionResult> compute(std::shared_ptr<const core::Problem>,
                                                         const core::ComputeOptions&) override
    {
        throw core::BackendFault("VK_ERROR_DEVICE_LOST (a test)");
    }
    core::BlockOps& blockOps() override { return m_cpu.blockOps(); }

private:
    core::CpuBackend m_cpu;
};

// Its first compute runs until the caller cancels it (at most 10 s), as a long CPU compute
// does between its blocks of rows; later computes are the CPU backend's.
class RunsUntilCancelled : public core::Backend
{
public:
    std::string name() const override { return "CPU"; }
    std::string deviceName() const override { return "Eigen"; }
    std::shared_ptr<const core::AttentionResult>
    compute(std::shared_ptr<const core::Problem> problem,
            const core::ComputeOptions& options) override
    {
        if (computes++ == 0) {
            started = true;
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (std::chrono::steady_clock::now() < deadline) {
                if (options.cancel && options.cancel->load()) {
                    sawCancel = true;
                    throw core::Cancelled();
                }
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        }
        return m_cpu.compute(std::move(problem), options);
    }
    core::BlockOps& blockOps() override { return m_cpu.blockOps(); }

    std::atomic<int> computes{0};
    std::atomic<bool> started{false};
    std::atomic<bool> sawCancel{false};

private:
    core::CpuBackend m_cpu;
};

ui::ComputeRequest requestFor(const QString& text)
{
    return {core::makeScene(text, 8, 2, 7), std::nullopt, {}};
}

bool waitForEntered(GatedBackend::Gate& gate, int count)
{
    std::unique_lock lock(gate.mutex);
    return gate.changed.wait_for(lock, std::chrono::seconds(20),
                                 [&] { return gate.entered >= count; });
}

void openGate(GatedBackend::Gate& gate)
{
    const std::lock_guard lock(gate.mutex);
    gate.open = true;
    gate.changed.notify_all();
}

} // namespace

class TestComputeController : public QObject
{
    Q_OBJECT

private slots:
    void replyIsTheBackendsResult()
    {
        ui::ComputeController controller(std::make_unique<core::CpuBackend>());
        QSignalSpy finished(&controller, &ui::ComputeController::finished);
        const ui::ComputeRequest request = requestFor(QStringLiteral("the cat sat on the mat"));
        QCOMPARE(controller.request(request), quint64(1));
        QVERIFY(controller.isBusy());
        QVERIFY(finished.wait(20000));
        const auto reply = finished.at(0).at(0).value<ui::ComputeReply>();
        QCOMPARE(reply.generation, quint64(1));
        QVERIFY(controller.isCurrent(reply));
        QVERIFY(!controller.isBusy());
        QVERIFY2(reply.result, qPrintable(reply.error));
        // The same numbers as the backend computes on this thread, and weights that are a
        // distribution over the six keys.
        const auto direct = core::CpuBackend().compute(core::resolveProblem(request.scene), {});
        QCOMPARE(reply.result->heads.size(), std::size_t(2));
        for (std::size_t h = 0; h < 2; ++h) {
            const core::Matrix& weights = reply.result->heads[h].weights;
            QCOMPARE(weights.rows(), 6);
            QVERIFY(weights == direct->heads[h].weights);
            for (int i = 0; i < 6; ++i)
                QVERIFY(std::abs(weights.row(i).sum() - 1.0f) < 1e-6f);
        }
        QVERIFY(reply.result->output == direct->output);
    }

    void waitingRequestsAreReplacedByTheNewest()
    {
        GatedBackend::Gate gate;
        ui::ComputeController controller(std::make_unique<GatedBackend>(gate));
        QSignalSpy finished(&controller, &ui::ComputeController::finished);
        QSignalSpy busy(&controller, &ui::ComputeController::busyChanged);
        controller.request(requestFor(QStringLiteral("one")));
        QVERIFY(waitForEntered(gate, 1)); // "one" is computing
        controller.request(requestFor(QStringLiteral("two words")));
        controller.request(requestFor(QStringLiteral("three words here")));
        controller.request(requestFor(QStringLiteral("four words are here")));
        QCOMPARE(controller.latestGeneration(), quint64(4));
        openGate(gate); // "one" goes on to the CPU backend, which finds it cancelled
        QVERIFY(QTest::qWaitFor([&] { return !controller.isBusy(); }, 20000));
        QTest::qWait(50); // nothing more comes
        QCOMPARE(finished.size(), 1);
        const auto last = finished.at(0).at(0).value<ui::ComputeReply>();
        QCOMPARE(last.generation, quint64(4));
        QVERIFY(controller.isCurrent(last));
        QCOMPARE(last.result->heads[0].weights.rows(), 4); // "four words are here"
        {
            const std::lock_guard lock(gate.mutex);
            QCOMPARE(gate.entered, 2); // "two" and "three" were never computed
        }
        QCOMPARE(busy.size(), 2); // busy once, idle once
        QCOMPARE(busy.at(0).at(0).toBool(), true);
        QCOMPARE(busy.at(1).at(0).toBool(), false);
    }

    void aNewRequestCancelsTheComputeInProgress()
    {
        auto owned = std::make_unique<RunsUntilCancelled>();
        RunsUntilCancelled& backend = *owned;
        ui::ComputeController controller(std::move(owned));
        QSignalSpy finished(&controller, &ui::ComputeController::finished);
        controller.request(requestFor(QStringLiteral("a long compute")));
        QVERIFY(QTest::qWaitFor([&] { return backend.started.load(); }, 20000));
        const auto asked = std::chrono::steady_clock::now();
        controller.request(requestFor(QStringLiteral("the cat sat")));
        QVERIFY(finished.wait(5000)); // not the 10 s the first compute would have taken
        QVERIFY(std::chrono::steady_clock::now() - asked < std::chrono::seconds(5));
        QVERIFY(backend.sawCancel);
        QTest::qWait(50);
        QCOMPARE(finished.size(), 1); // the cancelled compute is not answered
        const auto reply = finished.at(0).at(0).value<ui::ComputeReply>();
        QCOMPARE(reply.generation, quint64(2));
        QCOMPARE(reply.result->heads[0].weights.rows(), 3);
        QVERIFY(!controller.isBusy());
    }

    void closingCancelsTheComputeInProgress()
    {
        auto owned = std::make_unique<RunsUntilCancelled>();
        const RunsUntilCancelled& backend = *owned;
        auto controller = std::make_unique<ui::ComputeController>(std::move(owned));
        controller->request(requestFor(QStringLiteral("a long compute")));
        QVERIFY(QTest::qWaitFor([&] { return backend.started.load(); }, 20000));
        // The worker ends, and the backend with it, within the call: it is not read after.
        const auto start = std::chrono::steady_clock::now();
        controller.reset();
        QVERIFY(std::chrono::steady_clock::now() - start < std::chrono::seconds(5)); // not 10 s
    }

    void lostDeviceFallsBackToTheCpu()
    {
        ui::ComputeController controller(std::make_unique<LostDevice>());
        QCOMPARE(controller.backendName(), QStringLiteral("Lost"));
        QSignalSpy finished(&controller, &ui::ComputeController::finished);
        QSignalSpy changed(&controller, &ui::ComputeController::backendChanged);
        controller.request(requestFor(QStringLiteral("the cat sat")));
        QVERIFY(finished.wait(20000));
        const auto reply = finished.at(0).at(0).value<ui::ComputeReply>();
        QVERIFY2(reply.result, qPrintable(reply.error));
        QCOMPARE(reply.result->backend, std::string("CPU"));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).at(0).toString(), QStringLiteral("CPU"));
        QVERIFY(changed.at(0).at(2).toString().contains(QStringLiteral("VK_ERROR_DEVICE_LOST")));
        QCOMPARE(controller.backendName(), QStringLiteral("CPU"));
    }

    void aClosedControllerDeliversNothing()
    {
        GatedBackend::Gate gate;
        bool delivered = false;
        {
            ui::ComputeController controller(std::make_unique<GatedBackend>(gate));
            connect(&controller, &ui::ComputeController::finished, this, [&] { delivered = true; });
            controller.request(requestFor(QStringLiteral("the cat sat")));
            QVERIFY(waitForEntered(gate, 1));
            openGate(gate); // the destructor waits for this compute, then drops its reply
        }
        QTest::qWait(50);
        QVERIFY(!delivered);
    }
};

QTEST_GUILESS_MAIN(TestComputeController)
#include "tst_compute_controller.moc"
