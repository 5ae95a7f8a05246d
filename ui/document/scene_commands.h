#pragma once

#include "ui/document/scene_document.h"

#include <QUndoCommand>
#include <cstring>
#include <variant>

namespace attn::ui {

// One undo command type per kind of edit: SliceCommand<Slice> replaces one slice of the
// scene (Slice says which, how to read and write it, and its id). The command keeps the
// exact values before and after, so undo restores the scene bit for bit.
//
// A Slice provides: Key (what within the kind, e.g. which matrix), Value, the CommandId,
// the SceneChanges it causes, get, set, same (is a change a no-op) and a text for the Edit
// menu.
template <typename Slice> class SliceCommand final : public QUndoCommand
{
public:
    using Key = typename Slice::Key;
    using Value = typename Slice::Value;

    SliceCommand(SceneDocument& document, Key key, Value after)
        : QUndoCommand(Slice::text(key)), m_document(document), m_key(key),
          m_before(Slice::get(document.scene(), key)), m_after(std::move(after)),
          m_gesture(document.gesture())
    {
    }

    bool isNoOp() const { return Slice::same(m_before, m_after); }

    int id() const override { return int(Slice::id); }
    void redo() override { apply(m_after); }
    void undo() override { apply(m_before); }

    // Only within one gesture and for the same key (one matrix, one head), so two separate
    // drags stay two steps.
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* next = static_cast<const SliceCommand*>(other); // same id: same type
        if (m_gesture == 0 || next->m_gesture != m_gesture || !(next->m_key == m_key))
            return false;
        m_after = next->m_after;
        setObsolete(isNoOp()); // a drag that ends where it began leaves no step
        return true;
    }

private:
    void apply(const Value& value)
    {
        m_document.applyScene(
            [this, &value](core::Scene& scene) { Slice::set(scene, m_key, value); },
            Slice::changes());
    }

    SceneDocument& m_document;
    Key m_key;
    Value m_before;
    Value m_after;
    int m_gesture;
};

// Exact comparisons that, unlike Eigen's operator==, accept different shapes (the model's
// shape changes) and tell -0 from 0 (undo is bit for bit).
template <typename M> bool sameMatrix(const M& a, const M& b)
{
    return a.rows() == b.rows() && a.cols() == b.cols() &&
           (a.size() == 0 ||
            std::memcmp(a.data(), b.data(), std::size_t(a.size()) * sizeof(float)) == 0);
}
bool sameWeights(const core::ModelWeights& a, const core::ModelWeights& b);
bool sameLayers(const std::vector<core::StackedLayer>& a, const std::vector<core::StackedLayer>& b);
bool sameEmbedding(const core::EmbeddingSettings& a, const core::EmbeddingSettings& b);
bool samePositional(const core::PositionalSettings& a, const core::PositionalSettings& b);

