// HfTokenizer's loading: tokenizer.json, or the older files built into the pipeline that
// transformers' convert_slow_tokenizer.py (GPT2Converter, BertConverter) makes of them, or
// Marian's source.spm + vocab.json as its MarianTokenizer reads them.
#include "core/tokenizers/hf_tokenizer.h"

#include "core/error.h"
#include "core/regular_file.h"
#include "core/tokenizers/added_vocabulary.h"
#include "core/tokenizers/bpe_model.h"
#include "core/tokenizers/marian_model.h"
#include "core/tokenizers/pipeline.h"
#include "core/tokenizers/word_piece_model.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>

#include <algorithm>

namespace attn::core {

using namespace hf;

namespace {

// A vocabulary (tokenizer.json, vocab.json, merges.txt, vocab.txt) is a few MB, the largest
// public ones some tens; the settings (tokenizer_config.json, special_tokens_map.json) some KB.
constexpr qint64 kMaxVocabularyBytes = qint64(256) << 20;
constexpr qint64 kMaxSettingsBytes = qint64(16) << 20;

QJsonObject parseJsonObject(const QByteArray& bytes, const QString& name)
{
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        throw Error(name.toStdString() + ": not valid JSON (" + error.errorString().toStdString() +
                    " at byte " + std::to_string(error.offset) + ")");
    if (!document.isObject())
        throw Error(name.toStdString() + ": expected a JSON object at the top level");
    return document.object();
}

// The optional configuration files beside the vocabulary.
struct FolderConfig
{
    QJsonObject tokenizerConfig;
    QJsonObject specialTokensMap;

