// inWindowWords: the place a core::Error names first becomes the control that edits it; the
// message itself is never read for a path.
#include "ui/explorer/window_words.h"

#include "core/error.h"

#include <QtTest>

using attn::core::Error;
using attn::ui::inWindowWords;

class TestWindowWords : public QObject
{
    Q_OBJECT

private slots:
    void placesBecomeControls_data()
    {
        QTest::addColumn<QString>("where");
        QTest::addColumn<QString>("message");
        QTest::addColumn<bool>("cross");
        QTest::addColumn<QString>("expected");
        QTest::newRow("text") << "text"
                              << "the sentence has no tokens" << false
                              << "Sentence: the sentence has no tokens";
        QTest::newRow("text, cross") << "text"
                                     << "the target sentence has no tokens" << true
                                     << "Target: the target sentence has no tokens";
        QTest::newRow("head matrix")
            << "heads[1].W_q"
            << "expected 4x4, got 4x3" << false << "W^q · head 2: expected 4x4, got 4x3";
        // The cell is the editor's; the control is the matrix.
        QTest::newRow("head matrix cell") << "heads[0].b_k[0][2]"
                                          << "weights must be finite numbers" << false
                                          << "b^k · head 1: weights must be finite numbers";
        QTest::newRow("embedding")
            << "embedding.table"
            << "row 3: expected 4 numbers" << false << "Embedding: row 3: expected 4 numbers";
        QTest::newRow("mask cell")
            << "mask.custom[2]"
            << "cell (5, 0) is outside" << false << "Custom cells: cell (5, 0) is outside";
        QTest::newRow("temperature")
            << "attention.temperature"
            << "must be positive" << false << "Temperature: must be positive";
        QTest::newRow("heads") << "heads"
                               << "must be between 1 and 64" << false
                               << "Heads h: must be between 1 and 64";
        // Not a control: kept as the core says it.
        QTest::newRow("scene file")
            << "scene.json"
            << "heads[0].W_q: expected 4x4" << false << "scene.json: heads[0].W_q: expected 4x4";
        QTest::newRow("head without a matrix")
            << "heads[1]"
            << "not an object" << false << "heads[1]: not an object";
        QTest::newRow("W_o cell") << "W_o[2][3]"
                                  << "weights must be finite numbers" << false
                                  << "W_o[2][3]: weights must be finite numbers";
    }

    void placesBecomeControls()
    {
        QFETCH(QString, where);
        QFETCH(QString, message);
        QFETCH(bool, cross);
        QFETCH(QString, expected);
        const Error error(where.toStdString(), message.toStdString());
        QCOMPARE(inWindowWords(error, cross), expected);
    }

    // A message that names no place stays as it is, whatever it begins with.
    void noPlaceNoChange()
    {
        QCOMPARE(inWindowWords(Error("text: looks like a path")),
                 QStringLiteral("text: looks like a path"));
        QCOMPARE(inWindowWords(QString(), QStringLiteral("heads: looks like a path")),
                 QStringLiteral("heads: looks like a path"));
    }

    // Only the outermost place counts: a wrapped error keeps the wrapper's words.
    void outermostPlace()
    {
        const Error inner("tokenizer", "the unknown token '[UNK]' is not in the vocabulary");
        QCOMPARE(inWindowWords(Error("text", inner)),
                 QStringLiteral("Sentence: tokenizer: the unknown token '[UNK]' is not in the "
                                "vocabulary"));
    }
};

QTEST_MAIN(TestWindowWords)
#include "tst_window_words.moc"
