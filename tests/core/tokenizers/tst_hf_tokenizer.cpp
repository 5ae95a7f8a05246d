// HfTokenizer against the Rust `tokenizers` library: tests/data/tokenizers/expected.json holds
// the library's ids, tokens, offsets and decoded text for every corpus text with every tokenizer
// folder there (tests/data/tokenizers/make_expectations.mjs says how they were made).
#include "core/error.h"
#include "core/tokenizers/hf_tokenizer.h"
#include "core/tokenizers/pattern_regex.h"
#include "support/error_of.h"
#include "support/tokenizer_data.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <map>

using namespace attn::core;

namespace {

QString dataDir()
{
    return attn::test::tokenizerDataDir();
}

const QJsonObject& expected()
{
    return attn::test::tokenizerJson(QStringLiteral("expected.json"));
}

std::shared_ptr<const HfTokenizer> tokenizer(const QString& name)
{
    return attn::test::loadTokenizerOnce<HfTokenizer>(name, &HfTokenizer::load);
}

std::vector<int> toIds(const QJsonArray& array)
{
    std::vector<int> ids;
    for (const QJsonValue& value : array)
        ids.push_back(value.toInt());
    return ids;
}

std::vector<int> idsOf(const std::vector<Token>& tokens)
{
    std::vector<int> ids;
    for (const Token& token : tokens)
        ids.push_back(token.id);
    return ids;
}

QString writeFolder(const QTemporaryDir& dir, const QString& name,
                    const std::map<QString, QByteArray>& files)
{
    const QString folder = dir.filePath(name);
    QDir().mkpath(folder);
    for (const auto& [file, contents] : files) {
        QFile out(folder + u'/' + file);
        if (!out.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(out.fileName()));
        out.write(contents);
    }
    return folder;
}

QByteArray readData(const QString& relative)
{
    QFile file(dataDir() + u'/' + relative);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(file.fileName()));
    return file.readAll();
}

// A small valid BPE tokenizer.json to break in the malformed-file tests.
QJsonObject smallBpe()
{
    return QJsonDocument::fromJson(R"({
        "added_tokens": [{"id": 5, "content": "<s>", "special": true, "normalized": false,
                          "single_word": false, "lstrip": false, "rstrip": false}],
        "normalizer": null, "pre_tokenizer": {"type": "WhitespaceSplit"},
        "post_processor": null, "decoder": null,
        "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2, "c": 3, "abc": 4},
                  "merges": ["a b", "ab c"]}})")
        .object();
}

using attn::test::errorOf;

// Ids written as runs of {id, count}, so that 16,384 of them fit on a line.
std::vector<int> runs(std::initializer_list<std::pair<int, int>> list)
{
    std::vector<int> ids;
    for (const auto& [id, count] : list)
        ids.insert(ids.end(), std::size_t(count), id);
    return ids;
}

// smallBpe with more added tokens: one whose content begins with another's, and a normalized
// one that begins with a word the model knows whole.
QByteArray smallBpeWithAddedTokens()
{
    QJsonObject root = smallBpe();
    QJsonArray added = root.value(QStringLiteral("added_tokens")).toArray();
    added.append(QJsonObject{{"id", 6},
                             {"content", "<s><s>"},
                             {"special", true},
                             {"normalized", false},
                             {"single_word", false},
                             {"lstrip", false},
                             {"rstrip", false}});
    added.append(QJsonObject{{"id", 7},
                             {"content", "abca"},
                             {"special", false},
                             {"normalized", true},
                             {"single_word", false},
                             {"lstrip", false},
                             {"rstrip", false}});
    root.insert(QStringLiteral("added_tokens"), added);
    return QJsonDocument(root).toJson();
}

// WordPiece with letters outside the BMP (two UTF-16 units each, one character to the
// library) and a word limit of 3 characters.
QByteArray astralWordPiece()
{
    return R"({"added_tokens": [{"id": 0, "content": "[UNK]", "special": true, "normalized": false,
                                  "single_word": false, "lstrip": false, "rstrip": false}],
               "normalizer": null, "pre_tokenizer": {"type": "WhitespaceSplit"},
               "post_processor": null, "decoder": null,
               "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                         "max_input_chars_per_word": 3,
                         "vocab": {"[UNK]": 0, "\ud835\udd18": 1, "##\ud835\udd18": 2, "a": 3, "##a": 4}}})";
}

} // namespace

