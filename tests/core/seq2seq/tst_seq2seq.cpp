// The RNN encoder-decoder of PyTorch's translation tutorial: the GRU and the additive attention
// worked by hand, decoding against PyTorch's own on tiny checkpoints in the tutorial's layout
// (tests/data/seq2seq, made by make_reference.py there), and what a broken folder is told.
#include "core/error.h"
#include "core/seq2seq/seq2seq_model.h"
#include "core/seq2seq/seq2seq_trainer.h"
#include "core/seq2seq/seq2seq_training.h"
#include "support/error_of.h"
#include "support/model_fixtures.h"

#include <QDate>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QLocale>
#include <QMap>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace attn;
using core::Matrix;
using core::RowVector;

namespace {

QString seq2seqFixture(const QString& name)
{
    return QStringLiteral(ATTN_TEST_DATA_DIR "/seq2seq/") + name;
}

RowVector row(std::initializer_list<float> values)
{
    RowVector v(Eigen::Index(values.size()));
    Eigen::Index i = 0;
    for (const float x : values)
        v(i++) = x;
    return v;
}

// H = 1: every matrix 1 x 1 (or 1 x 3 for the GRU's three gates, 2 x 3 for the decoder's input
// [embedded; context]); zero unless set.
core::RnnLayer zeroGru(int inputSize)
{
    return {Matrix::Zero(inputSize, 3), Matrix::Zero(1, 3), RowVector::Zero(3), RowVector::Zero(3)};
}

core::Seq2SeqVocabulary vocabulary(std::vector<std::string> words)
{
    core::Seq2SeqVocabulary v;
    for (std::size_t i = 0; i < words.size(); ++i)
        v.index[words[i]] = int(i);
    v.words = std::move(words);
    return v;
}

// A two-word source ("w w" + EOS is three positions; the encoder below makes the states 0.4,
// 0.6 for the first two whatever the words), Bahdanau attention with W_a = U_a = v_a = 1.
core::Seq2SeqModel handModel()
{
    core::Seq2SeqModel m;
    m.attention = core::Seq2SeqAttention::Bahdanau;
    m.hiddenSize = 1;
    m.maxLength = 2;
    m.source = vocabulary({"SOS", "EOS", "w"});
    m.target = vocabulary({"SOS", "EOS", "y"});
    m.encoderEmbedding = Matrix::Ones(3, 1);
    // Zero weights; b_in = atanh(0.8): r and z are sigmoid(0) = 1/2 and n = tanh(b_in) = 0.8,
    // so h_1 = (1 - 1/2) 0.8 + 1/2 * 0 = 0.4, h_2 = 0.4 + 0.2 = 0.6.
    m.encoderLayers = {zeroGru(1)};
    m.encoderLayers[0].inputBias(2) = std::atanh(0.8f);
    m.decoderEmbedding = Matrix::Ones(3, 1);
    m.wa = m.ua = m.va = Matrix::Ones(1, 1);
    m.waBias = m.uaBias = RowVector::Zero(1);
    // The decoder's GRU all zero: n = 0, z = 1/2, s' = s / 2.
    m.decoderLayers = {zeroGru(2)};
    m.out = row({1.0f, -1.0f, 2.0f});
    m.outBias = RowVector::Zero(3);
    return m;
}

} // namespace

class TestSeq2Seq : public QObject
{
    Q_OBJECT

private slots:
    // nn.GRU's equations with x = 1, h = 0.5 and one weight per gate:
    // r = sigmoid(0.5 * 1 + 1 * 0.5) = sigmoid(1) = 0.7310585786
    // z = sigmoid(-1 * 1 + 0.5 * 0.5) = sigmoid(-0.75) = 0.3208213008
    // n = tanh(2 * 1 + 0.1 + r * (-1 * 0.5 + 0.2)) = tanh(1.8806824264) = 0.9545527718
    // h' = (1 - z) n + z h = 0.8087225603
    void gruStepByHand()
    {
        core::RnnLayer gru;
        gru.inputWeights = row({0.5f, -1.0f, 2.0f});
        gru.hiddenWeights = row({1.0f, 0.5f, -1.0f});
        gru.inputBias = row({0.0f, 0.0f, 0.1f});
        gru.hiddenBias = row({0.0f, 0.0f, 0.2f});
        const RowVector next = core::gruStep(gru, row({1.0f}), row({0.5f}));
        QCOMPARE(next.size(), Eigen::Index(1));
        QVERIFY(std::abs(next(0) - 0.8087225603f) < 1e-6f);
    }

