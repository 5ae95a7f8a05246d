// Every stage's hand-written gradient against central finite differences in double
// (projections, the five score functions, the five normalizations, both mask fills), the
// trainer's losses likewise, and hard attention's gradient that is zero almost everywhere.

#include "core/cpu_backend.h"
#include "core/random.h"
#include "core/scene.h"
#include "core/training/attention_layer.h"
#include "core/training/normalization_gradients.h"
#include "core/training/trainer.h"
#include "support/problems.h"

#include <QTest>
#include <cmath>

using namespace attn;
using core::HardGradient;
using core::LayerParameters;
using core::MaskFill;
using core::MatrixD;
using core::Normalization;
using core::ScoreKind;

namespace {

MatrixD randomMatrix(core::Random& random, int rows, int cols, double scale = 1.0)
{
    MatrixD m(rows, cols);
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j)
            m(i, j) = scale * random.normal();
    return m;
}

// Two heads (d_k = d_v = 3), d_model 5, every bias present, cross-attention (Tq 4, Tk 5).
LayerParameters randomParameters(core::Random& random, int dModel = 5, int heads = 2, int dk = 3)
{
    LayerParameters p;
    for (int h = 0; h < heads; ++h) {
        core::HeadParameters head;
        head.Wq = randomMatrix(random, dModel, dk, 0.6);
        head.Wk = randomMatrix(random, dModel, dk, 0.6);
        head.Wv = randomMatrix(random, dModel, dk, 0.6);
        head.bq = randomMatrix(random, 1, dk, 0.3);
        head.bk = randomMatrix(random, 1, dk, 0.3);
        head.bv = randomMatrix(random, 1, dk, 0.3);
        head.wAdditive = randomMatrix(random, 1, dk);
        head.bilinear = randomMatrix(random, dk, dk, 0.6);
        p.heads.push_back(head);
    }
    p.Wo = randomMatrix(random, heads * dk, dModel, 0.6);
    p.bo = randomMatrix(random, 1, dModel, 0.3);
    return p;
}

core::LayerInputs randomInputs(core::Random& random, int tq, int tk, int dModel, bool causal)
{
    core::LayerInputs in;
    in.queryInput = randomMatrix(random, tq, dModel);
    in.keyInput = randomMatrix(random, tk, dModel);
    in.masked.assign(std::size_t(tq * tk), 0);
    for (int i = 0; i < tq; ++i)
        for (int j = 0; j < tk; ++j)
            if ((causal && j > i) || j == 3) // key 3 is padding
                in.masked[std::size_t(i * tk + j)] = 1;
    // Query row 2 has every key masked: all zeros under -inf, uniform under -9e15.
    for (int j = 0; j < tk; ++j)
        in.masked[std::size_t(2 * tk + j)] = 1;
    return in;
}

// A scalar of everything the layer produces: <G_Y, Y> + sum_h <G_h, A_h>.
struct Probe
{
    MatrixD dOutput;
    std::vector<MatrixD> dWeights;

    double loss(const LayerParameters& p, const core::LayerInputs& in,
                const core::HardSurrogate& hard) const
    {
        const core::LayerForward f = core::forwardLayer(p, in, hard);
        double value = (f.output.array() * dOutput.array()).sum();
        for (std::size_t h = 0; h < f.heads.size(); ++h)
            value += (f.heads[h].weights.array() * dWeights[h].array()).sum();
        return value;
    }
};

// The largest |analytic - numeric| over every parameter, relative to max(1, |numeric|).
template <typename LossFn>
double worstFiniteDifference(LayerParameters p, LayerParameters analytic, LossFn loss,
                             QString* where)
{
    const double h = 1e-6;
    double worst = 0.0;
    std::vector<core::ParameterBlock> blocks = core::parameterBlocks(p);
    const std::vector<core::ParameterBlock> grads = core::parameterBlocks(analytic);
    for (std::size_t b = 0; b < blocks.size(); ++b) {
        for (Eigen::Index k = 0; k < blocks[b].size; ++k) {
            double& x = blocks[b].data[k];
            const double saved = x;
            x = saved + h;
            const double up = loss(p);
            x = saved - h;
            const double down = loss(p);
            x = saved;
            const double numeric = (up - down) / (2 * h);
            const double error =
                std::abs(grads[b].data[k] - numeric) / std::max(1.0, std::abs(numeric));
            if (error > worst) {
                worst = error;
                *where = QStringLiteral("%1[%2]: analytic %3, numeric %4")
                             .arg(QString::fromStdString(blocks[b].name))
                             .arg(k)
                             .arg(grads[b].data[k], 0, 'g', 10)
                             .arg(numeric, 0, 'g', 10);
            }
        }
    }
    return worst;
}

