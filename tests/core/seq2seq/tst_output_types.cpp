// The two output types beside sequence to sequence (seed 001, "Output Types"): a classifier at
// every position (part-of-speech tagging) and one over the pooled sentence (classification),
// both reading the translation tutorial's encoder. The heads worked by hand, every gradient
// against central differences, and each built-in task trained to its promise from a seed.
#include "core/error.h"
#include "core/seq2seq/output_head_trainer.h"
#include "core/seq2seq/output_heads.h"
#include "core/seq2seq/seq2seq_steps.h"
#include "core/seq2seq/seq2seq_trainer.h"
#include "support/error_of.h"

#include <QElapsedTimer>
#include <QTest>

#include <cmath>

using namespace attn;
using core::Matrix;
using core::RowVector;

namespace {

// A GRU encoder whose state after any one word is tanh of the n gate's input bias: the update
// gate is shut (z = sigmoid(-30) ~ 1e-13) and every weight zero, so h_1 = (1 - z) n = [0.6, -0.8]
// for atanh(0.6) = ln 2 and atanh(-0.8) = -ln 3.
core::OutputHeadModel handModel(core::OutputHeadKind kind)
{
    core::OutputHeadModel m;
    core::Seq2SeqModel& e = m.encoder;
    e.attention = core::Seq2SeqAttention::None;
    e.hiddenSize = 2;
    e.source.words = {"SOS", "EOS", "cat"};
    e.source.index = {{"SOS", 0}, {"EOS", 1}, {"cat", 2}};
    core::allocateSeq2SeqWeights(e, 3, 0);
    // r | z | n, two units each
    e.encoderLayers[0].inputBias << 0.0f, 0.0f, -30.0f, -30.0f, float(std::log(2.0)),
        float(-std::log(3.0));
    m.kind = kind;
    m.weights.resize(2, 3);
    m.weights << 1.0f, 0.0f, -1.0f, 0.0f, 2.0f, 1.0f;
    m.bias = RowVector::Zero(3);
    m.labels = {"a", "b", "c"};
    return m;
}

// A small random model of either kind, its tensors drawn with a seed.
core::OutputHeadModel randomModel(core::OutputHeadKind kind, core::SentencePooling pooling,
                                  bool bidirectional, core::Seq2SeqCell cell)
{
    core::OutputHeadModel m;
    core::Seq2SeqModel& e = m.encoder;
    e.attention = core::Seq2SeqAttention::None;
    e.cell = cell;
    e.bidirectional = bidirectional;
    e.hiddenSize = 3;
    core::allocateSeq2SeqWeights(e, 5, 0);
    e.decoderLayers.clear();
    m.kind = kind;
    m.pooling = pooling;
    m.weights = Matrix::Zero(e.keyWidth(), 4);
    m.bias = RowVector::Zero(4);
    core::Random random(11);
    for (const core::Seq2SeqParameter& p : core::outputHeadParameters(m))
        for (Eigen::Index i = 0; i < p.size; ++i)
            p.data[i] = float(random.uniform(-0.8, 0.8));
    return m;
}

} // namespace

class TestOutputTypes : public QObject
{
    Q_OBJECT

private slots:
    // One word, h = [0.6, -0.8]; logits h W = [0.6, -1.6, -1.4]; the loss of label 0 is
    // -log softmax(logits)_0 and d loss / d W = h^T (p - e_0).
    void taggingHeadByHand()
    {
        const core::OutputHeadModel m = handModel(core::OutputHeadKind::Tagging);
        const core::OutputHeadResult r = core::runOutputHead(m, {2});
        QVERIFY(std::abs(r.states(0, 0) - 0.6f) < 1e-5f);
        QVERIFY(std::abs(r.states(0, 1) + 0.8f) < 1e-5f);
        const double z = std::exp(0.6) + std::exp(-1.6) + std::exp(-1.4);
        const double p[3] = {std::exp(0.6) / z, std::exp(-1.6) / z, std::exp(-1.4) / z};
        for (int c = 0; c < 3; ++c)
            QVERIFY(std::abs(r.probabilities(0, c) - p[c]) < 1e-5);
        QCOMPARE(r.labels, std::vector<int>{0});

        core::OutputHeadModel g = core::zeroOutputHeadLike(m);
        const double loss = core::accumulateOutputHeadGradients(m, {{2}, {0}}, 1.0f, g);
        QVERIFY(std::abs(loss + std::log(p[0])) < 1e-5);
        const double h[2] = {0.6, -0.8};
        for (int i = 0; i < 2; ++i)
            for (int c = 0; c < 3; ++c)
                QVERIFY(std::abs(g.weights(i, c) - h[i] * (p[c] - (c == 0))) < 1e-5);
        for (int c = 0; c < 3; ++c)
            QVERIFY(std::abs(g.bias(c) - (p[c] - (c == 0))) < 1e-5);
    }

