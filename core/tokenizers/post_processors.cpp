// The post-processors of tokenizer.json (tokenizers/src/processors/*.rs): the special tokens
// around a sequence, and the byte-level offset trimming.
#include "core/tokenizers/pipeline.h"

namespace attn::core::hf {

namespace {

struct SpecialPiece
{
    int id;
    QString piece;
};

EncodedToken generated(const SpecialPiece& special)
{
    // Added by the post-processor: offsets (0, 0) as the library gives them.
    EncodedToken token;
    token.id = special.id;
    token.piece = special.piece;
    token.begin = 0;
    token.end = 0;
    token.special = true;
    token.generated = true;
    return token;
}

// byte_level.rs, process_offsets: a token's span loses the spaces ("Ġ") it starts or ends
// with, except the one space that add_prefix_space put before the first word. The library
// counts in characters, so the span moves by code points of the input here.
void trimOffsets(std::vector<EncodedToken>& tokens, bool addPrefixSpace, const QString& input)
{
    const auto isSpace = [](char32_t c) { return c == 0x120 || isWhitespace(c); };
    for (std::size_t i = 0; i < tokens.size(); ++i) {
        EncodedToken& token = tokens[i];
        const std::u32string chars = toCodePoints(token.piece);
        qsizetype leading = 0;
        while (leading < qsizetype(chars.size()) && isSpace(chars[std::size_t(leading)]))
            ++leading;
        qsizetype trailing = 0;
        while (trailing < qsizetype(chars.size()) &&
               isSpace(chars[chars.size() - 1 - std::size_t(trailing)]))
            ++trailing;
        if (leading == 0 && trailing == 0)
            continue;
        if (leading > 0) {
            const bool isFirst = i == 0 || token.begin == 0;
            if (isFirst && addPrefixSpace && leading == 1)
                leading = 0;
            for (qsizetype k = 0; k < leading && token.begin < token.end; ++k)
                token.begin += utf16Length(codePointAt(input, token.begin));
            token.begin = std::min(token.begin, token.end);
        }
        if (trailing > 0) {
            // offsets.1 >= trailing, in characters: enough characters before the end.
            qsizetype end = token.end;
            qsizetype moved = 0;
            while (moved < trailing && end > 0) {
                end -= utf16Length(codePointBefore(input, end));
                ++moved;
            }
            if (moved == trailing)
                token.end = std::max(end, token.begin);
        }
    }
}

class ByteLevelProcessor final : public PostProcessor
{
public:
    ByteLevelProcessor(bool trim, bool addPrefixSpace)
        : m_trim(trim), m_addPrefixSpace(addPrefixSpace)
    {
    }
    void process(std::vector<EncodedToken>& tokens, bool, const QString& input) const override
    {
        if (m_trim)
            trimOffsets(tokens, m_addPrefixSpace, input);
    }
    int addedTokens() const override { return 0; }

private:
    bool m_trim;
    bool m_addPrefixSpace;
};

// One sequence between special tokens: TemplateProcessing's single template, BertProcessing's
// [CLS] A [SEP] and RobertaProcessing's <s> A </s> (after its offset trimming).
class TemplateProcessor final : public PostProcessor
{
public:
    struct Item
    {
        bool isSequence = false;
        std::vector<SpecialPiece> specials;
    };
    TemplateProcessor(std::vector<Item> items,
                      std::optional<bool> trimWithPrefixSpace = std::nullopt)
        : m_items(std::move(items)), m_trimWithPrefixSpace(trimWithPrefixSpace)
    {
    }
    void process(std::vector<EncodedToken>& tokens, bool addSpecialTokens,
                 const QString& input) const override
    {
        if (m_trimWithPrefixSpace)
            trimOffsets(tokens, *m_trimWithPrefixSpace, input);
        if (!addSpecialTokens)
            return;
        std::vector<EncodedToken> result;
        result.reserve(tokens.size() + std::size_t(addedTokens()));
        for (const Item& item : m_items) {
            if (item.isSequence) {
                result.insert(result.end(), std::make_move_iterator(tokens.begin()),
                              std::make_move_iterator(tokens.end()));
                continue;
            }
            for (const SpecialPiece& special : item.specials)
                result.push_back(generated(special));
        }
        tokens = std::move(result);
    }
    int addedTokens() const override
    {
        int count = 0;
        for (const Item& item : m_items)
            count += int(item.specials.size());
        return count;
    }

private:
    std::vector<Item> m_items;
    std::optional<bool> m_trimWithPrefixSpace;
};

class SequenceProcessor final : public PostProcessor
{
public:
    explicit SequenceProcessor(std::vector<std::unique_ptr<PostProcessor>> parts)
        : m_parts(std::move(parts))
    {
    }
    void process(std::vector<EncodedToken>& tokens, bool addSpecialTokens,
                 const QString& input) const override
    {
        for (const auto& part : m_parts)
            part->process(tokens, addSpecialTokens, input);
    }
    int addedTokens() const override
    {
        int count = 0;
        for (const auto& part : m_parts)
            count += part->addedTokens();
        return count;
    }

private:
    std::vector<std::unique_ptr<PostProcessor>> m_parts;
};

SpecialPiece parsePair(const JsonReader& reader, const QJsonObject& object, const QString& key,
                       const QString& path)
{
    // ["[SEP]", 102]
    const QString where = JsonReader::child(path, key);
    const QJsonArray pair = reader.array(reader.member(object, key, path), where);
    if (pair.size() != 2)
        reader.fail(where, QStringLiteral("expected [token, id]"));
    return {int(reader.integer(pair.at(1), JsonReader::index(where, 1))),
            reader.string(pair.at(0), JsonReader::index(where, 0))};
}

std::vector<SpecialPiece> lookUpSpecial(const JsonReader& reader, const QJsonObject& specials,
                                        const QString& name, const QString& where,
                                        const QString& specialsPath)
{
    if (!specials.contains(name))
        reader.fail(where, QStringLiteral("the special token '") + name +
                               QStringLiteral("' is not in ") + specialsPath);
    const QString entryPath = specialsPath + QStringLiteral("[\"") + name + QStringLiteral("\"]");
    const QJsonObject entry = reader.object(specials.value(name), entryPath);
    const QJsonArray ids = reader.array(reader.member(entry, QStringLiteral("ids"), entryPath),
                                        JsonReader::child(entryPath, QStringLiteral("ids")));
    const QJsonArray pieces =
        reader.array(reader.member(entry, QStringLiteral("tokens"), entryPath),
                     JsonReader::child(entryPath, QStringLiteral("tokens")));
    if (ids.size() != pieces.size())
        reader.fail(entryPath, QStringLiteral("ids and tokens differ in length"));
    std::vector<SpecialPiece> result;
    for (qsizetype i = 0; i < ids.size(); ++i)
        result.push_back(
            {int(reader.integer(
                 ids.at(i),
                 JsonReader::index(JsonReader::child(entryPath, QStringLiteral("ids")), i))),
             reader.string(
                 pieces.at(i),
                 JsonReader::index(JsonReader::child(entryPath, QStringLiteral("tokens")), i))});
    return result;
}

std::unique_ptr<PostProcessor> parseTemplate(const JsonReader& reader, const QJsonObject& object,
                                             const QString& path)
{
    const QString specialsPath = JsonReader::child(path, QStringLiteral("special_tokens"));
    const QJsonObject specials =
        object.contains(QStringLiteral("special_tokens"))
            ? reader.object(object.value(QStringLiteral("special_tokens")), specialsPath)
            : QJsonObject();
    const QString singlePath = JsonReader::child(path, QStringLiteral("single"));
    const QJsonValue single = reader.member(object, QStringLiteral("single"), path);
    std::vector<TemplateProcessor::Item> items;
    if (single.isString()) {
        // The short form, "[CLS]:0 $A:0 [SEP]:0".
        for (const QString& part : single.toString().split(u' ', Qt::SkipEmptyParts)) {
            const QString name = part.section(u':', 0, 0);
            TemplateProcessor::Item item;
            if (name.startsWith(u'$'))
                item.isSequence = true;
            else
                item.specials = lookUpSpecial(reader, specials, name, singlePath, specialsPath);
            items.push_back(std::move(item));
        }
        return std::make_unique<TemplateProcessor>(std::move(items));
    }
    const QJsonArray list = reader.array(single, singlePath);
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString where = JsonReader::index(singlePath, i);
        const QJsonObject piece = reader.object(list.at(i), where);
        TemplateProcessor::Item item;
        if (piece.contains(QStringLiteral("Sequence"))) {
            item.isSequence = true;
        } else if (piece.contains(QStringLiteral("SpecialToken"))) {
            const QString specialPath = JsonReader::child(where, QStringLiteral("SpecialToken"));
            const QJsonObject special =
                reader.object(piece.value(QStringLiteral("SpecialToken")), specialPath);
            item.specials = lookUpSpecial(reader, specials,
                                          reader.string(special, QStringLiteral("id"), specialPath),
                                          specialPath, specialsPath);
        } else {
            reader.fail(where,
                        QStringLiteral("expected {\"Sequence\": ...} or {\"SpecialToken\": ...}"));
        }
        items.push_back(std::move(item));
    }
    return std::make_unique<TemplateProcessor>(std::move(items));
}

// Every type but Sequence (parseStep's).
std::unique_ptr<PostProcessor> postProcessorOfType(const JsonReader& reader,
                                                   const QJsonObject& object, const QString& type,
                                                   const QString& path)
{
    if (type == u"ByteLevel")
        return std::make_unique<ByteLevelProcessor>(
            reader.boolean(object, QStringLiteral("trim_offsets"), path, true),
            reader.boolean(object, QStringLiteral("add_prefix_space"), path, true));
    if (type == u"TemplateProcessing")
        return parseTemplate(reader, object, path);
    if (type == u"BertProcessing" || type == u"RobertaProcessing") {
        const SpecialPiece cls = parsePair(reader, object, QStringLiteral("cls"), path);
        const SpecialPiece sep = parsePair(reader, object, QStringLiteral("sep"), path);
        std::vector<TemplateProcessor::Item> items(3);
        items[0].specials = {cls};
        items[1].isSequence = true;
        items[2].specials = {sep};
        std::optional<bool> trim;
        if (type == u"RobertaProcessing" &&
            reader.boolean(object, QStringLiteral("trim_offsets"), path, true))
            trim = reader.boolean(object, QStringLiteral("add_prefix_space"), path, true);
        return std::make_unique<TemplateProcessor>(std::move(items), trim);
    }
    reader.fail(JsonReader::child(path, QStringLiteral("type")),
                QStringLiteral("unsupported post-processor '") + type + u'\'');
}

} // namespace

std::unique_ptr<PostProcessor> parsePostProcessor(const JsonReader& reader, const QJsonValue& value,
                                                  const QString& path)
{
    return parseStep<SequenceProcessor>(reader, value, path, QStringLiteral("processors"),
                                        parsePostProcessor, postProcessorOfType);
}

} // namespace attn::core::hf