    // The first decoder step on the two-word source. The encoder's states: 0.4, 0.6 and, at the
    // appended EOS, h_3 = 0.4 + 0.6 / 2 = 0.7, the decoder's first state s.
    // scores e_j = tanh(s + h_j): tanh(1.1), tanh(1.3), tanh(1.4) = 0.80049902, 0.86172316,
    // 0.88535165; weights their softmax = 0.31728971, 0.33732248, 0.34538781; context
    // sum_j a_j h_j = 0.57108084; s' = s / 2 = 0.35; log_softmax(0.35 * [1, -1, 2]) =
    // [-1.07009376, -1.77009376, -0.72009376]: the word "y" (id 2).
    void bahdanauStepByHand()
    {
        const core::Seq2SeqModel model = handModel();
        const core::Seq2SeqDecoding d = core::decodeGreedy(model, QStringLiteral("W w"));
        QCOMPARE(d.sourceIds, (std::vector<int>{2, 2, 1}));
        QCOMPARE(d.encoderStates.rows(), Eigen::Index(3));
        const float states[] = {0.4f, 0.6f, 0.7f};
        for (int j = 0; j < 3; ++j)
            QVERIFY(std::abs(d.encoderStates(j, 0) - states[j]) < 1e-6f);
        QCOMPARE(d.steps.size(), std::size_t(2)); // max_length 2, no EOS
        const core::Seq2SeqStep& first = d.steps[0];
        QCOMPARE(first.inputId, 0); // SOS
        const float scores[] = {0.80049902f, 0.86172316f, 0.88535165f};
        const float weights[] = {0.31728971f, 0.33732248f, 0.34538781f};
        for (int j = 0; j < 3; ++j) {
            QVERIFY(std::abs(first.scores(j) - scores[j]) < 1e-6f);
            QVERIFY(std::abs(first.attention(j) - weights[j]) < 1e-6f);
        }
        QVERIFY(std::abs(first.context(0) - 0.57108084f) < 1e-6f);
        QVERIFY(std::abs(first.hidden(0) - 0.35f) < 1e-6f);
        const float logProbs[] = {-1.07009376f, -1.77009376f, -0.72009376f};
        for (int v = 0; v < 3; ++v)
            QVERIFY(std::abs(first.logProbs(v) - logProbs[v]) < 1e-6f);
        QCOMPARE(d.outputIds, (std::vector<int>{2, 2}));
        QCOMPARE(d.steps[1].inputId, 2); // the word chosen is fed back
    }

    void decodingStopsAtEos()
    {
        core::Seq2SeqModel model = handModel();
        model.maxLength = 5;
        model.outBias = row({0.0f, 10.0f, 0.0f});
        const core::Seq2SeqDecoding d = core::decodeGreedy(model, QStringLiteral("w"));
        QCOMPARE(d.outputIds, (std::vector<int>{1}));
        QCOMPARE(d.steps.size(), std::size_t(1));
    }

    // The tutorial's normalizeString: lower case, accents gone, a space before .!?, every other
    // run of non-letters one space.
    void sourceIsNormalisedAsTheTutorialDoes()
    {
        QCOMPARE(
            core::normalizeSeq2SeqSource(QStringLiteral("Le chat noir a mangé la souris.")),
            (std::vector<std::string>{"le", "chat", "noir", "a", "mange", "la", "souris", "."}));
        QCOMPARE(core::normalizeSeq2SeqSource(QStringLiteral("  Où es-tu?! 42 fois")),
                 (std::vector<std::string>{"ou", "es", "tu", "?", "!", "fois"}));
        QCOMPARE(core::normalizeSeq2SeqSource(QStringLiteral("a.b")),
                 (std::vector<std::string>{"a", ".b"}));
        QVERIFY(core::normalizeSeq2SeqSource(QStringLiteral(" 12 ,; ")).empty());
    }

