// The built-in example scenes (resources/examples/, written by generate_examples.py): every
// one loads, resolves and computes cleanly on the CPU backend, and each shows what its
// description promises, checked with real values.

#include "core/cpu_backend.h"
#include "core/scene_json.h"

#include <QDir>
#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <memory>
#include <vector>

using namespace attn::core;

namespace {

QString examplesDir()
{
    return QStringLiteral(ATTN_RESOURCES_DIR "/examples");
}

QString examplePath(const char* name)
{
    return examplesDir() + QLatin1Char('/') + QLatin1String(name);
}

QStringList exampleFiles()
{
    return QDir(examplesDir()).entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
}

std::shared_ptr<const AttentionResult> compute(const Scene& scene)
{
    CpuBackend backend;
    return backend.compute(resolveProblem(scene), ComputeOptions{});
}

std::shared_ptr<const AttentionResult> computeExample(const char* name)
{
    return compute(loadScene(examplePath(name)));
}

QStringList tokenTexts(const std::vector<Token>& tokens)
{
    QStringList texts;
    for (const Token& token : tokens)
        texts << token.text;
    return texts;
}

int argmax(const Matrix& m, int row)
{
    Eigen::Index column = 0;
    m.row(row).maxCoeff(&column);
    return int(column);
}

// Mean over rows of the largest weight: 1 for one-hot rows, 1/T for uniform ones.
double meanRowMax(const Matrix& weights)
{
    return double(weights.rowwise().maxCoeff().mean());
}

// A masked score is -inf by design; everything else must be finite.
bool finiteOrMasked(const Matrix& m)
{
    for (Eigen::Index i = 0; i < m.size(); ++i) {
        const float x = m.data()[i];
        if (!std::isfinite(x) && x != -std::numeric_limits<float>::infinity())
            return false;
    }
    return true;
}

} // namespace

class TestExamples : public QObject
{
    Q_OBJECT

private slots:
    void examplesAreListedInOrder();
    void everyExampleComputesCleanly_data();
    void everyExampleComputesCleanly();
    void thisIsACatByHand();
    void studentAttendsToAwarded();
    void causalMaskEmptiesTheUpperTriangle();
    void translationAlignment();
    void japaneseSplitsPerCharacter();
    void localWindowCutsTheLongLink();
    void oneHotAgainstHashed();
    void largerKeyWidthSaturatesUnscaledSoftmax();
    void disabledHeadContributesZeros();
};

void TestExamples::examplesAreListedInOrder()
{
    const QStringList files = exampleFiles();
    QVERIFY2(files.size() >= 12, qPrintable(files.join(QLatin1Char(' '))));
    // File > Examples lists files in name order; the app opens 01 by default.
    QCOMPARE(files.first(), QStringLiteral("01-this-is-a-cat.json"));
    const QRegularExpression pattern(QStringLiteral("^(\\d\\d)-[a-z0-9-]+\\.json$"));
    QStringList prefixes;
    for (const QString& file : files) {
        const QRegularExpressionMatch match = pattern.match(file);
        QVERIFY2(match.hasMatch(), qPrintable(file));
        QVERIFY2(!prefixes.contains(match.captured(1)),
                 qPrintable(file + QStringLiteral(": prefix used twice")));
        prefixes << match.captured(1);
    }
}

void TestExamples::everyExampleComputesCleanly_data()
{
    QTest::addColumn<QString>("file");
    for (const QString& file : exampleFiles())
        QTest::newRow(qPrintable(file)) << file;
}

