#include "ui/widgets/embedding_options.h"

#include <QObject>

namespace attn::ui {

QString embeddingKindLabel(core::EmbeddingKind kind)
{
    switch (kind) {
    case core::EmbeddingKind::Hashed:
        return QObject::tr("hashed");
    case core::EmbeddingKind::OneHot:
        return QObject::tr("one-hot");
    case core::EmbeddingKind::Table:
        return QObject::tr("table");
    case core::EmbeddingKind::WordVectors:
        return QObject::tr("word-vector file");
    }
    return {};
}

QString embeddingKindToolTip(core::EmbeddingKind kind)
{
    switch (kind) {
    case core::EmbeddingKind::Hashed:
        return QObject::tr(
            "A pseudo-random N(0, 1) vector per word, the same for the same word and seed");
    case core::EmbeddingKind::OneHot:
        return QObject::tr("One dimension per word, so different words share nothing: the scene "
                           "keeps its words' dimensions; other words, or more words than "
                           "d_model, get hashed vectors");
    case core::EmbeddingKind::Table:
        return QObject::tr(
            "The vectors in use now, kept in the scene and editable under Weights > Embeddings; "
            "words not in the table get hashed vectors");
    case core::EmbeddingKind::WordVectors:
        return QObject::tr("A GloVe or word2vec text file with d_model dimensions; words it lacks "
                           "get hashed vectors");
    }
    return {};
}

QString positionalKindLabel(core::PositionalKind kind)
{
    switch (kind) {
    case core::PositionalKind::None:
        return QObject::tr("none");
    case core::PositionalKind::Sinusoidal:
        return QObject::tr("sinusoidal");
    case core::PositionalKind::Table:
        return QObject::tr("table");
    }
    return {};
}

QString positionalKindToolTip(core::PositionalKind kind)
{
    switch (kind) {
    case core::PositionalKind::None:
        return QObject::tr("Nothing is added: the order of the words does not count");
    case core::PositionalKind::Sinusoidal:
        return QObject::tr(
            "PE(p, 2i) = sin(p / 10000^(2i/d)), PE(p, 2i+1) = cos(…) (Vaswani et al. 2017, 3.5)");
    case core::PositionalKind::Table:
        return QObject::tr(
            "The rows in use now, kept in the scene and editable under Weights > Positions; "
            "positions past the table are sinusoidal");
    }
    return {};
}

} // namespace attn::ui