    // The tutorial's two decoders, then the variants of docs/SEQ2SEQ_FORMAT.md (LSTM cells, two
    // layers, a bidirectional encoder, Luong's scores, hard attention), all made by
    // make_reference.py. `beamDiffers`: in how many of the three sentences beam search of width
    // 3 finds other words than greedy decoding (-1: not counted).
    void decodesAsPyTorchDoes_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<int>("beamDiffers");
        QTest::newRow("Bahdanau attention") << QStringLiteral("tutorial-bahdanau") << 0;
        QTest::newRow("no attention") << QStringLiteral("tutorial-no-attention") << 2;
        for (const char* variant :
             {"lstm-bahdanau", "gru-2-layers-bahdanau", "bidirectional-gru-bahdanau", "luong-dot",
              "luong-general-bidirectional-lstm-2-layers", "luong-concat-lstm", "hard",
              "no-attention-bidirectional-lstm"})
            QTest::newRow(variant) << QString::fromLatin1(variant) << -1;
    }

    // Output ids equal, attention and log-probabilities to float32 tolerance, against the
    // tutorial's classes in PyTorch (expected.json).
    void decodesAsPyTorchDoes()
    {
        QFETCH(QString, fixture);
        const core::Seq2SeqModel model = core::loadSeq2SeqModel(seq2seqFixture(fixture));
        QFile file(seq2seqFixture(fixture) + QStringLiteral("/expected.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray cases =
            QJsonDocument::fromJson(file.readAll()).object()[QStringLiteral("cases")].toArray();
        QCOMPARE(cases.size(), 3);
        const auto ids = [](const QJsonValue& value) {
            std::vector<int> out;
            for (const QJsonValue& id : value.toArray())
                out.push_back(id.toInt());
            return out;
        };
        for (const QJsonValue& value : cases) {
            const QJsonObject expected = value.toObject();
            const core::Seq2SeqDecoding d =
                core::decodeGreedy(model, expected[QStringLiteral("text")].toString());
            QCOMPARE(d.sourceIds, ids(expected[QStringLiteral("source_ids")]));
            QCOMPARE(d.outputIds, ids(expected[QStringLiteral("output_ids")]));
            QVERIFY(test::maxDifference(d.encoderStates.bottomRows(1),
                                        test::rowOf(expected[QStringLiteral("encoder_last")])) <
                    1e-5);
            const QJsonArray steps = expected[QStringLiteral("steps")].toArray();
            QCOMPARE(d.steps.size(), std::size_t(steps.size()));
            for (int s = 0; s < steps.size(); ++s) {
                const QJsonObject step = steps[s].toObject();
                QVERIFY(test::maxDifference(d.steps[std::size_t(s)].logProbs,
                                            test::rowOf(step[QStringLiteral("log_probs")])) < 1e-5);
                if (model.attention != core::Seq2SeqAttention::None)
                    QVERIFY(test::maxDifference(d.steps[std::size_t(s)].attention,
                                                test::rowOf(step[QStringLiteral("attention")])) <
                            1e-6);
                else
                    QCOMPARE(d.steps[std::size_t(s)].attention.size(), Eigen::Index(0));
            }
        }
    }

    // Beam search of width 3 against the same search written over PyTorch's decoder
    // (make_reference.py): the same words and summed log-probability; width 1 is greedy.
    void beamSearchAsTheReference_data() { decodesAsPyTorchDoes_data(); }

    void beamSearchAsTheReference()
    {
        QFETCH(QString, fixture);
        QFETCH(int, beamDiffers);
        const core::Seq2SeqModel model = core::loadSeq2SeqModel(seq2seqFixture(fixture));
        QFile file(seq2seqFixture(fixture) + QStringLiteral("/expected.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonArray cases =
            QJsonDocument::fromJson(file.readAll()).object()[QStringLiteral("cases")].toArray();
        int differFromGreedy = 0;
        for (const QJsonValue& value : cases) {
            const QJsonObject expected = value.toObject();
            const QString text = expected[QStringLiteral("text")].toString();
            std::vector<int> ids;
            for (const QJsonValue& id : expected[QStringLiteral("beam3_output_ids")].toArray())
                ids.push_back(id.toInt());
            const core::Seq2SeqDecoding beam = core::decodeBeam(model, text, 3);
            QCOMPARE(beam.outputIds, ids);
            QVERIFY(std::abs(beam.logProbability -
                             expected[QStringLiteral("beam3_log_probability")].toDouble()) < 1e-4);
            QCOMPARE(beam.steps.size(), ids.size());
            for (std::size_t s = 0; s < ids.size(); ++s)
                QCOMPARE(beam.steps[s].outputId, ids[s]);

            const core::Seq2SeqDecoding greedy = core::decodeGreedy(model, text);
            const core::Seq2SeqDecoding one = core::decodeBeam(model, text, 1);
            QCOMPARE(one.outputIds, greedy.outputIds);
            QCOMPARE(one.logProbability, greedy.logProbability);
            differFromGreedy += beam.outputIds != greedy.outputIds;
        }
        // Without attention, the beam finds likelier translations than greedy in two sentences.
        if (beamDiffers >= 0)
            QCOMPARE(differFromGreedy, beamDiffers);
        QCOMPARE(test::errorOf([&] { core::decodeBeam(model, QStringLiteral("le chat"), 0); }),
                 QStringLiteral("the beam width must be at least 1, not 0"));
    }

    // Backpropagation through time against PyTorch's autograd (the loss of one pair under
    // teacher forcing, make_reference.py), every parameter; then a few weights by central
    // differences of the loss itself.
    void gradientsAsPyTorch_data() { decodesAsPyTorchDoes_data(); }

    void gradientsAsPyTorch()
    {
        QFETCH(QString, fixture);
        core::Seq2SeqModel model = core::loadSeq2SeqModel(seq2seqFixture(fixture));
        QFile file(seq2seqFixture(fixture) + QStringLiteral("/expected.json"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject pair = QJsonDocument::fromJson(file.readAll())
                                     .object()[QStringLiteral("training_pair")]
                                     .toObject();
        core::Seq2SeqExample example;
        for (const QJsonValue& id : pair[QStringLiteral("source_ids")].toArray())
            example.source.push_back(id.toInt());
        for (const QJsonValue& id : pair[QStringLiteral("target_ids")].toArray())
            example.target.push_back(id.toInt());
        core::Random random(1);
        core::Seq2SeqModel gradients = core::zeroSeq2SeqLike(model);
        const double loss =
            core::accumulateSeq2SeqGradients(model, example, 1.0, random, 1.0f, gradients);
        QVERIFY(std::abs(loss - pair[QStringLiteral("loss")].toDouble()) < 1e-4);

        const QJsonObject expected = pair[QStringLiteral("gradients")].toObject();
        const std::vector<core::Seq2SeqParameter> parameters = core::seq2seqParameters(gradients);
        QCOMPARE(qsizetype(parameters.size()), expected.size());
        for (const core::Seq2SeqParameter& p : parameters) {
            const QJsonValue value = expected[QString::fromStdString(p.name)];
            QVERIFY2(value.isArray(), p.name.c_str());
            const Matrix ours = Eigen::Map<const Matrix>(p.data, p.rows, p.cols);
            const Matrix theirs =
                p.fileRank == 1 ? Matrix(test::rowOf(value)) : test::matrixOf(value);
            const Matrix oursAsStored = p.transposedInFile ? Matrix(ours.transpose()) : ours;
            const double scale = std::max(1.0, double(theirs.cwiseAbs().maxCoeff()));
            QVERIFY2(test::maxDifference(oursAsStored, theirs) < 2e-5 * scale, p.name.c_str());
        }

        // Central differences: (L(w + eps) - L(w - eps)) / 2 eps, for the first and the last
        // entry of every parameter.
        const auto lossAt = [&](core::Seq2SeqModel& m) {
            core::Seq2SeqModel scratch = core::zeroSeq2SeqLike(m);
            return core::accumulateSeq2SeqGradients(m, example, 1.0, random, 1.0f, scratch);
        };
        std::vector<core::Seq2SeqParameter> weights = core::seq2seqParameters(model);
        for (std::size_t k = 0; k < weights.size(); ++k) {
            for (const Eigen::Index i : {Eigen::Index(0), weights[k].size - 1}) {
                const float eps = 1e-2f;
                const float saved = weights[k].data[i];
                // Without attention the decoder takes relu(embedding): differences across its kink
                // at 0 are not its derivative.
                if (model.attention == core::Seq2SeqAttention::None &&
                    weights[k].name == "decoder.embedding.weight" && std::abs(saved) < 2 * eps)
                    continue;
                // Hard attention's loss is flat in the scores between argmax changes; its
                // gradient there is the straight-through surrogate, which only the reference
                // above checks. The output layer comes after the choice.
                if (model.attention == core::Seq2SeqAttention::Hard &&
                    weights[k].name.rfind("decoder.out.", 0) != 0)
                    continue;
                weights[k].data[i] = saved + eps;
                const double up = lossAt(model);
                weights[k].data[i] = saved - eps;
                const double down = lossAt(model);
                weights[k].data[i] = saved;
                const double numeric = (up - down) / (2.0 * double(eps));
                const double analytic = double(parameters[k].data[i]);
                QVERIFY2(
                    std::abs(numeric - analytic) < 2e-3 + 1e-2 * std::abs(analytic),
                    qPrintable(QStringLiteral("%1[%2]: %3 by differences, %4 by backpropagation")
                                   .arg(QString::fromStdString(weights[k].name))
                                   .arg(i)
                                   .arg(numeric)
                                   .arg(analytic)));
            }
        }
    }

    // The dates task promises 95% exact matches on dates it never saw; from seed 1 it gets
    // there in 300 steps of 32 pairs (about 4 s here; 96.5% after 200, 100% after 275).
    void datesTrainToTheirPromise()
    {
        core::Seq2SeqTrainingSettings settings;
        settings.hiddenSize = 32;
        settings.learningRate = 0.01;
        core::Seq2SeqTrainer trainer(core::makeSeq2SeqTask(core::Seq2SeqTask::Dates, 20000, 200, 7),
                                     settings);
        QCOMPARE(trainer.data().heldOut.size(), std::size_t(200));
        for (const core::Seq2SeqPair& pair : trainer.data().heldOut)
            for (const core::Seq2SeqPair& seen : trainer.data().training)
                QVERIFY(pair.source != seen.source);
        const double before = trainer.heldOutAccuracy();
        for (int i = 0; i < 300; ++i)
            trainer.step();
        const double after = trainer.heldOutAccuracy();
        qInfo("dates, H = 32: held-out exact match %.3f before, %.3f after 300 steps; loss %.4f -> "
              "%.4f",
              before, after, trainer.losses().front(), trainer.losses().back());
        QCOMPARE(before, 0.0);
        QVERIFY(after >= 0.95);
        QVERIFY(trainer.losses().back() < 0.1 * trainer.losses().front());
    }

    // The grammar's reorderings: every English adjective-noun pair comes out noun-adjective in
    // French, agreeing with the noun's gender, every past verb as "a" + participle, every "and"
    // as "et"; at most 30 words.
    void englishFrenchGrammarReorders()
    {
        const core::Seq2SeqTaskData data =
            core::makeSeq2SeqTask(core::Seq2SeqTask::EnglishFrench, 300, 0, 5);
        QCOMPARE(data.training.size(), std::size_t(300));
        const QMap<QString, QString> nouns{
            {"cat", "chat"}, {"mouse", "souris"}, {"house", "maison"}, {"dog", "chien"}};
        const QMap<QString, QString> adjectives{{"black", "noir"}, {"white", "blanc"}};
        const QMap<QString, QString> feminine{{"black", "noire"}, {"white", "blanche"}};
        int reordered = 0, longest = 0;
        for (const core::Seq2SeqPair& pair : data.training) {
            const QStringList english = pair.source.split(QLatin1Char(' '));
            const QStringList french = pair.target.split(QLatin1Char(' '));
            longest = std::max(longest, int(english.size()));
            QCOMPARE(english.count(QStringLiteral("and")), french.count(QStringLiteral("et")));
            QCOMPARE(english.count(QStringLiteral("ate")),
                     pair.target.count(QStringLiteral("a mangé")));
            for (int i = 0; i + 1 < english.size(); ++i) {
                if (!adjectives.contains(english[i]) || !nouns.contains(english[i + 1]))
                    continue;
                const bool female = english[i + 1] == QStringLiteral("mouse") ||
                                    english[i + 1] == QStringLiteral("house");
                const QString expected = nouns[english[i + 1]] + QLatin1Char(' ') +
                                         (female ? feminine[english[i]] : adjectives[english[i]]);
                QVERIFY2(pair.target.contains(expected),
                         qPrintable(pair.source + QStringLiteral(" -> ") + pair.target));
                ++reordered;
            }
        }
        QVERIFY(reordered > 20);
        QVERIFY(longest <= 30);
        QVERIFY(longest >= 25);
        QVERIFY(std::find(data.targetAlphabet.begin(), data.targetAlphabet.end(), "mange") !=
                data.targetAlphabet.end()); // normalised as the tutorial's Lang does
    }

    // A file in eng-fra.txt's format: the tutorial's filters, and a malformed line named.
    void pairsFileIsReadAndFiltered()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("pairs.tsv"));
        const auto write = [&](const QByteArray& bytes) {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write(bytes);
        };
        QByteArray lines;
        for (int i = 0; i < 10; ++i)
            lines += "I'm cold.\tJ'ai froid.\tCC-BY 2.0 (France)\n"
                     "He is tall.\tIl est grand.\n"
                     "Go.\tVa !\n"
                     "This sentence has exactly ten words in it, you see.\tCourt.\n";
        write(lines);
        core::Seq2SeqPairsFilter filter;
        core::Seq2SeqTaskData data = core::readSeq2SeqPairs(path, filter, 5, 1);
        // fewer than 10 words a side: the long English sentence (11 with the ".") is dropped
        QCOMPARE(data.training.size() + data.heldOut.size(), std::size_t(30));
        QCOMPARE(data.heldOut.size(), std::size_t(3)); // at most a tenth
        filter.englishPrefixes = true;
        data = core::readSeq2SeqPairs(path, filter, 0, 1);
        QCOMPARE(data.training.size(), std::size_t(20));
        QStringList sources;
        for (const core::Seq2SeqPair& pair : data.training)
            sources << pair.source;
        QVERIFY(sources.contains(QStringLiteral("i m cold .")));
        QVERIFY(sources.contains(QStringLiteral("he is tall .")));
        QVERIFY(!sources.contains(QStringLiteral("go .")));
        QCOMPARE(data.sourceAlphabet,
                 (std::vector<std::string>{".", "cold", "he", "i", "is", "m", "tall"}));
        QCOMPARE(data.targetAlphabet,
                 (std::vector<std::string>{".", "ai", "est", "froid", "grand", "il", "j"}));

        write("Go.\tVa !\n\nHi.\tSalut !\nRun!   Cours !\n");
        QCOMPARE(
            test::errorOf([&] { core::readSeq2SeqPairs(path, {}, 0, 1); }),
            QStringLiteral("pairs.tsv: line 4: expected the two sentences separated by a tab"));
        write("Go.\tVa !\n42\t42\n");
        QCOMPARE(test::errorOf([&] { core::readSeq2SeqPairs(path, {}, 0, 1); }),
                 QStringLiteral("pairs.tsv: line 2: the first sentence has no words after "
                                "normalising (letters a-z and . ! ? count)"));
        write("Go.\tVa !\n");
        filter.englishPrefixes = true;
        QCOMPARE(test::errorOf([&] { core::readSeq2SeqPairs(path, filter, 0, 1); }),
                 QStringLiteral("pairs.tsv: no pair is left after the filter (fewer than 10 "
                                "words a side, the English prefixes)"));
    }

    // Exact matches counted by source length: one entry a length the held-out pairs hold,
    // shortest first, with as many pairs as have that length.
    void accuracyByLengthCountsEachLength()
    {
        core::Seq2SeqTrainingSettings settings;
        settings.hiddenSize = 16;
        const core::Seq2SeqTaskData data =
            core::makeSeq2SeqTask(core::Seq2SeqTask::Reverse, 500, 60, 2);
        core::Seq2SeqTrainer trainer(data, settings);
        const std::vector<core::Seq2SeqLengthAccuracy> byLength = trainer.heldOutAccuracyByLength();
        int pairs = 0;
        int previous = 0;
        for (const core::Seq2SeqLengthAccuracy& entry : byLength) {
            QVERIFY(entry.length > previous); // one entry a length, shortest first
            QVERIFY(entry.length >= 3 && entry.length <= 8);
            previous = entry.length;
            pairs += entry.pairs;
        }
        QCOMPARE(pairs, 60);
        // The lengths as the pairs hold them, counted here by hand.
        std::map<int, int> counted;
        for (const core::Seq2SeqPair& pair : data.heldOut)
            ++counted[int(pair.source.count(QLatin1Char(' '))) + 1];
        QCOMPARE(byLength.size(), counted.size());
        for (const core::Seq2SeqLengthAccuracy& entry : byLength)
            QCOMPARE(entry.pairs, counted[entry.length]);
    }

    void tasksSayWhatTheyAsk()
    {
        const core::Seq2SeqTaskData reverse =
            core::makeSeq2SeqTask(core::Seq2SeqTask::Reverse, 3, 0, 1);
        const core::Seq2SeqTaskData sort = core::makeSeq2SeqTask(core::Seq2SeqTask::Sort, 3, 0, 1);
        for (int i = 0; i < 3; ++i) {
            QStringList words = reverse.training[std::size_t(i)].source.split(QLatin1Char(' '));
            std::reverse(words.begin(), words.end());
            QCOMPARE(reverse.training[std::size_t(i)].target, words.join(QLatin1Char(' ')));
            words = sort.training[std::size_t(i)].source.split(QLatin1Char(' '));
            words.sort();
            QCOMPARE(sort.training[std::size_t(i)].target, words.join(QLatin1Char(' ')));
        }
        const core::Seq2SeqTaskData dates =
            core::makeSeq2SeqTask(core::Seq2SeqTask::Dates, 400, 0, 3);
        const QRegularExpression iso(QStringLiteral(
            "^(19[5-9][0-9]|20[0-4][0-9])-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$"));
        for (const core::Seq2SeqPair& pair : dates.training) {
            QVERIFY2(iso.match(pair.target).hasMatch(), qPrintable(pair.target));
            const QStringList ymd = pair.target.split(QLatin1Char('-'));
            const QDate date(ymd[0].toInt(), ymd[1].toInt(), ymd[2].toInt());
            QVERIFY(date.isValid());
            const QLocale c = QLocale::c();
            const QStringList spellings{c.toString(date, QStringLiteral("d MMM yyyy")).toLower(),
                                        c.toString(date, QStringLiteral("MMMM d, yyyy")).toLower(),
                                        c.toString(date, QStringLiteral("dd/MM/yy")),
                                        c.toString(date, QStringLiteral("dd.MM.yyyy"))};
            QVERIFY2(spellings.contains(pair.source),
                     qPrintable(pair.source + QStringLiteral(" for ") + pair.target));
        }
    }

    // Saved and read back, a trained model of every variant decodes bit for bit as before, and
    // its config.json names the variant; the same seed trains the same model.
    void savedModelDecodesTheSame_data()
    {
        QTest::addColumn<int>("attention");
        QTest::addColumn<int>("cell");
        QTest::addColumn<int>("layers");
        QTest::addColumn<bool>("bidirectional");
        QTest::addColumn<QByteArrayList>("config");
        using A = core::Seq2SeqAttention;
        using C = core::Seq2SeqCell;
        QTest::newRow("GRU, Bahdanau")
            << int(A::Bahdanau) << int(C::Gru) << 1 << false
            << QByteArrayList{R"("cell":"gru")", R"("num_layers":1)", R"("bidirectional":false)",
                              R"("attention":"bahdanau")"};
        QTest::newRow("LSTM, 2 layers, bidirectional, general")
            << int(A::General) << int(C::Lstm) << 2 << true
            << QByteArrayList{R"("cell":"lstm")", R"("num_layers":2)", R"("bidirectional":true)",
                              R"("attention":"general")"};
        QTest::newRow("GRU, 2 layers, dot")
            << int(A::Dot) << int(C::Gru) << 2 << false << QByteArrayList{R"("attention":"dot")"};
        QTest::newRow("bidirectional GRU, concat") << int(A::Concat) << int(C::Gru) << 1 << true
                                                   << QByteArrayList{R"("attention":"concat")"};
        QTest::newRow("LSTM, hard") << int(A::Hard) << int(C::Lstm) << 1 << false
                                    << QByteArrayList{R"("attention":"hard")"};
        QTest::newRow("bidirectional LSTM, none")
            << int(A::None) << int(C::Lstm) << 1 << true << QByteArrayList{R"("attention":"none")"};
    }

    void savedModelDecodesTheSame()
    {
        QFETCH(int, attention);
        QFETCH(int, cell);
        QFETCH(int, layers);
        QFETCH(bool, bidirectional);
        QFETCH(QByteArrayList, config);
        core::Seq2SeqTrainingSettings settings;
        settings.hiddenSize = 16;
        settings.attention = core::Seq2SeqAttention(attention);
        settings.cell = core::Seq2SeqCell(cell);
        settings.layers = layers;
        settings.bidirectional = bidirectional;
        const core::Seq2SeqTaskData data =
            core::makeSeq2SeqTask(core::Seq2SeqTask::Reverse, 500, 20, 2);
        core::Seq2SeqTrainer trainer(data, settings);
        core::Seq2SeqTrainer twin(data, settings);
        for (int i = 0; i < 10; ++i)
            QCOMPARE(trainer.step(), twin.step());
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("reverse"));
        core::saveSeq2SeqModel(trainer.model(), folder);
        QFile written(folder + QStringLiteral("/config.json"));
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray compact = written.readAll().replace(' ', "").replace('\n', "");
        for (const QByteArray& entry : config)
            QVERIFY2(compact.contains(entry), compact.constData());
        const core::Seq2SeqModel loaded = core::loadSeq2SeqModel(folder);
        QCOMPARE(loaded.maxLength, trainer.model().maxLength);
        QCOMPARE(int(loaded.attention), attention);
        QCOMPARE(int(loaded.cell), cell);
        QCOMPARE(loaded.layers, layers);
        QCOMPARE(loaded.bidirectional, bidirectional);
        for (const core::Seq2SeqPair& pair : data.heldOut) {
            const core::Seq2SeqDecoding a = core::decodeGreedy(trainer.model(), pair.source);
            const core::Seq2SeqDecoding b = core::decodeGreedy(loaded, pair.source);
            QCOMPARE(a.outputIds, b.outputIds);
            QCOMPARE(a.logProbability, b.logProbability);
        }
    }

    void brokenFolderNamesTheCause_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<QString>("message");
        QTest::newRow("attention tensors missing")
            << QStringLiteral("tutorial-no-attention") << QStringLiteral("config.json")
            << QByteArray(R"({"model_type": "seq2seq-rnn", "cell": "gru", "attention": "bahdanau",
                            "hidden_size": 5, "max_length": 6})")
            << QStringLiteral(
                   "model.safetensors: decoder.attention.Wa.weight: missing (the checkpoint has no "
                   "tensor of this name)");
        QTest::newRow("GRU narrower than hidden_size")
            << QStringLiteral("tutorial-bahdanau") << QStringLiteral("config.json")
            << QByteArray(R"({"model_type": "seq2seq-rnn", "hidden_size": 4, "max_length": 6})")
            << QStringLiteral(
                   "model.safetensors: encoder.embedding.weight: expected ?x4, got 11x5");
        QTest::newRow("no SOS") << QStringLiteral("tutorial-bahdanau")
                                << QStringLiteral("source_vocab.json")
                                << QByteArray(R"({"EOS": 1, "le": 2})")
                                << QStringLiteral(
                                       "source_vocab.json: \"SOS\" must have the index 0 (the "
                                       "tutorial's Lang: SOS 0, EOS 1)");
        QTest::newRow("an index past the embedding")
            << QStringLiteral("tutorial-bahdanau") << QStringLiteral("target_vocab.json")
            << QByteArray(R"({"SOS": 0, "EOS": 1, "the": 2, "far": 40})")
            << QStringLiteral("target_vocab.json: index 40 (\"far\") is outside "
                              "decoder.embedding.weight's 8 rows");
        QTest::newRow("LSTM said of a GRU's tensors")
            << QStringLiteral("tutorial-bahdanau") << QStringLiteral("config.json")
            << QByteArray(R"({"model_type": "seq2seq-rnn", "cell": "lstm", "hidden_size": 5,
                                              "max_length": 6})")
            << QStringLiteral("model.safetensors: encoder.lstm.weight_ih_l0: missing (the "
                              "checkpoint has no tensor of this name)");
        QTest::newRow("two layers said of one")
            << QStringLiteral("tutorial-bahdanau") << QStringLiteral("config.json")
            << QByteArray(R"({"model_type": "seq2seq-rnn", "num_layers": 2, "hidden_size": 5,
                                              "max_length": 6})")
            << QStringLiteral("model.safetensors: encoder.gru.weight_ih_l1: missing (the "
                              "checkpoint has no tensor of this name)");
        QTest::newRow("an unknown cell")
            << QStringLiteral("tutorial-bahdanau") << QStringLiteral("config.json")
            << QByteArray(R"({"model_type": "seq2seq-rnn", "cell": "rnn", "hidden_size": 5,
                                              "max_length": 6})")
            << QStringLiteral(
                   "config.json: \"cell\": \"rnn\" cannot be read; it is \"gru\" or \"lstm\"");
        QTest::newRow("three layers")
            << QStringLiteral("tutorial-bahdanau") << QStringLiteral("config.json")
            << QByteArray(R"({"model_type": "seq2seq-rnn", "num_layers": 3, "hidden_size": 5,
                                              "max_length": 6})")
            << QStringLiteral("config.json: \"num_layers\" must be a whole number from 1 to 2");
        QTest::newRow("dot scores of a bidirectional encoder")
            << QStringLiteral("tutorial-bahdanau") << QStringLiteral("config.json")
            << QByteArray(R"({"model_type": "seq2seq-rnn", "attention": "dot",
                              "bidirectional": true, "hidden_size": 5, "max_length": 6})")
            << QStringLiteral("config.json: \"attention\": \"dot\" needs the encoder's states "
                              "as wide as the decoder's; with \"bidirectional\": true they are "
                              "twice as wide (use \"general\")");
        QTest::newRow("max_length 0")
            << QStringLiteral("tutorial-bahdanau") << QStringLiteral("config.json")
            << QByteArray(R"({"model_type": "seq2seq-rnn", "hidden_size": 5,
                                                      "max_length": 0})")
            << QStringLiteral("config.json: \"max_length\" must be a whole number from "
                              "1 to 4096");
    }

    void brokenFolderNamesTheCause()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, file);
        QFETCH(QByteArray, content);
        QFETCH(QString, message);
        QTemporaryDir dir;
        const QDir from(seq2seqFixture(fixture));
        for (const QString& name : from.entryList(QDir::Files))
            QVERIFY(QFile::copy(from.filePath(name), dir.filePath(name)));
        QFile broken(dir.filePath(file));
        QVERIFY(broken.open(QIODevice::WriteOnly | QIODevice::Truncate));
        broken.write(content);
        broken.close();
        QCOMPARE(test::errorOf([&] { core::loadSeq2SeqModel(dir.path()); }), message);
    }

    void unknownSourceWordIsNamed()
    {
        const core::Seq2SeqModel model =
            core::loadSeq2SeqModel(seq2seqFixture(QStringLiteral("tutorial-bahdanau")));
        QCOMPARE(test::errorOf([&] { core::decodeGreedy(model, QStringLiteral("le chien noir")); }),
                 QStringLiteral(
                     "the word \"chien\" is not in the source vocabulary (source_vocab.json)"));
        QCOMPARE(test::errorOf([&] { core::decodeGreedy(model, QStringLiteral("42")); }),
                 QStringLiteral(
                     "the source has no words after normalising (letters a-z and . ! ? count)"));
    }
};

QTEST_GUILESS_MAIN(TestSeq2Seq)
#include "tst_seq2seq.moc"