void TestExamples::everyExampleComputesCleanly()
{
    QFETCH(QString, file);
    const Scene scene = loadScene(examplesDir() + QLatin1Char('/') + file);
    QVERIFY(!scene.title.isEmpty());
    QVERIFY(!scene.description.isEmpty());
    QVERIFY2(!scene.description.contains(QLatin1Char('\n')), "the description is one line");

    const auto result = compute(scene);
    const Diagnostics& d = result->diagnostics;
    QVERIFY2(d.warnings.empty(), d.warnings.empty() ? "" : d.warnings.front().c_str());
    QVERIFY2(!d.nonFinite, d.nonFiniteWhere.c_str());
    QVERIFY(d.fullyMaskedRows.empty());
    QVERIFY(d.zeroSumRows.empty());

    const int tq = result->problem->queryCount();
    const int tk = result->problem->keyCount();
    QCOMPARE(int(result->heads.size()), scene.weights.headCount());
    for (const HeadResult& head : result->heads) {
        QVERIFY(head.Q.allFinite() && head.K.allFinite() && head.V.allFinite());
        QVERIFY(head.rawScores.allFinite() && head.scaledScores.allFinite());
        QVERIFY(finiteOrMasked(head.maskedScores));
        QCOMPARE(head.weights.rows(), qsizetype(tq));
        QCOMPARE(head.weights.cols(), qsizetype(tk));
        QVERIFY(head.weights.allFinite() && head.output.allFinite());
        QVERIFY(head.weights.minCoeff() >= 0.0f);
        for (int i = 0; i < tq; ++i)
            QVERIFY2(std::abs(head.weights.row(i).sum() - 1.0f) < 1e-5f,
                     qPrintable(QString::number(i)));
    }
    QVERIFY(result->concat().allFinite() && result->output.allFinite());
}

// Seed 001's 4x4 example as tests/support/problems.h works it by hand: one-hot X = I, so
// Q K^T = [1 0 0 1; 0 1 0 1; 1 1 0 2; 0 0 0 0] and softmax rows of e's.
void TestExamples::thisIsACatByHand()
{
    const auto result = computeExample("01-this-is-a-cat.json");
    QCOMPARE(tokenTexts(result->problem->queryTokens),
             QStringList({QStringLiteral("This"), QStringLiteral("is"), QStringLiteral("a"),
                          QStringLiteral("cat.")}));
    QCOMPARE(result->heads.size(), std::size_t(1));
    const HeadResult& head = result->heads[0];
    QCOMPARE(head.weights.rows(), qsizetype(4));
    QCOMPARE(head.weights.cols(), qsizetype(4));

    Matrix scores(4, 4);
    scores << 1, 0, 0, 1, 0, 1, 0, 1, 1, 1, 0, 2, 0, 0, 0, 0;
    QCOMPARE(head.rawScores, scores);

    const double e = std::exp(1.0);
    const double expected[4][4] = {
        {e / (2 * e + 2), 1 / (2 * e + 2), 1 / (2 * e + 2), e / (2 * e + 2)},
        {1 / (2 * e + 2), e / (2 * e + 2), 1 / (2 * e + 2), e / (2 * e + 2)},
        {e / (2 * e + 1 + e * e), e / (2 * e + 1 + e * e), 1 / (2 * e + 1 + e * e),
         e * e / (2 * e + 1 + e * e)},
        {0.25, 0.25, 0.25, 0.25},
    };
    for (int i = 0; i < 4; ++i) {
        QVERIFY(std::abs(head.weights.row(i).sum() - 1.0f) < 1e-6f);
        for (int j = 0; j < 4; ++j)
            QVERIFY2(
                std::abs(double(head.weights(i, j)) - expected[i][j]) < 1e-6,
                qPrintable(
                    QStringLiteral("weight (%1,%2) = %3").arg(i).arg(j).arg(head.weights(i, j))));
    }
    // b^1 = sum_j alpha'_1j v^j with v = (1,2) (0,1) (2,0) (1,1): ((e + 2 + e), (2e + 1 + e)) / (2e
    // + 2).
    QVERIFY(std::abs(double(head.output(0, 0)) - (2 * e + 2) / (2 * e + 2)) < 1e-6);
    QVERIFY(std::abs(double(head.output(0, 1)) - (3 * e + 1) / (2 * e + 2)) < 1e-6);
}

