#pragma once

#include "ui/document/scene_document.h"

#include <QTimer>
#include <QWidget>

class QComboBox;
class QLabel;

namespace attn::ui {

class MatrixEditor;

// Edits one weight matrix at a time: W^q, W^k, W^v, w (additive), M (bilinear) of a head,
// W^O, the embeddings and the positional encodings, in a MatrixEditor. A scrub is one undo
// step; typed values, randomize, identity and imports are one step each.
class WeightsPanel : public QWidget
{
    Q_OBJECT

public:
    explicit WeightsPanel(SceneDocument& document, QWidget* parent = nullptr);

    WeightRef current() const { return m_ref; }
    void setCurrent(WeightRef ref);
    MatrixEditor* editor() const { return m_editor; }
    // Reads a .npy, .csv or .safetensors file into the matrix shown (drag and drop).
    bool importFile(const QString& path);

signals:
    void message(const QString& text);

private:
    void syncFromScene(SceneChanges what);
    void refresh();
    void onSelection();
    void applyCell(int row, int column, float value);

    SceneDocument& m_document;
    QComboBox* m_kind = nullptr;
    QComboBox* m_layer = nullptr; // stacked blocks only
    QComboBox* m_head = nullptr;
    QLabel* m_note = nullptr;
    MatrixEditor* m_editor = nullptr;
    WeightRef m_ref;
    int m_scrubGesture = 0;
    bool m_syncing = false;
    QTimer m_refreshLater; // embeddings follow typing, but not on every keystroke
};

} // namespace attn::ui
