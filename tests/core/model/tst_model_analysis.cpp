// What the model window derives from a run: attention rollout (Abnar & Zuidema 2020) worked
// by hand, the mean of the enabled heads, and head importance by ablation checked against runs
// made from scratch.

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/model/model_analysis.h"
#include "core/model/model_loader.h"
#include "support/error_of.h"
#include "support/model_fixtures.h"

#include <QTest>

#include <cmath>

using namespace attn::core;

namespace {

std::shared_ptr<const Model> fixture(const char* name)
{
    return loadModel(attn::test::modelFixturesDir() + QLatin1Char('/') + QLatin1String(name));
}

double logProbability(const RowVector& logits, int target)
{
    const Eigen::ArrayXd l = logits.cast<double>().transpose().array();
    return l(target) - l.maxCoeff() - std::log((l - l.maxCoeff()).exp().sum());
}

} // namespace

class TestModelAnalysis : public QObject
{
    Q_OBJECT

private slots:
    void rolloutHandWorked();
    void rolloutOfARun();
    void meanSkipsHeadsOff();
    void importanceIsTheDropInLogProbability();
    void importanceProgressAndCancel();
    void importanceNeedsAPrediction();
};

// Two tokens, two layers. A_1 = [[1, 0], [0.5, 0.5]] gives A'_1 = 0.5 A_1 + 0.5 I =
// [[1, 0], [0.25, 0.75]]; A_2 = [[1, 0], [1, 0]] gives A'_2 = [[1, 0], [0.5, 0.5]];
// R_2 = A'_2 A'_1 = [[1, 0], [0.5 + 0.125, 0.375]].
void TestModelAnalysis::rolloutHandWorked()
{
    const std::vector<Matrix> rollout =
        attentionRollout({Matrix{{1.0f, 0.0f}, {0.5f, 0.5f}}, Matrix{{1.0f, 0.0f}, {1.0f, 0.0f}}});
    QCOMPARE(rollout.size(), std::size_t(2));
    QCOMPARE(rollout[0], (Matrix{{1.0f, 0.0f}, {0.25f, 0.75f}}));
    QCOMPARE(rollout[1], (Matrix{{1.0f, 0.0f}, {0.625f, 0.375f}}));
    // A layer with every head off (zeros) passes the residual alone: the identity.
    const std::vector<Matrix> off = attentionRollout({Matrix::Zero(2, 2)});
    QCOMPARE(off[0], (Matrix::Identity(2, 2)));
}

void TestModelAnalysis::rolloutOfARun()
{
    const auto model = fixture("gpt2");
    CpuBackend backend;
    const auto run =
        runModel(model, modelTokens(*model, QStringLiteral("The cat sat on the")), {}, backend);
    const std::vector<Matrix> rollout = attentionRollout(*run);
    QCOMPARE(int(rollout.size()), run->layerCount());
    for (const Matrix& r : rollout) {
        // Rows of a product of row-stochastic, lower-triangular matrices: the same kind.
        for (int i = 0; i < r.rows(); ++i) {
            QVERIFY(std::abs(r.row(i).sum() - 1.0f) < 1e-5f);
            QVERIFY(r.row(i).tail(r.cols() - i - 1).isZero(0.0f));
        }
    }
    // The first token can only attend to itself, so all of it stays there.
    QCOMPARE(rollout.back()(0, 0), 1.0f);
}

void TestModelAnalysis::meanSkipsHeadsOff()
{
    const auto model = fixture("bert");
    CpuBackend backend;
    Interventions off;
    off.headsOff = {{0, 1}};
    const auto run = runModel(
        model, modelTokens(*model, QStringLiteral("the cat sat on the [MASK].")), off, backend);
    const AttentionResult& layer = *run->layers[0];
    const Matrix expected = (layer.heads[0].weights + layer.heads[2].weights) / 2.0f;
    QVERIFY((meanOfEnabledHeads(layer) - expected).cwiseAbs().maxCoeff() < 1e-7f);
    QVERIFY((meanOfEnabledHeads(*run->layers[1]) -
             (run->layers[1]->heads[0].weights + run->layers[1]->heads[1].weights +
              run->layers[1]->heads[2].weights) /
                 3.0f)
                .cwiseAbs()
                .maxCoeff() < 1e-7f);
}

