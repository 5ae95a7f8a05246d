#pragma once

#include "core/tokenizers/pipeline.h"
#include "core/tokenizers/vocabulary.h"

#include <array>
#include <cstdint>
#include <unordered_map>
#include <utility>

namespace attn::core::hf {

struct BpeOptions
{
    std::optional<QString> unkToken;
    std::optional<QString> continuingSubwordPrefix;
    std::optional<QString> endOfWordSuffix;
    bool fuseUnk = false;
    bool byteFallback = false;
    bool ignoreMerges = false;
};

// Byte-pair encoding (tokenizers/src/models/bpe/{model,word}.rs): a word starts as one symbol
// per character (or its <0xXX> bytes, or the unknown token), then the adjacent pair with the
// lowest merge rank is merged, leftmost first, until no pair has a rank. A heap ordered by
// (rank, position) makes that O(n log n) per word; stale heap entries are skipped as there.
class BpeModel final : public Model
{
public:
    // `mergePath(i)` names merge i in error messages ("model.merges[12]", "merges.txt line 13").
    BpeModel(Vocabulary vocabulary, const std::vector<std::pair<QString, QString>>& merges,
             BpeOptions options, const JsonReader& reader,
             const std::function<QString(qsizetype)>& mergePath);

    void tokenize(const QString& word, std::vector<ModelToken>& out,
                  WordCache& cache) const override;
    qsizetype minimumTokens(qsizetype units) const override;
    std::optional<int> idOf(const QString& piece) const override
    {
        return m_vocabulary.idOf(piece);
    }
    QString pieceOf(int id) const override { return m_vocabulary.pieceOf(id); }
    int vocabSize() const override { return m_vocabulary.size(); }
    int pieceCount() const override { return int(m_vocabulary.ids().size()); }
    QString kind() const override;
    QString continuingSubwordPrefix() const override
    {
        return m_options.continuingSubwordPrefix.value_or(QString());
    }
    bool byteFallback() const override { return m_options.byteFallback; }

    // Set when every character a word can hold is in the vocabulary (byte-level words), so
    // that a word of n units gives at least n / longest-piece tokens.
    void setEveryCharacterKnown(bool known) { m_everyCharacterKnown = known; }
    bool hasByteLevelAlphabet() const;

private:
    void mergeWord(const QString& word, std::vector<ModelToken>& out) const;

    Vocabulary m_vocabulary;
    std::unordered_map<std::uint64_t, std::pair<int, int>> m_merges; // (a, b) -> (rank, new id)
    BpeOptions m_options;
    std::optional<int> m_unkId;
    std::array<int, 256> m_byteIds{}; // <0xXX> pieces, -1 where missing
    bool m_allBytes = false;
    bool m_everyCharacterKnown = false;
};

} // namespace attn::core::hf
