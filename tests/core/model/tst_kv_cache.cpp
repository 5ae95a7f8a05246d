// The key/value cache of causal models (core/model/kv_cache.h): logits of tokens appended to
// the cache equal those of a whole forward over every token, to float32 tolerance, for every
// causal tiny checkpoint (learned positions, OPT's offset ones, whole and partial rotary ones,
// grouped-query heads, biases, tied and untied heads, GPT-NeoX's and Phi's parallel blocks,
// Gemma's scaled embeddings), with heads switched off and edited; generation with the cache
// chooses the same tokens as generation by whole forwards.

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/model/forward.h"
#include "core/model/generation.h"
#include "core/model/kv_cache.h"
#include "core/model/model_loader.h"
#include "support/model_fixtures.h"
#include "support/results.h"

#include <QTest>

using namespace attn::core;
using attn::test::loadedModelFixture;

namespace {

// Two float32 implementations of the same forward (tst_model_forward holds each to 2e-5 of
// the largest logit against float64).
constexpr double kRelativeTolerance = 2e-5;

double relativeDifference(const RowVector& actual, const RowVector& expected)
{
    const double scale = std::max(1.0, double(expected.cwiseAbs().maxCoeff()));
    return attn::test::maxDifference(actual, expected) / scale;
}

Token tokenWithId(int id)
{
    Token token;
    token.id = id;
    return token;
}

// Every causal tiny checkpoint (expected.json's "causal"), so that a family added later is
// held to the cache too.
QStringList causalFixtures()
{
    QStringList names;
    for (const QString& name : attn::test::modelFixtures())
        if (attn::test::expectedFor(name)[QLatin1String("causal")].toBool())
            names << name;
    return names;
}

} // namespace