void TestModelAnalysis::importanceIsTheDropInLogProbability()
{
    const auto model = fixture("llama");
    CpuBackend backend;
    const std::vector<Token> tokens = modelTokens(*model, QStringLiteral("The cat sat on the"));
    Interventions base;
    base.headsOff = {{0, 3}};
    const auto run = runModel(model, tokens, base, backend);
    const HeadImportance importance = headImportance(run, backend);
    QCOMPARE(importance.drop.rows(), Eigen::Index(model->config().layers));
    QCOMPARE(importance.drop.cols(), Eigen::Index(model->config().heads));
    QCOMPARE(importance.target, run->predictions.front().top.front().id);
    QCOMPARE(importance.drop(0, 3), 0.0f); // already off
    // Each cell against a run from scratch with that head off as well.
    for (int l = 0; l < model->config().layers; ++l) {
        for (int h = 0; h < model->config().heads; ++h) {
            if (l == 0 && h == 3)
                continue;
            Interventions ablated = base;
            ablated.headsOff.insert({l, h});
            const auto fresh = runModel(model, tokens, ablated, backend);
            const double want =
                logProbability(run->predictions.front().logits, importance.target) -
                logProbability(fresh->predictions.front().logits, importance.target);
            QVERIFY2(std::abs(importance.drop(l, h) - want) < 1e-5,
                     qPrintable(QStringLiteral("layer %1 head %2: %3 vs %4")
                                    .arg(l)
                                    .arg(h)
                                    .arg(importance.drop(l, h))
                                    .arg(want)));
        }
    }
    QVERIFY(importance.drop.cwiseAbs().maxCoeff() > 1e-3f); // the heads matter at all
}

void TestModelAnalysis::importanceProgressAndCancel()
{
    const auto model = fixture("gpt2");
    CpuBackend backend;
    const auto run =
        runModel(model, modelTokens(*model, QStringLiteral("The cat sat")), {}, backend);
    int calls = 0;
    int last = 0;
    ImportanceOptions options;
    options.progress = [&](int done, int total) {
        ++calls;
        last = done;
        QCOMPARE(total, 8);
    };
    headImportance(run, backend, options);
    QCOMPARE(calls, 8);
    QCOMPARE(last, 8);
    std::atomic<bool> cancel{true};
    options.cancel = &cancel;
    QVERIFY_THROWS_EXCEPTION(Cancelled, headImportance(run, backend, options));
}

void TestModelAnalysis::importanceNeedsAPrediction()
{
    const auto model = fixture("bert");
    CpuBackend backend;
    const auto run =
        runModel(model, modelTokens(*model, QStringLiteral("the cat sat")), {}, backend);
    QVERIFY(run->predictions.empty()); // no [MASK]
    QCOMPARE(attn::test::errorOf([&] { headImportance(run, backend); }),
             QStringLiteral(
                 "head importance needs a prediction: the model has no language-model head, or "
                 "the text has no [MASK]"));
    // A forward that met non-finite values makes none, and says so (model_fixtures.h's case).
    const auto huge =
        attn::test::withWeight(*fixture("gpt2"), attn::test::WeightPlace::AttentionNorm, 1e20f);
    const auto overflowed =
        runModel(huge, modelTokens(*huge, QStringLiteral("The cat sat on the")), {}, backend);
    QCOMPARE(attn::test::errorOf([&] { headImportance(overflowed, backend); }),
             QStringLiteral(
                 "head importance needs a prediction: position 5: no prediction: the forward met "
                 "non-finite values in layer 1"));
}

QTEST_GUILESS_MAIN(TestModelAnalysis)
#include "tst_model_analysis.moc"
