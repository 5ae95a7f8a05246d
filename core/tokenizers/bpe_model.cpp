#include "core/tokenizers/bpe_model.h"

#include "core/error.h"
#include "core/token_display.h"
#include "core/tokenizers/byte_level.h"

#include <queue>

namespace attn::core::hf {

namespace {

std::uint64_t pairKey(int a, int b)
{
    return (std::uint64_t(std::uint32_t(a)) << 32) | std::uint32_t(b);
}

struct Symbol
{
    int id;
    int prev;
    int next;
    qsizetype begin;
    qsizetype end;
    bool removed;
};

struct Merge
{
    int pos;
    int rank;
    int newId;
};

// A min-heap on (rank, position): the lowest rank first, the leftmost among equals (word.rs).
struct MergeAfter
{
    bool operator()(const Merge& a, const Merge& b) const
    {
        return a.rank != b.rank ? a.rank > b.rank : a.pos > b.pos;
    }
};

} // namespace

BpeModel::BpeModel(Vocabulary vocabulary, const std::vector<std::pair<QString, QString>>& merges,
                   BpeOptions options, const JsonReader& reader,
                   const std::function<QString(qsizetype)>& mergePath)
    : m_vocabulary(std::move(vocabulary)), m_options(std::move(options))
{
    const qsizetype prefixLength =
        m_options.continuingSubwordPrefix ? m_options.continuingSubwordPrefix->size() : 0;
    m_merges.reserve(merges.size());
    for (std::size_t i = 0; i < merges.size(); ++i) {
        const auto& [a, b] = merges[i];
        const auto idA = m_vocabulary.idOf(a);
        if (!idA)
            reader.fail(mergePath(qsizetype(i)),
                        u'\'' + a + QStringLiteral("' is not in the vocabulary"));
        const auto idB = m_vocabulary.idOf(b);
        if (!idB)
            reader.fail(mergePath(qsizetype(i)),
                        u'\'' + b + QStringLiteral("' is not in the vocabulary"));
        // model.rs: the merged piece drops the continuing-subword prefix of its right part.
        const QString merged = a + b.mid(prefixLength);
        const auto idMerged = m_vocabulary.idOf(merged);
        if (!idMerged)
            reader.fail(mergePath(qsizetype(i)), QStringLiteral("the merged piece '") + merged +
                                                     QStringLiteral("' is not in the vocabulary"));
        // Collected into a map there too: a repeated pair keeps its last rank.
        m_merges[pairKey(*idA, *idB)] = {int(i), *idMerged};
    }
    if (m_options.unkToken)
        m_unkId = m_vocabulary.idOf(*m_options.unkToken);
    m_allBytes = true;
    for (int b = 0; b < 256; ++b) {
        m_byteIds[std::size_t(b)] =
            m_vocabulary.idOf(byteTokenText(static_cast<unsigned char>(b))).value_or(-1);
        m_allBytes = m_allBytes && m_byteIds[std::size_t(b)] >= 0;
    }
}

bool BpeModel::hasByteLevelAlphabet() const
{
    for (int b = 0; b < 256; ++b) {
        QString piece;
        appendCodePoint(piece, byteToChar(std::uint8_t(b)));
        if (!m_vocabulary.idOf(piece))
            return false;
    }
    return true;
}

QString BpeModel::kind() const
{
    return m_options.byteFallback ? QStringLiteral("BPE (SentencePiece, byte fallback)")
                                  : QStringLiteral("BPE");
}

qsizetype BpeModel::minimumTokens(qsizetype units) const
{
    const bool everyCharacterCovered =
        m_everyCharacterKnown || (m_options.byteFallback && m_allBytes);
    if (!everyCharacterCovered || m_vocabulary.longestPiece() == 0)
        return 0;
    return (units + m_vocabulary.longestPiece() - 1) / m_vocabulary.longestPiece();
}

void BpeModel::tokenize(const QString& word, std::vector<ModelToken>& out, WordCache& cache) const
{
    if (word.isEmpty())
        return;
    if (m_options.ignoreMerges) {
        if (const auto id = m_vocabulary.idOf(word)) {
            out.push_back({*id, 0, word.size()});
            return;
        }
    }
    tokenizeCached(word, out, cache,
                   [&](std::vector<ModelToken>& tokens) { mergeWord(word, tokens); });
}

void BpeModel::mergeWord(const QString& word, std::vector<ModelToken>& out) const
{
    std::vector<Symbol> symbols;
    symbols.reserve(std::size_t(word.size()));
    const auto add = [&symbols](int id, qsizetype begin, qsizetype end) {
        const int index = int(symbols.size());
        symbols.push_back({id, index - 1, index + 1, begin, end, false});
    };
    // A pending unknown token (kept as a flag and a value: GCC warns on std::optional here).
    bool hasUnk = false;
    ModelToken unk;
    const auto unkId = [this] {
        if (!m_unkId)
            throw Error("tokenizer", "the unknown token '" + m_options.unkToken->toStdString() +
                                         "' is not in the vocabulary");
        return *m_unkId;
    };
    QString piece;
    for (qsizetype begin = 0; begin < word.size();) {
        const qsizetype end = begin + utf16Length(codePointAt(word, begin));
        piece = QStringView(word).mid(begin, end - begin).toString();
        if (begin > 0 && m_options.continuingSubwordPrefix)
            piece.prepend(*m_options.continuingSubwordPrefix);
        if (end == word.size() && m_options.endOfWordSuffix)
            piece.append(*m_options.endOfWordSuffix);
        if (const auto id = m_vocabulary.idOf(piece)) {
            if (hasUnk) {
                add(unk.id, unk.begin, unk.end);
                hasUnk = false;
            }
            add(*id, begin, end);
        } else {
            bool done = false;
            if (m_options.byteFallback) {
                const QByteArray bytes = piece.toUtf8();
                bool all = true;
                for (char byte : bytes)
                    all = all && m_byteIds[std::uint8_t(byte)] >= 0;
                if (all) {
                    // Each byte token gets the character's span, as the library's one-byte
                    // offsets map back to the whole character.
                    for (char byte : bytes)
                        add(m_byteIds[std::uint8_t(byte)], begin, end);
                    done = true;
                }
            }
            if (!done && m_options.unkToken) {
                if (hasUnk && m_options.fuseUnk) {
                    unk.end = end;
                } else {
                    if (hasUnk)
                        add(unk.id, unk.begin, unk.end);
                    unk = ModelToken{unkId(), begin, end};
                    hasUnk = true;
                }
            }
        }
        begin = end;
    }
    if (hasUnk)
        add(unk.id, unk.begin, unk.end);
    if (symbols.empty())
        return;
    symbols.back().next = -1;

    std::priority_queue<Merge, std::vector<Merge>, MergeAfter> queue;
    for (std::size_t i = 0; i + 1 < symbols.size(); ++i) {
        const auto it = m_merges.find(pairKey(symbols[i].id, symbols[i + 1].id));
        if (it != m_merges.end())
            queue.push({int(i), it->second.first, it->second.second});
    }
    while (!queue.empty()) {
        const Merge top = queue.top();
        queue.pop();
        Symbol& current = symbols[std::size_t(top.pos)];
        if (current.removed || current.next == -1)
            continue;
        const Symbol right = symbols[std::size_t(current.next)];
        // Skip an expired entry: the pair changed since it was queued.
        const auto it = m_merges.find(pairKey(current.id, right.id));
        if (it == m_merges.end() || it->second.second != top.newId)
            continue;
        symbols[std::size_t(current.next)].removed = true;
        current.id = top.newId;
        current.end = right.end;
        current.next = right.next;
        if (right.next >= 0)
            symbols[std::size_t(right.next)].prev = top.pos;
        if (current.prev >= 0) {
            const auto prevIt =
                m_merges.find(pairKey(symbols[std::size_t(current.prev)].id, current.id));
            if (prevIt != m_merges.end())
                queue.push({current.prev, prevIt->second.first, prevIt->second.second});
        }
        if (current.next >= 0) {
            const auto nextIt =
                m_merges.find(pairKey(current.id, symbols[std::size_t(current.next)].id));
            if (nextIt != m_merges.end())
                queue.push({top.pos, nextIt->second.first, nextIt->second.second});
        }
    }
    for (const Symbol& symbol : symbols)
        if (!symbol.removed)
            out.push_back({symbol.id, symbol.begin, symbol.end});
}

} // namespace attn::core::hf
