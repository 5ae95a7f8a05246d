#include "core/error.h"
#include "core/token_display.h"
#include "core/tokenizer.h"

#include <QElapsedTimer>
#include <QStringList>
#include <QTest>

using namespace attn::core;

Q_DECLARE_METATYPE(attn::core::TokenizerMode)
Q_DECLARE_METATYPE(attn::core::SpecialTokens)

namespace {

constexpr int kLimit = 16384;

QStringList texts(const std::vector<Token>& tokens)
{
    QStringList result;
    for (const Token& token : tokens)
        result << token.text;
    return result;
}

std::vector<Token> tokenizeWith(const QString& text, TokenizerMode mode, bool lowercase = false,
                                SpecialTokens special = SpecialTokens::None, int limit = kLimit)
{
    TokenizerSettings settings;
    settings.mode = mode;
    settings.lowercase = lowercase;
    settings.special = special;
    return tokenize(text, settings, limit);
}

QStringList split(const char* spaced)
{
    return QString::fromUtf8(spaced).split(u' ', Qt::SkipEmptyParts);
}

// The cat-and-mouse sentence of seed 001 in its twelve languages.
const char* const kSeedSentences[] = {
    "Il gatto nero ha mangiato il topo.",
    "Die schwarze Katze hat die Maus gefressen.",
    "Le chat noir a mangé la souris.",
    "El gato negro se comió el ratón.",
    "黒い猫がネズミを食べました。",
    "검은 고양이가 쥐를 먹었습니다.",
    "काली बिल्ली ने माउस को खाया।",
    "काळी मांजराने माउस खाला.",
    "ಕಪ್ಪು ಬೆಕ್ಕು ಎಲೆಹಿರುಳು ತಿಂದಿತು.",
    "കരിമനുഷ്യൻ ചൂണ്ടു കളിച്ചു.",
    "કાળી બિલાડી માઉસ ખાયું.",
    "கருப்பு பூனை செல்லி சாப்பிட்டது.",
};

} // namespace

class TestTokenizer : public QObject
{
    Q_OBJECT

private slots:
    void wordMode_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("expected");