double maxAbs(const LayerParameters& g, core::ParameterRole role)
{
    LayerParameters copy = g;
    double worst = 0.0;
    for (const core::ParameterBlock& b : core::parameterBlocks(copy))
        if (b.role == role)
            worst =
                std::max(worst, Eigen::Map<const Eigen::ArrayXd>(b.data, b.size).abs().maxCoeff());
    return worst;
}

} // namespace

class TestTrainingGradients : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void layerGradientsMatchFiniteDifferences_data()
    {
        QTest::addColumn<int>("score");
        QTest::addColumn<int>("normalization");
        QTest::addColumn<int>("fill");
        QTest::addColumn<bool>("causal");
        for (ScoreKind s : {ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::Additive,
                            ScoreKind::Bilinear, ScoreKind::Cosine})
            for (Normalization n : {Normalization::Softmax, Normalization::Sparsemax,
                                    Normalization::Relu, Normalization::Hard, Normalization::None})
                for (MaskFill f : {MaskFill::NegativeInfinity, MaskFill::MinusNineE15})
                    for (bool causal : {false, true})
                        QTest::addRow("%s %s %s causal=%d", core::toString(s).data(),
                                      core::toString(n).data(), core::toString(f).data(), causal)
                            << int(s) << int(n) << int(f) << causal;
    }
    void layerGradientsMatchFiniteDifferences()
    {
        QFETCH(int, score);
        QFETCH(int, normalization);
        QFETCH(int, fill);
        QFETCH(bool, causal);
        core::Random random(1000 +
                            std::uint64_t(score * 100 + normalization * 10 + fill * 2 + causal));
        const LayerParameters p = randomParameters(random);
        core::LayerInputs in = randomInputs(random, 4, 5, 5, causal);
        in.score = ScoreKind(score);
        in.normalization = Normalization(normalization);
        in.fill = MaskFill(fill);
        in.temperature = 0.8;
        Probe probe;
        probe.dOutput = randomMatrix(random, 4, 5);
        for (int h = 0; h < 2; ++h)
            probe.dWeights.push_back(randomMatrix(random, 4, 5));

        const core::LayerForward f = core::forwardLayer(p, in);
        core::LayerUpstream up;
        up.dOutput = probe.dOutput;
        up.dWeights = probe.dWeights;
        const LayerParameters g = core::backwardLayer(p, in, f, up);
        QString where;
        const double worst = worstFiniteDifference(
            p, g, [&](const LayerParameters& q) { return probe.loss(q, in, {}); }, &where);
        QVERIFY2(worst < 1e-6, qPrintable(where));
        // The score functions' own parameters get a gradient where they are used (sparsemax
        // and ReLU rows with one winner pass none back, so softmax and none only).
        const bool passes =
            in.normalization == Normalization::Softmax || in.normalization == Normalization::None;
        if (in.score == ScoreKind::Additive && passes)
            QVERIFY(g.heads[0].wAdditive.cwiseAbs().maxCoeff() > 0);
        if (in.score == ScoreKind::Bilinear && passes)
            QVERIFY(g.heads[0].bilinear.cwiseAbs().maxCoeff() > 0);
    }

    // The layer in double computes what the CPU backend computes in float.
    void forwardMatchesCpuBackend_data()
    {
        QTest::addColumn<int>("score");
        QTest::addColumn<int>("normalization");
        QTest::addColumn<int>("fill");
        for (ScoreKind s : {ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::Additive,
                            ScoreKind::Bilinear, ScoreKind::Cosine})
            for (Normalization n : {Normalization::Softmax, Normalization::Sparsemax,
                                    Normalization::Relu, Normalization::Hard, Normalization::None})
                for (MaskFill f : {MaskFill::NegativeInfinity, MaskFill::MinusNineE15})
                    QTest::addRow("%s %s %s", core::toString(s).data(), core::toString(n).data(),
                                  core::toString(f).data())
                        << int(s) << int(n) << int(f);
    }
    void forwardMatchesCpuBackend()
    {
        QFETCH(int, score);
        QFETCH(int, normalization);
        QFETCH(int, fill);
        auto problem = test::randomProblem(6, 7, 8, 2, 5, true);
        problem->score = ScoreKind(score);
        problem->normalization = Normalization(normalization);
        problem->fill = MaskFill(fill);
        problem->temperature = 0.7f;
        problem->mask.causal = true;
        problem->keyIsPadding[4] = true;
        core::ModelWeights& w = problem->editWeights();
        w.heads[1].bq = core::RowVector::Constant(w.dK, 0.25f);
        w.bo = core::RowVector::Constant(w.dModel, -0.5f);
        const auto result = core::CpuBackend().compute(problem, {});
        const core::LayerForward f =
            core::forwardLayer(LayerParameters::fromWeights(*problem->weights),
                               core::LayerInputs::fromProblem(*problem));
        for (std::size_t h = 0; h < f.heads.size(); ++h) {
            const MatrixD backend = result->heads[h].weights.cast<double>();
            QVERIFY2((backend - f.heads[h].weights).cwiseAbs().maxCoeff() < 1e-4,
                     qPrintable(QStringLiteral("head %1 weights").arg(h)));
        }
        const MatrixD output = result->output.cast<double>();
        QVERIFY((output - f.output).cwiseAbs().maxCoeff() <
                1e-3 * std::max(1.0, output.cwiseAbs().maxCoeff()));
    }

    // J(j, k) = dw_j / ds_k of one row, against central differences of the forward.
    void normalizationJacobianMatchesFiniteDifferences_data()
    {
        QTest::addColumn<int>("normalization");
        QTest::addColumn<int>("fill");
        for (Normalization n : {Normalization::Softmax, Normalization::Sparsemax,
                                Normalization::Relu, Normalization::None, Normalization::Hard})
            for (MaskFill f : {MaskFill::NegativeInfinity, MaskFill::MinusNineE15})
                QTest::addRow("%s %s", core::toString(n).data(), core::toString(f).data())
                    << int(n) << int(f);
    }
    void normalizationJacobianMatchesFiniteDifferences()
    {
        QFETCH(int, normalization);
        QFETCH(int, fill);
        const Normalization n = Normalization(normalization);
        const MaskFill f = MaskFill(fill);
        // Three near the top and two below, so sparsemax has a support of 3 and ReLU some zeros.
        std::vector<double> s{0.9, -0.4, 0.7, 0.05, -1.3, 0.6};
        const std::vector<std::uint8_t> masked{0, 0, 0, 0, 1, 0};
        const int count = int(s.size());
        std::vector<double> w(s.size());
        core::normalizeRowD(s.data(), masked.data(), count, n, f, w.data());
        const MatrixD J =
            core::normalizationJacobian(s.data(), masked.data(), count, n, f, w.data());
        const double h = 1e-6;
        for (int k = 0; k < count; ++k) {
            std::vector<double> up = s, down = s, wu(s.size()), wd(s.size());
            up[std::size_t(k)] += h;
            down[std::size_t(k)] -= h;
            core::normalizeRowD(up.data(), masked.data(), count, n, f, wu.data());
            core::normalizeRowD(down.data(), masked.data(), count, n, f, wd.data());
            for (int j = 0; j < count; ++j)
                QVERIFY2(std::abs(J(j, k) - (wu[std::size_t(j)] - wd[std::size_t(j)]) / (2 * h)) <
                             1e-7,
                         qPrintable(QStringLiteral("J(%1, %2)").arg(j).arg(k)));
        }
        if (n == Normalization::Sparsemax) // the support: 0.9, 0.7, 0.6 (weights 0.5, 0.3, 0.2)
            QCOMPARE(int((Eigen::Map<const Eigen::ArrayXd>(w.data(), count) > 0).count()), 3);
    }

    // Seed 000: hard attention "is not differentiable". Its loss is piecewise constant in W_q
    // and W_k: the finite differences are exactly 0, and so is the hand-written gradient;
    // only W_v and W_O (the path through the one-hot weights) learn.
    void hardAttentionGradientIsZeroAlmostEverywhere()
    {
        core::Random random(77);
        const LayerParameters p = randomParameters(random);
        core::LayerInputs in = randomInputs(random, 4, 5, 5, false);
        in.normalization = Normalization::Hard;
        Probe probe;
        probe.dOutput = randomMatrix(random, 4, 5);
        probe.dWeights = {randomMatrix(random, 4, 5), randomMatrix(random, 4, 5)};
        const core::LayerForward f = core::forwardLayer(p, in);
        core::LayerUpstream up{probe.dOutput, probe.dWeights, {}};
        const LayerParameters g = core::backwardLayer(p, in, f, up);
        QCOMPARE(maxAbs(g, core::ParameterRole::Query), 0.0);
        QCOMPARE(maxAbs(g, core::ParameterRole::Key), 0.0);
        QVERIFY(maxAbs(g, core::ParameterRole::Value) > 0.0);
        QVERIFY(maxAbs(g, core::ParameterRole::Output) > 0.0);

        // Numerically: moving any entry of W_q by 1e-4 leaves the loss exactly where it was.
        LayerParameters moved = p;
        const double base = probe.loss(p, in, {});
        for (Eigen::Index k = 0; k < moved.heads[0].Wq.size(); ++k) {
            double& x = moved.heads[0].Wq.data()[k];
            const double saved = x;
            x = saved + 1e-4;
            QCOMPARE(probe.loss(moved, in, {}), base);
            x = saved;
        }
        // ...until an argmax flips, where it jumps: a step, not a slope.
        double jump = 0.0;
        for (double t = 0.05; t <= 20.0 && jump == 0.0; t += 0.05) {
            moved = p;
            moved.heads[0].Wq *= (1.0 - t);
            moved.heads[0].Wq += t * randomMatrix(random, 5, 3);
            jump = probe.loss(moved, in, {}) - base;
        }
        QVERIFY(jump != 0.0);

        // The straight-through gradient reaches W_q and W_k (through softmax(s / tau)); the
        // relaxed one is the true gradient of softmax(s / tau) attention.
        for (HardGradient mode : {HardGradient::StraightThrough, HardGradient::SoftmaxRelaxed}) {
            const core::HardSurrogate hard{mode, 0.5};
            const core::LayerForward fs = core::forwardLayer(p, in, hard);
            const LayerParameters gs = core::backwardLayer(p, in, fs, up, hard);
            QVERIFY(maxAbs(gs, core::ParameterRole::Query) > 1e-6);
            QVERIFY(maxAbs(gs, core::ParameterRole::Key) > 1e-6);
            if (mode == HardGradient::StraightThrough) {
                // The forward stays one-hot.
                QVERIFY(fs.heads[0].weights == f.heads[0].weights);
            } else {
                QString where;
                const double worst = worstFiniteDifference(
                    p, gs, [&](const LayerParameters& q) { return probe.loss(q, in, hard); },
                    &where);
                QVERIFY2(worst < 1e-6, qPrintable(where));
            }
        }
    }

    // The trainer's own loss (cross-entropy from the log-softmax, squared error, output MSE),
    // averaged as documented, against finite differences.
    void trainerLossGradientMatchesFiniteDifferences_data()
    {
        QTest::addColumn<QString>("task");
        QTest::addColumn<int>("normalization");
        QTest::addColumn<int>("hard");
        QTest::addColumn<double>("outputWeight");
        QTest::addRow("copy softmax") << "copy" << int(Normalization::Softmax) << 0 << 0.5;
        QTest::addRow("previous-token softmax")
            << "previous-token" << int(Normalization::Softmax) << 0 << 0.0;
        QTest::addRow("reverse sparsemax")
            << "reverse" << int(Normalization::Sparsemax) << 0 << 0.3;
        QTest::addRow("copy relu") << "copy" << int(Normalization::Relu) << 0 << 0.0;
        QTest::addRow("key-value softmax")
            << "key-value" << int(Normalization::Softmax) << 0 << 1.0;
        QTest::addRow("copy hard relaxed")
            << "copy" << int(Normalization::Hard) << int(HardGradient::SoftmaxRelaxed) << 0.2;
        QTest::addRow("reverse none") << "reverse" << int(Normalization::None) << 0 << 0.1;
    }
    void trainerLossGradientMatchesFiniteDifferences()
    {
        QFETCH(QString, task);
        QFETCH(int, normalization);
        QFETCH(int, hard);
        QFETCH(double, outputWeight);
        core::Scene scene = core::makeScene(QStringLiteral("the cat sat on a mat"), 8, 2, 3);
        scene.normalization = Normalization(normalization);
        scene.fill = MaskFill::MinusNineE15;
        core::TrainingSetup setup;
        setup.task = *core::parseTrainingTask(task.toStdString());
        setup.outputWeight = outputWeight;
        setup.hard = {HardGradient(hard), 0.7};
        const core::Trainer trainer(scene, setup);
        LayerParameters gradient;
        trainer.lossAndGradient(trainer.parameters(), &gradient);
        QString where;
        const double worst = worstFiniteDifference(
            trainer.parameters(), gradient,
            [&](const LayerParameters& q) { return trainer.lossAndGradient(q, nullptr).total; },
            &where);
        QVERIFY2(worst < 1e-6, qPrintable(where));
    }
};

QTEST_GUILESS_MAIN(TestTrainingGradients)
#include "tst_training_gradients.moc"