void TestExamples::studentAttendsToAwarded()
{
    const auto result = computeExample("02-student-scholarship.json");
    const QStringList tokens = tokenTexts(result->problem->queryTokens);
    QCOMPARE(tokens.size(), qsizetype(17));
    const int student = int(tokens.indexOf(QStringLiteral("student")));
    const int who = int(tokens.indexOf(QStringLiteral("who")));
    const int awarded = int(tokens.indexOf(QStringLiteral("awarded")));
    const int scholarship = int(tokens.indexOf(QStringLiteral("scholarship")));
    const int grade = int(tokens.indexOf(QStringLiteral("grade")));
    const int highest = int(tokens.indexOf(QStringLiteral("highest")));

    const Matrix& w = result->heads[0].weights;
    QCOMPARE(argmax(w, student), awarded);
    QCOMPARE(argmax(w, scholarship), awarded);
    QCOMPARE(argmax(w, awarded), student);
    QCOMPARE(argmax(w, who), student);
    // Score 3 * 3 / sqrt(4) = 4.5 against 16 keys at 0.
    const double expected = std::exp(4.5) / (std::exp(4.5) + 16.0);
    QVERIFY(std::abs(double(w(student, awarded)) - expected) < 1e-5);
    QCOMPARE(argmax(result->heads[1].weights, grade), highest);
}

void TestExamples::causalMaskEmptiesTheUpperTriangle()
{
    const auto result = computeExample("03-causal-language-model.json");
    const QStringList tokens = tokenTexts(result->problem->queryTokens);
    for (const HeadResult& head : result->heads) {
        const Matrix& w = head.weights;
        for (int i = 0; i < w.rows(); ++i)
            for (int j = i + 1; j < w.cols(); ++j)
                QCOMPARE(w(i, j), 0.0f);
        QCOMPARE(w(0, 0), 1.0f); // the first word sees only itself
    }
    const Matrix& w = result->heads[0].weights;
    const int student = int(tokens.indexOf(QStringLiteral("student")));
    const int awarded = int(tokens.indexOf(QStringLiteral("awarded")));
    // "student" cannot look ahead: its designed key is gone, so it spreads over what it sees.
    QCOMPARE(w(student, awarded), 0.0f);
    QVERIFY(std::abs(w(student, 0) - 0.5f) < 1e-6f && std::abs(w(student, student) - 0.5f) < 1e-6f);
    QCOMPARE(argmax(w, awarded), student);
}

void TestExamples::translationAlignment()
{
    const auto soft = computeExample("04-translation-cross-attention.json");
    const auto hard = computeExample("05-translation-hard-alignment.json");
    for (const auto& result : {soft, hard}) {
        QVERIFY(result->problem->cross);
        QCOMPARE(tokenTexts(result->problem->keyTokens),
                 QStringList({QStringLiteral("Black"), QStringLiteral("cat"), QStringLiteral("ate"),
                              QStringLiteral("the"), QStringLiteral("mouse")}));
        QCOMPARE(tokenTexts(result->problem->queryTokens),
                 QStringList({QStringLiteral("Le"), QStringLiteral("chat"), QStringLiteral("noir"),
                              QStringLiteral("a"), QStringLiteral("mangé"), QStringLiteral("la"),
                              QStringLiteral("souris")}));
        QCOMPARE(result->heads[0].weights.rows(), qsizetype(7));
        QCOMPARE(result->heads[0].weights.cols(), qsizetype(5));
    }
    // Le -> cat, chat -> cat, noir -> Black, a -> ate, mangé -> ate, la -> the, souris -> mouse.
    const int alignment[7] = {1, 1, 0, 2, 2, 3, 4};
    const Matrix& h = hard->heads[0].weights;
    const Matrix& s = soft->heads[0].weights;
    for (int i = 0; i < 7; ++i) {
        QCOMPARE(argmax(h, i), alignment[i]);
        QCOMPARE(h(i, alignment[i]), 1.0f);
        QCOMPARE(h.row(i).sum(), 1.0f); // one-hot
        QCOMPARE(argmax(s, i), alignment[i]);
    }
    // The same scores: only the normalization differs.
    QCOMPARE(hard->heads[0].rawScores, soft->heads[0].rawScores);
    // Softmax leaves "Le" torn between "cat" and "the"; hard attention cannot show that.
    QVERIFY(s(0, 3) > 0.2f && s(0, 1) < 0.7f);
}

