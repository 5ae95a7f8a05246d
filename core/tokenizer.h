#pragma once

#include <QString>
#include <utility>
#include <vector>

namespace attn::core {

enum class TokenizerMode {
    Word,       // Unicode word boundaries; punctuation split off; unspaced scripts per character
    Character,  // one token per grapheme cluster (spaces dropped)
    Whitespace, // split on white space only
};

enum class SpecialTokens {
    None,
    Bert,     // [CLS] ... [SEP]
    Sentence, // <s> ... </s>
};

struct TokenizerSettings
{
    TokenizerMode mode = TokenizerMode::Word;
    bool lowercase = false;
    SpecialTokens special = SpecialTokens::None;

    bool operator==(const TokenizerSettings&) const = default;
};

struct Token
{
    Token() = default;
    Token(QString text_, qsizetype begin_, qsizetype length_, bool special_ = false)
        : text(std::move(text_)), begin(begin_), length(length_), special(special_)
    {
    }

    QString text; // what a reader sees: for a model's token, the text it stands for (" cat")
    qsizetype begin = -1; // offset in the source text, -1 for added special tokens
    qsizetype length = 0;
    bool special = false; // [CLS], [SEP], [PAD], [MASK], <s>, </s>, <pad>, ...
    int id = -1;          // a model tokenizer's vocabulary id; -1 for the explorer's own tokens
    QString piece;        // the vocabulary entry as stored ("Ġcat", "▁cat", "<0xE3>", "##s")

    bool operator==(const Token&) const = default;
};

// Splits text into tokens. Throws attn::core::Error when the text has more than maxTokens
// tokens; it stops counting there, so a huge paste costs no more than maxTokens tokens.
// The last few sentences are kept, so the places that ask for the same sentence after one
// edit share one run. Thread-safe.
std::vector<Token> tokenize(const QString& text, const TokenizerSettings& settings, int maxTokens);

} // namespace attn::core
