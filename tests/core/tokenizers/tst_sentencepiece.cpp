// SentencePieceModel against libsentencepiece as Python sees it: tests/data/tokenizers/
// spm_expected.json holds the ids, pieces, offsets and decoded text of every corpus text with
// T5's spiece.model and opus-mt's source.spm (make_spm_expectations.py says how it was made).
#include "core/error.h"
#include "core/tokenizers/hf_tokenizer.h"
#include "core/tokenizers/sentencepiece_model.h"
#include "support/error_of.h"
#include "support/tokenizer_data.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <array>
#include <map>

using namespace attn::core;
using attn::test::errorOf;

namespace {

QString dataDir()
{
    return attn::test::tokenizerDataDir();
}

const QJsonObject& expected()
{
    return attn::test::tokenizerJson(QStringLiteral("spm_expected.json"));
}

const QJsonArray& texts()
{
    static const QJsonArray list = attn::test::tokenizerJson(QStringLiteral("expected.json"))
                                       .value(QStringLiteral("texts"))
                                       .toArray();
    return list;
}

std::shared_ptr<const HfTokenizer> marianTokenizer()
{
    return attn::test::loadTokenizerOnce<HfTokenizer>(QStringLiteral("marian-en-pt"),
                                                      &HfTokenizer::load);
}

std::vector<int> idsOf(const std::vector<Token>& tokens)
{
    std::vector<int> ids;
    for (const Token& token : tokens)
        ids.push_back(token.id);
    return ids;
}

std::vector<int> toIds(const QJsonArray& array)
{
    std::vector<int> ids;
    for (const QJsonValue& value : array)
        ids.push_back(value.toInt());
    return ids;
}

std::shared_ptr<const SentencePieceModel> model(const QString& name)
{
    return attn::test::loadTokenizerOnce<SentencePieceModel>(name, &SentencePieceModel::load);
}

} // namespace