    // Two words each give h = [0.6, -0.8] (z shut, nothing carried): tagging sums two equal
    // losses; the mean, first and last pooled vectors are that same h, so classification's loss
    // is one of them.
    void headsSumOrPool()
    {
        core::OutputHeadModel tagging = handModel(core::OutputHeadKind::Tagging);
        core::OutputHeadModel g = core::zeroOutputHeadLike(tagging);
        const double two = core::accumulateOutputHeadGradients(tagging, {{2, 2}, {1, 1}}, 1.0f, g);
        const double z = std::exp(0.6) + std::exp(-1.6) + std::exp(-1.4);
        const double one = -std::log(std::exp(-1.6) / z);
        QVERIFY(std::abs(two - 2.0 * one) < 1e-5);
        for (const core::SentencePooling pooling :
             {core::SentencePooling::Mean, core::SentencePooling::First,
              core::SentencePooling::Last}) {
            core::OutputHeadModel classifier = handModel(core::OutputHeadKind::Classification);
            classifier.pooling = pooling;
            core::OutputHeadModel cg = core::zeroOutputHeadLike(classifier);
            const double loss =
                core::accumulateOutputHeadGradients(classifier, {{2, 2}, {1}}, 1.0f, cg);
            QVERIFY(std::abs(loss - one) < 1e-5);
            const core::OutputHeadResult r = core::runOutputHead(classifier, {2, 2});
            QCOMPARE(r.probabilities.rows(), Eigen::Index(1));
            QVERIFY(std::abs(r.pooled(0) - 0.6f) < 1e-5f);
        }
    }