void TestExamples::japaneseSplitsPerCharacter()
{
    const auto result = computeExample("06-japanese-per-character.json");
    const QStringList tokens = tokenTexts(result->problem->queryTokens);
    QCOMPARE(tokens.join(QString()), QStringLiteral("黒い猫がネズミを食べました。"));
    QCOMPARE(tokens.size(), qsizetype(14));
    for (const QString& token : tokens)
        QCOMPARE(token.size(), qsizetype(1));
    QCOMPARE(tokens.front(), QStringLiteral("黒"));
    QCOMPARE(tokens.back(), QStringLiteral("。"));
}

void TestExamples::localWindowCutsTheLongLink()
{
    const auto result = computeExample("07-local-window.json");
    QCOMPARE(result->problem->mask.window, 2);
    for (const HeadResult& head : result->heads)
        for (int i = 0; i < head.weights.rows(); ++i)
            for (int j = 0; j < head.weights.cols(); ++j)
                if (std::abs(i - j) > 2)
                    QCOMPARE(head.weights(i, j), 0.0f);
    const QStringList tokens = tokenTexts(result->problem->queryTokens);
    const int student = int(tokens.indexOf(QStringLiteral("student")));
    const int who = int(tokens.indexOf(QStringLiteral("who")));
    const int awarded = int(tokens.indexOf(QStringLiteral("awarded")));
    const Matrix& w = result->heads[0].weights;
    QCOMPARE(w(student, awarded), 0.0f);
    QCOMPARE(w(awarded, student), 0.0f);
    QCOMPARE(argmax(w, who), student); // one apart: inside the window
}

void TestExamples::oneHotAgainstHashed()
{
    const Scene oneHotScene = loadScene(examplePath("08-onehot-embeddings.json"));
    const Scene hashedScene = loadScene(examplePath("09-hashed-embeddings.json"));
    // Everything but the embedding is the same.
    QCOMPARE(oneHotScene.text, hashedScene.text);
    QVERIFY(oneHotScene.tokenizer == hashedScene.tokenizer);
    QVERIFY(oneHotScene.weights == hashedScene.weights);
    QVERIFY(oneHotScene.score == hashedScene.score);
    QVERIFY(oneHotScene.embedding.kind == EmbeddingKind::OneHot);
    QVERIFY(hashedScene.embedding.kind == EmbeddingKind::Hashed);

    // One-hot vectors are orthogonal: different words score exactly 0 (seed 001: "NO
    // correlation among these words"), so each row is e/(e+3) on the diagonal.
    const auto oneHot = compute(oneHotScene);
    const Matrix& s1 = oneHot->heads[0].rawScores;
    QCOMPARE(s1, Matrix(Matrix::Identity(4, 4)));
    const double e = std::exp(1.0);
    for (int i = 0; i < 4; ++i)
        QVERIFY(std::abs(double(oneHot->heads[0].weights(i, i)) - e / (e + 3)) < 1e-6);
    // The dimensions in seed 001's order: This = [0 0 1 0], is = [1 0 0 0], cat = [0 0 0 1]
    // (and a = [0 1 0 0], which the seed prints as [0 2 0 0]).
    Matrix seedOrder(4, 4);
    seedOrder << 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1;
    QCOMPARE(oneHot->problem->queryEmbedding, seedOrder);

    // Hashed vectors are dense, so different words correlate by chance.
    const auto hashed = compute(hashedScene);
    const Matrix& s2 = hashed->heads[0].rawScores;
    double offDiagonal = 0.0;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            if (i != j)
                offDiagonal = std::max(offDiagonal, std::abs(double(s2(i, j))));
    QVERIFY2(offDiagonal > 0.5, qPrintable(QString::number(offDiagonal)));
    QVERIFY((hashed->queryInput().array() != 0.0f).all());
}

