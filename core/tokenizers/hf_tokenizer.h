#pragma once

#include "core/limits.h"
#include "core/tokenizer.h"

#include <QByteArray>
#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace attn::core {

namespace hf {
class AddedVocabulary;
class Decoder;
class Model;
class Normalizer;
class PostProcessor;
class PreTokenizer;
} // namespace hf

// A Hugging Face tokenizer that encodes text token for token as the Rust `tokenizers` library
// does on the same files: added tokens, normalizer, pre-tokenizer, BPE, WordPiece or Unigram model,
// post-processor and decoder, as tokenizer.json describes them, or as transformers builds
// them from the older vocab.json + merges.txt (GPT-2), vocab.txt (BERT) and Marian's
// source.spm + vocab.json files.
//
// Offsets are UTF-16 code units of the QString given to encode(); an emoji outside the BMP is
// two units wide, where the library counts one character. Immutable once built, so one
// instance can serve several threads.
class HfTokenizer
{
public:
    // From a model folder: tokenizer.json if present; else vocab.json + merges.txt (GPT-2 style
    // byte-level BPE; add_prefix_space and add_bos_token from tokenizer_config.json); else
    // source.spm + vocab.json (Marian: the pieces of source.spm by their vocab.json ids, then
    // </s>; target.spm is not read, as decoding needs only the pieces); else
    // vocab.txt (BERT WordPiece; do_lower_case (default true), strip_accents and
    // tokenize_chinese_chars from tokenizer_config.json). tokenizer_config.json and
    // special_tokens_map.json may name the special tokens (bos_token, unk_token, mask_token,
    // ...). Throws Error naming the file when nothing usable is there or a file is malformed
    // ("tokenizer.json: model.merges[12]: ...").
    static std::shared_ptr<const HfTokenizer> load(const QString& folder);
    static std::shared_ptr<const HfTokenizer> fromTokenizerJson(const QByteArray& json,
                                                                const QString& nameForMessages);

    ~HfTokenizer();
    HfTokenizer(const HfTokenizer&) = delete;
    HfTokenizer& operator=(const HfTokenizer&) = delete;

    // The tokens of `text`, with the post-processor's special tokens when addSpecialTokens
    // (BERT: [CLS] ... [SEP]; Llama: <s> ...), which have begin -1 and length 0. Token::text is
    // displayText(id), Token::piece the vocabulary entry, Token::special is set for added
    // tokens marked special and for the post-processor's tokens. Throws Error when the result
    // would pass maxTokens tokens; it stops as soon as that is certain, so a huge paste costs
    // one pass over the text and about maxTokens tokens of model work.
    std::vector<Token> encode(const QString& text, bool addSpecialTokens = true,
                              int maxTokens = kMaxTokens) const;

    int vocabSize() const; // largest id + 1, added tokens included
    std::optional<int> idOf(const QString& piece) const;
    QString pieceOf(int id) const; // the vocabulary entry as stored ("Ġcat"); empty if none
    // What a reader sees for the token on its own: byte-level pieces decoded from their bytes
    // ("Ġcat" -> " cat"), with bytes that are only part of a UTF-8 character shown as "<0xE3>";
    // SentencePiece's "▁" as a space, its <0x41>-style byte tokens as the ASCII character
    // (others stay "<0xE3>"); WordPiece continuations without their prefix ("##s" -> "s", the
    // piece keeps the "##"); added tokens as written ("[CLS]", "<|endoftext|>"). Then, as
    // tokenDisplayText writes it: a newline, a tab or another character that draws as a box
    // or as nothing shows as its bytes ("Ċ" -> "<0x0A>").
    QString displayText(int id) const;
    // As the library's decode: ids to pieces (special added tokens dropped when skipSpecial),
    // then the decoder (or the pieces joined with spaces when there is none).
    QString decode(const std::vector<int>& ids, bool skipSpecial = true) const;
    // "BPE (byte-level)", "BPE (SentencePiece, byte fallback)", "BPE", "WordPiece", "Unigram",
    // "Unigram (byte fallback)" or "SentencePiece (Marian)".
    QString kind() const;
    std::optional<int> maskTokenId() const;        // [MASK] / <mask> when the vocabulary has one
    const QString& name() const { return m_name; } // the file it came from

private:
    HfTokenizer();
    static std::shared_ptr<HfTokenizer> parseTokenizerJson(const QByteArray& json,
                                                           const QString& name);
    QString readableText(int id) const; // displayText before tokenDisplayText
    void finish();

    QString m_name;
    std::unique_ptr<hf::AddedVocabulary> m_added;
    std::unique_ptr<hf::Normalizer> m_normalizer;
    std::unique_ptr<hf::PreTokenizer> m_preTokenizer;
    std::unique_ptr<hf::Model> m_model;
    std::unique_ptr<hf::PostProcessor> m_postProcessor;
    std::unique_ptr<hf::Decoder> m_decoder;
    std::optional<QString> m_maskToken;
    bool m_byteLevel = false;
};

} // namespace attn::core
