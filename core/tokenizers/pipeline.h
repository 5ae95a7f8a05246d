#pragma once

#include "core/tokenizers/json_reader.h"
#include "core/tokenizers/normalized_string.h"
#include "core/tokenizers/pattern_regex.h"

#include <QHash>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

// The stages of the `tokenizers` pipeline (tokenizers/src/tokenizer/mod.rs): added tokens are
// cut out, the rest is normalized and pre-tokenized into words, the model turns each word into
// tokens, the post-processor adds [CLS]/<s>/... and the decoder turns tokens back into text.
namespace attn::core::hf {

// A token of a word, its span in UTF-16 units of the word's normalized text.
struct ModelToken
{
    int id = 0;
    qsizetype begin = 0;
    qsizetype end = 0;
};

// A token of the encoding, its span in the input text in UTF-16 units ((0, 0) for the tokens
// the post-processor adds, which are marked `generated`).
struct EncodedToken
{
    int id = 0;
    QString piece; // as the library has it: an added token's matched text, stripped spaces included
    qsizetype begin = 0;
    qsizetype end = 0;
    bool special = false;
    bool generated = false;
};

struct Split
{
    NormalizedString normalized;
    std::optional<int> addedId; // set for a split that is an added token
};

// The library's PreTokenizedString: splits of the input, each one normalized on its own.
class PreTokenizedString
{
public:
    explicit PreTokenizedString(const QString& input)
    {
        m_splits.push_back({NormalizedString(input), {}});
    }

    // Replaces every split that is not an added token by the pieces `cut` makes of it; empty
    // pieces are dropped.
    void split(const std::function<std::vector<Split>(NormalizedString&&)>& cut);
    void
    splitNormalized(const std::function<std::vector<NormalizedString>(NormalizedString&&)>& cut);
    void normalizeEach(const std::function<void(NormalizedString&)>& normalize);

    std::vector<Split>& splits() { return m_splits; }

private:
    std::vector<Split> m_splits;
};

class Normalizer
{
public:
    virtual ~Normalizer() = default;
    virtual void normalize(NormalizedString& text) const = 0;
};

class PreTokenizer
{
public:
    virtual ~PreTokenizer() = default;
    virtual void preTokenize(PreTokenizedString& text) const = 0;
    // Whether this is (or contains) the byte-level pre-tokenizer.
    virtual bool isByteLevel() const { return false; }
};

// Words seen before in one encode call (the models' word cache, kept per call so that encode
// stays free of shared state).
using WordCache = QHash<QString, std::vector<ModelToken>>;

// Appends the tokens of `word`: from the cache, or from `segment`, whose result is cached for
// words under 256 UTF-16 units (the library caches words under 256 bytes).
void tokenizeCached(const QString& word, std::vector<ModelToken>& out, WordCache& cache,
                    const std::function<void(std::vector<ModelToken>&)>& segment);

class Model
{
public:
    virtual ~Model() = default;
    virtual void tokenize(const QString& word, std::vector<ModelToken>& out,
                          WordCache& cache) const = 0;
    // The fewest tokens `units` UTF-16 units of a word can become: a bound that lets encode
    // stop before the work when the token limit is certain to be passed.
    virtual qsizetype minimumTokens(qsizetype units) const = 0;
    virtual std::optional<int> idOf(const QString& piece) const = 0;
    virtual QString pieceOf(int id) const = 0; // null when the id is not in the vocabulary
    virtual int vocabSize() const = 0;         // largest id + 1
    virtual int pieceCount() const = 0;        // the library's get_vocab_size
    virtual QString kind() const = 0;
    virtual QString continuingSubwordPrefix() const { return {}; }
    virtual bool byteFallback() const { return false; }
};

class PostProcessor
{
public:
    virtual ~PostProcessor() = default;
    // `input` is the encoded text, which the offsets index.
    virtual void process(std::vector<EncodedToken>& tokens, bool addSpecialTokens,
                         const QString& input) const = 0;
    // The number of tokens process() adds to a single sequence.
    virtual int addedTokens() const = 0;
};

class Decoder
{
public:
    virtual ~Decoder() = default;
    virtual std::vector<QString> decodeChain(std::vector<QString> tokens) const = 0;
    virtual bool isByteLevel() const { return false; }
};

// Parsers of the tokenizer.json sections (null gives nullptr). `path` names the section in
// error messages.
std::unique_ptr<Normalizer> parseNormalizer(const JsonReader& reader, const QJsonValue& value,
                                            const QString& path);
std::unique_ptr<PreTokenizer> parsePreTokenizer(const JsonReader& reader, const QJsonValue& value,
                                                const QString& path);
std::unique_ptr<Model> parseModel(const JsonReader& reader, const QJsonValue& value,
                                  const QString& path);
std::unique_ptr<PostProcessor> parsePostProcessor(const JsonReader& reader, const QJsonValue& value,
                                                  const QString& path);
std::unique_ptr<Decoder> parseDecoder(const JsonReader& reader, const QJsonValue& value,
                                      const QString& path);

// One step of a tokenizer.json section ({"type": ...}): none where the value is null or absent,
// a `SequenceStep` of the steps listed under `listKey` (each read by `parse`, those it reads as
// none left out) where the type is "Sequence", any other type read by
// `ofType(reader, object, type, path)`.
template <typename SequenceStep, typename Parse, typename OfType>
auto parseStep(const JsonReader& reader, const QJsonValue& value, const QString& path,
               const QString& listKey, Parse parse, OfType ofType)
    -> decltype(parse(reader, value, path))
{
    if (value.isNull() || value.isUndefined())
        return nullptr;
    const QJsonObject object = reader.object(value, path);
    const QString type = reader.string(object, QStringLiteral("type"), path);
    if (type != u"Sequence")
        return ofType(reader, object, type, path);
    const QString listPath = JsonReader::child(path, listKey);
    const QJsonArray list = reader.array(reader.member(object, listKey, path), listPath);
    std::vector<decltype(parse(reader, value, path))> parts;
    for (qsizetype i = 0; i < list.size(); ++i)
        if (auto part = parse(reader, list.at(i), JsonReader::index(listPath, i)))
            parts.push_back(std::move(part));
    return std::make_unique<SequenceStep>(std::move(parts));
}

// {"String": "..."} or {"Regex": "..."} (Oniguruma syntax).
PatternRegex parsePattern(const JsonReader& reader, const QJsonValue& value, const QString& path);
// Every character becomes its UTF-8 bytes written in the byte-level alphabet; the first byte
// replaces the character and the others are inserted, so all carry its span.
void byteLevelTransform(NormalizedString& text);

SplitBehavior parseSplitBehavior(const JsonReader& reader, const QJsonValue& value,
                                 const QString& path);

} // namespace attn::core::hf