// Seed 002: large dot products saturate softmax; 1/sqrt(d_k) keeps it sensitive. q and k
// have unit-variance entries in both scenes, so unscaled scores spread as sqrt(d_k).
void TestExamples::largerKeyWidthSaturatesUnscaledSoftmax()
{
    Scene small = loadScene(examplePath("10-saturation-dk-4.json"));
    Scene large = loadScene(examplePath("11-saturation-dk-256.json"));
    QCOMPARE(small.weights.dK, 4);
    QCOMPARE(large.weights.dK, 256);
    QVERIFY(small.score == ScoreKind::Dot && large.score == ScoreKind::Dot);
    QCOMPARE(small.text, large.text);

    auto spread = [](const Matrix& m) {
        const double mean = double(m.mean());
        return std::sqrt((m.array() - float(mean)).square().mean());
    };
    const auto smallDot = compute(small);
    const auto largeDot = compute(large);
    const double spreadSmall = spread(smallDot->heads[0].rawScores);
    const double spreadLarge = spread(largeDot->heads[0].rawScores);
    // sqrt(256 / 4) = 8 in expectation; a 17-token sentence is a small sample.
    QVERIFY2(spreadLarge > 4 * spreadSmall,
             qPrintable(QStringLiteral("%1 vs %2").arg(spreadLarge).arg(spreadSmall)));

    const double maxSmall = meanRowMax(smallDot->heads[0].weights);
    const double maxLarge = meanRowMax(largeDot->heads[0].weights);
    // Measured: 0.91 against 0.33.
    QVERIFY2(maxLarge > 0.85, qPrintable(QString::number(maxLarge)));
    QVERIFY2(maxSmall < 0.5, qPrintable(QString::number(maxSmall)));

    // Dividing by sqrt(d_k) undoes it: both widths end up alike and soft.
    small.score = large.score = ScoreKind::ScaledDot;
    const double scaledSmall = meanRowMax(compute(small)->heads[0].weights);
    const double scaledLarge = meanRowMax(compute(large)->heads[0].weights);
    // Measured: 0.24 against 0.16.
    QVERIFY2(scaledLarge < 0.5, qPrintable(QString::number(scaledLarge)));
    QVERIFY2(std::abs(scaledLarge - scaledSmall) < 0.2,
             qPrintable(QStringLiteral("%1 vs %2").arg(scaledLarge).arg(scaledSmall)));
}

void TestExamples::disabledHeadContributesZeros()
{
    const auto result = computeExample("12-multi-head-one-off.json");
    QCOMPARE(result->heads.size(), std::size_t(2));
    QVERIFY(result->heads[0].enabled);
    QVERIFY(!result->heads[1].enabled);
    const int dv = result->problem->weights->dV;
    const Matrix& concat = result->concat();
    QCOMPARE(concat.cols(), qsizetype(2 * dv));
    // The disabled head is still computed ...
    QVERIFY(result->heads[1].output.cwiseAbs().maxCoeff() > 0.5f);
    // ... but its columns of the concatenation are zeros, head 1's are its output.
    QVERIFY((concat.rightCols(dv).array() == 0.0f).all());
    QCOMPARE(Matrix(concat.leftCols(dv)), result->heads[0].output);
    const Matrix expected = concat * result->problem->weights->Wo;
    QVERIFY((result->output - expected).cwiseAbs().maxCoeff() < 1e-6f);
    // Head 1 looks at the previous word.
    for (int i = 1; i < result->problem->queryCount(); ++i)
        QCOMPARE(argmax(result->heads[0].weights, i), i - 1);
}

QTEST_GUILESS_MAIN(TestExamples)
#include "tst_examples.moc"