    // A special token named in either file: a string or {"content": ...}.
    std::optional<QString> specialToken(const QString& key) const
    {
        for (const QJsonObject* object : {&tokenizerConfig, &specialTokensMap}) {
            const QJsonValue value = object->value(key);
            if (value.isString())
                return value.toString();
            if (value.isObject() && value.toObject().value(QStringLiteral("content")).isString())
                return value.toObject().value(QStringLiteral("content")).toString();
        }
        return std::nullopt;
    }
    std::optional<bool> flag(const QString& key) const
    {
        const QJsonValue value = tokenizerConfig.value(key);
        if (value.isBool())
            return value.toBool();
        return std::nullopt;
    }
};

FolderConfig readConfig(const QDir& dir)
{
    FolderConfig config;
    const QString configPath = dir.filePath(QStringLiteral("tokenizer_config.json"));
    if (QFileInfo::exists(configPath))
        config.tokenizerConfig =
            parseJsonObject(readRegularFile(configPath, kMaxSettingsBytes), configPath);
    const QString mapPath = dir.filePath(QStringLiteral("special_tokens_map.json"));
    if (QFileInfo::exists(mapPath))
        config.specialTokensMap =
            parseJsonObject(readRegularFile(mapPath, kMaxSettingsBytes), mapPath);
    return config;
}

AddedToken parseAddedToken(const JsonReader& reader, const QJsonObject& object, const QString& path,
                           int id)
{
    AddedToken token;
    token.id = id;
    token.content = reader.string(object, QStringLiteral("content"), path);
    token.special = reader.boolean(object, QStringLiteral("special"), path, false);
    token.singleWord = reader.boolean(object, QStringLiteral("single_word"), path, false);
    token.lstrip = reader.boolean(object, QStringLiteral("lstrip"), path, false);
    token.rstrip = reader.boolean(object, QStringLiteral("rstrip"), path, false);
    token.normalized = reader.boolean(object, QStringLiteral("normalized"), path, !token.special);
    return token;
}

// added_vocabulary.rs, add_tokens, which also loading tokenizer.json goes through: a token
// already added or in the model keeps that id, a new one gets the next free id, counted from
// the number of pieces in the model (not its largest id) or after the largest added id.
void addTokens(AddedVocabulary& added, const Model& model, const std::vector<AddedToken>& tokens)
{
    const int largest = added.largestId();
    const int modelSize = model.pieceCount();
    int next = largest < 0 ? modelSize
                           : (largest >= modelSize || modelSize == 0 ? largest + 1 : modelSize);
    for (AddedToken token : tokens) {
        if (token.content.isEmpty())
            continue;
        if (const auto id = added.idOf(token.content))
            token.id = *id;
        else if (const auto modelId = model.idOf(token.content))
            token.id = *modelId;
        else
            token.id = next++;
        added.add(token);
    }
}

// vocab.json: {"piece": id, ...}.
QHash<QString, int> readVocabJson(const QString& path)
{
    const QJsonObject object = parseJsonObject(readRegularFile(path, kMaxVocabularyBytes), path);
    const JsonReader reader(path);
    QHash<QString, int> ids;
    ids.reserve(object.size());
    for (auto it = object.constBegin(); it != object.constEnd(); ++it)
        ids.insert(it.key(), int(reader.integer(it.value(), u'"' + it.key() + u'"')));
    if (ids.isEmpty())
        throw Error(path.toStdString() + ": the vocabulary is empty");
    return ids;
}

QJsonObject typed(const char* type, QJsonObject fields = {})
{
    fields.insert(QStringLiteral("type"), QString::fromLatin1(type));
    return fields;
}

} // namespace

std::shared_ptr<const HfTokenizer> HfTokenizer::fromTokenizerJson(const QByteArray& json,
                                                                  const QString& nameForMessages)
{
    return parseTokenizerJson(json, nameForMessages);
}

std::shared_ptr<HfTokenizer> HfTokenizer::parseTokenizerJson(const QByteArray& json,
                                                             const QString& nameForMessages)
{
    const QJsonObject root = parseJsonObject(json, nameForMessages);
    const JsonReader reader(nameForMessages);
    std::shared_ptr<HfTokenizer> tokenizer(new HfTokenizer);
    tokenizer->m_name = nameForMessages;
    tokenizer->m_normalizer = parseNormalizer(reader, root.value(QStringLiteral("normalizer")),
                                              QStringLiteral("normalizer"));
    tokenizer->m_preTokenizer = parsePreTokenizer(
        reader, root.value(QStringLiteral("pre_tokenizer")), QStringLiteral("pre_tokenizer"));
    tokenizer->m_model = parseModel(reader, reader.member(root, QStringLiteral("model"), QString()),
                                    QStringLiteral("model"));
    tokenizer->m_postProcessor = parsePostProcessor(
        reader, root.value(QStringLiteral("post_processor")), QStringLiteral("post_processor"));
    tokenizer->m_decoder =
        parseDecoder(reader, root.value(QStringLiteral("decoder")), QStringLiteral("decoder"));
    const QJsonValue added = root.value(QStringLiteral("added_tokens"));
    std::vector<AddedToken> tokens;
    if (!added.isNull() && !added.isUndefined()) {
        const QJsonArray list = reader.array(added, QStringLiteral("added_tokens"));
        for (qsizetype i = 0; i < list.size(); ++i) {
            const QString path = JsonReader::index(QStringLiteral("added_tokens"), i);
            const QJsonObject object = reader.object(list.at(i), path);
            // The id is checked for form only: the library gives ids itself (below).
            const int id = int(reader.integer(object, QStringLiteral("id"), path, std::nullopt));
            tokens.push_back(parseAddedToken(reader, object, path, id));
        }
    }
    addTokens(*tokenizer->m_added, *tokenizer->m_model, tokens);
    tokenizer->finish();
    return tokenizer;
}

namespace {

void addSpecialTokens(AddedVocabulary& added, const Model& model, const FolderConfig& config,
                      const QString& configName,
                      const std::vector<std::pair<QString, QString>>& defaults)
{
    // added_tokens_decoder of tokenizer_config.json lists tokens with their flags and ids.
    const JsonReader reader(configName);
    const QJsonValue decoderValue =
        config.tokenizerConfig.value(QStringLiteral("added_tokens_decoder"));
    if (decoderValue.isObject()) {
        const QJsonObject decoder = decoderValue.toObject();
        for (auto it = decoder.constBegin(); it != decoder.constEnd(); ++it) {
            const QString path =
                QStringLiteral("added_tokens_decoder[\"") + it.key() + QStringLiteral("\"]");
            bool ok = false;
            const int id = it.key().toInt(&ok);
            if (!ok || id < 0)
                reader.fail(path, QStringLiteral("expected a token id as the key"));
            addTokens(added, model,
                      {parseAddedToken(reader, reader.object(it.value(), path), path, id)});
        }
    }
    // Special tokens given by name only are special, never normalized.
    std::vector<QString> names;
    for (const auto& [key, fallback] : defaults)
        if (const auto name = config.specialToken(key).value_or(fallback); !name.isEmpty())
            names.push_back(name);
    for (const QJsonObject* object : {&config.tokenizerConfig, &config.specialTokensMap})
        for (const QJsonValue& value :
             object->value(QStringLiteral("additional_special_tokens")).toArray()) {
            if (value.isString())
                names.push_back(value.toString());
            else if (value.isObject())
                names.push_back(value.toObject().value(QStringLiteral("content")).toString());
        }
    std::vector<AddedToken> tokens;
    for (const QString& name : names) {
        if (name.isEmpty() || added.idOf(name))
            continue;
        AddedToken token;
        token.content = name;
        token.special = true;
        token.normalized = false;
        tokens.push_back(token);
    }
    addTokens(added, model, tokens);
}

} // namespace

std::shared_ptr<const HfTokenizer> HfTokenizer::load(const QString& folder)
{
    const QDir dir(folder);
    if (!dir.exists())
        throw Error(folder.toStdString() + ": no such folder");
    const FolderConfig config = readConfig(dir);
    const QString configName = dir.filePath(QStringLiteral("tokenizer_config.json"));

    const QString jsonPath = dir.filePath(QStringLiteral("tokenizer.json"));
    if (QFileInfo::exists(jsonPath)) {
        std::shared_ptr<HfTokenizer> tokenizer =
            parseTokenizerJson(readRegularFile(jsonPath, kMaxVocabularyBytes), jsonPath);
        tokenizer->m_maskToken = config.specialToken(QStringLiteral("mask_token"));
        return tokenizer;
    }

    std::shared_ptr<HfTokenizer> tokenizer(new HfTokenizer);
    tokenizer->m_maskToken = config.specialToken(QStringLiteral("mask_token"));
    const QString vocabJsonPath = dir.filePath(QStringLiteral("vocab.json"));
    const QString mergesPath = dir.filePath(QStringLiteral("merges.txt"));
    const QString vocabTxtPath = dir.filePath(QStringLiteral("vocab.txt"));
    const JsonReader builtIn(QStringLiteral("built-in pipeline"));

    if (QFileInfo::exists(vocabJsonPath) && QFileInfo::exists(mergesPath)) {
        // GPT2Converter: byte-level BPE without an unknown token, GPT-2's pre-tokenizer regex.
        tokenizer->m_name = vocabJsonPath;
        QHash<QString, int> ids = readVocabJson(vocabJsonPath);

        const QList<QByteArray> lines =
            readRegularFile(mergesPath, kMaxVocabularyBytes).split('\n');
        std::vector<std::pair<QString, QString>> merges;
        std::vector<qsizetype> lineNumbers;
        const JsonReader mergesReader(mergesPath);
        const qsizetype count =
            (!lines.isEmpty() && lines.back().isEmpty()) ? lines.size() - 1 : lines.size();
        for (qsizetype i = 0; i < count; ++i) {
            QByteArray line = lines[i];
            if (line.endsWith('\r'))
                line.chop(1);
            if (line.startsWith("#version"))
                continue;
            const QString text = QString::fromUtf8(line);
            const QStringList parts = text.split(u' ');
            if (parts.size() != 2)
                mergesReader.fail(
                    QStringLiteral("line ") + QString::number(i + 1),
                    QStringLiteral("expected two pieces separated by one space, found '") + text +
                        u'\'');
            merges.emplace_back(parts[0], parts[1]);
            lineNumbers.push_back(i + 1);
        }
        BpeOptions options;
        options.continuingSubwordPrefix = QString();
        options.endOfWordSuffix = QString();
        tokenizer->m_model = std::make_unique<BpeModel>(
            Vocabulary(std::move(ids)), merges, options, mergesReader, [&](qsizetype i) {
                return QStringLiteral("line ") + QString::number(lineNumbers[std::size_t(i)]);
            });
        const bool addPrefixSpace = config.flag(QStringLiteral("add_prefix_space")).value_or(false);
        tokenizer->m_preTokenizer = parsePreTokenizer(
            builtIn,
            typed("ByteLevel", {{QStringLiteral("add_prefix_space"), addPrefixSpace},
                                {QStringLiteral("use_regex"), true}}),
            QString());
        tokenizer->m_decoder = parseDecoder(builtIn, typed("ByteLevel"), QString());
        const QString endOfText = QStringLiteral("<|endoftext|>");
        addSpecialTokens(*tokenizer->m_added, *tokenizer->m_model, config, configName,
                         {{QStringLiteral("bos_token"), endOfText},
                          {QStringLiteral("eos_token"), endOfText},
                          {QStringLiteral("unk_token"), endOfText},
                          {QStringLiteral("pad_token"), QString()}});
        const QString bos = config.specialToken(QStringLiteral("bos_token")).value_or(endOfText);
        if (config.flag(QStringLiteral("add_bos_token")).value_or(false) && tokenizer->idOf(bos)) {
            const QJsonObject special{{QStringLiteral("id"), bos},
                                      {QStringLiteral("ids"), QJsonArray{*tokenizer->idOf(bos)}},
                                      {QStringLiteral("tokens"), QJsonArray{bos}}};
            tokenizer->m_postProcessor = parsePostProcessor(
                builtIn,
                typed("TemplateProcessing",
                      {{QStringLiteral("single"), bos + QStringLiteral(":0 $A:0")},
                       {QStringLiteral("special_tokens"), QJsonObject{{bos, special}}}}),
                QString());
        } else {
            tokenizer->m_postProcessor = parsePostProcessor(
                builtIn, typed("ByteLevel", {{QStringLiteral("trim_offsets"), false}}), QString());
        }
        tokenizer->finish();
        return tokenizer;
    }

    const QString sourceSpmPath = dir.filePath(QStringLiteral("source.spm"));
    if (QFileInfo::exists(sourceSpmPath) && QFileInfo::exists(vocabJsonPath)) {
        // MarianTokenizer: source.spm's pieces looked up in vocab.json, then </s>.
        tokenizer->m_name = sourceSpmPath;
        Vocabulary vocabulary(readVocabJson(vocabJsonPath));
        const auto idIn = [&](const char* key, const char* fallback) {
            const QString name =
                config.specialToken(QLatin1String(key)).value_or(QLatin1String(fallback));
            const auto id = vocabulary.idOf(name);
            if (!id)
                throw Error(vocabJsonPath.toStdString(), "the " + std::string(key) + " '" +
                                                             name.toStdString() +
                                                             "' is not in the vocabulary");
            return std::pair(name, *id);
        };
        const auto [unk, unkId] = idIn("unk_token", "<unk>");
        const auto [eos, eosId] = idIn("eos_token", "</s>");
        tokenizer->m_model = std::make_unique<MarianModel>(SentencePieceModel::load(sourceSpmPath),
                                                           std::move(vocabulary), unkId);
        tokenizer->m_decoder = parseDecoder(
            builtIn,
            typed("Metaspace", {{QStringLiteral("replacement"), QStringLiteral("\u2581")},
                                {QStringLiteral("prepend_scheme"), QStringLiteral("always")}}),
            QString());
        addSpecialTokens(*tokenizer->m_added, *tokenizer->m_model, config, configName,
                         {{QStringLiteral("eos_token"), eos},
                          {QStringLiteral("unk_token"), unk},
                          {QStringLiteral("pad_token"), QStringLiteral("<pad>")}});
        const QJsonObject special{{QStringLiteral("id"), eos},
                                  {QStringLiteral("ids"), QJsonArray{eosId}},
                                  {QStringLiteral("tokens"), QJsonArray{eos}}};
        tokenizer->m_postProcessor = parsePostProcessor(
            builtIn,
            typed("TemplateProcessing",
                  {{QStringLiteral("single"), QStringLiteral("$A:0 ") + eos + QStringLiteral(":0")},
                   {QStringLiteral("special_tokens"), QJsonObject{{eos, special}}}}),
            QString());
        tokenizer->finish();
        return tokenizer;
    }

    if (QFileInfo::exists(vocabTxtPath)) {
        // BertConverter: BertNormalizer, BertPreTokenizer, WordPiece, [CLS] $A [SEP].
        tokenizer->m_name = vocabTxtPath;
        Vocabulary vocabulary =
            WordPieceModel::readVocabTxt(readRegularFile(vocabTxtPath, kMaxVocabularyBytes));
        if (vocabulary.size() == 0)
            throw Error(vocabTxtPath.toStdString() + ": the vocabulary is empty");
        const QString unk =
            config.specialToken(QStringLiteral("unk_token")).value_or(QStringLiteral("[UNK]"));
        if (!vocabulary.idOf(unk))
            throw Error(vocabTxtPath.toStdString() + ": the unknown token '" + unk.toStdString() +
                        "' is not in the vocabulary");
        tokenizer->m_model =
            std::make_unique<WordPieceModel>(std::move(vocabulary), unk, QStringLiteral("##"), 100);
        const bool lowercase = config.flag(QStringLiteral("do_lower_case")).value_or(true);
        QJsonObject normalizer{
            {QStringLiteral("clean_text"), true},
            {QStringLiteral("handle_chinese_chars"),
             config.flag(QStringLiteral("tokenize_chinese_chars")).value_or(true)},
            {QStringLiteral("lowercase"), lowercase}};
        if (const auto strip = config.flag(QStringLiteral("strip_accents")))
            normalizer.insert(QStringLiteral("strip_accents"), *strip);
        tokenizer->m_normalizer =
            parseNormalizer(builtIn, typed("BertNormalizer", normalizer), QString());
        tokenizer->m_preTokenizer =
            parsePreTokenizer(builtIn, typed("BertPreTokenizer"), QString());
        tokenizer->m_decoder =
            parseDecoder(builtIn,
                         typed("WordPiece", {{QStringLiteral("prefix"), QStringLiteral("##")},
                                             {QStringLiteral("cleanup"), true}}),
                         QString());
        addSpecialTokens(*tokenizer->m_added, *tokenizer->m_model, config, configName,
                         {{QStringLiteral("unk_token"), QStringLiteral("[UNK]")},
                          {QStringLiteral("sep_token"), QStringLiteral("[SEP]")},
                          {QStringLiteral("pad_token"), QStringLiteral("[PAD]")},
                          {QStringLiteral("cls_token"), QStringLiteral("[CLS]")},
                          {QStringLiteral("mask_token"), QStringLiteral("[MASK]")}});
        const QString cls =
            config.specialToken(QStringLiteral("cls_token")).value_or(QStringLiteral("[CLS]"));
        const QString sep =
            config.specialToken(QStringLiteral("sep_token")).value_or(QStringLiteral("[SEP]"));
        const QJsonObject post{{QStringLiteral("cls"), QJsonArray{cls, *tokenizer->idOf(cls)}},
                               {QStringLiteral("sep"), QJsonArray{sep, *tokenizer->idOf(sep)}}};
        tokenizer->m_postProcessor =
            parsePostProcessor(builtIn, typed("BertProcessing", post), QString());
        tokenizer->finish();
        return tokenizer;
    }

    throw Error(folder.toStdString() +
                ": no tokenizer files (expected tokenizer.json, vocab.json with merges.txt or "
                "source.spm, or vocab.txt)");
}

} // namespace attn::core
