// The model section of tokenizer.json: BPE or WordPiece (tokenizers/src/models/*/serialization.rs).
#include "core/tokenizers/bpe_model.h"
#include "core/tokenizers/word_piece_model.h"

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

} // namespace

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
    if (type.isEmpty())
        reader.fail(JsonReader::child(path, QStringLiteral("type")), QStringLiteral("missing"));
    reader.fail(JsonReader::child(path, QStringLiteral("type")),
                QStringLiteral("unsupported model '") + type +
                    QStringLiteral("' (BPE and WordPiece are)"));
}

} // namespace attn::core::hf
