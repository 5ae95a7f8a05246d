#pragma once

#include "core/tokenizers/pipeline.h"
#include "core/tokenizers/sentencepiece_model.h"
#include "core/tokenizers/vocabulary.h"

#include <memory>

namespace attn::core::hf {

// Marian's tokenizer (transformers' MarianTokenizer, opus-mt): SentencePiece pieces of the
// source model (source.spm), each looked up in vocab.json, a piece not there being the unknown
// token. A target-language code at the start (">>por<<") is a token of its own, and every
// ">>...<<" is taken out of the text before SentencePiece sees it, as there.
class MarianModel final : public Model
{
public:
    MarianModel(std::shared_ptr<const SentencePieceModel> source, Vocabulary vocabulary, int unkId);

    void tokenize(const QString& word, std::vector<ModelToken>& out,
                  WordCache& cache) const override;
    qsizetype minimumTokens(qsizetype) const override { return 0; }
    std::optional<int> idOf(const QString& piece) const override
    {
        return m_vocabulary.idOf(piece);
    }
    QString pieceOf(int id) const override { return m_vocabulary.pieceOf(id); }
    int vocabSize() const override { return m_vocabulary.size(); }
    int pieceCount() const override { return int(m_vocabulary.ids().size()); }
    QString kind() const override { return QStringLiteral("SentencePiece (Marian)"); }

private:
    std::shared_ptr<const SentencePieceModel> m_source;
    Vocabulary m_vocabulary;
    int m_unkId;
};

} // namespace attn::core::hf
