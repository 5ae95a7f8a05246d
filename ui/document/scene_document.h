#pragma once

#include "core/attention_result.h"
#include "core/scene.h"
#include "ui/document/undo_gesture.h"

#include <QFlags>
#include <QObject>
#include <QString>
#include <QUndoStack>
#include <functional>
#include <memory>
#include <optional>

namespace attn::ui {

namespace slices {
struct MarkedPositions;
}

// What an edit touched, so that views refresh only what depends on it.
enum class SceneChange : unsigned {
    Text = 0x1,     // text, source, tokenizer, padding: the tokens may differ
    Settings = 0x2, // score, normalization, temperature, fill, mask
    Weights = 0x4,  // any weight, the model's shape, embeddings, positions
    View = 0x8,     // how the figure is shown (never an undo step)
    Title = 0x10,
    All = 0x1f,
};
Q_DECLARE_FLAGS(SceneChanges, SceneChange)

// QUndoCommand ids: consecutive commands with the same id (and the same gesture, see
// SceneDocument::beginGesture) merge, so a slider drag or a cell scrub is one undo step.
enum class CommandId {
    Text = 1,
    Source,
    Tokenizer,
    Padding,
    Attention, // score, normalization, fill
    Temperature,
    Mask,
    HeadEnabled,
    Weight,
    Embedding,
    Positional,
    Model, // d_model, heads, d_k, d_v, seed: the weights are drawn again
    Title,
    Layers, // the stacked blocks
};

// One matrix a matrix editor shows. Embeddings and positions are shown as matrices
// (vocabulary x d_model, positions x d_model) and stored as tables once edited.
// W1, B1, W2, B2: a stacked block's feed-forward layer (core/scene_layers.h).
enum class WeightKind { Wq, Wk, Wv, Additive, Bilinear, Wo, Embedding, Positional, W1, B1, W2, B2 };

struct WeightRef
{
    WeightKind kind = WeightKind::Wq;
    int head = 0;  // per-head kinds only
    int layer = 0; // the stacked block (0 in a scene of one layer); not for embeddings, positions

    bool perHead() const
    {
        return kind == WeightKind::Wq || kind == WeightKind::Wk || kind == WeightKind::Wv ||
               kind == WeightKind::Additive || kind == WeightKind::Bilinear;
    }
    bool feedForward() const
    {
        return kind == WeightKind::W1 || kind == WeightKind::B1 || kind == WeightKind::W2 ||
               kind == WeightKind::B2;
    }
    bool operator==(const WeightRef&) const = default;
};

// "W^q · head 1", for menus and undo text.
QString weightTitle(WeightRef ref);

// The matrix as shown, with its row labels (tokens for embeddings and positions). Throws
// core::Error when the scene cannot be resolved (embeddings need the tokens).
struct WeightView
{
    core::Matrix matrix;
    QStringList rowLabels;
    QStringList columnLabels;
};
WeightView weightView(const core::Scene& scene, WeightRef ref);

// The scene with `ref` replaced by `matrix` (which must have the shown shape; Error if
// not). Embeddings and positions become tables holding exactly the vectors in use before,
// so the converted scene computes bit for bit the same until a value changes.
void setWeight(core::Scene& scene, WeightRef ref, const core::Matrix& matrix);

// The parts of a scene that define the model's shape; changing them draws new weights.
struct ModelShape
{
    int dModel = 8;
    int heads = 1;
    int dK = 8;
    int dV = 8;
    std::uint64_t seed = 1;

    bool operator==(const ModelShape&) const = default;
};
ModelShape modelShape(const core::Scene& scene);

// Owns the scene, its file path, the undo stack and the latest computed result (Tiled's
// document). Every edit is a QUndoCommand; views observe sceneChanged.
class SceneDocument : public QObject
{
    Q_OBJECT

public:
    explicit SceneDocument(QObject* parent = nullptr);
    ~SceneDocument() override;

    const core::Scene& scene() const { return m_scene; }
    QString filePath() const { return m_path; }
    // What the title bar and every question about the document call it: the file name, else
    // the scene's title (an example), else "Untitled".
    QString displayName() const;
    bool isModified() const { return !m_undo.isClean(); }
    QUndoStack* undoStack() { return &m_undo; }

    // Replaces everything (New, Open): the undo history starts afresh and is clean, or, for
    // a scene recovered after a crash, never clean until saved.
    void reset(const core::Scene& scene, const QString& path, bool modified = false);
    // After a successful save to `path`.
    void markSaved(const QString& path);

    // Edits: each pushes one undo command unless the value is unchanged. Within a gesture,
    // consecutive edits of the same kind (and the same matrix) merge into one step.
    void setText(const QString& text);
    void setSource(const std::optional<QString>& source);
    void setTokenizer(const core::TokenizerSettings& tokenizer);
    void setPadding(const QString& token, const std::vector<int>& positions);
    void setAttention(core::ScoreKind score, core::Normalization normalization,
                      core::MaskFill fill);
    void setTemperature(float temperature);
    void setMask(const core::MaskSpec& mask);
    void setHeadEnabled(int head, bool enabled);
    // Throws core::Error when the shape differs from the shown one. `text` names the step
    // in the Edit menu ("Randomize W^q · head 1"); empty: "Edit W^q · head 1".
    void setWeightMatrix(WeightRef ref, const core::Matrix& matrix,
                         const QString& text = QString());
    // `text` names the step in the Edit menu; empty: what changed ("Change embedding to one-hot").
    void setEmbedding(const core::EmbeddingSettings& embedding, const QString& text = QString());
    void setPositional(const core::PositionalSettings& positional, const QString& text = QString());
    // New weights drawn from shape.seed (Xavier); tables of a different width fall back to
    // hashed embeddings and sinusoidal positions. Throws core::Error for an invalid shape.
    void setModelShape(const ModelShape& shape);
    // Every weight at once (a trained layer's), same shapes; one undo step named `text`.
    void setWeights(const core::ModelWeights& weights, const QString& text);
    // 0: one attention layer; 1 to 4: that many stacked blocks, those kept keeping their weights
    // (core::setLayerCount). Throws core::Error outside 0 to 4.
    void setLayerCount(int count);
    void setTitle(const QString& title, const QString& description);
    // How the figure is shown: saved with the scene, but neither an undo step nor a change
    // that asks to be saved.
    void setView(const core::ViewSettings& view);

    // One undo step for a drag, scrub or typing burst (UndoGesture).
    int beginGesture() { return m_gesture.begin(); }
    void endGesture(int serial = 0) { m_gesture.end(serial); }
    bool inGesture() const { return m_gesture.current() != 0; }

    // The latest result computed for this scene (null before the first).
    std::shared_ptr<const core::AttentionResult> result() const { return m_result; }
    void setResult(std::shared_ptr<const core::AttentionResult> result);

    // Used by the undo commands only.
    void applyScene(const std::function<void(core::Scene&)>& change, SceneChanges what);
    int gesture() const { return m_gesture.current(); }

signals:
    void sceneChanged(attn::ui::SceneChanges what);
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);
    void resultChanged();

private:
    slices::MarkedPositions markedAfter(const std::function<void(core::Scene&)>& change) const;
    template <typename Slice, typename Key, typename Value>
    void push(const Key& key, Value value, const QString& text = QString());

    core::Scene m_scene;
    QString m_path;
    QUndoStack m_undo;
    std::shared_ptr<const core::AttentionResult> m_result;
    UndoGesture m_gesture;
};

} // namespace attn::ui

Q_DECLARE_OPERATORS_FOR_FLAGS(attn::ui::SceneChanges)