class TestKvCache : public QObject
{
    Q_OBJECT

private slots:
    void appendEqualsWholeForward_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("intervened");
        const QStringList names = causalFixtures();
        QVERIFY(names.size() >= 10);
        for (const QString& name : names) {
            QTest::addRow("%s", qPrintable(name)) << name << false;
            QTest::addRow("%s heads off and edited", qPrintable(name)) << name << true;
        }
    }

    // One token at a time, then three at once: each time the last logits of a whole forward.
    void appendEqualsWholeForward()
    {
        QFETCH(QString, name);
        QFETCH(bool, intervened);
        const auto model = loadedModelFixture(name);
        Interventions interventions;
        if (intervened) {
            interventions.headsOff = {{0, 1}, {1, 0}};
            HeadEdit edit;
            edit.Wk = model->weights.layers[1].attention->heads[1].Wk * 1.5f;
            interventions.layers[1].heads[1] = edit;
        }
        std::vector<Token> tokens = modelTokens(*model, QStringLiteral("The cat sat on the"));
        CpuBackend backend;
        const auto prompt = runModel(model, tokens, interventions, backend);
        std::unique_ptr<KvCache> cache = KvCache::fromResult(*prompt);
        QVERIFY(cache);
        QCOMPARE(cache->length(), int(tokens.size()));
        const int ids[] = {7, 42, 7, 100, 3, 250, 12};
        for (int n = 0; n < 7; ++n) {
            std::vector<Token> added{tokenWithId(ids[n])};
            if (n == 4) // three at once
                added = {tokenWithId(ids[4]), tokenWithId(ids[5]), tokenWithId(ids[6])};
            if (n > 4)
                break;
            tokens.insert(tokens.end(), added.begin(), added.end());
            const RowVector logits = cache->append(added, backend.blockOps());
            const auto whole = runModel(model, tokens, interventions, backend);
            const double difference = relativeDifference(logits, whole->predictions.back().logits);
            QVERIFY2(difference < kRelativeTolerance,
                     qPrintable(QStringLiteral("%1 tokens: logits differ by %2 (relative)")
                                    .arg(tokens.size())
                                    .arg(difference)));
            QCOMPARE(cache->length(), int(tokens.size()));
        }
    }

    void extendedResultEqualsWholeForward_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<bool>("intervened");
        for (const QString& name : causalFixtures()) {
            // Typing at the end; an earlier word edited (computed from there on); words removed
            // from the end (nothing computed but the last position's logits).
            QTest::addRow("%s typed", qPrintable(name))
                << name << QStringLiteral("The cat sat") << QStringLiteral("The cat sat on the")
                << false;
            QTest::addRow("%s edited", qPrintable(name))
                << name << QStringLiteral("The cat sat on the") << QStringLiteral("The dog sat on")
                << true;
            QTest::addRow("%s shortened", qPrintable(name))
                << name << QStringLiteral("The cat sat on the") << QStringLiteral("The cat")
                << false;
        }
    }

    // extendResult gives what the window shows of a whole forward (no intermediates): every
    // layer's Q, K, V, weights and outputs, the hidden states and the prediction.
    void extendedResultEqualsWholeForward()
    {
        QFETCH(QString, name);
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(bool, intervened);
        const auto model = loadedModelFixture(name);
        Interventions interventions;
        if (intervened)
            interventions.headsOff = {{1, 0}};
        ForwardOptions options;
        options.keepIntermediates = false;
        CpuBackend backend;
        const auto earlier =
            runModel(model, modelTokens(*model, before), interventions, backend, options);
        const auto tokens = modelTokens(*model, after);
        const auto extended = extendResult(earlier, tokens, backend, options);
        QVERIFY(extended);
        const auto whole = runModel(model, tokens, interventions, backend, options);
        QCOMPARE(extended->tokens, whole->tokens);
        QCOMPARE(extended->layerCount(), whole->layerCount());
        QCOMPARE(extended->interventions, whole->interventions);
        constexpr double tolerance = 1e-4;
        for (int l = 0; l < whole->layerCount(); ++l) {
            const AttentionResult& a = *extended->layers[std::size_t(l)];
            const AttentionResult& b = *whole->layers[std::size_t(l)];
            QVERIFY(attn::test::maxDifference(a.problem->queryEmbedding,
                                              b.problem->queryEmbedding) < tolerance);
            QVERIFY(attn::test::maxDifference(a.output, b.output) < tolerance);
            QCOMPARE(a.heads.size(), b.heads.size());
            for (std::size_t h = 0; h < b.heads.size(); ++h) {
                const HeadResult& x = a.heads[h];
                const HeadResult& y = b.heads[h];
                QCOMPARE(x.enabled, y.enabled);
                for (auto [m, n] : {std::pair{&x.Q, &y.Q},
                                    {&x.K, &y.K},
                                    {&x.V, &y.V},
                                    {&x.rotatedQ, &y.rotatedQ},
                                    {&x.rotatedK, &y.rotatedK},
                                    {&x.weights, &y.weights},
                                    {&x.output, &y.output}}) {
                    QCOMPARE(m->rows(), n->rows());
                    QCOMPARE(m->cols(), n->cols());
                    QVERIFY2(m->size() == 0 || attn::test::maxDifference(*m, *n) < tolerance,
                             qPrintable(QStringLiteral("layer %1 head %2").arg(l + 1).arg(h + 1)));
                }
            }
            QVERIFY(attn::test::maxDifference(extended->hidden[std::size_t(l) + 1],
                                              whole->hidden[std::size_t(l) + 1]) < tolerance);
        }
        QVERIFY(attn::test::maxDifference(extended->finalHidden, whole->finalHidden) < tolerance);
        QCOMPARE(extended->predictions.size(), std::size_t(1));
        QCOMPARE(extended->predictions[0].position, int(tokens.size()) - 1);
        QVERIFY(relativeDifference(extended->predictions[0].logits, whole->predictions[0].logits) <
                kRelativeTolerance);
        QCOMPARE(extended->predictions[0].top.front().id, whole->predictions[0].top.front().id);
    }

    // No cache where it would not give the whole forward: a masked model, a run that keeps every
    // intermediate, a text that begins differently.
    void noExtensionWhereItWouldDiffer()
    {
        CpuBackend backend;
        ForwardOptions options;
        options.keepIntermediates = false;
        const auto bert = loadedModelFixture(QStringLiteral("bert"));
        const auto masked =
            runModel(bert, modelTokens(*bert, QStringLiteral("the [MASK]")), {}, backend, options);
        QVERIFY(!extendResult(masked, modelTokens(*bert, QStringLiteral("the [MASK] sat")), backend,
                              options));
        const auto gpt2 = loadedModelFixture(QStringLiteral("gpt2"));
        const auto earlier =
            runModel(gpt2, modelTokens(*gpt2, QStringLiteral("The cat")), {}, backend, options);
        QVERIFY(!extendResult(earlier, modelTokens(*gpt2, QStringLiteral("A cat sat")), backend,
                              options));
        QVERIFY(extendResult(earlier, modelTokens(*gpt2, QStringLiteral("The cat sat")), backend,
                             options));
        options.keepIntermediates = true;
        QVERIFY(!extendResult(earlier, modelTokens(*gpt2, QStringLiteral("The cat sat")), backend,
                              options));
    }

    // GPT-2's tiny checkpoint: 2 layers of 4 heads of d_head 4, so 5 tokens hold
    // 2 x 4 x 5 x (4 + 4) floats = 1280 bytes of keys and values.
    void bytes()
    {
        const auto model = loadedModelFixture(QStringLiteral("gpt2"));
        CpuBackend backend;
        const auto result =
            runModel(model, modelTokens(*model, QStringLiteral("The cat sat on the")), {}, backend);
        QCOMPARE(KvCache::fromResult(*result)->bytes(), std::int64_t(1280));
    }

    // Where appending cannot reproduce the forward, there is no cache: a masked model, and a
    // layer whose score or mask an intervention changed.
    void noCacheWhereItWouldDiffer()
    {
        CpuBackend backend;
        const auto bert = loadedModelFixture(QStringLiteral("bert"));
        QVERIFY(!KvCache::fromResult(
            *runModel(bert, modelTokens(*bert, QStringLiteral("the [MASK] sat")), {}, backend)));
        const auto gpt2 = loadedModelFixture(QStringLiteral("gpt2"));
        Interventions interventions;
        interventions.layers[1].score = ScoreKind::Dot;
        const auto tokens = modelTokens(*gpt2, QStringLiteral("The cat sat on the"));
        QVERIFY(!KvCache::fromResult(*runModel(gpt2, tokens, interventions, backend)));
        interventions.layers[1] = LayerEdit{};
        MaskSpec noMask;
        interventions.layers[1].mask = noMask;
        QVERIFY(!KvCache::fromResult(*runModel(gpt2, tokens, interventions, backend)));
        // Generation then runs whole forwards, and is what whole forwards give.
        GenerationSettings settings;
        settings.sampling.temperature = 0.0f;
        settings.maxNewTokens = 5;
        const auto cached = generate(gpt2, tokens, interventions, backend, settings);
        settings.useCache = false;
        QCOMPARE(cached.generated,
                 generate(gpt2, tokens, interventions, backend, settings).generated);
    }

    // The tiny GPT-2 has 32 positions.
    void pastTheContext()
    {
        const auto model = loadedModelFixture(QStringLiteral("gpt2"));
        CpuBackend backend;
        std::vector<Token> tokens(31, tokenWithId(5));
        auto cache = KvCache::fromResult(*runModel(model, tokens, {}, backend));
        cache->append({tokenWithId(6)}, backend.blockOps());
        try {
            cache->append({tokenWithId(6)}, backend.blockOps());
            QFAIL("no error");
        } catch (const Error& e) {
            QCOMPARE(QString::fromUtf8(e.what()),
                     QStringLiteral("the key/value cache: 33 tokens are more than the model's "
                                    "context of 32"));
        }
    }

    void generationWithTheCache_data()
    {
        QTest::addColumn<QString>("name");
        for (const QString& name : causalFixtures())
            QTest::addRow("%s", qPrintable(name)) << name;
    }

    // Sampled with a seed, heads off: the same tokens with and without the cache.
    void generationWithTheCache()
    {
        QFETCH(QString, name);
        const auto model = loadedModelFixture(name);
        const auto tokens = modelTokens(*model, QStringLiteral("The cat"));
        Interventions interventions;
        interventions.headsOff = {{0, 0}};
        GenerationSettings settings;
        settings.sampling.temperature = 0.8f;
        settings.sampling.topK = 20;
        settings.sampling.seed = 9;
        settings.maxNewTokens = 15;
        settings.endTokens = std::vector<int>{};
        CpuBackend backend;
        const Generation cached = generate(model, tokens, interventions, backend, settings);
        settings.useCache = false;
        const Generation whole = generate(model, tokens, interventions, backend, settings);
        QCOMPARE(cached.generated, whole.generated);
        for (std::size_t n = 0; n < whole.steps.size(); ++n)
            QVERIFY(std::abs(cached.steps[n].probability - whole.steps[n].probability) < 1e-5f);
    }
};

QTEST_GUILESS_MAIN(TestKvCache)
#include "tst_kv_cache.moc"
