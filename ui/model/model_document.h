#pragma once

#include "core/model/encoder_decoder.h"
#include "core/model/forward.h"
#include "core/model/intervention.h"
#include "core/model/model_loader.h"
#include "core/model/model_result.h"
#include "ui/document/undo_gesture.h"

#include <QObject>
#include <QString>
#include <QUndoStack>
#include <memory>

namespace attn::ui {

// The projections of one head a user may rewrite (HeadEdit's three).
enum class HeadMatrix { Wq, Wk, Wv };
QString headMatrixTitle(HeadMatrix matrix); // "W^q"

// The three kinds of heads of an encoder-decoder model, in the model window's grid order. A
// decoder-only or encoder-only model's heads are all of the Decoder kind (its run's layers).
enum class HeadKind { Encoder, Decoder, Cross };

// The checkpoint's attention weights of one kind's layer, null outside the model.
const core::ModelWeights* attentionWeights(const core::Model& model, HeadKind kind, int layer);

// QUndoCommand ids of the model window: consecutive edits with the same id, key and gesture
// merge (a scrub of one W^q cell is one step). Apart from SceneDocument's CommandId.
enum class ModelCommandId {
    Text = 100,
    HeadOff,
    LayerSettings, // score, normalization, fill, mask of one layer
    Temperature,   // of one layer (a slider drag merges)
    HeadWeights,   // W^q, W^k or W^v of one head
    Reset,
};

// A real model in the window (Tiled's document for a checkpoint): the model, the sentence, the
// interventions with their own undo stack, which layer and head is selected, the query token in
// focus, and the latest results. The undo stack holds interventions, never results
// (DESIGN-models.md); every edit is a QUndoCommand (model_commands.h).
class ModelDocument : public QObject
{
    Q_OBJECT

public:
    explicit ModelDocument(QObject* parent = nullptr);
    ~ModelDocument() override;

    // Replaces everything: a new model (or the same one opened again) with a fresh, clean
    // undo history. `path` is the scene file this came from, if any.
    void reset(std::shared_ptr<const core::Model> model, const QString& text,
               const core::Interventions& interventions = {}, int layer = 0, int head = 0,
               const QString& path = QString());
    // The same with an encoder-decoder model's encoder and cross-attention interventions and
    // the kind of head selected (a model of one stack keeps the Decoder kind only).
    void reset(std::shared_ptr<const core::Model> model, const QString& text,
               const core::EncoderDecoderInterventions& interventions, HeadKind kind, int layer,
               int head, const QString& path);

    const std::shared_ptr<const core::Model>& model() const { return m_model; }
    bool hasModel() const { return m_model != nullptr; }
    int layerCount() const;
    int headCount() const;
    // The layers and heads of one kind (an encoder may have more layers than its decoder).
    int layerCount(HeadKind kind) const;
    int headCount(HeadKind kind) const;
    QString text() const { return m_text; }
    // The decoder's (a model of one stack: its only) interventions.
    const core::Interventions& interventions() const { return m_interventions; }
    // Those of one kind of heads, and all three (an encoder-decoder model's run and translation).
    const core::Interventions& interventions(HeadKind kind) const;
    core::EncoderDecoderInterventions allInterventions() const;
    bool hasInterventions() const { return !allInterventions().empty(); }
    bool isHeadOff(int layer, int head) const;

    // The head the views and the controls show (not an undo step).
    int selectedLayer() const { return m_layer; }
    int selectedHead() const { return m_head; }
    // Decoder, except for an encoder-decoder model's encoder or cross-attention heads.
    HeadKind selectedKind() const { return m_kind; }
    void select(int layer, int head); // of the kind selected, clamped to its counts
    void select(HeadKind kind, int layer, int head);
    // The query token whose attention the grid highlights in every head; -1: none.
    int focusToken() const { return m_focus; }
    void setFocusToken(int token);

    QString filePath() const { return m_path; }
    void markSaved(const QString& path);
    // Restored work (crash recovery): unsaved, with no undo step back to the checkpoint.
    void markModified();
    bool isModified() const { return !m_undo.isClean(); }
    QUndoStack* undoStack() { return &m_undo; }
    // "gpt2", else the scene's file name.
    QString displayName() const;

    // Edits: each pushes one undo command unless nothing changes.
    void setText(const QString& text);
    void setHeadOff(int layer, int head, bool off);
    void setHeadOff(HeadKind kind, int layer, int head, bool off);
    // The score, normalization, fill and mask of one layer (every head of it: the model
    // computes a layer's heads with one setting). Temperature merges within a gesture.
    void setLayerSettings(int layer, const core::LayerEdit& settings, const QString& what);
    void setTemperature(int layer, float temperature);
    void setTemperature(HeadKind kind, int layer, float temperature);
    // A head's projection, d_model x d_head; the checkpoint's own again removes the edit.
    void setHeadMatrix(int layer, int head, HeadMatrix which, const core::Matrix& matrix,
                       const QString& what = {});
    void setHeadMatrix(HeadKind kind, int layer, int head, HeadMatrix which,
                       const core::Matrix& matrix, const QString& what = {});
    // Back to the checkpoint: every intervention (of every kind of head) undone in one step.
    void resetInterventions();

    // The checkpoint's own projection of a head (what "unedited" means).
    core::Matrix checkpointMatrix(int layer, int head, HeadMatrix which) const;
    core::Matrix checkpointMatrix(HeadKind kind, int layer, int head, HeadMatrix which) const;
    // What the head computes with now: the edited matrix, else the checkpoint's.
    core::Matrix headMatrix(int layer, int head, HeadMatrix which) const;
    // The layer's settings as the model computes them (the checkpoint's, with any edit).
    core::LayerEdit layerSettings(int layer) const;

    // One undo step for a drag or typing burst (UndoGesture).
    int beginGesture() { return m_gesture.begin(); }
    void endGesture(int serial = 0) { m_gesture.end(serial); }
    int gesture() const { return m_gesture.current(); }

    // The latest run with the interventions, and the unedited run it is compared with.
    std::shared_ptr<const core::ModelResult> result() const { return m_result; }
    std::shared_ptr<const core::ModelResult> baseline() const { return m_baseline; }
    void setResults(std::shared_ptr<const core::ModelResult> result,
                    std::shared_ptr<const core::ModelResult> baseline);

    // Used by the undo commands only.
    void applyText(const QString& text);
    void applyInterventions(const core::EncoderDecoderInterventions& interventions);

signals:
    void modelChanged();
    void textChanged();
    void interventionsChanged();
    void selectionChanged(int layer, int head);
    void focusChanged(int token);
    void modifiedChanged(bool modified);
    void filePathChanged(const QString& path);
    void resultChanged();

private:
    // Pushes one InterventionsCommand that leaves `kind`'s interventions as `after`.
    void pushEdit(HeadKind kind, core::Interventions after, ModelCommandId id, int layer, int head,
                  int matrix, const QString& text);

    std::shared_ptr<const core::Model> m_model;
    QString m_text;
    core::Interventions m_interventions; // the decoder's
    core::Interventions m_encoder;
    core::Interventions m_cross;
    int m_layer = 0;
    int m_head = 0;
    HeadKind m_kind = HeadKind::Decoder;
    int m_focus = -1;
    QString m_path;
    QUndoStack m_undo;
    UndoGesture m_gesture;
    std::shared_ptr<const core::ModelResult> m_result;
    std::shared_ptr<const core::ModelResult> m_baseline;
};

} // namespace attn::ui