class TestHfTokenizer : public QObject
{
    Q_OBJECT

private slots:
    void matchesLibrary_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("index");
        const QJsonObject tokenizers = expected().value(QStringLiteral("tokenizers")).toObject();
        const QJsonArray texts = expected().value(QStringLiteral("texts")).toArray();
        QVERIFY(tokenizers.size() >= 9);
        for (auto it = tokenizers.constBegin(); it != tokenizers.constEnd(); ++it)
            for (qsizetype i = 0; i < texts.size(); ++i)
                QTest::addRow("%s #%d", qPrintable(it.key()), int(i)) << it.key() << int(i);
    }

    void matchesLibrary()
    {
        QFETCH(QString, name);
        QFETCH(int, index);
        const QString text =
            expected().value(QStringLiteral("texts")).toArray().at(index).toString();
        const QJsonObject want = expected()
                                     .value(QStringLiteral("tokenizers"))
                                     .toObject()
                                     .value(name)
                                     .toArray()
                                     .at(index)
                                     .toObject();
        const auto hf = tokenizer(name);

        const std::vector<Token> tokens = hf->encode(text);
        QCOMPARE(idsOf(tokens), toIds(want.value(QStringLiteral("ids")).toArray()));
        const QJsonArray pieces = want.value(QStringLiteral("tokens")).toArray();
        const QJsonArray offsets = want.value(QStringLiteral("offsets")).toArray();
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            const Token& token = tokens[i];
            // The library's token string for an added token is the text it matched, with the
            // spaces lstrip/rstrip took; the piece is the token itself.
            // Unigram's unknown token is the normalized text it stands for there, which is
            // no piece; the piece is "<unk>".
            const QString piece = pieces.at(qsizetype(i)).toString();
            const bool unknown = hf->kind().startsWith(u"Unigram") && !hf->idOf(piece) &&
                                 token.piece == QStringLiteral("<unk>");
            QVERIFY2(token.piece == piece || token.piece == piece.trimmed() || unknown,
                     qPrintable(token.piece + QStringLiteral(" vs ") + piece));
            const QJsonArray span = offsets.at(qsizetype(i)).toArray();
            const qsizetype begin = span.at(0).toInteger();
            if (begin < 0) {
                QCOMPARE(token.begin, qsizetype(-1));
                QCOMPARE(token.length, qsizetype(0));
                QVERIFY(token.special);
            } else {
                QCOMPARE(token.begin, begin);
                QCOMPARE(token.begin + token.length, span.at(1).toInteger());
            }
            QCOMPARE(token.text, hf->displayText(token.id));
        }
        QCOMPARE(idsOf(hf->encode(text, false)),
                 toIds(want.value(QStringLiteral("idsWithoutSpecial")).toArray()));
        const std::vector<int> ids = toIds(want.value(QStringLiteral("ids")).toArray());
        QCOMPARE(hf->decode(ids), want.value(QStringLiteral("decoded")).toString());
        QCOMPARE(hf->decode(ids, false),
                 want.value(QStringLiteral("decodedWithSpecial")).toString());
    }

    void byteLevelRoundTrips()
    {
        // Byte-level BPE loses nothing: decoding (special tokens kept) gives the text back, in
        // NFC for Qwen2, whose normalizer is NFC.
        for (const QString& name : {QStringLiteral("gpt2"), QStringLiteral("qwen2")}) {
            const auto hf = tokenizer(name);
            for (const QJsonValue& value : expected().value(QStringLiteral("texts")).toArray()) {
                const QString text = value.toString();
                const QString want =
                    name == u"qwen2" ? text.normalized(QString::NormalizationForm_C) : text;
                QCOMPARE(hf->decode(idsOf(hf->encode(text)), false), want);
            }
        }
    }

    void kindsAndSizes_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<int>("vocabSize");
        QTest::addColumn<QString>("mask");
        QTest::newRow("gpt2 (vocab.json + merges.txt)") << "gpt2"
                                                        << "BPE (byte-level)" << 50257 << "";
        QTest::newRow("bert (vocab.txt)") << "bert-base-uncased"
                                          << "WordPiece" << 30522 << "[MASK]";
        QTest::newRow("llama2") << "llama2"
                                << "BPE (SentencePiece, byte fallback)" << -1 << "";
        QTest::newRow("llama3") << "llama3"
                                << "BPE (byte-level)" << -1 << "";
        QTest::newRow("qwen2") << "qwen2"
                               << "BPE (byte-level)" << -1 << "";
        QTest::newRow("roberta-style") << "roberta-style"
                                       << "BPE (byte-level)" << -1 << "<mask>";
        QTest::newRow("wordpiece-variants") << "wordpiece-variants"
                                            << "WordPiece" << -1 << "[MASK]";
        QTest::newRow("bpe-variants") << "bpe-variants"
                                      << "BPE" << -1 << "";
        QTest::newRow("t5") << "t5"
                            << "Unigram" << 32100 << "";
        QTest::newRow("albert") << "albert"
                                << "Unigram" << 30000 << "[MASK]";
        QTest::newRow("unigram-variants") << "unigram-variants"
                                          << "Unigram (byte fallback)" << -1 << "";
    }

    void kindsAndSizes()
    {
        QFETCH(QString, name);
        QFETCH(QString, kind);
        QFETCH(int, vocabSize);
        QFETCH(QString, mask);
        const auto hf = tokenizer(name);
        QCOMPARE(hf->kind(), kind);
        if (vocabSize > 0)
            QCOMPARE(hf->vocabSize(), vocabSize);
        // Every id below vocabSize() that has a piece maps back to itself, but for the one
        // piece unigram-variants lists twice, which maps to its later id.
        int pieces = 0;
        int listedTwice = 0;
        for (int id = 0; id < hf->vocabSize(); ++id) {
            const QString piece = hf->pieceOf(id);
            if (piece.isEmpty())
                continue;
            ++pieces;
            if (hf->idOf(piece) != std::optional<int>(id)) {
                QCOMPARE(piece, QStringLiteral("\u2581the"));
                QVERIFY(*hf->idOf(piece) > id);
                ++listedTwice;
            }
        }
        QCOMPARE(listedTwice, name == u"unigram-variants" ? 1 : 0);
        QVERIFY(pieces > 100);
        QCOMPARE(hf->pieceOf(hf->vocabSize()), QString());
        if (mask.isEmpty()) {
            QVERIFY(!hf->maskTokenId());
        } else {
            QVERIFY(hf->maskTokenId());
            QCOMPARE(hf->pieceOf(*hf->maskTokenId()), mask);
        }
    }

    void displayText()
    {
        const auto gpt2 = tokenizer(QStringLiteral("gpt2"));
        QCOMPARE(gpt2->displayText(*gpt2->idOf(QStringLiteral("Ġcat"))), QStringLiteral(" cat"));
        // Bytes that a font draws as a box or as nothing show as bytes, as the lone bytes do.
        QCOMPARE(gpt2->displayText(*gpt2->idOf(QStringLiteral("Ċ"))), QStringLiteral("<0x0A>"));
        QCOMPARE(gpt2->displayText(*gpt2->idOf(QStringLiteral("ĉ"))), QStringLiteral("<0x09>"));
        QCOMPARE(gpt2->displayText(*gpt2->idOf(QStringLiteral("Ā"))), QStringLiteral("<0x00>"));
        QCOMPARE(gpt2->displayText(*gpt2->idOf(QStringLiteral("þ"))), QStringLiteral("<0xFE>"));
        // "ãģ" is the first two bytes of a three-byte character (U+3041-U+307F).
        QCOMPARE(gpt2->displayText(*gpt2->idOf(QStringLiteral("ãģ"))),
                 QStringLiteral("<0xE3><0x81>"));
        QCOMPARE(gpt2->displayText(*gpt2->idOf(QStringLiteral("Ã©"))), QStringLiteral("é"));
        QCOMPARE(gpt2->displayText(50256), QStringLiteral("<|endoftext|>"));
        const std::vector<Token> cat = gpt2->encode(QStringLiteral("This is a cat."));
        QStringList texts;
        for (const Token& token : cat)
            texts << token.text;
        QCOMPARE(texts, QStringList({"This", " is", " a", " cat", "."}));
        QCOMPARE(cat[3].piece, QStringLiteral("Ġcat"));

        const auto bert = tokenizer(QStringLiteral("bert-base-uncased"));
        QCOMPARE(bert->displayText(*bert->idOf(QStringLiteral("##s"))), QStringLiteral("s"));
        QCOMPARE(bert->displayText(*bert->idOf(QStringLiteral("cat"))), QStringLiteral("cat"));
        QCOMPARE(bert->displayText(*bert->idOf(QStringLiteral("###"))), QStringLiteral("#"));
        QVERIFY(!bert->idOf(QStringLiteral("##")));
        const std::vector<Token> bertCat = bert->encode(QStringLiteral("This is a cat."));
        QCOMPARE(bertCat.front().piece, QStringLiteral("[CLS]"));
        QVERIFY(bertCat.front().special);
        QCOMPARE(bertCat.front().begin, qsizetype(-1));
        QCOMPARE(bertCat[1].text, QStringLiteral("this"));
        QCOMPARE(bertCat[1].begin, qsizetype(0));
        QCOMPARE(bertCat[1].length, qsizetype(4));

        const auto llama = tokenizer(QStringLiteral("llama2"));
        QCOMPARE(llama->displayText(*llama->idOf(QStringLiteral("▁cat"))), QStringLiteral(" cat"));
        QCOMPARE(llama->displayText(*llama->idOf(QStringLiteral("<0x0A>"))),
                 QStringLiteral("<0x0A>"));
        QCOMPARE(llama->displayText(*llama->idOf(QStringLiteral("<0x41>"))), QStringLiteral("A"));
        QCOMPARE(llama->displayText(*llama->idOf(QStringLiteral("<0xE3>"))),
                 QStringLiteral("<0xE3>"));
        QCOMPARE(llama->displayText(*llama->idOf(QStringLiteral("<s>"))), QStringLiteral("<s>"));
        const std::vector<Token> llamaCat = llama->encode(QStringLiteral("This is a cat."));
        QCOMPARE(llamaCat.front().piece, QStringLiteral("<s>"));
        QVERIFY(llamaCat.front().special);
        QCOMPARE(llamaCat[1].text, QStringLiteral(" This"));
    }

    void addedTokensInText()
    {
        const auto gpt2 = tokenizer(QStringLiteral("gpt2"));
        const std::vector<Token> tokens = gpt2->encode(QStringLiteral("a<|endoftext|>b"));
        QCOMPARE(tokens.size(), std::size_t(3));
        QCOMPARE(tokens[1].id, 50256);
        QVERIFY(tokens[1].special);
        QCOMPARE(tokens[1].begin, qsizetype(1));
        QCOMPARE(tokens[1].length, qsizetype(13));
        QVERIFY(!tokens[0].special);
        // Special tokens are dropped by decode unless asked for.
        QCOMPARE(gpt2->decode(idsOf(tokens)), QStringLiteral("ab"));
        QCOMPARE(gpt2->decode(idsOf(tokens), false), QStringLiteral("a<|endoftext|>b"));
    }

    void emojiOffsetsAreUtf16()
    {
        // U+1F431 is two UTF-16 units; the library counts it as one character.
        const QString text = QStringLiteral("a 🐱 b");
        for (const QString& name :
             {QStringLiteral("gpt2"), QStringLiteral("llama3"), QStringLiteral("llama2")}) {
            const std::vector<Token> tokens = tokenizer(name)->encode(text, false);
            QCOMPARE(tokens.back().begin + tokens.back().length, text.size());
            QString joined;
            for (const Token& token : tokens)
                if (token.begin >= 0 && !joined.endsWith(text.mid(token.begin, token.length)))
                    joined += text.mid(token.begin, token.length);
            QVERIFY2(joined.remove(u' ') == QStringLiteral("a🐱b"),
                     qPrintable(name + u':' + joined));
        }
    }

    void onigurumaPatterns()
    {
        using attn::core::hf::PatternRegex;
        // Oniguruma's \s includes U+0085, PCRE2's does not.
        const auto spaces = PatternRegex::fromOniguruma(QStringLiteral("\\s+"))
                                .findMatches(QStringLiteral("a\u0085b"));
        QCOMPARE(spaces.size(), std::size_t(3));
        QVERIFY(spaces[1].isMatch);
        // Case-insensitive contractions, as Llama 3's pattern has them.
        const auto contractions = PatternRegex::fromOniguruma(QStringLiteral("(?i:'s|'ll)"))
                                      .findMatches(QStringLiteral("IT'S WE'LL"));
        int matches = 0;
        for (const auto& span : contractions)
            matches += span.isMatch;
        QCOMPARE(matches, 2);
        // \p{L}+ over an astral letter gives UTF-16 offsets.
        const auto letters = PatternRegex::fromOniguruma(QStringLiteral("\\p{L}+"))
                                 .findMatches(QStringLiteral("𝔘x 1"));
        QCOMPARE(letters.front().end, qsizetype(3));
        QVERIFY(!PatternRegex::fromOniguruma(QStringLiteral("(")).error().isEmpty());
    }

    void malformedFiles_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("message");
        const auto variant = [](const std::function<void(QJsonObject&)>& change) {
            QJsonObject root = smallBpe();
            change(root);
            return QJsonDocument(root).toJson();
        };
        QTest::newRow("not JSON") << QByteArray("{\"model\": ") << "x.json: not valid JSON";
        QTest::newRow("not an object") << QByteArray("[1, 2]") << "x.json: expected a JSON object";
        QTest::newRow("no model") << variant([](QJsonObject& r) {
            r.remove(QStringLiteral("model"));
        }) << "x.json: model: missing";
        QTest::newRow("merge of a missing piece") << variant([](QJsonObject& r) {
            QJsonObject model = r.value(QStringLiteral("model")).toObject();
            model.insert(QStringLiteral("merges"),
                         QJsonArray{QStringLiteral("a b"), QStringLiteral("ab zz")});
            r.insert(QStringLiteral("model"), model);
        }) << "x.json: model.merges[1]: 'zz' is not in the vocabulary";
        QTest::newRow("merge without a space") << variant([](QJsonObject& r) {
            QJsonObject model = r.value(QStringLiteral("model")).toObject();
            model.insert(QStringLiteral("merges"), QJsonArray{QStringLiteral("ab")});
            r.insert(QStringLiteral("model"), model);
        }) << "x.json: model.merges[0]: expected two pieces";
        QTest::newRow("merge pair of three") << variant([](QJsonObject& r) {
            QJsonObject model = r.value(QStringLiteral("model")).toObject();
            model.insert(QStringLiteral("merges"),
                         QJsonArray{QJsonValue(QJsonArray{"a", "b", "c"})});
            r.insert(QStringLiteral("model"), model);
        }) << "x.json: model.merges[0]: expected two pieces, found 3";
        QTest::newRow("vocab id not a number") << variant([](QJsonObject& r) {
            QJsonObject model = r.value(QStringLiteral("model")).toObject();
            QJsonObject vocab = model.value(QStringLiteral("vocab")).toObject();
            vocab.insert(QStringLiteral("d"), QStringLiteral("five"));
            model.insert(QStringLiteral("vocab"), vocab);
            r.insert(QStringLiteral("model"), model);
        }) << "x.json: model.vocab[\"d\"]: expected a non-negative integer";
        QTest::newRow("vocab id too large")
            << variant([](QJsonObject& r) {
                   QJsonObject model = r.value(QStringLiteral("model")).toObject();
                   QJsonObject vocab = model.value(QStringLiteral("vocab")).toObject();
                   vocab.insert(QStringLiteral("d"), 2147483647);
                   model.insert(QStringLiteral("vocab"), vocab);
                   r.insert(QStringLiteral("model"), model);
               })
            << "x.json: model.vocab[\"d\"]: expected a non-negative integer below 2147483647, "
               "found 2147483647";
        QTest::newRow("unknown model") << variant([](QJsonObject& r) {
            r.insert(QStringLiteral("model"), QJsonObject{{"type", "WordLevel"}});
        }) << "x.json: model.type: unsupported model 'WordLevel' (BPE, WordPiece and Unigram are)";
        QTest::newRow("unknown normalizer") << variant([](QJsonObject& r) {
            r.insert(QStringLiteral("normalizer"),
                     QJsonObject{{"type", "Sequence"},
                                 {"normalizers", QJsonArray{QJsonObject{{"type", "Unheard"}}}}});
        }) << "x.json: normalizer.normalizers[0].type: unsupported normalizer 'Unheard'";
        const auto unigram = [](const QJsonObject& model) {
            QJsonObject root;
            root.insert(QStringLiteral("model"), model);
            return QJsonDocument(root).toJson();
        };
        const QJsonArray pieces{QJsonArray{"<unk>", 0}, QJsonArray{"a", -1.5}};
        QTest::newRow("Unigram score not a number")
            << unigram({{"type", "Unigram"},
                        {"unk_id", 0},
                        {"vocab", QJsonArray{QJsonArray{"<unk>", 0}, QJsonArray{"a", "-1.5"}}}})
            << "x.json: model.vocab[1][1]: the score of 'a' is not a number: \"-1.5\"";
        QTest::newRow("Unigram score null")
            << unigram({{"type", "Unigram"},
                        {"unk_id", 0},
                        {"vocab", QJsonArray{QJsonValue(QJsonArray{"<unk>", QJsonValue()})}}})
            << "x.json: model.vocab[0][1]: the score of '<unk>' is not a number: null";
        QTest::newRow("Unigram entry of one value")
            << unigram({{"type", "Unigram"}, {"vocab", QJsonArray{QJsonValue(QJsonArray{"a"})}}})
            << "x.json: model.vocab[0]: expected [piece, score], found an array of 1";
        QTest::newRow("Unigram piece not a string")
            << unigram({{"type", "Unigram"}, {"vocab", QJsonArray{QJsonValue(QJsonArray{7, 0})}}})
            << "x.json: model.vocab[0][0]: expected a string, found a number";
        QTest::newRow("Unigram without vocab")
            << unigram({{"type", "Unigram"}, {"unk_id", 0}}) << "x.json: model.vocab: missing";
        QTest::newRow("Unigram unk_id past the end")
            << unigram({{"type", "Unigram"}, {"unk_id", 2}, {"vocab", pieces}})
            << "x.json: model.unk_id: 2 is not an id of the vocabulary, which has 2 pieces";
        QTest::newRow("Unigram unk_id of an empty vocabulary")
            << unigram({{"type", "Unigram"}, {"unk_id", 0}, {"vocab", QJsonArray{}}})
            << "x.json: model.unk_id: 0 is not an id of the vocabulary, which has 0 pieces";
        QTest::newRow("Unigram unk_id a string")
            << unigram({{"type", "Unigram"}, {"unk_id", "0"}, {"vocab", pieces}})
            << "x.json: model.unk_id: expected a non-negative integer below 2147483647, found a "
               "string";
        const auto precompiled = [&](const QJsonValue& charsmap) {
            QJsonObject root;
            root.insert(QStringLiteral("model"),
                        QJsonObject{{"type", "Unigram"}, {"unk_id", 0}, {"vocab", pieces}});
            root.insert(QStringLiteral("normalizer"),
                        QJsonObject{{"type", "Precompiled"}, {"precompiled_charsmap", charsmap}});
            return QJsonDocument(root).toJson();
        };
        QTest::newRow("charsmap missing")
            << precompiled(QJsonValue())
            << "x.json: normalizer.precompiled_charsmap: expected a string, found null";
        QTest::newRow("charsmap not base64")
            << precompiled("AAAA*") << "x.json: normalizer.precompiled_charsmap: not valid base64";
        QTest::newRow("charsmap too short")
            << precompiled("AAA=")
            << "x.json: normalizer.precompiled_charsmap: not a SentencePiece charsmap: 2 bytes, "
               "fewer than the 4 of the trie's size";
        // A trie of 0x100 bytes where 4 follow.
        QTest::newRow("charsmap trie past the end")
            << precompiled("AAEAAAAAAAA=")
            << "x.json: normalizer.precompiled_charsmap: not a SentencePiece charsmap: the "
               "trie's size, 256 bytes, is more than the 4 that follow";
        // An empty trie, then 0xFF, which is no UTF-8.
        QTest::newRow("charsmap replacements not UTF-8")
            << precompiled("AAAAAP8=")
            << "x.json: normalizer.precompiled_charsmap: not a SentencePiece charsmap: its "
               "replacement strings are not UTF-8";
        QTest::newRow("bad regex") << variant([](QJsonObject& r) {
            r.insert(QStringLiteral("pre_tokenizer"),
                     QJsonObject{{"type", "Split"},
                                 {"pattern", QJsonObject{{"Regex", "(a"}}},
                                 {"behavior", "Isolated"},
                                 {"invert", false}});
        }) << "x.json: pre_tokenizer.pattern: invalid regular expression";
        QTest::newRow("bad behavior") << variant([](QJsonObject& r) {
            r.insert(QStringLiteral("pre_tokenizer"),
                     QJsonObject{{"type", "Split"},
                                 {"pattern", QJsonObject{{"String", "-"}}},
                                 {"behavior", "Sideways"},
                                 {"invert", false}});
        }) << "x.json: pre_tokenizer.behavior: unknown split behavior 'Sideways'";
        QTest::newRow("added token without content") << variant([](QJsonObject& r) {
            r.insert(QStringLiteral("added_tokens"), QJsonArray{QJsonObject{{"id", 9}}});
        }) << "x.json: added_tokens[0].content: missing";
        QTest::newRow("template without its token") << variant([](QJsonObject& r) {
            r.insert(
                QStringLiteral("post_processor"),
                QJsonObject{
                    {"type", "TemplateProcessing"},
                    {"single",
                     QJsonArray{
                         QJsonObject{{"SpecialToken", QJsonObject{{"id", "<s>"}, {"type_id", 0}}}},
                         QJsonObject{{"Sequence", QJsonObject{{"id", "A"}, {"type_id", 0}}}}}},
                    {"special_tokens", QJsonObject{}}});
        }) << "x.json: post_processor.single[0].SpecialToken: the special token '<s>' is not in";
        QTest::newRow("Metaspace replacement") << variant([](QJsonObject& r) {
            r.insert(QStringLiteral("pre_tokenizer"),
                     QJsonObject{{"type", "Metaspace"}, {"replacement", "ab"}});
        }) << "x.json: pre_tokenizer.replacement: expected a single character";
    }

    void malformedFiles()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, message);
        const QString error =
            errorOf([&] { HfTokenizer::fromTokenizerJson(json, QStringLiteral("x.json")); });
        QVERIFY2(error.startsWith(message), qPrintable(error));
    }

    void unigramViterbi()
    {
        // The library's own example (model.rs, Unigram::encode): "abcd" (10) beats "abc" + "d"
        // (5 + 0) and "ab" + "cd" (2 + 1); "acd" is "a" + "cd" (0 + 1) rather than three
        // characters (0); the two unknown x's fuse into one unknown token.
        const QJsonArray vocab{
            QJsonArray{"<unk>", 0}, QJsonArray{"a", 0},   QJsonArray{"b", 0},
            QJsonArray{"c", 0},     QJsonArray{"d", 0},   QJsonArray{"cd", 1},
            QJsonArray{"ab", 2},    QJsonArray{"abc", 5}, QJsonArray{"abcd", 10}};
        const QJsonObject model{{"type", "Unigram"}, {"unk_id", 0}, {"vocab", vocab}};
        const auto hf = HfTokenizer::fromTokenizerJson(
            QJsonDocument(QJsonObject{{"model", model}}).toJson(), QStringLiteral("x.json"));
        const std::vector<Token> tokens = hf->encode(QStringLiteral("abcdacdxx"));
        QCOMPARE(idsOf(tokens), (std::vector<int>{8, 1, 5, 0}));
        QCOMPARE(tokens[3].begin, qsizetype(7));
        QCOMPARE(tokens[3].length, qsizetype(2));
        QCOMPARE(tokens[3].piece, QStringLiteral("<unk>"));
        QCOMPARE(hf->kind(), QStringLiteral("Unigram"));
        QCOMPARE(hf->vocabSize(), 9);

        // Byte fallback spells an unknown run in byte pieces when it has them all: "x" is
        // <0x78>, "é" (C3 A9) lacks <0xA9> and stays unknown.
        QJsonArray withBytes = vocab;
        withBytes.append(QJsonArray{"<0x78>", 0});
        withBytes.append(QJsonArray{"<0xC3>", 0});
        QJsonObject fallback = model;
        fallback.insert(QStringLiteral("vocab"), withBytes);
        fallback.insert(QStringLiteral("byte_fallback"), true);
        const auto bytes = HfTokenizer::fromTokenizerJson(
            QJsonDocument(QJsonObject{{"model", fallback}}).toJson(), QStringLiteral("x.json"));
        QCOMPARE(bytes->kind(), QStringLiteral("Unigram (byte fallback)"));
        const std::vector<Token> spelled = bytes->encode(QStringLiteral("axxb\u00e9"));
        QCOMPARE(idsOf(spelled), (std::vector<int>{1, 9, 9, 2, 0}));
        QCOMPARE(spelled[2].begin, qsizetype(1)); // each byte piece spans the whole run
        QCOMPARE(spelled[2].length, qsizetype(2));
        QCOMPARE(spelled[4].begin, qsizetype(4));
    }

    void unigramWithoutUnknownToken()
    {
        // The library accepts a vocabulary without unk_id and fails only on a character that
        // no piece covers.
        const QJsonObject model{
            {"type", "Unigram"},
            {"vocab", QJsonArray{QJsonArray{"a", -1}, QJsonArray{"b", -2}, QJsonArray{"ab", -4}}}};
        const auto hf = HfTokenizer::fromTokenizerJson(
            QJsonDocument(QJsonObject{{"model", model}}).toJson(), QStringLiteral("x.json"));
        QCOMPARE(idsOf(hf->encode(QStringLiteral("abba"))), (std::vector<int>{0, 1, 1, 0}));
        QCOMPARE(errorOf([&] { hf->encode(QStringLiteral("abc")); }),
                 QStringLiteral("x.json: model.unk_id: the vocabulary has no unknown token, and "
                                "no piece covers 'c' in 'abc'"));
    }

    void smallBpeWorks()
    {
        // The base of the malformed-file tests is itself valid.
        const auto hf = HfTokenizer::fromTokenizerJson(QJsonDocument(smallBpe()).toJson(),
                                                       QStringLiteral("x.json"));
        QCOMPARE(idsOf(hf->encode(QStringLiteral("abc <s> ba"))), (std::vector<int>{4, 5, 1, 0}));
        QCOMPARE(hf->decode({4, 5, 1}, false), QStringLiteral("abc <s> b"));
        QCOMPARE(hf->kind(), QStringLiteral("BPE"));
    }

    void sparseIdsCostNoMemory()
    {
        // Ids far apart (a fuzzer's find: one id of 390 million made the vocabulary reserve
        // 9 GB) are kept as they are, at the cost of their count.
        QJsonObject root = smallBpe();
        QJsonObject model = root.value(QStringLiteral("model")).toObject();
        QJsonObject vocab = model.value(QStringLiteral("vocab")).toObject();
        vocab.insert(QStringLiteral("c"), 2147483646);
        model.insert(QStringLiteral("vocab"), vocab);
        root.insert(QStringLiteral("model"), model);
        const auto hf =
            HfTokenizer::fromTokenizerJson(QJsonDocument(root).toJson(), QStringLiteral("x.json"));
        QCOMPARE(idsOf(hf->encode(QStringLiteral("abc c b"))),
                 (std::vector<int>{4, 2147483646, 1}));
        QCOMPARE(hf->vocabSize(), 2147483647);
        QCOMPARE(hf->pieceOf(2147483646), QStringLiteral("c"));
        QCOMPARE(hf->pieceOf(7), QString());
        QCOMPARE(hf->decode({2147483646, 1}, false), QStringLiteral("c b"));
    }

    void folders()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString empty = writeFolder(dir, QStringLiteral("empty"), {});
        QVERIFY(errorOf([&] {
                    HfTokenizer::load(empty);
                }).contains(QStringLiteral("no tokenizer files")));
        QVERIFY(errorOf([&] {
                    HfTokenizer::load(dir.filePath(QStringLiteral("missing")));
                }).contains(QStringLiteral("no such folder")));

        const QByteArray vocab = readData(QStringLiteral("gpt2/vocab.json"));
        const QString badMerges =
            writeFolder(dir, QStringLiteral("merges"),
                        {{QStringLiteral("vocab.json"), vocab},
                         {QStringLiteral("merges.txt"), "#version: 0.2\nĠ t\nĠ a b\n"}});
        const QString error = errorOf([&] { HfTokenizer::load(badMerges); });
        QVERIFY2(error.contains(QStringLiteral("merges.txt: line 3: expected two pieces")),
                 qPrintable(error));

        const QString missingPiece =
            writeFolder(dir, QStringLiteral("piece"),
                        {{QStringLiteral("vocab.json"), vocab},
                         {QStringLiteral("merges.txt"), "#version: 0.2\nĠ t\nĠ qqqq\n"}});
        QVERIFY(errorOf([&] {
                    HfTokenizer::load(missingPiece);
                }).contains(QStringLiteral("merges.txt: line 3: 'qqqq' is not in the vocabulary")));

        const QString badVocab = writeFolder(
            dir, QStringLiteral("vocab"),
            {{QStringLiteral("vocab.json"), "[1]"}, {QStringLiteral("merges.txt"), ""}});
        QVERIFY(errorOf([&] {
                    HfTokenizer::load(badVocab);
                }).contains(QStringLiteral("vocab.json: expected a JSON object")));

        const QString badConfig = writeFolder(dir, QStringLiteral("config"),
                                              {{QStringLiteral("vocab.txt"), "[UNK]\na\n"},
                                               {QStringLiteral("tokenizer_config.json"), "{"}});
        QVERIFY(errorOf([&] {
                    HfTokenizer::load(badConfig);
                }).contains(QStringLiteral("tokenizer_config.json: not valid JSON")));

        const QString noUnk =
            writeFolder(dir, QStringLiteral("nounk"), {{QStringLiteral("vocab.txt"), "a\nb\n"}});
        QVERIFY(errorOf([&] {
                    HfTokenizer::load(noUnk);
                }).contains(QStringLiteral("the unknown token '[UNK]' is not in the vocabulary")));

        // vocab.txt with do_lower_case false keeps the case; added tokens come from the config.
        const QString cased =
            writeFolder(dir, QStringLiteral("cased"),
                        {{QStringLiteral("vocab.txt"),
                          "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nHello\nhello\n##o\nH\n"},
                         {QStringLiteral("tokenizer_config.json"), R"({"do_lower_case": false})"}});
        const auto hf = HfTokenizer::load(cased);
        QCOMPARE(idsOf(hf->encode(QStringLiteral("Hello hello [MASK] Ho"))),
                 (std::vector<int>{2, 5, 6, 4, 8, 7, 3}));
        QCOMPARE(hf->decode({2, 5, 6, 4, 8, 7, 3}), QStringLiteral("Hello hello Ho"));
        QCOMPARE(hf->maskTokenId(), std::optional<int>(4));
    }

    void tokenLimit()
    {
        const QString text =
            QStringLiteral("one two three four five six seven eight nine ten eleven");
        for (const QString& name : {QStringLiteral("gpt2"), QStringLiteral("bert-base-uncased"),
                                    QStringLiteral("llama2")}) {
            const auto hf = tokenizer(name);
            const QString error = errorOf([&] { hf->encode(text, true, 5); });
            QVERIFY2(error.contains(QStringLiteral("more than 5 tokens")),
                     qPrintable(name + u':' + error));
            QVERIFY(!hf->encode(text, true, 64).empty());
        }
        // A huge paste stops at the limit: Llama 2 has no pre-tokenizer, so this is one word.
        const QString huge(2'000'000, u'x');
        QVERIFY(!errorOf([&] {
                     tokenizer(QStringLiteral("llama2"))->encode(huge, true, 1000);
                 }).isEmpty());
        QVERIFY(!errorOf([&] {
                     tokenizer(QStringLiteral("gpt2"))
                         ->encode(huge + QStringLiteral(" a b"), true, 1000);
                 }).isEmpty());
    }

    // A Replace whose content contains its pattern lengthens the text each time it runs: three
    // in a row, each putting ten a's for an "a", make "banana" (three a's) 3 + 30, 3 + 300 and
    // 3 + 3000 characters long. Normalizers may lengthen a text 64 times, 384 characters for
    // these six: the third Replace is refused, by name, before it builds its text.
    void normalizerGrowthIsBounded()
    {
        const auto replace = [](const QString& pattern, const QString& content) {
            return QJsonObject{
                {QStringLiteral("type"), QStringLiteral("Replace")},
                {QStringLiteral("pattern"), QJsonObject{{QStringLiteral("String"), pattern}}},
                {QStringLiteral("content"), content}};
        };
        const auto withNormalizer = [](const QJsonObject& normalizer) {
            QJsonObject root = smallBpe();
            root.insert(QStringLiteral("normalizer"), normalizer);
            return HfTokenizer::fromTokenizerJson(QJsonDocument(root).toJson(),
                                                  QStringLiteral("x.json"));
        };
        const QString a = QStringLiteral("a");
        const QString tenAs(10, u'a');
        const auto chained =
            withNormalizer({{QStringLiteral("type"), QStringLiteral("Sequence")},
                            {QStringLiteral("normalizers"),
                             QJsonArray{replace(a, tenAs), replace(a, tenAs), replace(a, tenAs)}}});
        QCOMPARE(errorOf([&] { chained->encode(QStringLiteral("banana")); }),
                 QStringLiteral(
                     "x.json: normalizer.normalizers[2]: this Replace would make the text 3003 "
                     "characters long, from 6 in the input; normalizers may lengthen a text at "
                     "most 64 times (here to 384)"));
        // Two of them stay within it: "abcabc" becomes 100 a's, "bc", 100 a's, "bc" (204 of
        // 384), which BPE makes 99 "a" and one "abc", twice.
        const auto two = withNormalizer(
            {{QStringLiteral("type"), QStringLiteral("Sequence")},
             {QStringLiteral("normalizers"), QJsonArray{replace(a, tenAs), replace(a, tenAs)}}});
        QCOMPARE(idsOf(two->encode(QStringLiteral("abcabc"))),
                 runs({{0, 99}, {4, 1}, {0, 99}, {4, 1}}));

        // At the bound and one past it (ours: the library, npm tokenizers 0.23.2, gives the ids
        // above, and 385 a's past it).
        const auto at = withNormalizer(replace(QStringLiteral("banana"), QString(384, u'a')));
        QCOMPARE(idsOf(at->encode(QStringLiteral("banana"))), runs({{0, 384}}));
        const auto past = withNormalizer(replace(QStringLiteral("banana"), QString(385, u'a')));
        QCOMPARE(errorOf([&] { past->encode(QStringLiteral("banana")); }),
                 QStringLiteral(
                     "x.json: normalizer: this Replace would make the text 385 characters long, "
                     "from 6 in the input; normalizers may lengthen a text at most 64 times "
                     "(here to 384)"));
    }

    // ---- Limits, at and one past each ---------------------------------------------------
    // The expected ids are the Rust library's (npm tokenizers 0.23.2) on the same files, built
    // into the same pipelines as make_expectations.mjs builds them; the commit that added these
    // tests gives the script.

    // WordPiece gives [UNK] for a word of more than max_input_chars_per_word characters (100
    // in BERT), counted after normalization, in Unicode scalar values. unkEnd is where the
    // library's [UNK] ends (UTF-16 units), -1 where there is none.
    void wordPieceWordLength_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<std::vector<int>>("ids");
        QTest::addColumn<int>("unkEnd");
        const QString bert = QStringLiteral("bert-base-uncased");
        const QString a = QStringLiteral("a");
        const std::vector<int> bertUnk{101, 100, 102};
        // "aa", 48 "##aa", "##a"; one more letter makes the word [UNK] (100).
        QTest::newRow("bert: 100 letters")
            << bert << a.repeated(100)
            << runs({{101, 1}, {13360, 1}, {11057, 48}, {2050, 1}, {102, 1}}) << -1;
        QTest::newRow("bert: 101 letters") << bert << a.repeated(101) << bertUnk << 101;
        // Accents are stripped before the word is measured: "e" + U+0301 is one character. The
        // library's [UNK] ends before the last mark, as its last piece does at 100.
        const QString eAcute = QStringLiteral("\u00e9");
        const QString eCombining = QStringLiteral("e\u0301");
        const std::vector<int> hundredEs = runs({{101, 1}, {25212, 1}, {4402, 49}, {102, 1}});
        QTest::newRow("bert: 100 e-acute") << bert << eAcute.repeated(100) << hundredEs << -1;
        QTest::newRow("bert: 101 e-acute") << bert << eAcute.repeated(101) << bertUnk << 101;
        QTest::newRow("bert: 100 e + U+0301")
            << bert << eCombining.repeated(100) << hundredEs << -1;
        QTest::newRow("bert: 101 e + U+0301") << bert << eCombining.repeated(101) << bertUnk << 201;
        // The longest piece (18 characters) is found whole, and one letter more after it.
        QTest::newRow("bert: the longest piece") << bert << QStringLiteral("telecommunications")
                                                 << std::vector<int>{101, 12108, 102} << -1;
        QTest::newRow("bert: the longest piece + 1")
            << bert << QStringLiteral("telecommunicationss")
            << std::vector<int>{101, 12108, 2015, 102} << -1;
        const QString variants = QStringLiteral("wordpiece-variants");
        QTest::newRow("variants: 12 letters")
            << variants << a.repeated(12) << runs({{167, 1}, {1093, 1}, {2106, 11}, {168, 1}})
            << -1;
        QTest::newRow("variants: 13 letters")
            << variants << a.repeated(13) << std::vector<int>{167, 166, 168} << 13;
        // U+1D518 is one character in two UTF-16 units.
        const QString astral = QStringLiteral("astral");
        const QString fraktur = QStringLiteral("\U0001D518");
        QTest::newRow("astral: 3 characters, 6 units")
            << astral << fraktur.repeated(3) << std::vector<int>{1, 2, 2} << -1;
        QTest::newRow("astral: 4 characters")
            << astral << fraktur.repeated(4) << std::vector<int>{0} << 8;
        QTest::newRow("astral: a, U+1D518, a")
            << astral << a + fraktur + a << std::vector<int>{3, 2, 4} << -1;
        QTest::newRow("astral: 4 mixed")
            << astral << a + fraktur + a + fraktur << std::vector<int>{0} << 6;
        QTest::newRow("astral: 3 letters")
            << astral << a.repeated(3) << std::vector<int>{3, 4, 4} << -1;
        QTest::newRow("astral: 4 letters") << astral << a.repeated(4) << std::vector<int>{0} << 4;
    }

    void wordPieceWordLength()
    {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(std::vector<int>, ids);
        QFETCH(int, unkEnd);
        const auto hf = name == u"astral" ? HfTokenizer::fromTokenizerJson(astralWordPiece(),
                                                                           QStringLiteral("x.json"))
                                          : tokenizer(name);
        const std::vector<Token> tokens = hf->encode(text);
        QCOMPARE(idsOf(tokens), ids);
        const int unk = *hf->idOf(QStringLiteral("[UNK]"));
        const auto found = std::find_if(tokens.begin(), tokens.end(),
                                        [unk](const Token& t) { return t.id == unk; });
        QCOMPARE(found == tokens.end() ? -1 : int(found->begin + found->length), unkEnd);
        if (found != tokens.end())
            QCOMPARE(found->begin, qsizetype(0));
    }

    // Words shorter than 256 UTF-16 units are cached (the library: 256 bytes); a word seen
    // again, either side of that length, gives what it gave the first time.
    void bpeCacheBoundary_data()
    {
        QTest::addColumn<int>("length");
        QTest::addColumn<std::vector<int>>("ids");
        // "x", then "ab" (397) repeated, ending in "aba" (15498) when the length is even; the
        // second copy of the word, after "." (13), gives the same.
        QTest::newRow("255") << 255 << runs({{87, 1}, {397, 127}, {13, 1}, {87, 1}, {397, 127}});
        QTest::newRow("256")
            << 256
            << runs({{87, 1}, {397, 126}, {15498, 1}, {13, 1}, {87, 1}, {397, 126}, {15498, 1}});
        QTest::newRow("257") << 257 << runs({{87, 1}, {397, 128}, {13, 1}, {87, 1}, {397, 128}});
    }

    void bpeCacheBoundary()
    {
        QFETCH(int, length);
        QFETCH(std::vector<int>, ids);
        const QString word =
            (QStringLiteral("x") + QStringLiteral("ab").repeated(length)).left(length);
        QCOMPARE(idsOf(tokenizer(QStringLiteral("gpt2"))->encode(word + u'.' + word)), ids);
    }

    // An added token is matched whole or not at all, the longest one where two begin alike.
    void addedTokenBoundaries_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("text");
        QTest::addColumn<std::vector<int>>("ids");
        const QString gpt2 = QStringLiteral("gpt2");
        QTest::newRow("gpt2: one short") << gpt2 << QStringLiteral("<|endoftext|")
                                         << std::vector<int>{27, 91, 437, 1659, 5239, 91};
        QTest::newRow("gpt2: exactly")
            << gpt2 << QStringLiteral("<|endoftext|>") << std::vector<int>{50256};
        QTest::newRow("gpt2: one past")
            << gpt2 << QStringLiteral("<|endoftext|>>") << std::vector<int>{50256, 29};
        QTest::newRow("gpt2: twice") << gpt2 << QStringLiteral("a<|endoftext|><|endoftext|>")
                                     << std::vector<int>{64, 50256, 50256};
        // <s> is 5, <s><s> 6 and abca 7 (normalized); "<" and "s" are not in the vocabulary
        // and there is no unknown token, so they are dropped.
        const QString small = QStringLiteral("small");
        QTest::newRow("<s one short") << small << QStringLiteral("<s") << std::vector<int>{};
        QTest::newRow("<s>") << small << QStringLiteral("<s>") << std::vector<int>{5};
        QTest::newRow("<s><s one short") << small << QStringLiteral("<s><s") << std::vector<int>{5};
        QTest::newRow("<s><s> exactly") << small << QStringLiteral("<s><s>") << std::vector<int>{6};
        QTest::newRow("<s><s><s> one past")
            << small << QStringLiteral("<s><s><s>") << std::vector<int>{6, 5};
        QTest::newRow("abc") << small << QStringLiteral("abc") << std::vector<int>{4};
        QTest::newRow("abca exactly") << small << QStringLiteral("abca") << std::vector<int>{7};
        QTest::newRow("abcab one past")
            << small << QStringLiteral("abcab") << std::vector<int>{7, 1};
        QTest::newRow("abcabca") << small << QStringLiteral("abcabca")
                                 << std::vector<int>{7, 1, 3, 0};
    }

    void addedTokenBoundaries()
    {
        QFETCH(QString, name);
        QFETCH(QString, text);
        QFETCH(std::vector<int>, ids);
        const auto hf = name == u"small" ? HfTokenizer::fromTokenizerJson(smallBpeWithAddedTokens(),
                                                                          QStringLiteral("x.json"))
                                         : tokenizer(name);
        QCOMPARE(idsOf(hf->encode(text)), ids);
    }

    // The library takes any id up to 4294967295 (u32); ids here are ints, so the largest is
    // 2147483646 (its size, largest + 1, must fit too): that one works as the library's does,
    // the next is refused by name.
    void vocabularyIdLimit()
    {
        const auto withC = [](int id) {
            QJsonObject root = smallBpe();
            QJsonObject model = root.value(QStringLiteral("model")).toObject();
            QJsonObject vocab = model.value(QStringLiteral("vocab")).toObject();
            vocab.insert(QStringLiteral("c"), id);
            model.insert(QStringLiteral("vocab"), vocab);
            root.insert(QStringLiteral("model"), model);
            return QJsonDocument(root).toJson();
        };
        const auto hf = HfTokenizer::fromTokenizerJson(withC(2147483646), QStringLiteral("x.json"));
        QCOMPARE(idsOf(hf->encode(QStringLiteral("abc c b <s>"))),
                 (std::vector<int>{4, 2147483646, 1, 5}));
        QCOMPARE(hf->decode({2147483646, 1}, false), QStringLiteral("c b"));
        QCOMPARE(
            errorOf([&] {
                HfTokenizer::fromTokenizerJson(withC(2147483647), QStringLiteral("x.json"));
            }),
            QStringLiteral(
                "x.json: model.vocab[\"c\"]: expected a non-negative integer below 2147483647, "
                "found 2147483647"));
    }

    // The last id decodes to its piece; the first past the vocabulary is skipped, as the
    // library's decode skips ids it has no token for.
    void vocabularyEnd_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("size");
        QTest::addColumn<QString>("last");
        QTest::addColumn<QString>("around");
        QTest::newRow("gpt2") << "gpt2" << 50257 << "<|endoftext|>"
                              << " gazed<|endoftext|>";
        QTest::newRow("bert") << "bert-base-uncased" << 30522 << "##\uff5e"
                              << "##\uff1f\uff5e";
        QTest::newRow("llama2") << "llama2" << 3618 << "\u0327"
                                << "\u0c82\u0327";
    }

    void vocabularyEnd()
    {
        QFETCH(QString, name);
        QFETCH(int, size);
        QFETCH(QString, last);
        QFETCH(QString, around);
        const auto hf = tokenizer(name);
        QCOMPARE(hf->vocabSize(), size);
        QCOMPARE(hf->decode({size - 1}, false), last);
        QCOMPARE(hf->decode({size}, false), QString());
        QCOMPARE(hf->decode({size - 2, size, size - 1}, false), around);
    }

    // The token limit (16,384, ours: the library has none) counts the post-processor's tokens:
    // a text of exactly that many tokens gives the library's ids, one token more is refused.
    void tokenLimitBoundary_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("unit");
        QTest::addColumn<int>("count");
        QTest::addColumn<std::vector<int>>("ids");
        const QString cat = QStringLiteral("cat ");
        const QString x = QStringLiteral("x");
        QTest::newRow("gpt2") << "gpt2" << cat << 16384 << runs({{9246, 1}, {3797, 16383}});
        QTest::newRow("bert") << "bert-base-uncased" << cat << 16382
                              << runs({{101, 1}, {4937, 16382}, {102, 1}});
        QTest::newRow("llama2") << "llama2" << cat << 16383 << runs({{1, 1}, {3089, 16383}});
        QTest::newRow("llama3") << "llama3" << cat << 16383
                                << runs({{4211, 1}, {3176, 1}, {3380, 16382}});
        QTest::newRow("qwen2") << "qwen2" << cat << 16383
                               << runs({{66, 1}, {266, 1}, {3078, 16382}});
        QTest::newRow("roberta-style")
            << "roberta-style" << cat << 16382 << runs({{3198, 1}, {3017, 16382}, {3200, 1}});
        QTest::newRow("wordpiece-variants")
            << "wordpiece-variants" << cat << 16382 << runs({{167, 1}, {3002, 16382}, {168, 1}});
        QTest::newRow("bpe-variants")
            << "bpe-variants" << QStringLiteral("x ") << 16384 << runs({{176, 16384}});
        QTest::newRow("mistral-metaspace")
            << "mistral-metaspace" << cat << 16383 << runs({{1, 1}, {3089, 16383}});
        QTest::newRow("metaspace-split")
            << "metaspace-split" << cat << 16383 << runs({{1, 1}, {3089, 16383}});
        // One word: the early refusal (a lower bound on a word's tokens) must not refuse it.
        QTest::newRow("gpt2, one word") << "gpt2" << x << 131072 << runs({{24223, 16384}});
        QTest::newRow("llama2, one word")
            << "llama2" << x << 16383 << runs({{1, 1}, {1318, 1}, {3375, 16382}});
        QTest::newRow("llama3, one word")
            << "llama3" << x << 16383 << runs({{4211, 1}, {87, 16383}});
        QTest::newRow("mistral-metaspace, one word")
            << "mistral-metaspace" << x << 16383 << runs({{1, 1}, {1318, 1}, {3375, 16382}});
        QTest::newRow("bpe-variants, one word")
            << "bpe-variants" << x << 16384 << runs({{175, 16383}, {176, 1}});
    }

    void tokenLimitBoundary()
    {
        QFETCH(QString, name);
        QFETCH(QString, unit);
        QFETCH(int, count);
        QFETCH(std::vector<int>, ids);
        QCOMPARE(kMaxTokens, 16384);
        const auto hf = tokenizer(name);
        // "cat cat ... cat": no space at the end, where byte-level BPE would make it a token.
        const auto text = [&](int n) {
            QString s = unit.repeated(n);
            if (s.endsWith(u' '))
                s.chop(1);
            return s;
        };
        std::vector<Token> tokens;
        const QString error = errorOf([&] { tokens = hf->encode(text(count)); });
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(idsOf(tokens), ids);
        QCOMPARE(errorOf([&] { hf->encode(text(count + 1)); }),
                 QStringLiteral("the text has more than 16384 tokens; the limit is 16384"));
    }

    void longTextCompletes_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* name :
             {"gpt2", "bert-base-uncased", "llama2", "llama3", "qwen2", "mistral-metaspace"})
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void longTextCompletes()
    {
        // 100,000 characters of mixed text (speed sanity: no timing is asserted).
        QFETCH(QString, name);
        QString text;
        const QJsonArray texts = expected().value(QStringLiteral("texts")).toArray();
        for (int i = 0; text.size() < 100'000; ++i)
            text += texts.at(i % texts.size()).toString() + u' ';
        text.truncate(100'000);
        const std::vector<Token> tokens = tokenizer(name)->encode(text, true, 1'000'000);
        QVERIFY(tokens.size() > 10'000);
        for (const Token& token : tokens)
            QVERIFY(token.begin >= -1 && token.begin + token.length <= text.size());
    }
};

QTEST_GUILESS_MAIN(TestHfTokenizer)
#include "tst_hf_tokenizer.moc"
