// The model window's Generate tab (ui/model/generate_view.h) on the tiny GPT-2 checkpoint:
// Generate writes greedily what PyTorch wrote (generation_expected.json), each token listed
// with its probability; the slider scrubs back through the steps; Stop ends a run; heads off
// in the window's run stay off while generating.

#include "core/cpu_backend.h"
#include "core/model/forward.h"
#include "core/model/generation.h"
#include "core/model/model_loader.h"
#include "support/model_fixtures.h"
#include "ui/model/generate_view.h"

#include <QDoubleSpinBox>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QTest>

using namespace attn;

namespace {

std::shared_ptr<const core::ModelResult> gpt2Run(const core::Interventions& interventions = {})
{
    static const auto model = core::loadModel(test::modelFixturesDir() + QStringLiteral("/gpt2"));
    core::CpuBackend backend;
    return core::runModel(model, core::modelTokens(*model, QStringLiteral("The cat sat on the")),
                          interventions, backend);
}

ui::GenerateView::BackendMaker cpu()
{
    return [] { return std::make_unique<core::CpuBackend>(); };
}

std::vector<int> idsOf(const std::vector<core::GenerationStep>& steps)
{
    std::vector<int> ids;
    for (const core::GenerationStep& step : steps)
        ids.push_back(step.tokenId);
    return ids;
}

} // namespace

class TestGenerateView : public QObject
{
    Q_OBJECT

private slots:
    void greedyTokensAppearAndScrubBack()
    {
        ui::GenerateView view;
        QVERIFY(!view.generateButton()->isEnabled()); // no model yet
        view.setSource(gpt2Run(), cpu());
        QVERIFY(view.generateButton()->isEnabled());
        view.countBox()->setValue(5);
        view.temperatureBox()->setValue(0.0);
        QSignalSpy finished(&view, &ui::GenerateView::finished);
        QTest::mouseClick(view.generateButton(), Qt::LeftButton);
        QVERIFY(view.stopButton()->isEnabled());
        QVERIFY(finished.wait(5000));
        QVERIFY(!view.stopButton()->isEnabled());
        // generation_expected.json: gpt2 continues "The cat sat on the" with 64, then 144.
        QCOMPARE(idsOf(view.steps()), (std::vector<int>{64, 144, 144, 144, 144}));
        QCOMPARE(view.stepList()->count(), 5);
        QVERIFY(view.stepList()->item(0)->text().startsWith(QStringLiteral("1. \"a\"  ")));
        QCOMPARE(view.scrubber()->maximum(), 5);
        QCOMPARE(view.scrubber()->value(), 5); // following the newest token

        view.scrubber()->setValue(1);
        QCOMPARE(view.textLabel()->text(), QStringLiteral("The cat sat on thea"));
        QVERIFY(view.detailsLabel()->text().startsWith(QStringLiteral("Step 1 of 5: \"a\"")));
        QCOMPARE(view.stepList()->currentRow(), 0);
        view.scrubber()->setValue(0);
        QCOMPARE(view.textLabel()->text(), QStringLiteral("The cat sat on the"));
    }

    // The window's heads off: the tab writes what core::generate writes with them off.
    void interventionsStayOn()
    {
        core::Interventions off;
        off.headsOff = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
        const auto run = gpt2Run(off);
        ui::GenerateView view;
        view.setSource(run, cpu());
        view.countBox()->setValue(6);
        QSignalSpy finished(&view, &ui::GenerateView::finished);
        view.generate();
        QVERIFY(finished.wait(5000));
        core::CpuBackend backend;
        const core::Generation want =
            core::generate(run->model, run->tokens, off, backend, view.settings());
        QCOMPARE(idsOf(view.steps()), want.generated);
        QVERIFY(idsOf(view.steps()) != (std::vector<int>{64, 144, 144, 144, 144, 144}));
    }

    void stopEndsTheRun()
    {
        ui::GenerateView view;
        view.setSource(gpt2Run(), cpu());
        view.countBox()->setValue(27);
        QSignalSpy finished(&view, &ui::GenerateView::finished);
        view.generate();
        QTest::mouseClick(view.stopButton(), Qt::LeftButton);
        QVERIFY(finished.wait(5000));
        QVERIFY(view.stepCount() <= 27);
        QVERIFY(view.generateButton()->isEnabled());
    }
};

QTEST_MAIN(TestGenerateView)
#include "tst_generate_view.moc"
