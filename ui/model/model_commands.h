#pragma once

#include "ui/model/model_document.h"

#include <QUndoCommand>

namespace attn::ui {

// A sentence typed into the model window; keystrokes of one typing burst (a gesture) merge.
class ModelTextCommand final : public QUndoCommand
{
public:
    ModelTextCommand(ModelDocument& document, QString after);

    int id() const override { return int(ModelCommandId::Text); }
    void redo() override;
    void undo() override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    ModelDocument& m_document;
    QString m_before;
    QString m_after;
    int m_gesture;
};

// Any change of the interventions: a head switched off or on, a layer's settings, a head's
// W^q/W^k/W^v, a reset, on any kind of head. The command keeps the whole interventions value before
// and after (a few sets and maps; edited matrices are d_model x d_head), so undo is exact. Commands
// with the same id and key in one gesture merge: a slider drag or a cell scrub is one step.
class InterventionsCommand final : public QUndoCommand
{
public:
    struct Key
    {
        int layer = -1;
        int head = -1;
        int matrix = -1; // HeadMatrix, for HeadWeights
        int kind = int(HeadKind::Decoder);
        bool operator==(const Key&) const = default;
    };

    InterventionsCommand(ModelDocument& document, ModelCommandId id, Key key,
                         core::EncoderDecoderInterventions after, const QString& text);

    bool isNoOp() const { return m_before == m_after; }
    int id() const override { return int(m_id); }
    void redo() override;
    void undo() override;
    bool mergeWith(const QUndoCommand* other) override;

private:
    ModelDocument& m_document;
    ModelCommandId m_id;
    Key m_key;
    core::EncoderDecoderInterventions m_before; // every kind's: undo restores all three
    core::EncoderDecoderInterventions m_after;
    int m_gesture;
};

} // namespace attn::ui
