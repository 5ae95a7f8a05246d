#pragma once

#include "matrix.h"
#include "tokenizer.h"

#include <QString>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace attn::core {

class WordVectors;

enum class EmbeddingKind {
    Hashed,      // a pseudo-random N(0, 1) vector per token string and seed
    OneHot,      // e_v over the sentence vocabulary, in order of first appearance (seed 001)
    Table,       // an explicit vector per token string, stored in the scene
    WordVectors, // GloVe / word2vec text file
};

std::string_view toString(EmbeddingKind kind);
std::optional<EmbeddingKind> parseEmbeddingKind(std::string_view name);

struct EmbeddingSettings
{
    EmbeddingKind kind = EmbeddingKind::Hashed;
    std::uint64_t seed = 1;
    std::map<QString, std::vector<float>> table;    // kind Table: token text -> d_model values
    QString wordVectorPath;                         // kind WordVectors: as written in the scene
    std::shared_ptr<const WordVectors> wordVectors; // kind WordVectors: the loaded file
};

struct Embedded
{
    Matrix vectors;             // tokens x d_model
    std::vector<bool> fallback; // true where a Table/WordVectors lookup missed and the
                                // hashed vector was used instead
};

// Distinct token texts in order of first appearance across the given sentences.
std::vector<QString> sentenceVocabulary(const std::vector<const std::vector<Token>*>& sentences);

// Throws Error when one-hot needs more dimensions than d_model, or a table row has the
// wrong width.
Embedded embedTokens(const std::vector<Token>& tokens, const EmbeddingSettings& settings,
                     int dModel, const std::vector<QString>& vocabulary);

// The hashed vector of one token: the same string and seed give the same vector always.
RowVector hashedEmbedding(const QString& token, std::uint64_t seed, int dModel);

enum class PositionalKind {
    None,
    Sinusoidal, // PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i+1) = cos(...) (Vaswani et al. 3.5)
    Table,      // explicit rows, one per position
};

std::string_view toString(PositionalKind kind);
std::optional<PositionalKind> parsePositionalKind(std::string_view name);

struct PositionalSettings
{
    PositionalKind kind = PositionalKind::None;
    Matrix table; // kind Table: at least as many rows as tokens, d_model columns
};

// tokens x d_model; zeros for None. Throws Error when a table is too short or too narrow.
Matrix positionalEncoding(int tokens, int dModel, const PositionalSettings& settings);

} // namespace attn::core
