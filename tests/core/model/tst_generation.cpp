// Generation on the tiny checkpoints of tests/data/models: greedy ids against PyTorch's greedy
// search (generation_expected.json, written by generation_reference.py), greedy against the
// argmax of whole forwards chained by hand, seeded draws, the sampling filters on small
// distributions worked by hand, stops, cancelling, masked models and the messages for bad
// settings.

#include "core/cpu_backend.h"
#include "core/error.h"
#include "core/model/decoding_memory.h"
#include "core/model/forward.h"
#include "core/model/generation.h"
#include "core/model/model_loader.h"
#include "core/model/sampling.h"
#include "core/random.h"
#include "core/tokenizers/hf_tokenizer.h"
#include "support/model_fixtures.h"

#include <QTest>

#include <atomic>
#include <cmath>

using namespace attn::core;
using attn::test::loadedModelFixture;

namespace {

QJsonObject expectedGeneration()
{
    QFile file(attn::test::modelFixturesDir() + QStringLiteral("/generation_expected.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

std::vector<int> idsOf(const QJsonValue& array)
{
    std::vector<int> ids;
    for (const QJsonValue id : array.toArray())
        ids.push_back(id.toInt());
    return ids;
}

std::vector<int> idsOf(const std::vector<Token>& tokens)
{
    std::vector<int> ids;
    for (const Token& token : tokens)
        ids.push_back(token.id);
    return ids;
}

RowVector row(std::initializer_list<float> values)
{
    RowVector r(Eigen::Index(values.size()));
    Eigen::Index i = 0;
    for (float v : values)
        r(i++) = v;
    return r;
}

// The next `n` ids as whole forwards and their argmax give them, one token at a time.
std::vector<int> chainedArgmax(const std::shared_ptr<const Model>& model, std::vector<Token> tokens,
                               const Interventions& interventions, int n)
{
    CpuBackend backend;
    std::vector<int> ids;
    for (int step = 0; step < n; ++step) {
        const auto result = runModel(model, tokens, interventions, backend);
        const RowVector& logits = result->predictions.back().logits;
        Eigen::Index best = 0;
        logits.maxCoeff(&best);
        ids.push_back(int(best));
        Token token;
        token.id = int(best);
        tokens.push_back(token);
    }
    return ids;
}

GenerationSettings greedy(int n)
{
    GenerationSettings settings;
    settings.sampling.temperature = 0.0f;
    settings.maxNewTokens = n;
    settings.endTokens = std::vector<int>{}; // every test step counted, whatever it chooses
    return settings;
}

QString errorOf(const std::function<void()>& run)
{
    try {
        run();
    } catch (const Error& e) {
        return QString::fromStdString(e.what());
    }
    return QStringLiteral("(no error)");
}

} // namespace

class TestGeneration : public QObject
{
    Q_OBJECT

private slots:
    // Llama 3 8B's shape: 32 layers of 32 query heads of 128 (8 key/value heads, but the cache
    // keeps a copy per query head): 32 x 32 x 2 x 128 floats = 1 MiB a token.
    void keyValueCacheThatCannotFitIsRefused()
    {
        ModelConfig c;
        c.layers = 32;
        c.heads = 32;
        c.kvHeads = 8;
        c.dModel = 4096;
        c.dHead = 128;
        QCOMPARE(keyValueCacheMemory(c, 1), std::int64_t(1) << 20);
        QCOMPARE(keyValueCacheMemory(c, 16384), std::int64_t(16) << 30);
        const AvailableMemory eight{std::int64_t(8) << 30, "a test's budget"};
        QVERIFY_THROWS_EXCEPTION(Error, checkGenerationMemory(c, 100, 16284, eight));
        try {
            checkGenerationMemory(c, 100, 16284, eight);
        } catch (const Error& e) {
            QCOMPARE(QString::fromUtf8(e.what()),
                     QStringLiteral("generation: 100 + 16284 tokens need 16.0 GiB for the keys and "
                                    "values of every layer and head; 8.0 GiB is available (a "
                                    "test's budget): ask for at most 8092 new tokens"));
        }
        checkGenerationMemory(c, 100, 8092, eight);              // exactly 8 GiB: fits
        checkGenerationMemory(c, 100, 16284, AvailableMemory{}); // unknown: not checked

        // generate() checks before its first forward when it caches keys and values.
        const auto model = loadedModelFixture(QStringLiteral("llama"));
        const std::vector<Token> prompt = modelTokens(*model, QStringLiteral("The cat"));
        GenerationSettings settings;
        settings.sampling.temperature = 0.0f;
        settings.maxNewTokens = 3;
        CpuBackend backend;
        qputenv("ATTN_MEMORY_LIMIT_MIB", "0");
        QString message;
        try {
            generate(model, prompt, {}, backend, settings);
        } catch (const Error& e) {
            message = QString::fromUtf8(e.what());
        }
        settings.useCache = false; // each step's forward is freed before the next: no cache
        const Generation uncached = generate(model, prompt, {}, backend, settings);
        qunsetenv("ATTN_MEMORY_LIMIT_MIB");
        QVERIFY2(message.startsWith(
                     QStringLiteral("generation: %1 + 3 tokens need ").arg(prompt.size())) &&
                     message.endsWith(QLatin1String("(ATTN_MEMORY_LIMIT_MIB): not even the prompt "
                                                    "fits")),
                 qPrintable(message));
        QCOMPARE(int(uncached.generated.size()), 3);
    }

    void greedyMatchesPyTorch_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("cache");
        const QJsonObject models = expectedGeneration()[QLatin1String("models")].toObject();
        QVERIFY(models.size() >= 6);
        for (const QString& name : models.keys()) {
            QTest::addRow("%s", qPrintable(name)) << name << false;
            QTest::addRow("%s cached", qPrintable(name)) << name << true;
        }
    }

    // "The cat sat on the": the prompt as the tokenizers library cut it, then 20 greedy ids.
    void greedyMatchesPyTorch()
    {
        QFETCH(QString, name);
        QFETCH(bool, cache);
        const QJsonObject expected = expectedGeneration()[QLatin1String("models")][name].toObject();
        const auto model = loadedModelFixture(name);
        const std::vector<Token> prompt =
            modelTokens(*model, expectedGeneration()[QLatin1String("prompt")].toString());
        QCOMPARE(idsOf(prompt), idsOf(expected[QLatin1String("prompt_ids")]));
        GenerationSettings settings;
        settings.sampling.temperature = 0.0f;
        settings.useCache = cache;
        CpuBackend backend;
        const Generation generation = generate(model, prompt, {}, backend, settings);
        QCOMPARE(generation.generated, idsOf(expected[QLatin1String("generated")]));
        QCOMPARE(int(generation.steps.size()), int(generation.generated.size()));
        QCOMPARE(generation.stop, GenerationStop::Length);
        QCOMPARE(idsOf(generation.tokens).size(), prompt.size() + generation.generated.size());
    }

    // Heads switched off stay off while generating: the same ids as whole forwards with them
    // off, and not those without.
    void greedyEqualsChainedArgmax_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("off");
        for (const char* name : {"gpt2", "llama", "qwen2"}) {
            QTest::addRow("%s", name) << QString::fromLatin1(name) << false;
            QTest::addRow("%s heads off", name) << QString::fromLatin1(name) << true;
        }
    }

    void greedyEqualsChainedArgmax()
    {
        QFETCH(QString, name);
        QFETCH(bool, off);
        const auto model = loadedModelFixture(name);
        Interventions interventions;
        if (off)
            interventions.headsOff = {{0, 0}, {0, 1}, {1, 0}, {1, 1}};
        const std::vector<Token> prompt = modelTokens(*model, QStringLiteral("a dog"));
        CpuBackend backend;
        const Generation generation = generate(model, prompt, interventions, backend, greedy(8));
        QCOMPARE(generation.generated, chainedArgmax(model, prompt, interventions, 8));
        if (off)
            QVERIFY(generation.generated != chainedArgmax(model, prompt, {}, 8));
        for (std::size_t n = 0; n < generation.steps.size(); ++n) {
            const GenerationStep& step = generation.steps[n];
            QCOMPARE(step.position, int(prompt.size() + n));
            QCOMPARE(step.top.front().id, step.tokenId);
            QCOMPARE(step.probability, step.top.front().probability);
            QCOMPARE(step.drawnFrom, 1.0f); // greedy: the whole mass on the chosen token
        }
    }

    void seededSampleIsReproducible()
    {
        const auto model = loadedModelFixture(QStringLiteral("llama"));
        const std::vector<Token> prompt = modelTokens(*model, QStringLiteral("The cat"));
        GenerationSettings settings;
        settings.sampling.temperature = 1.5f;
        settings.sampling.topK = 40;
        settings.sampling.topP = 0.95f;
        settings.sampling.seed = 2024;
        settings.maxNewTokens = 12;
        settings.endTokens = std::vector<int>{};
        CpuBackend backend;
        const Generation first = generate(model, prompt, {}, backend, settings);
        const Generation second = generate(model, prompt, {}, backend, settings);
        QCOMPARE(first.generated.size(), std::size_t(12));
        QCOMPARE(first.generated, second.generated);
        // A draw at temperature 1.5 is not the greedy continuation, and another seed draws
        // other tokens.
        QVERIFY(first.generated != chainedArgmax(model, prompt, {}, 12));
        settings.sampling.seed = 2025;
        QVERIFY(generate(model, prompt, {}, backend, settings).generated != first.generated);
        for (const GenerationStep& step : first.steps) {
            QVERIFY(step.drawnFrom > 0.0f);
            QCOMPARE(step.after[std::size_t(step.tokenId)], step.drawnFrom);
            QCOMPARE(std::count_if(step.after.begin(), step.after.end(),
                                   [](float p) { return p > 0.0f; }) <= 40,
                     true);
        }
    }

    // softmax([2, 1, 0] / T): T = 2 gives e^1, e^0.5, e^0 over their sum 5.367003, T = 0.5
    // e^4, e^2, e^0 over 62.98721 (worked by hand); T = 0 puts everything on the argmax.
    void temperatureByHand()
    {
        const RowVector logits = row({2.0f, 1.0f, 0.0f});
        const std::vector<double> two = softmaxAt(logits, 2.0f);
        const std::vector<double> half = softmaxAt(logits, 0.5f);
        const double wantTwo[] = {0.506480, 0.307196, 0.186324};
        const double wantHalf[] = {0.866813, 0.117310, 0.015876};
        for (int i = 0; i < 3; ++i) {
            QVERIFY(std::abs(two[std::size_t(i)] - wantTwo[i]) < 1e-6);
            QVERIFY(std::abs(half[std::size_t(i)] - wantHalf[i]) < 1e-6);
        }
        QCOMPARE(softmaxAt(logits, 0.0f), (std::vector<double>{1.0, 0.0, 0.0}));
        QCOMPARE(greedyToken(row({1.0f, 3.0f, 3.0f})), 1); // the lower id among equals
    }

    // Probabilities 1/2, 1/4, 1/8, 1/8 (logits their logarithms, ids 3, 0, 2, 1 in that
    // order): top-p 0.6 keeps 1/2 and 1/4 (1/2 alone is short of 0.6), renormalised to 2/3 and
    // 1/3; top-p 0.4 keeps the first only; top-k 3 keeps 1/2, 1/4, 1/8 as 4/7, 2/7, 1/7, of
    // which top-p 0.8 keeps 4/7 + 2/7 = 0.857 (4/7 = 0.571 is short of it): 2/3 and 1/3 again.
    void topPAndTopKByHand()
    {
        const RowVector logits =
            row({std::log(0.25f), std::log(0.125f), std::log(0.125f), std::log(0.5f)});
        auto filtered = [&](int k, float p) {
            SamplingSettings s;
            s.topK = k;
            s.topP = p;
            return filteredDistribution(logits, s);
        };
        auto near = [](const std::vector<double>& got, std::vector<double> want) {
            for (std::size_t i = 0; i < want.size(); ++i)
                if (std::abs(got[i] - want[i]) > 1e-6)
                    return false;
            return true;
        };
        QVERIFY(near(filtered(0, 1.0f), {0.25, 0.125, 0.125, 0.5}));
        QVERIFY(near(filtered(0, 0.6f), {1.0 / 3, 0.0, 0.0, 2.0 / 3}));
        QVERIFY(near(filtered(0, 0.4f), {0.0, 0.0, 0.0, 1.0}));
        QVERIFY(near(filtered(3, 1.0f), {2.0 / 7, 1.0 / 7, 0.0, 4.0 / 7})); // id 1 before id 2
        QVERIFY(near(filtered(3, 0.8f), {1.0 / 3, 0.0, 0.0, 2.0 / 3}));
        QVERIFY(near(filtered(1, 1.0f), {0.0, 0.0, 0.0, 1.0}));
        // A draw of u in [0, 1) lands on the first id whose cumulative probability passes it.
        Random random(7);
        const double u = Random(7).uniform();
        QCOMPARE(drawToken({0.25, 0.25, 0.0, 0.5}, random), u < 0.25 ? 0 : u < 0.5 ? 1 : 3);
    }

    // CTRL's penalty of 2 on ids 0 and 1 (1 twice, penalised once): 2 -> 1, -1 -> -2.
    void repetitionPenaltyByHand()
    {
        RowVector logits = row({2.0f, -1.0f, 0.5f});
        applyRepetitionPenalty(logits, {0, 1, 1}, 2.0f);
        QCOMPARE(logits, row({1.0f, -2.0f, 0.5f}));
    }

    void badSettings_data()
    {
        QTest::addColumn<float>("temperature");
        QTest::addColumn<int>("topK");
        QTest::addColumn<float>("topP");
        QTest::addColumn<float>("penalty");
        QTest::addColumn<QString>("message");
        QTest::newRow("temperature -1")
            << -1.0f << 0 << 1.0f << 1.0f
            << "temperature: -1.000000 is not allowed: give 0 (greedy) or a number above 0";
        QTest::newRow("top-k -1") << 1.0f << -1 << 1.0f << 1.0f
                                  << "top-k: -1 is not allowed: give 0 (every token) or a number "
                                     "above 0";
        QTest::newRow("top-p 0") << 1.0f << 0 << 0.0f << 1.0f
                                 << "top-p: 0.000000 is outside (0, 1]: give a probability above "
                                    "0, at most 1 (1 keeps every token)";
        QTest::newRow("top-p 1.5") << 1.0f << 0 << 1.5f << 1.0f
                                   << "top-p: 1.500000 is outside (0, 1]: give a probability "
                                      "above 0, at most 1 (1 keeps every token)";
        QTest::newRow("penalty 0")
            << 1.0f << 0 << 1.0f << 0.0f
            << "repetition penalty: 0.000000 is not allowed: give a number above 0 (1: none)";
    }

    void badSettings()
    {
        QFETCH(float, temperature);
        QFETCH(int, topK);
        QFETCH(float, topP);
        QFETCH(float, penalty);
        QFETCH(QString, message);
        const auto model = loadedModelFixture(QStringLiteral("gpt2"));
        GenerationSettings settings;
        settings.sampling = {temperature, topK, topP, penalty, 0};
        CpuBackend backend;
        QCOMPARE(errorOf([&] {
                     generate(model, modelTokens(*model, QStringLiteral("a")), {}, backend,
                              settings);
                 }),
                 message);
    }

    // The tiny GPT-2 has 32 learned positions: 5 prompt tokens leave room for 27.
    void pastTheContext()
    {
        const auto model = loadedModelFixture(QStringLiteral("gpt2"));
        const std::vector<Token> prompt = modelTokens(*model, QStringLiteral("The cat sat on the"));
        CpuBackend backend;
        QCOMPARE(errorOf([&] { generate(model, prompt, {}, backend, greedy(28)); }),
                 QStringLiteral("generation: the prompt's 5 tokens and 28 new ones make 33, "
                                "more than the model's context of 32 tokens; ask for at most 27"));
        QCOMPARE(generate(model, prompt, {}, backend, greedy(27)).generated.size(),
                 std::size_t(27));
    }

    void stops()
    {
        const auto model = loadedModelFixture(QStringLiteral("gpt2"));
        const std::vector<Token> prompt = modelTokens(*model, QStringLiteral("The cat sat on the"));
        CpuBackend backend;
        // generation_config.json: eos_token_id 412.
        QCOMPARE(eosTokenIds(*model), std::vector<int>{412});
        // The greedy continuation starts with id 64, then 144 (generation_expected.json).
        GenerationSettings settings = greedy(10);
        settings.endTokens = std::vector<int>{144};
        Generation generation = generate(model, prompt, {}, backend, settings);
        QCOMPARE(generation.generated, (std::vector<int>{64, 144}));
        QCOMPARE(generation.stop, GenerationStop::EndToken);

        settings = greedy(10);
        settings.stopStrings = QStringList{model->tokenizer->decode(std::vector<int>{64})};
        generation = generate(model, prompt, {}, backend, settings);
        QCOMPARE(generation.generated, std::vector<int>{64});
        QCOMPARE(generation.stop, GenerationStop::StopString);

        std::atomic<bool> cancel{false};
        ForwardOptions options;
        options.cancel = &cancel;
        int calls = 0;
        generation =
            generate(model, prompt, {}, backend, greedy(10), options, [&](const Generation& sofar) {
                ++calls;
                if (sofar.generated.size() == 3)
                    cancel = true; // Stop pressed after the third token
            });
        QCOMPARE(calls, 3);
        QCOMPARE(generation.generated, (std::vector<int>{64, 144, 144}));
        QCOMPARE(generation.stop, GenerationStop::Cancelled);
    }

    // DistilBERT's two [MASK]s are filled one at a time, the more confident first; the second
    // is chosen with the first filled in.
    void fillsMasksMostConfidentFirst()
    {
        const auto model = loadedModelFixture(QStringLiteral("distilbert"));
        const std::vector<Token> prompt =
            modelTokens(*model, QStringLiteral("the [MASK] sat on the [MASK]."));
        CpuBackend backend;
        const auto first = runModel(model, prompt, {}, backend);
        QCOMPARE(first->predictions.size(), std::size_t(2));
        const PositionPrediction& a = first->predictions[0];
        const PositionPrediction& b = first->predictions[1];
        const PositionPrediction& sure =
            a.top.front().probability >= b.top.front().probability ? a : b;
        const PositionPrediction& other = &sure == &a ? b : a;
        std::vector<Token> filled = prompt;
        filled[std::size_t(sure.position)].id = sure.top.front().id;
        const auto second = runModel(model, filled, {}, backend);
        QCOMPARE(second->predictions.size(), std::size_t(1));
        QCOMPARE(second->predictions[0].position, other.position);

        const Generation generation = generate(model, prompt, {}, backend, greedy(5));
        QCOMPARE(generation.stop, GenerationStop::NoMask);
        QCOMPARE(generation.generated,
                 (std::vector<int>{sure.top.front().id, second->predictions[0].top.front().id}));
        QCOMPARE(generation.steps[0].position, sure.position);
        QCOMPARE(generation.steps[1].position, other.position);
        QVERIFY(!generation.continuation.contains(QLatin1String("[MASK]")));
        // One step asked for: one mask filled, the other left.
        QCOMPARE(generate(model, prompt, {}, backend, greedy(1)).stop, GenerationStop::Length);
    }
};

QTEST_GUILESS_MAIN(TestGeneration)
#include "tst_generation.moc"
