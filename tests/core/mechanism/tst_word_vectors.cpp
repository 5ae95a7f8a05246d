#include "core/embedding.h"
#include "core/error.h"
#include "core/tokenizer.h"
#include "core/word_vectors.h"
#include "support/error_of.h"

#include <QTest>
#include <functional>
#include <memory>

using namespace attn::core;

namespace {

QString dataFile(const char* name)
{
    return QStringLiteral(ATTN_TEST_DATA_DIR "/wordvectors/") + QString::fromUtf8(name);
}

std::vector<float> vectorOf(const WordVectors& vectors, const QString& word)
{
    const float* values = vectors.find(word);
    if (!values)
        return {};
    return std::vector<float>(values, values + vectors.dimension());
}

using attn::test::errorOf;

} // namespace

class TestWordVectors : public QObject
{
    Q_OBJECT

private slots:
    void gloveFile()
    {
        const WordVectors vectors = WordVectors::load(dataFile("glove_3d.txt"));
        QCOMPARE(vectors.dimension(), 3);
        QCOMPARE(vectors.size(), 5); // "cat" appears twice: the first row wins
        QCOMPARE(vectorOf(vectors, "the"), (std::vector<float>{0.418f, 0.24968f, -0.41242f}));
        QCOMPARE(vectorOf(vectors, "cat"), (std::vector<float>{-0.5f, 0.1f, 2.0f}));
        QCOMPARE(vectorOf(vectors, "."), (std::vector<float>{0.15164f, 0.30177f, -0.16763f}));
        QCOMPARE(vectorOf(vectors, "is"), (std::vector<float>{4, 5, 6}));
        QVERIFY(!vectors.find("dog"));
        QVERIFY(!vectors.find("The")); // lookups are exact
    }

    void word2vecFile()
    {
        const WordVectors vectors = WordVectors::load(dataFile("word2vec_4d.txt"));
        QCOMPARE(vectors.dimension(), 4);
        QCOMPARE(vectors.size(), 4);
        QVERIFY(!vectors.find("4")); // the header is not a word
        QCOMPARE(vectorOf(vectors, "cat"), (std::vector<float>{-1, -2, -3, -4}));
        QCOMPARE(vectorOf(vectors, QString::fromUtf8("猫")),
                 (std::vector<float>{0.5f, 0.25f, 0.125f, 0.0625f}));
        QCOMPARE(vectorOf(vectors, "mouse"), (std::vector<float>{1.5f, 2.5f, 3.5f, 4.5f}));
    }