    // Every tensor's gradient (its first, middle and last entry) against central differences,
    // for each head, pooling, cell and direction.
    void gradientsByCentralDifferences_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("pooling");
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<bool>("lstm");
        const int tagging = int(core::OutputHeadKind::Tagging);
        const int classification = int(core::OutputHeadKind::Classification);
        QTest::newRow("tagging") << tagging << 0 << false << false;
        QTest::newRow("tagging, bidirectional LSTM") << tagging << 0 << true << true;
        QTest::newRow("mean") << classification << int(core::SentencePooling::Mean) << false
                              << false;
        QTest::newRow("first, bidirectional")
            << classification << int(core::SentencePooling::First) << true << false;
        QTest::newRow("last, LSTM")
            << classification << int(core::SentencePooling::Last) << false << true;
    }

    void gradientsByCentralDifferences()
    {
        QFETCH(int, kind);
        QFETCH(int, pooling);
        QFETCH(bool, bidirectional);
        QFETCH(bool, lstm);
        core::OutputHeadModel m =
            randomModel(core::OutputHeadKind(kind), core::SentencePooling(pooling), bidirectional,
                        lstm ? core::Seq2SeqCell::Lstm : core::Seq2SeqCell::Gru);
        const core::OutputHeadExample example =
            kind == int(core::OutputHeadKind::Tagging)
                ? core::OutputHeadExample{{2, 4, 3, 2}, {1, 3, 0, 2}}
                : core::OutputHeadExample{{2, 4, 3, 2}, {3}};
        core::OutputHeadModel g = core::zeroOutputHeadLike(m);
        core::accumulateOutputHeadGradients(m, example, 1.0f, g);
        const std::vector<core::Seq2SeqParameter> analytic = core::outputHeadParameters(g);
        std::vector<core::Seq2SeqParameter> weights = core::outputHeadParameters(m);
        QCOMPARE(weights.size(), analytic.size());
        const auto lossAt = [&] {
            core::OutputHeadModel scratch = core::zeroOutputHeadLike(m);
            return core::accumulateOutputHeadGradients(m, example, 1.0f, scratch);
        };
        int checked = 0;
        for (std::size_t k = 0; k < weights.size(); ++k) {
            for (const Eigen::Index i :
                 {Eigen::Index(0), weights[k].size / 2, weights[k].size - 1}) {
                const float eps = 1e-2f;
                const float saved = weights[k].data[i];
                weights[k].data[i] = saved + eps;
                const double up = lossAt();
                weights[k].data[i] = saved - eps;
                const double down = lossAt();
                weights[k].data[i] = saved;
                const double numeric = (up - down) / (2.0 * double(eps));
                const double ours = double(analytic[k].data[i]);
                QVERIFY2(
                    std::abs(numeric - ours) < 2e-3 + 1e-2 * std::abs(ours),
                    qPrintable(QStringLiteral("%1[%2]: %3 by differences, %4 by backpropagation")
                                   .arg(QString::fromStdString(weights[k].name))
                                   .arg(i)
                                   .arg(numeric)
                                   .arg(ours)));
                ++checked;
            }
        }
        QVERIFY(checked >= 18); // embedding, 4 tensors a direction, the head's 2
    }

    // The tasks: the parts of speech the grammar drew, one per word; the moods a third each,
    // "happy" or "sad" somewhere in the sentence; held-out sentences never trained on.
    void tasksLabelWhatTheySay()
    {
        const core::OutputHeadTaskData tags =
            core::makeOutputHeadTask(core::OutputHeadKind::Tagging, 200, 50, 3);
        QCOMPARE(tags.training.size(), std::size_t(200));
        QCOMPARE(tags.heldOut.size(), std::size_t(50));
        QCOMPARE(tags.labels, (std::vector<std::string>{"DET", "ADJ", "NOUN", "VERB", "CCONJ"}));
        const std::map<QString, int> expected{{"the", 0},   {"a", 0},      {"black", 1},
                                              {"happy", 1}, {"cat", 2},    {"mouse", 2},
                                              {"ate", 3},   {"chased", 3}, {"and", 4}};
        int seen = 0;
        for (const core::LabelledSentence& s : tags.training) {
            const QStringList words = s.text.split(QLatin1Char(' '));
            QCOMPARE(s.labels.size(), std::size_t(words.size()));
            for (int i = 0; i < words.size(); ++i)
                if (const auto it = expected.find(words[i]); it != expected.end()) {
                    QCOMPARE(s.labels[std::size_t(i)], it->second);
                    ++seen;
                }
        }
        QVERIFY(seen > 500);

        const core::OutputHeadTaskData moods =
            core::makeOutputHeadTask(core::OutputHeadKind::Classification, 300, 60, 3);
        QCOMPARE(moods.labels, (std::vector<std::string>{"happy", "sad", "neither"}));
        int counts[3] = {0, 0, 0};
        for (const core::LabelledSentence& s : moods.training) {
            QCOMPARE(s.labels.size(), std::size_t(1));
            const bool happy = s.text.split(QLatin1Char(' ')).contains(QStringLiteral("happy"));
            const bool sad = s.text.split(QLatin1Char(' ')).contains(QStringLiteral("sad"));
            QVERIFY(!(happy && sad));
            QCOMPARE(s.labels[0], happy ? 0 : sad ? 1 : 2);
            ++counts[s.labels[0]];
            for (const core::LabelledSentence& held : moods.heldOut)
                QVERIFY(held.text != s.text);
        }
        for (const int count : counts)
            QVERIFY(count == 100);
    }

    // Each task's promise from seed 1: tagging 99% of held-out words, classification 95% of
    // held-out sentences (a third is chance).
    void tasksTrainToTheirPromise_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<int>("steps");
        QTest::addColumn<double>("promise");
        QTest::newRow("tagging") << int(core::OutputHeadKind::Tagging) << 60 << 0.99;
        QTest::newRow("classification") << int(core::OutputHeadKind::Classification) << 300 << 0.95;
    }

    void tasksTrainToTheirPromise()
    {
        QFETCH(int, kind);
        QFETCH(int, steps);
        QFETCH(double, promise);
        QElapsedTimer timer;
        timer.start();
        core::OutputHeadTrainer trainer(
            core::makeOutputHeadTask(core::OutputHeadKind(kind), 2000, 200, 7), {});
        const double before = trainer.heldOutAccuracy();
        for (int i = 0; i < steps; ++i)
            trainer.step();
        const double after = trainer.heldOutAccuracy();
        qInfo("%s: held-out accuracy %.3f before, %.3f after %d steps; loss %.4f -> %.4f; %lld ms",
              core::outputHeadTaskName(core::OutputHeadKind(kind)).data(), before, after, steps,
              trainer.losses().front(), trainer.losses().back(), timer.elapsed());
        QVERIFY(before < 0.7);
        QVERIFY(after >= promise);
    }

    // A unidirectional encoder's first state has read one word, "the" or "a": classifying
    // from it stays near chance, what the mean (or the last state) reads is the sentence.
    void firstStateOfOneDirectionSeesOneWord()
    {
        core::OutputHeadSettings settings;
        settings.pooling = core::SentencePooling::First;
        core::OutputHeadTrainer trainer(
            core::makeOutputHeadTask(core::OutputHeadKind::Classification, 2000, 200, 7), settings);
        for (int i = 0; i < 300; ++i)
            trainer.step();
        const double accuracy = trainer.heldOutAccuracy();
        qInfo("classification from the first state: held-out accuracy %.3f", accuracy);
        QVERIFY(accuracy < 0.45);
    }

    // A word outside the grammar is named; a label outside the head is refused.
    void badInputIsNamed()
    {
        const core::OutputHeadModel m = handModel(core::OutputHeadKind::Tagging);
        QCOMPARE(test::errorOf([&] { core::outputHeadIds(m, QStringLiteral("cat dragon")); }),
                 QStringLiteral("the word \"dragon\" is not in the vocabulary"));
        QCOMPARE(test::errorOf([&] { core::outputHeadIds(m, QStringLiteral("  ")); }),
                 QStringLiteral("the sentence has no words"));
        core::OutputHeadModel g = core::zeroOutputHeadLike(m);
        QCOMPARE(test::errorOf([&] {
                     core::accumulateOutputHeadGradients(m, {{2}, {3}}, 1.0f, g);
                 }),
                 QStringLiteral("label 3 is not one of the head's classes"));
        QCOMPARE(test::errorOf([&] {
                     core::accumulateOutputHeadGradients(m, {{2, 2}, {0}}, 1.0f, g);
                 }),
                 QStringLiteral("expected 2 labels, got 1"));
    }
};

QTEST_GUILESS_MAIN(TestOutputTypes)
#include "tst_output_types.moc"
