// SentencePieceModel against libsentencepiece as Python sees it: tests/data/tokenizers/
// spm_expected.json holds the ids, pieces, offsets and decoded text of every corpus text with
// T5's spiece.model and opus-mt's source.spm (make_spm_expectations.py says how it was made).
#include "core/error.h"
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