    void fileErrors_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("expected");
        QTest::newRow("malformed number")
            << "malformed_number.txt"
            << "malformed_number.txt line 3: '0.x' is not a number (value 2 of 'sat')";
        QTest::newRow("wrong width")
            << "wrong_width.txt"
            << "wrong_width.txt line 4: 2 values after 'sat', expected 3 (as on line 1)";
        QTest::newRow("missing file") << "no_such_file.txt"
                                      << "cannot read";
    }

    void fileErrors()
    {
        QFETCH(QString, file);
        QFETCH(QString, expected);
        const QString message = errorOf([&] { WordVectors::load(dataFile(qPrintable(file))); });
        QVERIFY2(message.contains(expected), qPrintable(message));
        QVERIFY2(message.contains(file), qPrintable(message)); // names the file
    }

    void parseErrors_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected");
        QTest::newRow("empty") << QByteArray() << "mem: no word vectors found";
        QTest::newRow("blank lines") << QByteArray("\n \n\t\n") << "mem: no word vectors found";
        QTest::newRow("word without values")
            << QByteArray("cat\n") << "mem line 1: a word needs at least one value";
        QTest::newRow("header width")
            << QByteArray("2 3\ncat 1 2 3\ndog 1 2\n")
            << "mem line 3: 2 values after 'dog', expected 3 (the header on line 1)";
        QTest::newRow("truncated")
            << QByteArray("3 2\ncat 1 2\ndog 3 4\n")
            << "mem: the header on line 1 says 3 words, the file has 2 (is it truncated?)";
        QTest::newRow("more rows than the header")
            << QByteArray("1 2\ncat 1 2\ndog 3 4\n")
            << "mem: the header on line 1 says 1 word, the file has 2 (is the header for another "
               "file?)";
        QTest::newRow("huge header count")
            << QByteArray("999999999999 2\ncat 1 2\n") << "says 999999999999 words, the file has 1";
        QTest::newRow("not finite")
            << QByteArray("cat 1 inf\n")
            << "mem line 1: 'inf' is infinite; word vectors must be finite numbers";
        QTest::newRow("out of range")
            << QByteArray("cat 1 1e99\n") << "mem line 1: '1e99' is out of float32 range";
        QTest::newRow("trailing junk")
            << QByteArray("cat 1 2\ndog 3 4x\n") << "mem line 2: '4x' is not a number";
        QTest::newRow("too wide") << QByteArray("1 9000\n")
                                  << "mem line 1: 9000 dimensions, more than the 8192";
        QTest::newRow("binary word2vec") << QByteArray("1 2\ncat \x01\x02\x03\x04\x05 x\n")
                                         << "mem line 2: '\x01\x02\x03\x04\x05' is not a number";
    }

    void parseErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const QString message = errorOf([&] { WordVectors::parse(text, "mem"); });
        QVERIFY2(message.contains(expected), qPrintable(message));
    }

    void parseTolerates_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("CRLF") << QByteArray("cat 1 2\r\ndog 3 4\r\n");
        QTest::newRow("byte order mark") << QByteArray("\xEF\xBB\xBF"
                                                       "cat 1 2\ndog 3 4");
        QTest::newRow("tabs and trailing spaces") << QByteArray("cat\t1 2 \n\ndog 3\t4  \n");
        QTest::newRow("header") << QByteArray("2 2\ncat 1 2\ndog 3 4\n");
    }

    void parseTolerates()
    {
        QFETCH(QByteArray, text);
        const WordVectors vectors = WordVectors::parse(text, "mem");
        QCOMPARE(vectors.dimension(), 2);
        QCOMPARE(vectors.size(), 2);
        QCOMPARE(vectorOf(vectors, "cat"), (std::vector<float>{1, 2}));
        QCOMPARE(vectorOf(vectors, "dog"), (std::vector<float>{3, 4}));
    }

    // Word vectors as embeddings: known words get their row, unknown ones the hashed
    // vector, flagged as a fallback.
    void embeddingWithFallback()
    {
        EmbeddingSettings settings;
        settings.kind = EmbeddingKind::WordVectors;
        settings.seed = 5;
        settings.wordVectors =
            std::make_shared<const WordVectors>(WordVectors::load(dataFile("glove_3d.txt")));
        const std::vector<Token> tokens = tokenize("This is a cat.", TokenizerSettings{}, 100);
        const Embedded e = embedTokens(tokens, settings, 3, sentenceVocabulary({&tokens}));
        QCOMPARE(e.fallback, (std::vector<bool>{false, false, true, false, false}));
        Matrix expected(5, 3);
        expected << 1, 2, 3, 4, 5, 6, hashedEmbedding("a", 5, 3), -0.5f, 0.1f, 2, 0.15164f,
            0.30177f, -0.16763f;
        QVERIFY(e.vectors == expected);
    }

    void embeddingDimensionMismatch()
    {
        EmbeddingSettings settings;
        settings.kind = EmbeddingKind::WordVectors;
        settings.wordVectors =
            std::make_shared<const WordVectors>(WordVectors::load(dataFile("glove_3d.txt")));
        const std::vector<Token> tokens = tokenize("cat", TokenizerSettings{}, 100);
        QCOMPARE(errorOf([&] { embedTokens(tokens, settings, 64, {}); }),
                 "word vectors have 3 dimensions, d_model is 64");
    }
};

QTEST_APPLESS_MAIN(TestWordVectors)
#include "tst_word_vectors.moc"
