#include "embedding.h"

#include "enum_names.h"
#include "error.h"
#include "random.h"
#include "word_vectors.h"

#include <QHash>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <functional>
#include <string>

namespace attn::core {

namespace {

std::string quoted(const QString& token)
{
    return "'" + token.toStdString() + "'";
}

void checkWidth(int dModel)
{
    if (dModel < 1)
        throw Error("d_model must be at least 1, got " + std::to_string(dModel));
}

// One-hot over the vocabulary (seed 001: "This" = [0 0 1 0 ...], "is" = [1 0 0 0 ...]).
// The seed writes a = [0 2 0 0 ...]: a typo, a one-hot vector holds a single 1. Words past
// d_model, or not in a kept vocabulary, get their hashed vectors and are flagged.
Embedded oneHot(const std::vector<Token>& tokens, std::uint64_t seed, int dModel,
                const std::vector<QString>& vocabulary)
{
    QHash<QString, int> index;
    for (int v = 0; v < std::min(int(vocabulary.size()), dModel); ++v)
        index.insert(vocabulary[std::size_t(v)], v); // a repeated word keeps its first slot
    Embedded result{Matrix::Zero(qsizetype(tokens.size()), dModel),
                    std::vector<bool>(tokens.size(), false)};
    for (qsizetype i = 0; i < qsizetype(tokens.size()); ++i) {
        const auto found = index.constFind(tokens[std::size_t(i)].text);
        if (found != index.cend()) {
            result.vectors(i, *found) = 1.0f;
        } else {
            result.vectors.row(i) = hashedEmbedding(tokens[std::size_t(i)].text, seed, dModel);
            result.fallback[std::size_t(i)] = true;
        }
    }
    return result;
}

// Table and word-vector lookups: `lookup` gives dModel floats or nullptr for a miss, which
// falls back to the hashed vector so that every token still has an embedding. Without a
// lookup every row is hashed and none counts as a fallback.
Embedded lookUp(const std::vector<Token>& tokens, std::uint64_t seed, int dModel,
                const std::function<const float*(const QString&)>& lookup)
{
    Embedded result{Matrix(qsizetype(tokens.size()), dModel),
                    std::vector<bool>(tokens.size(), false)};
    for (qsizetype i = 0; i < qsizetype(tokens.size()); ++i) {
        if (const float* values = lookup ? lookup(tokens[i].text) : nullptr) {
            result.vectors.row(i) = Eigen::Map<const RowVector>(values, dModel);
        } else {
            result.vectors.row(i) = hashedEmbedding(tokens[i].text, seed, dModel);
            result.fallback[i] = bool(lookup);
        }
    }
    return result;
}

} // namespace

namespace {

constexpr EnumNames<EmbeddingKind, 4> kEmbeddingNames{
    {{EmbeddingKind::Hashed, "hashed"},
     {EmbeddingKind::OneHot, "onehot"},
     {EmbeddingKind::Table, "table"},
     {EmbeddingKind::WordVectors, "wordvectors"}}};
constexpr EnumNames<PositionalKind, 3> kPositionalNames{{{PositionalKind::None, "none"},
                                                         {PositionalKind::Sinusoidal, "sinusoidal"},
                                                         {PositionalKind::Table, "table"}}};

} // namespace

std::string_view toString(EmbeddingKind kind)
{
    return enumName(kEmbeddingNames, kind, "hashed");
}

std::optional<EmbeddingKind> parseEmbeddingKind(std::string_view name)
{
    return enumFromName(kEmbeddingNames, name);
}

std::string_view toString(PositionalKind kind)
{
    return enumName(kPositionalNames, kind, "none");
}

std::optional<PositionalKind> parsePositionalKind(std::string_view name)
{
    return enumFromName(kPositionalNames, name);
}

std::vector<QString> sentenceVocabulary(const std::vector<const std::vector<Token>*>& sentences)
{
    std::vector<QString> vocabulary;
    QSet<QString> seen;
    for (const std::vector<Token>* sentence : sentences) {
        if (!sentence)
            continue;
        for (const Token& token : *sentence) {
            if (!seen.contains(token.text)) {
                seen.insert(token.text);
                vocabulary.push_back(token.text);
            }
        }
    }
    return vocabulary;
}

RowVector hashedEmbedding(const QString& token, std::uint64_t seed, int dModel)
{
    checkWidth(dModel);
    const QByteArray utf8 = token.toUtf8();
    Random random(hashString(std::string_view(utf8.constData(), std::size_t(utf8.size())), seed));
    RowVector row(dModel);
    for (int j = 0; j < dModel; ++j)
        row[j] = float(random.normal());
    return row;
}

Embedded embedTokens(const std::vector<Token>& tokens, const EmbeddingSettings& settings,
                     int dModel, const std::vector<QString>& vocabulary)
{
    checkWidth(dModel);
    switch (settings.kind) {
    case EmbeddingKind::Hashed:
        return lookUp(tokens, settings.seed, dModel, {});
    case EmbeddingKind::OneHot:
        return oneHot(tokens, settings.seed, dModel,
                      settings.vocabulary.empty() ? vocabulary : settings.vocabulary);
    case EmbeddingKind::Table:
        return lookUp(tokens, settings.seed, dModel, [&](const QString& text) -> const float* {
            const auto found = settings.table.find(text);
            if (found == settings.table.end())
                return nullptr;
            if (qsizetype(found->second.size()) != dModel)
                throw Error("embedding table row " + quoted(text) + " has " +
                            std::to_string(found->second.size()) + " values, d_model is " +
                            std::to_string(dModel));
            return found->second.data();
        });
    case EmbeddingKind::WordVectors: {
        const WordVectors* vectors = settings.wordVectors.get();
        if (!vectors)
            throw Error("word vectors are not loaded" +
                        (settings.wordVectorPath.isEmpty()
                             ? std::string(": choose a GloVe or word2vec text file")
                             : " from " + settings.wordVectorPath.toStdString()));
        if (vectors->dimension() != dModel)
            throw Error("word vectors have " + std::to_string(vectors->dimension()) +
                        " dimensions, d_model is " + std::to_string(dModel));
        return lookUp(tokens, settings.seed, dModel,
                      [&](const QString& text) { return vectors->find(text); });
    }
    }
    throw Error("unknown embedding kind");
}

namespace {

// Vaswani et al. 2017 section 3.5: PE(p, 2i) = sin(p / 10000^(2i/d)),
// PE(p, 2i+1) = cos(p / 10000^(2i/d)); positions count from 0. Double precision keeps large
// p * frequency accurate before the cast to float.
void sinusoidalRows(Eigen::Ref<Matrix> pe, int firstPosition)
{
    const int dModel = int(pe.cols());
    for (int j = 0; j < dModel; ++j) {
        const int evenColumn = j - j % 2;
        const double wavelength = std::pow(10000.0, double(evenColumn) / double(dModel));
        for (int r = 0; r < int(pe.rows()); ++r) {
            const double angle = double(firstPosition + r) / wavelength;
            pe(r, j) = float(j % 2 == 0 ? std::sin(angle) : std::cos(angle));
        }
    }
}

} // namespace

Matrix positionalEncoding(int tokens, int dModel, const PositionalSettings& settings)
{
    checkWidth(dModel);
    if (tokens < 0)
        throw Error("the number of tokens cannot be negative, got " + std::to_string(tokens));
    switch (settings.kind) {
    case PositionalKind::None:
        return Matrix::Zero(tokens, dModel);
    case PositionalKind::Sinusoidal: {
        Matrix pe(tokens, dModel);
        sinusoidalRows(pe, 0);
        return pe;
    }
    case PositionalKind::Table: {
        if (settings.table.cols() != dModel)
            throw Error("the positional table has " + std::to_string(settings.table.cols()) +
                        " columns, d_model is " + std::to_string(dModel));
        // Positions past the table's rows (a longer sentence than it was made for) take the
        // sinusoidal rows, so that any sentence can be encoded.
        const int kept = std::min(tokens, int(settings.table.rows()));
        Matrix pe(tokens, dModel);
        pe.topRows(kept) = settings.table.topRows(kept);
        sinusoidalRows(pe.bottomRows(tokens - kept), kept);
        return pe;
    }
    }
    throw Error("unknown positional encoding kind");
}

} // namespace attn::core
