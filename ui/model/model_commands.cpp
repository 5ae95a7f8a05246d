#include "ui/model/model_commands.h"

namespace attn::ui {

ModelTextCommand::ModelTextCommand(ModelDocument& document, QString after)
    : QUndoCommand(QObject::tr("Edit sentence")), m_document(document), m_before(document.text()),
      m_after(std::move(after)), m_gesture(document.gesture())
{
}

void ModelTextCommand::redo()
{
    m_document.applyText(m_after);
}

void ModelTextCommand::undo()
{
    m_document.applyText(m_before);
}

bool ModelTextCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const ModelTextCommand*>(other);
    if (m_gesture == 0 || next->m_gesture != m_gesture)
        return false;
    m_after = next->m_after;
    setObsolete(m_after == m_before);
    return true;
}

InterventionsCommand::InterventionsCommand(ModelDocument& document, ModelCommandId id, Key key,
                                           core::EncoderDecoderInterventions after,
                                           const QString& text)
    : QUndoCommand(text), m_document(document), m_id(id), m_key(key),
      m_before(document.allInterventions()), m_after(std::move(after)),
      m_gesture(document.gesture())
{
}

void InterventionsCommand::redo()
{
    m_document.applyInterventions(m_after);
}

void InterventionsCommand::undo()
{
    m_document.applyInterventions(m_before);
}

bool InterventionsCommand::mergeWith(const QUndoCommand* other)
{
    const auto* next = static_cast<const InterventionsCommand*>(other); // same id: same type
    if (m_gesture == 0 || next->m_gesture != m_gesture || !(next->m_key == m_key))
        return false;
    m_after = next->m_after;
    setObsolete(isNoOp()); // a drag that ends where it began leaves no step
    return true;
}

} // namespace attn::ui