class TestSentencePiece : public QObject
{
    Q_OBJECT

private slots:
    void matchesLibrary_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("index");
        const QJsonObject models = expected().value(QStringLiteral("models")).toObject();
        QCOMPARE(models.size(), 2);
        QVERIFY(texts().size() > 40);
        for (auto it = models.constBegin(); it != models.constEnd(); ++it)
            for (qsizetype i = 0; i < texts().size(); ++i)
                QTest::addRow("%s #%d", qPrintable(it.key()), int(i)) << it.key() << int(i);
    }

    void matchesLibrary()
    {
        QFETCH(QString, name);
        QFETCH(int, index);
        const QString text = texts().at(index).toString();
        const QJsonObject want = expected()
                                     .value(QStringLiteral("models"))
                                     .toObject()
                                     .value(name)
                                     .toObject()
                                     .value(QStringLiteral("cases"))
                                     .toArray()
                                     .at(index)
                                     .toObject();
        const auto spm = model(name);
        const std::vector<SentencePieceModel::Piece> pieces = spm->encode(text);
        const QJsonArray ids = want.value(QStringLiteral("ids")).toArray();
        const QJsonArray names = want.value(QStringLiteral("pieces")).toArray();
        const QJsonArray offsets = want.value(QStringLiteral("offsets")).toArray();
        QCOMPARE(qsizetype(pieces.size()), ids.size());
        std::vector<int> idList;
        for (std::size_t i = 0; i < pieces.size(); ++i) {
            const qsizetype k = qsizetype(i);
            QCOMPARE(pieces[i].id, ids.at(k).toInt());
            QCOMPARE(pieces[i].piece, names.at(k).toString());
            QCOMPARE(pieces[i].begin, offsets.at(k).toArray().at(0).toInteger());
            QCOMPARE(pieces[i].end, offsets.at(k).toArray().at(1).toInteger());
            idList.push_back(pieces[i].id);
        }
        QCOMPARE(spm->decode(idList), want.value(QStringLiteral("decoded")).toString());
    }

    void vocabulary_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("size");
        QTest::addColumn<int>("unk");
        QTest::newRow("t5") << "t5/spiece.model" << 32000 << 2;
        QTest::newRow("opus-mt-tc-big-en-pt") << "marian-en-pt/source.spm" << 32000 << 0;
    }

    void vocabulary()
    {
        QFETCH(QString, name);
        QFETCH(int, size);
        QFETCH(int, unk);
        const auto spm = model(name);
        const QJsonObject want =
            expected().value(QStringLiteral("models")).toObject().value(name).toObject();
        QCOMPARE(spm->size(), size);
        QCOMPARE(want.value(QStringLiteral("size")).toInt(), size);
        QCOMPARE(spm->unkId(), std::optional<int>(unk));
        QCOMPARE(want.value(QStringLiteral("unk_id")).toInt(), unk);
        QCOMPARE(spm->pieceOf(unk), QStringLiteral("<unk>"));
        QCOMPARE(spm->idOf(QStringLiteral("<unk>")), std::optional<int>(unk));
        QCOMPARE(spm->idOf(QStringLiteral("no such piece here")), std::nullopt);
        QCOMPARE(spm->pieceOf(size), QString());
        QCOMPARE(spm->pieceOf(-1), QString());
        for (int id = 0; id < size; id += 97)
            QCOMPARE(spm->idOf(spm->pieceOf(id)), std::optional<int>(id));
    }

    void t5Pieces()
    {
        // As the library gives them (checked by hand against T5's pieces): "▁" alone, spanning
        // nothing, then "a"; "½" becomes "1⁄2" (nmt_nfkc), "1" taking the space before it as
        // "▁1"; "⁄" is no piece, so <unk>, spanning nothing; "2" spans the "½".
        const auto spm = model(QStringLiteral("t5/spiece.model"));
        const auto pieces = spm->encode(QStringLiteral("a ½"));
        QCOMPARE(pieces.size(), std::size_t(5));
        const std::vector<std::array<qsizetype, 3>> want{
            {3, 0, 0}, {9, 0, 1}, {209, 1, 2}, {2, 2, 2}, {357, 2, 3}};
        for (std::size_t i = 0; i < want.size(); ++i) {
            QCOMPARE(qsizetype(pieces[i].id), want[i][0]);
            QCOMPARE(pieces[i].begin, want[i][1]);
            QCOMPARE(pieces[i].end, want[i][2]);
        }
        QCOMPARE(pieces[2].piece, QStringLiteral("\u25811"));
    }

    void tokenLimit()
    {
        // "a b c" is six pieces: "▁" "a" "▁" "b" "▁" "c".
        const auto spm = model(QStringLiteral("t5/spiece.model"));
        QCOMPARE(spm->encode(QStringLiteral("a b c"), 6).size(), std::size_t(6));
        QCOMPARE(errorOf([&] { spm->encode(QStringLiteral("a b c"), 5); }),
                 QStringLiteral("the text has more than 5 tokens; the limit is 5"));
    }

    void marianFolder_data()
    {
        QTest::addColumn<int>("index");
        const QJsonArray cases = expected()
                                     .value(QStringLiteral("marian-en-pt"))
                                     .toObject()
                                     .value(QStringLiteral("cases"))
                                     .toArray();
        QVERIFY(cases.size() > 40);
        for (qsizetype i = 0; i < cases.size(); ++i)
            QTest::addRow("#%d", int(i)) << int(i);
    }

    void marianFolder()
    {
        // HfTokenizer on an opus-mt folder (source.spm, vocab.json, tokenizer_config.json)
        // against MarianTokenizer's steps.
        QFETCH(int, index);
        const QJsonObject marian = expected().value(QStringLiteral("marian-en-pt")).toObject();
        const QString text = marian.value(QStringLiteral("texts")).toArray().at(index).toString();
        const QJsonObject want =
            marian.value(QStringLiteral("cases")).toArray().at(index).toObject();
        const auto hf = marianTokenizer();
        QCOMPARE(idsOf(hf->encode(text)), toIds(want.value(QStringLiteral("ids")).toArray()));
        QCOMPARE(idsOf(hf->encode(text, false)),
                 toIds(want.value(QStringLiteral("idsWithoutSpecial")).toArray()));
    }

    void marianTokens()
    {
        const auto hf = marianTokenizer();
        QCOMPARE(hf->kind(), QStringLiteral("SentencePiece (Marian)"));
        QCOMPARE(hf->vocabSize(), 54776);
        QCOMPARE(hf->idOf(QStringLiteral("</s>")), std::optional<int>(44670));
        // ">>.+<<" is greedy: all of this is one code, not in the vocabulary, and nothing is
        // left for SentencePiece.
        QCOMPARE(idsOf(hf->encode(QStringLiteral(">>por<< Hi >>x<<"))),
                 (std::vector<int>{52024, 44670}));
        // The language code is one token over its text; the pieces keep their place in the
        // text after it (SentencePiece drops the leading space, so "▁Hi" spans "Hi"); </s> ends
        // the sequence.
        const std::vector<Token> tokens = hf->encode(QStringLiteral(">>por<< Hi"));
        QCOMPARE(tokens.front().id, 39141);
        QCOMPARE(tokens.front().begin, qsizetype(0));
        QCOMPARE(tokens.front().length, qsizetype(7));
        QCOMPARE(tokens.back().id, 44670);
        QVERIFY(tokens.back().special);
        const Token& hi = tokens[tokens.size() - 2];
        QCOMPARE(hi.piece, QStringLiteral("\u2581Hi"));
        QCOMPARE(hi.begin, qsizetype(8));
        QCOMPARE(hi.length, qsizetype(2));
        QCOMPARE(hf->decode(idsOf(hf->encode(QStringLiteral("The cat ate the mouse.")))),
                 QStringLiteral("The cat ate the mouse."));
    }

    void marianFolderErrors()
    {
        QTemporaryDir dir;
        const QString source = dataDir() + QStringLiteral("/marian-en-pt/source.spm");
        QVERIFY(QFile::copy(source, dir.filePath(QStringLiteral("source.spm"))));
        QFile vocab(dir.filePath(QStringLiteral("vocab.json")));
        QVERIFY(vocab.open(QIODevice::WriteOnly));
        vocab.write(R"({"</s>": 0, "a": 1})");
        vocab.close();
        QCOMPARE(errorOf([&] { HfTokenizer::load(dir.path()); }),
                 vocab.fileName() +
                     QStringLiteral(": the unk_token '<unk>' is not in the vocabulary"));
        QVERIFY(vocab.open(QIODevice::WriteOnly | QIODevice::Truncate));
        vocab.write(R"({"</s>": 0, "<unk>": 1})");
        vocab.close();
        QFile spm(dir.filePath(QStringLiteral("source.spm")));
        QVERIFY(spm.remove());
        QVERIFY(spm.open(QIODevice::WriteOnly));
        spm.write("not a model");
        spm.close();
        QVERIFY(errorOf([&] {
                    HfTokenizer::load(dir.path());
                }).startsWith(spm.fileName() + QStringLiteral(": not a SentencePiece model (")));
    }

    void badFiles_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("message");
        QFile real(dataDir() + QStringLiteral("/t5/spiece.model"));
        QVERIFY(real.open(QIODevice::ReadOnly));
        const QByteArray model = real.readAll();
        QTest::newRow("empty") << QByteArray()
                               << "x.spm: not a SentencePiece model (unk is not defined.)";
        QTest::newRow("text") << QByteArray("{\"model\": {}}\n")
                              << "x.spm: not a SentencePiece model (";
        QTest::newRow("cut in half")
            << model.left(model.size() / 2) << "x.spm: not a SentencePiece model (";
    }

    void badFiles()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, message);
        const QString error =
            errorOf([&] { SentencePieceModel::fromBytes(bytes, QStringLiteral("x.spm")); });
        QVERIFY2(error.startsWith(message), qPrintable(error));
    }

    void missingFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("source.spm"));
        const QString error = errorOf([&] { SentencePieceModel::load(path); });
        QCOMPARE(error, QStringLiteral("cannot read ") + path +
                            QStringLiteral(": No such file or directory"));
    }
};

QTEST_GUILESS_MAIN(TestSentencePiece)
#include "tst_sentencepiece.moc"
