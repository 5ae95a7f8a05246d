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
    // kind OneHot: the word of each dimension, e_v for vocabulary[v] (v < d_model). Empty: the
    // sentences' vocabulary in order of first appearance. Kept with the scene so that the
    // words it was made for keep their vectors when other words are typed.
    std::vector<QString> vocabulary;
    std::map<QString, std::vector<float>> table;    // kind Table: token text -> d_model values
    QString wordVectorPath;                         // kind WordVectors: as written in the scene
    std::shared_ptr<const WordVectors> wordVectors; // kind WordVectors: the loaded file
};

struct Embedded
{
    Matrix vectors;             // tokens x d_model
    std::vector<bool> fallback; // true where a OneHot/Table/WordVectors lookup missed and
                                // the hashed vector was used instead
};

// Distinct token texts in order of first appearance across the given sentences.
std::vector<QString> sentenceVocabulary(const std::vector<const std::vector<Token>*>& sentences);

// One-hot: a token among the first d_model words of the vocabulary (settings.vocabulary, or
// `vocabulary` when that is empty) gets e_v; any other token falls back to its hashed vector,
// as a token a table lacks does, so that every sentence can be embedded. Throws Error when a
// table row has the wrong width or word vectors are missing or of another width.
Embedded embedTokens(const std::vector<Token>& tokens, const EmbeddingSettings& settings,
                     int dModel, const std::vector<QString>& vocabulary);

// The hashed vector of one token: the same string and seed give the same vector always.
RowVector hashedEmbedding(const QString& token, std::uint64_t seed, int dModel);

enum class PositionalKind {
    None,
    Sinusoidal, // PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i+1) = cos(...) (Vaswani et al. 3.5)
    Table,      // explicit rows, one per position; positions past them are sinusoidal
};

std::string_view toString(PositionalKind kind);
std::optional<PositionalKind> parsePositionalKind(std::string_view name);

struct PositionalSettings
{
    PositionalKind kind = PositionalKind::None;
    Matrix table; // kind Table: d_model columns, a row per position (later ones sinusoidal)
};

// tokens x d_model; zeros for None. Throws Error when a table has another width than d_model.
Matrix positionalEncoding(int tokens, int dModel, const PositionalSettings& settings);

} // namespace attn::core
