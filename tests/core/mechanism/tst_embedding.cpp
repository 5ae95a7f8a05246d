#include "core/embedding.h"
#include "core/error.h"
#include "core/random.h"
#include "core/tokenizer.h"
#include "support/error_of.h"

#include <QTest>
#include <cmath>
#include <functional>

using namespace attn::core;

namespace {

std::vector<Token> words(const QString& text)
{
    return tokenize(text, TokenizerSettings{}, 1000);
}

Embedded embed(const std::vector<Token>& tokens, const EmbeddingSettings& settings, int dModel)
{
    return embedTokens(tokens, settings, dModel, sentenceVocabulary({&tokens}));
}

using attn::test::errorOf;

} // namespace

class TestEmbedding : public QObject
{
    Q_OBJECT

private slots:
    void kindNames_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("name");
        QTest::newRow("hashed") << int(EmbeddingKind::Hashed) << "hashed";
        QTest::newRow("onehot") << int(EmbeddingKind::OneHot) << "onehot";
        QTest::newRow("table") << int(EmbeddingKind::Table) << "table";
        QTest::newRow("wordvectors") << int(EmbeddingKind::WordVectors) << "wordvectors";
    }

    void kindNames()
    {
        QFETCH(int, kind);
        QFETCH(QString, name);
        const std::string utf8 = name.toStdString();
        QCOMPARE(QString::fromUtf8(toString(EmbeddingKind(kind))), name);
        QCOMPARE(parseEmbeddingKind(utf8), std::optional(EmbeddingKind(kind)));
    }

    void positionalNames_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("name");
        QTest::newRow("none") << int(PositionalKind::None) << "none";
        QTest::newRow("sinusoidal") << int(PositionalKind::Sinusoidal) << "sinusoidal";
        QTest::newRow("table") << int(PositionalKind::Table) << "table";
    }

    void positionalNames()
    {
        QFETCH(int, kind);
        QFETCH(QString, name);
        const std::string utf8 = name.toStdString();
        QCOMPARE(QString::fromUtf8(toString(PositionalKind(kind))), name);
        QCOMPARE(parsePositionalKind(utf8), std::optional(PositionalKind(kind)));
    }

    void unknownNames()
    {
        QVERIFY(!parseEmbeddingKind("Hashed"));
        QVERIFY(!parseEmbeddingKind("one-hot"));
        QVERIFY(!parseEmbeddingKind(""));
        QVERIFY(!parsePositionalKind("sine"));
    }

    // Reference outputs of splitmix64 seeded with 1234567 (Vigna's splitmix64.c).
    void splitmixReferenceValues()
    {
        Random random(1234567);
        QCOMPARE(random.nextU64(), 6457827717110365317ull);
        QCOMPARE(random.nextU64(), 3203168211198807973ull);
        QCOMPARE(random.nextU64(), 9817491932198370423ull);
    }

    // FNV-1a 64 test vectors, mixed with the seed's first splitmix64 output.
    void hashStringIsFnv1aMixedWithSeed()
    {
        const auto mixed = [](std::uint64_t seed) { return Random(seed).nextU64(); };
        QCOMPARE(hashString("", 0), 0xCBF29CE484222325ull ^ mixed(0));
        QCOMPARE(hashString("a", 0), 0xAF63DC4C8601EC8Cull ^ mixed(0));
        QCOMPARE(hashString("foobar", 9), 0x85944171F73967E8ull ^ mixed(9));
        // Pinned so saved scenes keep their hashed vectors: FNV-1a("cat") = 0xF5E307190CE4A327
        // XOR splitmix64(42)'s first output 0xBDD732262FEB6E95, both computed from their
        // definitions outside this code (Python).
        QCOMPARE(hashString("cat", 42), 0x4834353F230FCDB2ull);
        QVERIFY(hashString("cat", 1) != hashString("cat", 2));
    }

    void uniformStaysInRange()
    {
        Random random(5);
        for (int i = 0; i < 10000; ++i) {
            const double u = random.uniform();
            QVERIFY(u >= 0.0 && u < 1.0);
            const double v = random.uniform(-2.0, 3.0);
            QVERIFY(v >= -2.0 && v < 3.0);
        }
    }

    // The same token and seed give the same vector in any sentence: "cat" here and there.
    void hashedIsDeterministic()
    {
        EmbeddingSettings settings;
        settings.seed = 7;
        const std::vector<Token> first = words("the cat sat");
        const std::vector<Token> second = words("a black cat ran");
        const Embedded a = embed(first, settings, 16);
        const Embedded b = embed(second, settings, 16);
        QCOMPARE(a.vectors.rows(), 3);
        QCOMPARE(a.vectors.cols(), 16);
        QVERIFY(a.vectors.row(1) == b.vectors.row(2));
        QVERIFY(a.vectors.row(1) == hashedEmbedding("cat", 7, 16));
        QVERIFY(a.vectors.row(0) != a.vectors.row(1));
        QCOMPARE(a.fallback, std::vector<bool>(3, false));

        // A wider vector starts with the narrower one: one stream of normals per token.
        QVERIFY(hashedEmbedding("cat", 7, 32).head(16) == hashedEmbedding("cat", 7, 16));
        const RowVector otherSeed = hashedEmbedding("cat", 8, 16);
        QVERIFY(otherSeed != hashedEmbedding("cat", 7, 16));
    }

    // 10^5 samples: the mean and variance of N(0, 1) within loose bounds (the standard
    // errors are 0.003 and 0.0045).
    void hashedIsStandardNormal()
    {
        double sum = 0.0;
        double sumSquares = 0.0;
        const int tokens = 1000;
        const int dModel = 100;
        for (int t = 0; t < tokens; ++t) {
            const RowVector row = hashedEmbedding("token" + QString::number(t), 3, dModel);
            for (int j = 0; j < dModel; ++j) {
                sum += row[j];
                sumSquares += double(row[j]) * row[j];
            }
        }
        const double n = double(tokens) * dModel;
        const double mean = sum / n;
        const double variance = sumSquares / n - mean * mean;
        QVERIFY2(std::abs(mean) < 0.02, qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(variance - 1.0) < 0.03, qPrintable(QString::number(variance)));
    }

    void vocabularyInOrderOfFirstAppearance()
    {
        const std::vector<Token> target = words("the cat saw the dog");
        const std::vector<Token> source = words("le chat a vu le chien");
        const std::vector<QString> vocabulary = sentenceVocabulary({&target, &source});
        const std::vector<QString> expected = {"the",  "cat", "saw", "dog",  "le",
                                               "chat", "a",   "vu",  "chien"};
        QCOMPARE(vocabulary, expected);
        QVERIFY(sentenceVocabulary({}).empty());
    }

    // Seed 001: "This is a cat" one-hot over its four words gives the identity matrix.
    void oneHotSeed001()
    {
        EmbeddingSettings settings;
        settings.kind = EmbeddingKind::OneHot;
        const Embedded e = embed(words("This is a cat"), settings, 4);
        QVERIFY(e.vectors == Matrix::Identity(4, 4));
        QCOMPARE(e.fallback, std::vector<bool>(4, false));
    }

    void oneHotRepeatsAndPads()
    {
        EmbeddingSettings settings;
        settings.kind = EmbeddingKind::OneHot;
        const Embedded e = embed(words("the cat saw the dog"), settings, 6);
        Matrix expected = Matrix::Zero(5, 6);
        expected(0, 0) = expected(1, 1) = expected(2, 2) = expected(3, 0) = expected(4, 3) = 1;
        QVERIFY(e.vectors == expected);
    }

    // Any sentence embeds. Words past d_model get their hashed vectors, flagged,
    // where one-hot used to refuse the sentence ("needs d_model >= vocabulary size").
    void oneHotWordsPastTheWidthFallBack()
    {
        EmbeddingSettings settings;
        settings.kind = EmbeddingKind::OneHot;
        settings.seed = 5;
        const Embedded e = embed(words("This is a cat."), settings, 4);
        QVERIFY(e.vectors.topRows(4) == Matrix::Identity(4, 4));
        QVERIFY(e.vectors.row(4) == hashedEmbedding(QStringLiteral("."), 5, 4));
        QCOMPARE(e.fallback, (std::vector<bool>{false, false, false, false, true}));
    }

    // A kept vocabulary: its words keep their dimensions whatever sentence is typed; others
    // are hashed (seed 001's one-hot words under a new sentence).
    void oneHotKeptVocabulary()
    {
        EmbeddingSettings settings;
        settings.kind = EmbeddingKind::OneHot;
        settings.seed = 2;
        settings.vocabulary = {QStringLiteral("This"), QStringLiteral("is"), QStringLiteral("a"),
                               QStringLiteral("cat")};
        const Embedded e = embed(words("a dog is here"), settings, 4);
        RowVector a = RowVector::Zero(4), is = RowVector::Zero(4);
        a[2] = 1;
        is[1] = 1;
        QVERIFY(e.vectors.row(0) == a);
        QVERIFY(e.vectors.row(1) == hashedEmbedding(QStringLiteral("dog"), 2, 4));
        QVERIFY(e.vectors.row(2) == is);
        QVERIFY(e.vectors.row(3) == hashedEmbedding(QStringLiteral("here"), 2, 4));
        QCOMPARE(e.fallback, (std::vector<bool>{false, true, false, true}));
        // Only the first d_model words of a vocabulary have dimensions.
        const Embedded narrow = embed(words("cat is"), settings, 3);
        QCOMPARE(narrow.fallback, (std::vector<bool>{true, false}));
        QVERIFY(narrow.vectors.row(0) == hashedEmbedding(QStringLiteral("cat"), 2, 3));
    }

    void tableRowsAndFallback()
    {
        EmbeddingSettings settings;
        settings.kind = EmbeddingKind::Table;
        settings.seed = 11;
        settings.table["the"] = {1, 2, 3};
        settings.table["cat"] = {-1, 0.5f, 0};
        const Embedded e = embed(words("the cat purrs"), settings, 3);
        Matrix expected(3, 3);
        expected << 1, 2, 3, -1, 0.5f, 0, hashedEmbedding("purrs", 11, 3);
        QVERIFY(e.vectors == expected);
        QCOMPARE(e.fallback, (std::vector<bool>{false, false, true}));
    }

    void tableRowOfWrongWidth()
    {
        EmbeddingSettings settings;
        settings.kind = EmbeddingKind::Table;
        settings.table["cat"] = {1, 2};
        QCOMPARE(errorOf([&] { embed(words("the cat"), settings, 3); }),
                 "embedding table row 'cat' has 2 values, d_model is 3");
    }

    void wordVectorsMustBeLoaded()
    {
        EmbeddingSettings settings;
        settings.kind = EmbeddingKind::WordVectors;
        settings.wordVectorPath = "glove.6B.50d.txt";
        const QString message = errorOf([&] { embed(words("cat"), settings, 4); });
        QVERIFY2(message.contains("not loaded") && message.contains("glove.6B.50d.txt"),
                 qPrintable(message));
    }

    void modelWidthMustBePositive()
    {
        QVERIFY(!errorOf([] { hashedEmbedding("cat", 1, 0); }).isEmpty());
        QVERIFY(!errorOf([] { positionalEncoding(3, 0, {}); }).isEmpty());
    }

    void positionalNoneIsZero()
    {
        QVERIFY(positionalEncoding(3, 5, {}) == Matrix::Zero(3, 5));
        QCOMPARE(positionalEncoding(0, 5, {}).rows(), 0);
    }

    // Vaswani et al. 2017 section 3.5, positions from 0, checked in double.
    void sinusoidal_data()
    {
        QTest::addColumn<int>("dModel");
        QTest::addColumn<int>("position");
        QTest::addColumn<int>("column");
        QTest::addColumn<double>("expected");
        for (const int d : {4, 5, 64}) {
            const QByteArray tag = "d=" + QByteArray::number(d);
            QTest::newRow(tag + " PE(0,0)") << d << 0 << 0 << 0.0;
            QTest::newRow(tag + " PE(0,1)") << d << 0 << 1 << 1.0;
            QTest::newRow(tag + " PE(1,0)") << d << 1 << 0 << std::sin(1.0);
            QTest::newRow(tag + " PE(1,1)") << d << 1 << 1 << std::cos(1.0);
            QTest::newRow(tag + " PE(2,2)")
                << d << 2 << 2 << std::sin(2.0 / std::pow(10000.0, 2.0 / d));
            QTest::newRow(tag + " PE(2,3)")
                << d << 2 << 3 << std::cos(2.0 / std::pow(10000.0, 2.0 / d));
            QTest::newRow(tag + " PE(9,last)")
                << d << 9 << d - 1
                << (d % 2 ? std::sin(9.0 / std::pow(10000.0, double(d - 1) / d))
                          : std::cos(9.0 / std::pow(10000.0, double(d - 2) / d)));
        }
    }

    void sinusoidal()
    {
        QFETCH(int, dModel);
        QFETCH(int, position);
        QFETCH(int, column);
        QFETCH(double, expected);
        PositionalSettings settings;
        settings.kind = PositionalKind::Sinusoidal;
        const Matrix pe = positionalEncoding(10, dModel, settings);
        QCOMPARE(pe.rows(), 10);
        QCOMPARE(pe.cols(), dModel);
        QVERIFY2(std::abs(double(pe(position, column)) - expected) < 1e-6,
                 qPrintable(QString::number(pe(position, column), 'g', 9)));
    }

    void positionalTable()
    {
        PositionalSettings settings;
        settings.kind = PositionalKind::Table;
        settings.table = Matrix(4, 2);
        settings.table << 1, 2, 3, 4, 5, 6, 7, 8;
        QVERIFY(positionalEncoding(3, 2, settings) == settings.table.topRows(3));
        // A longer sentence than the table: the positions past it are sinusoidal.
        PositionalSettings sinusoidal;
        sinusoidal.kind = PositionalKind::Sinusoidal;
        const Matrix longer = positionalEncoding(6, 2, settings);
        QVERIFY(longer.topRows(4) == settings.table);
        QVERIFY(longer.bottomRows(2) == positionalEncoding(6, 2, sinusoidal).bottomRows(2));
        QCOMPARE(errorOf([&] { positionalEncoding(3, 3, settings); }),
                 "the positional table has 2 columns, d_model is 3");
    }
};

QTEST_APPLESS_MAIN(TestEmbedding)
#include "tst_embedding.moc"
