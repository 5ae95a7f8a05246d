// Training a single-layer scene. Every task is learned on the scene it is posed
// on; Adam's first steps match Kingma & Ba's Algorithm 1 worked by hand; the state resets,
// changes its learning rate and stops on request; the trained scene saves and computes like
// any other; hard attention learns only through a surrogate gradient.

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/scene_json.h"
#include "core/training/adam.h"
#include "core/training/trainer.h"

#include <QTest>
#include <cmath>

using namespace attn;
using core::Normalization;
using core::Trainer;
using core::TrainingSetup;
using core::TrainingTask;

namespace {

core::Scene example(const char* name)
{
    return core::loadScene(QStringLiteral(ATTN_RESOURCES_DIR "/examples/") + QLatin1String(name));
}

core::Scene sentence(const char* text, int dModel = 16, int heads = 1)
{
    return core::makeScene(QString::fromUtf8(text), dModel, heads, 7);
}

// The argmax of every row of the CPU backend's weights for head 0.
std::vector<int> backendArgmax(const core::Scene& scene)
{
    const auto result = core::CpuBackend().compute(core::resolveProblem(scene), {});
    std::vector<int> best;
    const core::Matrix& w = result->heads[0].weights;
    for (Eigen::Index i = 0; i < w.rows(); ++i) {
        Eigen::Index j = 0;
        w.row(i).maxCoeff(&j);
        best.push_back(int(j));
    }
    return best;
}

void expectError(const std::function<void()>& fn, const char* field)
{
    try {
        fn();
    } catch (const core::Error& e) {
        QVERIFY2(QString::fromUtf8(e.what()).contains(QLatin1String(field)), e.what());
        return;
    }
    QFAIL(qPrintable(QStringLiteral("no error naming %1").arg(QLatin1String(field))));
}

} // namespace