        QTest::newRow("seed 001") << "This is a cat." << split("This is a cat .");
        QTest::newRow("Italian") << QString::fromUtf8(kSeedSentences[0])
                                 << split("Il gatto nero ha mangiato il topo .");
        QTest::newRow("German") << QString::fromUtf8(kSeedSentences[1])
                                << split("Die schwarze Katze hat die Maus gefressen .");
        QTest::newRow("French") << QString::fromUtf8(kSeedSentences[2])
                                << split("Le chat noir a mangé la souris .");
        QTest::newRow("Spanish") << QString::fromUtf8(kSeedSentences[3])
                                 << split("El gato negro se comió el ratón .");
        // Japanese has no spaces: one token per character, Katakana runs included.
        QTest::newRow("Japanese") << QString::fromUtf8(kSeedSentences[4])
                                  << split("黒 い 猫 が ネ ズ ミ を 食 べ ま し た 。");
        // Korean is written with spaces: words stay whole.
        QTest::newRow("Korean") << QString::fromUtf8(kSeedSentences[5])
                                << split("검은 고양이가 쥐를 먹었습니다 .");
        QTest::newRow("Hindi") << QString::fromUtf8(kSeedSentences[6])
                               << split("काली बिल्ली ने माउस को खाया ।");
        QTest::newRow("Marathi") << QString::fromUtf8(kSeedSentences[7])
                                 << split("काळी मांजराने माउस खाला .");
        QTest::newRow("Kannada") << QString::fromUtf8(kSeedSentences[8])
                                 << split("ಕಪ್ಪು ಬೆಕ್ಕು ಎಲೆಹಿರುಳು ತಿಂದಿತು .");
        QTest::newRow("Malayalam")
            << QString::fromUtf8(kSeedSentences[9]) << split("കരിമനുഷ്യൻ ചൂണ്ടു കളിച്ചു .");
        QTest::newRow("Gujarati") << QString::fromUtf8(kSeedSentences[10])
                                  << split("કાળી બિલાડી માઉસ ખાયું .");
        QTest::newRow("Tamil") << QString::fromUtf8(kSeedSentences[11])
                               << split("கருப்பு பூனை செல்லி சாப்பிட்டது .");
        QTest::newRow("Chinese") << QString::fromUtf8("我爱你。") << split("我 爱 你 。");
        // Thai vowel signs stay on their consonant (grapheme clusters).
        QTest::newRow("Thai") << QString::fromUtf8("ฉันกินข้าว") << split("ฉั น กิ น ข้ า ว");
        QTest::newRow("mixed scripts")
            << QString::fromUtf8("I like 寿司!") << split("I like 寿 司 !");
        QTest::newRow("apostrophe") << "Don't stop." << split("Don't stop .");
        QTest::newRow("number") << "pi is 3.14" << split("pi is 3.14");
        QTest::newRow("punctuation run") << "Wait... what?!" << split("Wait . . . what ? !");
        QTest::newRow("white space") << " \t a \n\n b  " << split("a b");
        QTest::newRow("decomposed accent")
            << QString::fromUtf8("cafe\u0301 au lait")
            << QStringList{QString::fromUtf8("cafe\u0301"), "au", "lait"};
    }

    void wordMode()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, expected);
        QCOMPARE(texts(tokenizeWith(text, TokenizerMode::Word)), expected);
    }

    // Every token is its span of the source, and joining the tokens gives the sentence
    // without its spaces: nothing dropped, no combining mark split off.
    void seedSentencesKeepEveryCharacter_data()
    {
        QTest::addColumn<QString>("text");
        for (const char* sentence : kSeedSentences)
            QTest::newRow(sentence) << QString::fromUtf8(sentence);
    }

    void seedSentencesKeepEveryCharacter()
    {
        QFETCH(QString, text);
        const std::vector<Token> tokens = tokenizeWith(text, TokenizerMode::Word);
        QVERIFY(tokens.size() >= 4);
        QString joined;
        for (const Token& token : tokens) {
            QCOMPARE(text.mid(token.begin, token.length), token.text);
            QVERIFY(!token.special);
            QVERIFY2(!token.text.front().isMark(), qPrintable(token.text));
            joined += token.text;
        }
        QString withoutSpaces = text;
        withoutSpaces.remove(u' ');
        QCOMPARE(joined, withoutSpaces);
    }

    void offsets()
    {
        const std::vector<Token> tokens = tokenizeWith("This is a cat.", TokenizerMode::Word);
        QCOMPARE(tokens.size(), std::size_t(5));
        const qsizetype begins[] = {0, 5, 8, 10, 13};
        const qsizetype lengths[] = {4, 2, 1, 3, 1};
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            QCOMPARE(tokens[i].begin, begins[i]);
            QCOMPARE(tokens[i].length, lengths[i]);
            QVERIFY(!tokens[i].special);
        }
    }

    void addedSpecialTokens_data()
    {
        QTest::addColumn<int>("special");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("none") << int(SpecialTokens::None) << split("This is a cat .");
        QTest::newRow("bert") << int(SpecialTokens::Bert) << split("[CLS] This is a cat . [SEP]");
        QTest::newRow("sentence") << int(SpecialTokens::Sentence)
                                  << split("<s> This is a cat . </s>");
    }

    void addedSpecialTokens()
    {
        QFETCH(int, special);
        QFETCH(QStringList, expected);
        const std::vector<Token> tokens =
            tokenizeWith("This is a cat.", TokenizerMode::Word, false, SpecialTokens(special));
        QCOMPARE(texts(tokens), expected);
        if (SpecialTokens(special) != SpecialTokens::None) {
            for (const Token& added : {tokens.front(), tokens.back()}) {
                QVERIFY(added.special);
                QCOMPARE(added.begin, qsizetype(-1));
                QCOMPARE(added.length, qsizetype(0));
            }
            QCOMPARE(tokens[1].begin, qsizetype(0)); // "This" keeps its offset
        }
    }

    void literalSpecialTokens_data()
    {
        QTest::addColumn<int>("mode");
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("expected");
        QTest::addColumn<QList<bool>>("special");

        const int word = int(TokenizerMode::Word);
        QTest::newRow("padding") << word << "the cat [PAD] [PAD]" << split("the cat [PAD] [PAD]")
                                 << QList<bool>{false, false, true, true};
        QTest::newRow("mask inside text")
            << word << "a [MASK]ed word." << split("a [MASK] ed word .")
            << QList<bool>{false, true, false, false, false};
        QTest::newRow("sentence markers") << word << "<s>hi</s><pad>" << split("<s> hi </s> <pad>")
                                          << QList<bool>{true, false, true, true};
        QTest::newRow("not special")
            << word << "[cls] <S>" << split("[ cls ] < s >") << QList<bool>(6, false);
        QTest::newRow("character mode")
            << int(TokenizerMode::Character) << "[CLS]ab<unk>" << split("[CLS] a b <unk>")
            << QList<bool>{true, false, false, true};
        QTest::newRow("whitespace mode")
            << int(TokenizerMode::Whitespace) << "[UNK] x [SEP]" << split("[UNK] x [SEP]")
            << QList<bool>{true, false, true};
    }

    void literalSpecialTokens()
    {
        QFETCH(int, mode);
        QFETCH(QString, text);
        QFETCH(QStringList, expected);
        QFETCH(QList<bool>, special);
        const std::vector<Token> tokens = tokenizeWith(text, TokenizerMode(mode), true);
        QCOMPARE(texts(tokens), expected);
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            QCOMPARE(tokens[i].special, special[qsizetype(i)]);
            // Lowercase is on, but special tokens keep their spelling.
            const QString span = text.mid(tokens[i].begin, tokens[i].length);
            QCOMPARE(tokens[i].text, tokens[i].special ? span : span.toLower());
        }
    }

    // Every view shows a token through tokenDisplayText: what would draw as a box or as
    // nothing is written as its UTF-8 bytes; what a font draws stays as it is.
    void displayTextShowsInvisibleCharactersAsBytes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("shown");
        QTest::newRow("word") << QStringLiteral("cat") << QStringLiteral("cat");
        QTest::newRow("space kept") << QStringLiteral(" cat") << QStringLiteral(" cat");
        QTest::newRow("accented") << QStringLiteral("mangé") << QStringLiteral("mangé");
        QTest::newRow("newline") << QStringLiteral("\n") << QStringLiteral("<0x0A>");
        QTest::newRow("tab inside") << QStringLiteral("a\tb") << QStringLiteral("a<0x09>b");
        QTest::newRow("NUL") << QString(QChar(0)) << QStringLiteral("<0x00>");
        QTest::newRow("DEL") << QStringLiteral("\x7f") << QStringLiteral("<0x7F>");
        QTest::newRow("C1 control U+0085")
            << QString(QChar(0x85)) << QStringLiteral("<0xC2><0x85>");
        QTest::newRow("zero-width space")
            << QString(QChar(0x200B)) << QStringLiteral("<0xE2><0x80><0x8B>");
        QTest::newRow("private use U+E000")
            << QString(QChar(0xE000)) << QStringLiteral("<0xEE><0x80><0x80>");
        QTest::newRow("joiner alone")
            << QString(QChar(0x200D)) << QStringLiteral("<0xE2><0x80><0x8D>");
        // 👩 ZWJ 💻 ("woman technologist"): the joiner between two emoji is part of the glyph.
        const QString technologist =
            QString::fromUtf8("\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB");
        QTest::newRow("joiner in an emoji") << technologist << technologist;
        QTest::newRow("already shown") << QStringLiteral("<0x0A>") << QStringLiteral("<0x0A>");
    }

    void displayTextShowsInvisibleCharactersAsBytes()
    {
        QFETCH(QString, text);
        QFETCH(QString, shown);
        QCOMPARE(tokenDisplayText(text), shown);
    }

    void lowercase()
    {
        const std::vector<Token> tokens =
            tokenizeWith(QString::fromUtf8("[CLS] The ÉCOLE Cat"), TokenizerMode::Word, true);
        QCOMPARE(texts(tokens), split("[CLS] the école cat"));
        QCOMPARE(tokens[2].length, qsizetype(5)); // span of the original "ÉCOLE"
        QCOMPARE(texts(tokenizeWith("The CAT", TokenizerMode::Word, false)), split("The CAT"));
    }

    void characterMode_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("expected");
        QTest::newRow("ascii") << "a cat." << split("a c a t .");
        QTest::newRow("decomposed accent")
            << QString::fromUtf8("e\u0301 x") << QStringList{QString::fromUtf8("e\u0301"), "x"};
        QTest::newRow("Japanese") << QString::fromUtf8("猫が") << split("猫 が");
        QTest::newRow("emoji") << QString::fromUtf8("👍🏽 👨‍👩‍👧")
                               << split("👍🏽 👨‍👩‍👧");
        QTest::newRow("Hindi vowel signs") << QString::fromUtf8("काली") << split("का ली");
    }

    void characterMode()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, expected);
        QCOMPARE(texts(tokenizeWith(text, TokenizerMode::Character)), expected);
    }

    void whitespaceMode()
    {
        const std::vector<Token> tokens =
            tokenizeWith("This is\ta  cat.\n", TokenizerMode::Whitespace);
        QCOMPARE(texts(tokens), split("This is a cat."));
        QCOMPARE(tokens[3].begin, qsizetype(11));
        QCOMPARE(tokens[3].length, qsizetype(4));
        QCOMPARE(texts(tokenizeWith(QString::fromUtf8("黒い猫"), TokenizerMode::Whitespace)),
                 split("黒い猫"));
    }

    void emptyText_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QString();
        QTest::newRow("spaces") << " \t\n  ";
    }

    void emptyText()
    {
        QFETCH(QString, text);
        for (const TokenizerMode mode :
             {TokenizerMode::Word, TokenizerMode::Character, TokenizerMode::Whitespace})
            QVERIFY(tokenizeWith(text, mode, false, SpecialTokens::Bert).empty());
    }

    void limitCountsAddedSpecials()
    {
        QCOMPARE(tokenizeWith("a b c", TokenizerMode::Word, false, SpecialTokens::None, 3).size(),
                 std::size_t(3));
        QCOMPARE(tokenizeWith("a b c", TokenizerMode::Word, false, SpecialTokens::Bert, 5).size(),
                 std::size_t(5));
        try {
            tokenizeWith("a b c", TokenizerMode::Word, false, SpecialTokens::Bert, 4);
            QFAIL("expected an error");
        } catch (const Error& error) {
            QCOMPARE(QString::fromUtf8(error.what()),
                     "the text has more than 4 tokens; the limit is 4");
        }
        QVERIFY_THROWS_EXCEPTION(Error, tokenizeWith("a b c d", TokenizerMode::Whitespace, false,
                                                     SpecialTokens::None, 3));
        QVERIFY_THROWS_EXCEPTION(
            Error, tokenizeWith("abcd", TokenizerMode::Character, false, SpecialTokens::None, 3));
    }

    // The limit (16,384 tokens, the added [CLS]/[SEP] or <s>/</s> included) in each mode:
    // a text of exactly that many tokens is kept whole, one token more is refused.
    void limitAtAndOnePast_data()
    {
        QTest::addColumn<QString>("unit");
        QTest::addColumn<int>("count");
        QTest::addColumn<TokenizerMode>("mode");
        QTest::addColumn<SpecialTokens>("special");
        QTest::addColumn<QString>("last");
        QTest::newRow("word") << "a " << 16384 << TokenizerMode::Word << SpecialTokens::None << "a";
        QTest::newRow("word, [CLS] [SEP]")
            << "a " << 16382 << TokenizerMode::Word << SpecialTokens::Bert << "[SEP]";
        QTest::newRow("literal [MASK]")
            << "[MASK]" << 16384 << TokenizerMode::Word << SpecialTokens::None << "[MASK]";
        QTest::newRow("character")
            << "a" << 16384 << TokenizerMode::Character << SpecialTokens::None << "a";
        QTest::newRow("white space, <s> </s>")
            << "a\t" << 16382 << TokenizerMode::Whitespace << SpecialTokens::Sentence << "</s>";
        QTest::newRow("unspaced Han")
            << "\u732b" << 16384 << TokenizerMode::Word << SpecialTokens::None << "\u732b";
    }

    void limitAtAndOnePast()
    {
        QFETCH(QString, unit);
        QFETCH(int, count);
        QFETCH(TokenizerMode, mode);
        QFETCH(SpecialTokens, special);
        QFETCH(QString, last);
        const std::vector<Token> tokens = tokenizeWith(unit.repeated(count), mode, false, special);
        QCOMPARE(tokens.size(), std::size_t(kLimit));
        QCOMPARE(tokens.back().text, last);
        try {
            tokenizeWith(unit.repeated(count + 1), mode, false, special);
            QFAIL("expected an error");
        } catch (const Error& error) {
            QCOMPARE(QString::fromUtf8(error.what()),
                     "the text has more than 16384 tokens; the limit is 16384");
        }
    }

    // The text is scanned in chunks of 8192 UTF-16 units cut at white space: a word, a
    // literal special token or a letter with its mark across unit 8192 stays whole.
    void chunkBoundaryKeepsTokensWhole_data()
    {
        QTest::addColumn<QString>("word");
        QTest::newRow("word") << "abcdefghij";
        QTest::newRow("[MASK]") << "[MASK]";
        QTest::newRow("letter and mark") << "e\u0301\u0301\u0301";
    }

    void chunkBoundaryKeepsTokensWhole()
    {
        QFETCH(QString, word);
        // "a " 4095 times is 8190 units: the word begins 2 units before the chunk's end.
        const QString text = QStringLiteral("a ").repeated(4095) + word + QStringLiteral(" b");
        const std::vector<Token> tokens = tokenizeWith(text, TokenizerMode::Word);
        QCOMPARE(tokens.size(), std::size_t(4097));
        QCOMPARE(tokens[4095].text, word);
        QCOMPARE(tokens[4095].begin, qsizetype(8190));
        QCOMPARE(tokens[4096].text, QStringLiteral("b"));
    }

    // A pasted book must fail fast: scanning stops at the limit.
    void limitStopsEarly_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("spaced words") << QString("a ").repeated(1000000);
        QTest::newRow("unspaced Han") << QString::fromUtf8("猫").repeated(1000000);
    }

    void limitStopsEarly()
    {
        QFETCH(QString, text);
        QElapsedTimer timer;
        timer.start();
        QVERIFY_THROWS_EXCEPTION(Error, tokenizeWith(text, TokenizerMode::Word));
        QVERIFY2(timer.elapsed() < 2000, qPrintable(QString::number(timer.elapsed()) + " ms"));
    }

    // The text is segmented in chunks; tokens across many chunks keep exact offsets.
    void longTextKeepsOffsets()
    {
        const QString text = QString("word, [SEP] ").repeated(3000);
        const std::vector<Token> tokens = tokenizeWith(text, TokenizerMode::Word);
        QCOMPARE(tokens.size(), std::size_t(9000));
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            QCOMPARE(text.mid(tokens[i].begin, tokens[i].length), tokens[i].text);
            QCOMPARE(tokens[i].special, i % 3 == 2);
        }
        QCOMPARE(tokens.back().begin, text.size() - 6);
    }

    // The last few sentences are kept: asked again, in any order and past the number kept,
    // each sentence and setting gives its own tokens; an over-limit text throws every time.
    void repeatedSentencesKeepTheirTokens()
    {
        for (int round = 0; round < 3; ++round) {
            QCOMPARE(texts(tokenizeWith("The Cat", TokenizerMode::Word)), split("The Cat"));
            QCOMPARE(texts(tokenizeWith("The Cat", TokenizerMode::Word, true)), split("the cat"));
            QCOMPARE(
                texts(tokenizeWith("The Cat", TokenizerMode::Word, false, SpecialTokens::Bert)),
                split("[CLS] The Cat [SEP]"));
            QCOMPARE(texts(tokenizeWith("The Cat", TokenizerMode::Character)),
                     split("T h e C a t"));
            QCOMPARE(texts(tokenizeWith("a-b c", TokenizerMode::Whitespace)), split("a-b c"));
            QCOMPARE(texts(tokenizeWith("a-b c", TokenizerMode::Word)), split("a - b c"));
            QCOMPARE(
                texts(tokenizeWith("The Cat", TokenizerMode::Word, false, SpecialTokens::None, 2)),
                split("The Cat"));
            QVERIFY_THROWS_EXCEPTION(
                Error, tokenizeWith("The Cat", TokenizerMode::Word, false, SpecialTokens::None, 1));
        }
    }
};

QTEST_APPLESS_MAIN(TestTokenizer)
#include "tst_tokenizer.moc"
