// The model section of tokenizer.json: BPE, WordPiece or Unigram
// (tokenizers/src/models/*/serialization.rs).
#include "core/tokenizers/bpe_model.h"
#include "core/tokenizers/unigram_model.h"
#include "core/tokenizers/word_piece_model.h"

#include <QJsonDocument>

namespace attn::core::hf {

namespace {

Vocabulary parseVocabulary(const JsonReader& reader, const QJsonObject& model, const QString& path)
{
    const QString vocabPath = JsonReader::child(path, QStringLiteral("vocab"));
    const QJsonObject vocab =
        reader.object(reader.member(model, QStringLiteral("vocab"), path), vocabPath);
    QHash<QString, int> ids;
    ids.reserve(vocab.size());
    for (auto it = vocab.constBegin(); it != vocab.constEnd(); ++it)
        ids.insert(it.key(), int(reader.integer(it.value(), vocabPath + QStringLiteral("[\"") +
                                                                it.key() + QStringLiteral("\"]"))));
    return Vocabulary(std::move(ids));
}

std::vector<std::pair<QString, QString>> parseMerges(const JsonReader& reader,
                                                     const QJsonObject& model, const QString& path)
{
    const QString mergesPath = JsonReader::child(path, QStringLiteral("merges"));
    const QJsonArray merges =
        reader.array(reader.member(model, QStringLiteral("merges"), path), mergesPath);
    std::vector<std::pair<QString, QString>> result;
    result.reserve(std::size_t(merges.size()));
    for (qsizetype i = 0; i < merges.size(); ++i) {
        const QJsonValue merge = merges.at(i);
        const QString where = JsonReader::index(mergesPath, i);
        if (merge.isArray()) {
            // The newer form: ["a", "b"].
            const QJsonArray pair = merge.toArray();
            if (pair.size() != 2)
                reader.fail(where, QStringLiteral("expected two pieces, found ") +
                                       QString::number(pair.size()));
            result.emplace_back(reader.string(pair.at(0), JsonReader::index(where, 0)),
                                reader.string(pair.at(1), JsonReader::index(where, 1)));
            continue;
        }
        // The older form: "a b" (model.rs, convert_merges_to_hashmap, which skips "#version").
        const QString line = reader.string(merge, where);
        if (line.startsWith(QStringLiteral("#version")))
            continue;
        const QStringList parts = line.split(u' ');
        if (parts.size() != 2)
            reader.fail(where,
                        QStringLiteral("expected two pieces separated by one space, found '") +
                            line + u'\'');
        result.emplace_back(parts[0], parts[1]);
    }
    return result;
}

// Unigram's vocabulary: [["piece", log probability], ...], the index its id.
std::vector<UnigramPiece> parseUnigramVocabulary(const JsonReader& reader, const QJsonObject& model,
                                                 const QString& path)
{
    const QString vocabPath = JsonReader::child(path, QStringLiteral("vocab"));
    const QJsonArray vocab =
        reader.array(reader.member(model, QStringLiteral("vocab"), path), vocabPath);
    std::vector<UnigramPiece> pieces;
    pieces.reserve(std::size_t(vocab.size()));
    for (qsizetype i = 0; i < vocab.size(); ++i) {
        const QString where = JsonReader::index(vocabPath, i);
        const QJsonArray entry = reader.array(vocab.at(i), where);
        if (entry.size() != 2)
            reader.fail(where, QStringLiteral("expected [piece, score], found an array of ") +
                                   QString::number(entry.size()));
        UnigramPiece piece;
        piece.piece = reader.string(entry.at(0), JsonReader::index(where, 0));
        const QJsonValue score = entry.at(1);
        if (!score.isDouble())
            reader.fail(JsonReader::index(where, 1),
                        QStringLiteral("the score of '") + piece.piece +
                            QStringLiteral("' is not a number: ") +
                            QString::fromUtf8(
                                QJsonDocument(QJsonArray{score}).toJson(QJsonDocument::Compact))
                                .chopped(1)
                                .mid(1));
        piece.score = score.toDouble();
        pieces.push_back(std::move(piece));
    }
    return pieces;
}

constexpr qsizetype kCachedWordLength = 256;
constexpr qsizetype kCacheCapacity = 10000;

} // namespace

void tokenizeCached(const QString& word, std::vector<ModelToken>& out, WordCache& cache,
                    const std::function<void(std::vector<ModelToken>&)>& segment)
{
    const bool cacheable = word.size() < kCachedWordLength;
    if (cacheable) {
        const auto it = cache.constFind(word);
        if (it != cache.constEnd()) {
            out.insert(out.end(), it->begin(), it->end());
            return;
        }
    }
    std::vector<ModelToken> tokens;
    segment(tokens);
    out.insert(out.end(), tokens.begin(), tokens.end());
    if (cacheable && cache.size() < kCacheCapacity)
        cache.emplace(word, std::move(tokens)); // insert() would copy: it takes a const T&
}

std::unique_ptr<Model> parseModel(const JsonReader& reader, const QJsonValue& value,
                                  const QString& path)
{
    const QJsonObject object = reader.object(value, path);
    QString type;
    if (object.contains(QStringLiteral("type")))
        type = reader.string(object, QStringLiteral("type"), path);
    else if (object.contains(QStringLiteral("merges")))
        type = QStringLiteral("BPE");
    else if (object.contains(QStringLiteral("max_input_chars_per_word")))
        type = QStringLiteral("WordPiece");
    if (type == u"BPE") {
        if (!object.value(QStringLiteral("dropout")).isNull() &&
            object.contains(QStringLiteral("dropout")))
            reader.fail(JsonReader::child(path, QStringLiteral("dropout")),
                        QStringLiteral("BPE dropout is random; only null is supported"));
        BpeOptions options;
        options.unkToken = reader.optionalString(object, QStringLiteral("unk_token"), path);
        options.continuingSubwordPrefix =
            reader.optionalString(object, QStringLiteral("continuing_subword_prefix"), path);
        options.endOfWordSuffix =
            reader.optionalString(object, QStringLiteral("end_of_word_suffix"), path);
        options.fuseUnk = reader.boolean(object, QStringLiteral("fuse_unk"), path, false);
        options.byteFallback = reader.boolean(object, QStringLiteral("byte_fallback"), path, false);
        options.ignoreMerges = reader.boolean(object, QStringLiteral("ignore_merges"), path, false);
        Vocabulary vocabulary = parseVocabulary(reader, object, path);
        const auto merges = parseMerges(reader, object, path);
        const QString mergesPath = JsonReader::child(path, QStringLiteral("merges"));
        return std::make_unique<BpeModel>(
            std::move(vocabulary), merges, std::move(options), reader,
            [&](qsizetype i) { return JsonReader::index(mergesPath, i); });
    }
    if (type == u"WordPiece") {
        return std::make_unique<WordPieceModel>(
            parseVocabulary(reader, object, path),
            reader.optionalString(object, QStringLiteral("unk_token"), path)
                .value_or(QStringLiteral("[UNK]")),
            reader.optionalString(object, QStringLiteral("continuing_subword_prefix"), path)
                .value_or(QStringLiteral("##")),
            int(reader.integer(object, QStringLiteral("max_input_chars_per_word"), path, 100)));
    }
    if (type == u"Unigram") {
        std::vector<UnigramPiece> pieces = parseUnigramVocabulary(reader, object, path);
        const QString unkPath = JsonReader::child(path, QStringLiteral("unk_id"));
        std::optional<int> unkId;
        const QJsonValue unk = object.value(QStringLiteral("unk_id"));
        if (!unk.isNull() && !unk.isUndefined()) {
            unkId = int(reader.integer(unk, unkPath));
            if (std::size_t(*unkId) >= pieces.size())
                reader.fail(unkPath, QStringLiteral("%1 is not an id of the vocabulary, which has "
                                                    "%2 pieces")
                                         .arg(*unkId)
                                         .arg(pieces.size()));
        }
        return std::make_unique<UnigramModel>(
            std::move(pieces), unkId,
            reader.boolean(object, QStringLiteral("byte_fallback"), path, false), reader, unkPath);
    }
    if (type.isEmpty())
        reader.fail(JsonReader::child(path, QStringLiteral("type")), QStringLiteral("missing"));
    reader.fail(JsonReader::child(path, QStringLiteral("type")),
                QStringLiteral("unsupported model '") + type +
                    QStringLiteral("' (BPE, WordPiece and Unigram are)"));
}

} // namespace attn::core::hf