class TestTrainer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The positional tasks on a sentence with sinusoidal positions: every row ends up
    // attending where the task asks.
    void positionalTasksAreLearned_data()
    {
        QTest::addColumn<int>("task");
        QTest::addColumn<int>("heads");
        QTest::addRow("copy") << int(TrainingTask::Copy) << 1;
        QTest::addRow("copy, 2 heads") << int(TrainingTask::Copy) << 2;
        QTest::addRow("previous-token") << int(TrainingTask::PreviousToken) << 1;
        QTest::addRow("reverse") << int(TrainingTask::Reverse) << 1;
    }
    void positionalTasksAreLearned()
    {
        QFETCH(int, task);
        QFETCH(int, heads);
        TrainingSetup setup;
        setup.task = TrainingTask(task);
        Trainer trainer(sentence("the student who got the highest grade was awarded", 16, heads),
                        setup);
        const double first = trainer.evaluate().loss.total;
        QCOMPARE(trainer.run(300), 300);
        const core::TrainingEvaluation after = trainer.evaluate();
        QCOMPARE(after.accuracy, 1.0);
        QVERIFY2(after.loss.total < 0.1 * first, qPrintable(QString::number(after.loss.total)));
        QCOMPARE(int(trainer.lossHistory().size()), 300);
        QCOMPARE(trainer.lossHistory().front(), first);

        // The trained scene computes the same attention on the CPU backend.
        const core::Scene trained = trainer.trainedScene();
        const std::vector<int> best = backendArgmax(trained);
        const core::TrainingExample& e = trainer.data().examples.front();
        for (int i = 0; i < int(best.size()); ++i)
            if (e.countedRows[std::size_t(i)])
                QCOMPARE(e.targetWeights(i, best[std::size_t(i)]), 1.0);
        QCOMPARE(trained.mask.causal, setup.task == TrainingTask::PreviousToken);
    }

    // Seed 001's French/English pair: the alignment example 05 sets by hand ("a" and "mangé"
    // both on "ate") is learned from fresh weights, under softmax (example 04) and under hard
    // attention with either surrogate gradient (example 05).
    void translationAlignmentIsLearned_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("hard");
        QTest::addRow("04 softmax")
            << "04-translation-cross-attention.json" << int(core::HardGradient::Zero);
        QTest::addRow("05 hard, straight-through")
            << "05-translation-hard-alignment.json" << int(core::HardGradient::StraightThrough);
        QTest::addRow("05 hard, relaxed")
            << "05-translation-hard-alignment.json" << int(core::HardGradient::SoftmaxRelaxed);
    }
    void translationAlignmentIsLearned()
    {
        QFETCH(QString, file);
        QFETCH(int, hard);
        const core::Scene handSet = example(file.toUtf8().constData());
        const std::vector<int> alignment = backendArgmax(handSet);
        TrainingSetup setup;
        setup.task = TrainingTask::Translation;
        setup.hard = {core::HardGradient(hard), 0.5};
        Trainer trainer(handSet, setup);
        // Fresh weights do not start aligned.
        QVERIFY(backendArgmax(trainer.trainedScene()) != alignment);
        trainer.run(400);
        QCOMPARE(trainer.evaluate().accuracy, 1.0);
        QCOMPARE(backendArgmax(trainer.trainedScene()), alignment);
        // "a" (3) and "mangé" (4) both align to "ate" (2).
        QCOMPARE(alignment[3], 2);
        QCOMPARE(alignment[4], 2);
    }

    // Seed 004's stored key-value pairs: find the key of the query's word, output its value.
    void keyValueLookupIsLearned()
    {
        core::Scene scene = sentence("mouse cat Black the", 16, 1);
        scene.source = QStringLiteral("Black cat ate the mouse");
        TrainingSetup setup;
        setup.task = TrainingTask::KeyValue;
        Trainer trainer(scene, setup);
        QCOMPARE(trainer.lossSettings().attentionWeight, 1.0);
        QCOMPARE(trainer.lossSettings().outputWeight, 1.0);
        QCOMPARE(int(trainer.data().examples.size()), 4); // the scene's order and 3 shuffles
        const double first = trainer.evaluate().loss.total;
        trainer.run(300);
        const core::TrainingEvaluation after = trainer.evaluate();
        QVERIFY2(after.loss.total < 0.01 * first,
                 qPrintable(QStringLiteral("%1 -> %2").arg(first).arg(after.loss.total)));
        QCOMPARE(after.accuracy, 1.0);
        QCOMPARE(backendArgmax(trainer.trainedScene()), (std::vector<int>{4, 1, 0, 3}));

        // From the output alone (lambda_a = 0) the loss falls as well, but nothing says where
        // the head has to look.
        setup.attentionWeight = 0.0;
        Trainer outputOnly(scene, setup);
        const double start = outputOnly.evaluate().loss.total;
        outputOnly.run(300);
        QVERIFY2(outputOnly.evaluate().loss.total < 0.5 * start,
                 qPrintable(
                     QStringLiteral("%1 -> %2").arg(start).arg(outputOnly.evaluate().loss.total)));
        QCOMPARE(outputOnly.evaluate().loss.attention, 0.0);
    }

    // Kingma & Ba (2015), Algorithm 1, on one weight with gradient g = 2 x (L = x^2), from
    // x = 1 at alpha = 0.1: step 1 moves by alpha exactly (m^ / sqrt(v^) = g / |g|).
    void adamFollowsAlgorithmOne()
    {
        core::LayerParameters p;
        p.Wo = core::MatrixD::Constant(1, 1, 1.0);
        core::AdamSettings settings;
        settings.learningRate = 0.1;
        core::Adam adam(p, settings);
        double x = 1.0, m = 0.0, v = 0.0;
        for (int t = 1; t <= 3; ++t) {
            core::LayerParameters g = p.zerosLike();
            g.Wo(0, 0) = 2.0 * p.Wo(0, 0);
            adam.step(p, g, {true});
            // The same by hand.
            const double grad = 2.0 * x;
            m = 0.9 * m + 0.1 * grad;
            v = 0.999 * v + 0.001 * grad * grad;
            x -= 0.1 * (m / (1 - std::pow(0.9, t))) /
                 (std::sqrt(v / (1 - std::pow(0.999, t))) + 1e-8);
            QVERIFY(std::abs(p.Wo(0, 0) - x) < 1e-15);
            if (t == 1)
                QVERIFY(std::abs(x - 0.9) < 1e-9);
        }
        QCOMPARE(adam.steps(), 3);
        // A frozen block does not move.
        const double before = p.Wo(0, 0);
        core::LayerParameters g = p.zerosLike();
        g.Wo(0, 0) = 1.0;
        adam.step(p, g, {false});
        QCOMPARE(p.Wo(0, 0), before);
    }

    void resetStepAndLearningRate()
    {
        TrainingSetup setup;
        setup.task = TrainingTask::Copy;
        Trainer trainer(sentence("a b c d e"), setup);
        const core::LayerParameters initial = trainer.parameters();
        const double first = trainer.step();
        trainer.run(20);
        QCOMPARE(trainer.stepCount(), 21);
        const std::vector<double> history = trainer.lossHistory();

        trainer.reset();
        QCOMPARE(trainer.stepCount(), 0);
        QVERIFY(trainer.lossHistory().empty());
        QVERIFY(trainer.parameters().heads[0].Wq == initial.heads[0].Wq);
        QCOMPARE(trainer.evaluate().loss.total, first);
        trainer.run(21);
        QCOMPARE(trainer.lossHistory(), history); // deterministic

        // Adam's first step moves every weight that has a gradient by the learning rate.
        trainer.reset();
        trainer.setLearningRate(0.002);
        QCOMPARE(trainer.learningRate(), 0.002);
        trainer.step();
        const double moved =
            (trainer.parameters().heads[0].Wq - initial.heads[0].Wq).cwiseAbs().maxCoeff();
        QVERIFY2(std::abs(moved - 0.002) < 1e-6, qPrintable(QString::number(moved)));
        expectError([&] { trainer.setLearningRate(0.0); }, "learning_rate");
        QCOMPARE(trainer.learningRate(), 0.002);

        // run() stops when asked (the window's pause).
        std::atomic<bool> stop{true};
        QCOMPARE(trainer.run(50, &stop), 0);
        QCOMPARE(trainer.stepCount(), 1);
    }

    // The trained weights go back into a Scene that saves and loads like any other.
    void trainedSceneSavesAndLoads()
    {
        TrainingSetup setup;
        setup.task = TrainingTask::Reverse;
        Trainer trainer(sentence("one two three four"), setup);
        trainer.run(50);
        const core::Scene trained = trainer.trainedScene();
        const core::Scene loaded = core::sceneFromJson(core::sceneToJson(trained));
        QVERIFY(loaded.weights == trained.weights);
        QCOMPARE(backendArgmax(loaded), backendArgmax(trained));
        // The weights are the trainer's, rounded to float.
        QVERIFY(trained.weights.heads[0].Wk == trainer.parameters().heads[0].Wk.cast<float>());
    }

    // Hard attention with its true gradient: W_q and W_k never move; through the
    // straight-through estimator the same task is learned.
    void hardAttentionNeedsASurrogate()
    {
        core::Scene scene = sentence("the cat sat on the mat");
        scene.normalization = Normalization::Hard;
        TrainingSetup setup;
        setup.task = TrainingTask::Copy;
        setup.outputWeight = 1.0;
        Trainer zero(scene, setup);
        QVERIFY(!zero.notes().empty());
        QVERIFY(zero.lossSettings().attention == core::AttentionLoss::SquaredError);
        const core::LayerParameters start = zero.parameters();
        zero.run(100);
        QVERIFY(zero.parameters().heads[0].Wq == start.heads[0].Wq);
        QVERIFY(zero.parameters().heads[0].Wk == start.heads[0].Wk);
        QVERIFY(zero.parameters().heads[0].Wv != start.heads[0].Wv);

        setup.hard = {core::HardGradient::StraightThrough, 1.0};
        Trainer through(scene, setup);
        QVERIFY(through.notes().empty());
        through.run(300);
        QCOMPARE(through.evaluate().accuracy, 1.0);
        QVERIFY(zero.evaluate().accuracy < 1.0);
    }

    void notesAndErrors()
    {
        // Without positions the two "the" are the same input: the task cannot be exact.
        core::Scene scene = sentence("the cat sat on the mat");
        scene.positional.kind = core::PositionalKind::None;
        TrainingSetup setup;
        setup.task = TrainingTask::Copy;
        QVERIFY(!Trainer(scene, setup).notes().empty());
        scene.positional.kind = core::PositionalKind::Sinusoidal;
        QVERIFY(Trainer(scene, setup).notes().empty());

        setup.task = TrainingTask::Translation;
        expectError([&] { Trainer(scene, setup); }, "translation");
        setup.task = TrainingTask::Reverse;
        core::Scene masked = scene;
        masked.mask.customCells = {{0, 5}};
        expectError([&] { Trainer(masked, setup); }, "reverse: query 0");
        setup.task = TrainingTask::Copy;
        setup.attentionLoss = core::AttentionLoss::CrossEntropy;
        core::Scene sparse = scene;
        sparse.normalization = Normalization::Sparsemax;
        expectError([&] { Trainer(sparse, setup); }, "attention_loss");
        setup.attentionLoss.reset();
        setup.adam.learningRate = -1;
        expectError([&] { Trainer(scene, setup); }, "learning_rate");
        setup.adam.learningRate = 0.05;
        setup.hard.temperature = 0;
        expectError([&] { Trainer(scene, setup); }, "hard_gradient.temperature");

        QVERIFY(core::parseTrainingTask("previous-token") == TrainingTask::PreviousToken);
        QCOMPARE(QString::fromStdString(core::allTrainingTaskNames()),
                 QStringLiteral("copy|previous-token|reverse|translation|key-value"));
    }
};

QTEST_GUILESS_MAIN(TestTrainer)
#include "tst_trainer.moc"