namespace slices {

using NoKey = std::monostate;

// Positions marked by hand (padding keys, custom mask cells) that a shorter sentence no
// longer has go in the same step as the edit that shortened it, so the scene stays valid.
struct MarkedPositions
{
    std::vector<int> padding;
    std::vector<std::pair<int, int>> customCells;
    bool operator==(const MarkedPositions&) const = default;
};

inline MarkedPositions markedPositions(const core::Scene& s)
{
    return {s.paddingPositions, s.mask.customCells};
}

inline void setMarkedPositions(core::Scene& s, const MarkedPositions& m)
{
    s.paddingPositions = m.padding;
    s.mask.customCells = m.customCells;
}

template <typename Field, CommandId Id> struct Sentence
{
    struct Value
    {
        Field field;
        MarkedPositions marked;
        bool operator==(const Value&) const = default;
    };
    using Key = NoKey;
    static constexpr CommandId id = Id;
    static SceneChanges changes() { return SceneChange::Text | SceneChange::Settings; }
    static Value get(const core::Scene& s, Key) { return {field(s), markedPositions(s)}; }
    static void set(core::Scene& s, Key, const Value& v)
    {
        field(s) = v.field;
        setMarkedPositions(s, v.marked);
    }
    static bool same(const Value& a, const Value& b) { return a == b; }
    static QString text(Key)
    {
        switch (Id) {
        case CommandId::Text:
            return QObject::tr("Edit text");
        case CommandId::Source:
            return QObject::tr("Edit source sentence");
        default:
            return QObject::tr("Change tokenizer");
        }
    }
    static Field& field(core::Scene& s)
    {
        if constexpr (Id == CommandId::Text)
            return s.text;
        else if constexpr (Id == CommandId::Source)
            return s.source;
        else
            return s.tokenizer;
    }
    static const Field& field(const core::Scene& s) { return field(const_cast<core::Scene&>(s)); }
};

using Text = Sentence<QString, CommandId::Text>;
using Source = Sentence<std::optional<QString>, CommandId::Source>;
using Tokenizer = Sentence<core::TokenizerSettings, CommandId::Tokenizer>;

struct Padding
{
    using Key = NoKey;
    using Value = std::pair<QString, std::vector<int>>;
    static constexpr CommandId id = CommandId::Padding;
    static SceneChanges changes() { return SceneChange::Text; }
    static Value get(const core::Scene& s, Key) { return {s.paddingToken, s.paddingPositions}; }
    static void set(core::Scene& s, Key, const Value& v)
    {
        s.paddingToken = v.first;
        s.paddingPositions = v.second;
    }
    static bool same(const Value& a, const Value& b) { return a == b; }
    static QString text(Key) { return QObject::tr("Change padding"); }
};

struct Attention
{
    struct Value
    {
        core::ScoreKind score;
        core::Normalization normalization;
        core::MaskFill fill;
        bool operator==(const Value&) const = default;
    };
    using Key = NoKey;
    static constexpr CommandId id = CommandId::Attention;
    static SceneChanges changes() { return SceneChange::Settings; }
    static Value get(const core::Scene& s, Key) { return {s.score, s.normalization, s.fill}; }
    static void set(core::Scene& s, Key, const Value& v)
    {
        s.score = v.score;
        s.normalization = v.normalization;
        s.fill = v.fill;
    }
    static bool same(const Value& a, const Value& b) { return a == b; }
    static QString text(Key) { return QObject::tr("Change score"); }
};

struct Temperature
{
    using Key = NoKey;
    using Value = float;
    static constexpr CommandId id = CommandId::Temperature;
    static SceneChanges changes() { return SceneChange::Settings; }
    static Value get(const core::Scene& s, Key) { return s.temperature; }
    static void set(core::Scene& s, Key, const Value& v) { s.temperature = v; }
    static bool same(const Value& a, const Value& b) { return a == b; }
    static QString text(Key) { return QObject::tr("Change temperature"); }
};

struct Mask
{
    using Key = NoKey;
    using Value = core::MaskSpec;
    static constexpr CommandId id = CommandId::Mask;
    static SceneChanges changes() { return SceneChange::Settings; }
    static Value get(const core::Scene& s, Key) { return s.mask; }
    static void set(core::Scene& s, Key, const Value& v) { s.mask = v; }
    static bool same(const Value& a, const Value& b) { return a == b; }
    static QString text(Key) { return QObject::tr("Change mask"); }
};

struct HeadEnabled
{
    using Key = int;
    using Value = bool;
    static constexpr CommandId id = CommandId::HeadEnabled;
    static SceneChanges changes() { return SceneChange::Weights; }
    static Value get(const core::Scene& s, Key head)
    {
        return s.weights.heads[std::size_t(head)].enabled;
    }
    static void set(core::Scene& s, Key head, const Value& v)
    {
        s.weights.heads[std::size_t(head)].enabled = v;
    }
    static bool same(const Value& a, const Value& b) { return a == b; }
    static QString text(Key head) { return QObject::tr("Switch head %1").arg(head + 1); }
};

// The matrices stored as they are shown (W^q, W^k, W^v, w, M, W^O).
struct Weight
{
    using Key = WeightRef;
    using Value = core::Matrix;
    static constexpr CommandId id = CommandId::Weight;
    static SceneChanges changes() { return SceneChange::Weights; }
    static Value get(const core::Scene& s, Key ref);
    static void set(core::Scene& s, Key ref, const Value& v);
    static bool same(const Value& a, const Value& b) { return sameMatrix(a, b); }
    static QString text(Key ref) { return QObject::tr("Edit %1").arg(weightTitle(ref)); }
};

struct Embedding
{
    using Key = NoKey;
    using Value = core::EmbeddingSettings;
    static constexpr CommandId id = CommandId::Embedding;
    static SceneChanges changes() { return SceneChange::Weights; }
    static Value get(const core::Scene& s, Key) { return s.embedding; }
    static void set(core::Scene& s, Key, const Value& v) { s.embedding = v; }
    static bool same(const Value& a, const Value& b) { return sameEmbedding(a, b); }
    static QString text(Key) { return QObject::tr("Edit embeddings"); }
};

struct Positional
{
    using Key = NoKey;
    using Value = core::PositionalSettings;
    static constexpr CommandId id = CommandId::Positional;
    static SceneChanges changes() { return SceneChange::Weights; }
    static Value get(const core::Scene& s, Key) { return s.positional; }
    static void set(core::Scene& s, Key, const Value& v) { s.positional = v; }
    static bool same(const Value& a, const Value& b) { return samePositional(a, b); }
    static QString text(Key) { return QObject::tr("Edit positional encodings"); }
};

// A new shape redraws every weight and may reset tables of the old width.
struct Model
{
    struct Value
    {
        std::uint64_t seed = 1;
        core::ModelWeights weights;
        core::EmbeddingSettings embedding;
        core::PositionalSettings positional;
        std::vector<core::StackedLayer> layers; // a new shape draws every block again
    };
    using Key = NoKey;
    static constexpr CommandId id = CommandId::Model;
    static SceneChanges changes() { return SceneChange::Weights; }
    static Value get(const core::Scene& s, Key)
    {
        return {s.seed, s.weights, s.embedding, s.positional, s.layers};
    }
    static void set(core::Scene& s, Key, const Value& v)
    {
        s.seed = v.seed;
        s.weights = v.weights;
        s.embedding = v.embedding;
        s.positional = v.positional;
        s.layers = v.layers;
    }
    static bool same(const Value& a, const Value& b)
    {
        return a.seed == b.seed && sameWeights(a.weights, b.weights) &&
               sameEmbedding(a.embedding, b.embedding) &&
               samePositional(a.positional, b.positional) && sameLayers(a.layers, b.layers);
    }
    static QString text(Key) { return QObject::tr("Change model shape"); }
};

// The stacked blocks (core/scene_layers.h): how many, and their weights.
struct Layers
{
    using Key = NoKey;
    using Value = std::vector<core::StackedLayer>;
    static constexpr CommandId id = CommandId::Layers;
    static SceneChanges changes() { return SceneChange::Weights; }
    static Value get(const core::Scene& s, Key) { return s.layers; }
    static void set(core::Scene& s, Key, const Value& v)
    {
        s.layers = v;
        // The layer shown stays one the scene has.
        s.view.layer = std::min(s.view.layer, core::layerCount(s) - 1);
    }
    static bool same(const Value& a, const Value& b) { return sameLayers(a, b); }
    static QString text(Key) { return QObject::tr("Change layers"); }
};

struct Title
{
    using Key = NoKey;
    using Value = std::pair<QString, QString>;
    static constexpr CommandId id = CommandId::Title;
    static SceneChanges changes() { return SceneChange::Title; }
    static Value get(const core::Scene& s, Key) { return {s.title, s.description}; }
    static void set(core::Scene& s, Key, const Value& v)
    {
        s.title = v.first;
        s.description = v.second;
    }
    static bool same(const Value& a, const Value& b) { return a == b; }
    static QString text(Key) { return QObject::tr("Edit title"); }
};

} // namespace slices
} // namespace attn::ui
