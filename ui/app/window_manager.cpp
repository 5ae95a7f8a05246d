#include "ui/app/window_manager.h"

#include "ui/model/model_window.h"
#include "ui/model/open_model_dialog.h"
#include "ui/seq2seq/seq2seq_window.h"

namespace attn::ui {

namespace {

// The windows not yet closed (a closed one is deleted, its pointer null).
template <typename Window> QList<Window*> openOnes(const QList<QPointer<Window>>& windows)
{
    QList<Window*> open;
    for (const QPointer<Window>& window : windows)
        if (window)
            open.append(window);
    return open;
}

} // namespace

WindowManager::WindowManager(core::BackendFactory backends, core::BackendChoice modelChoice,
                             const QString& modelSelector, QObject* parent)
    : QObject(parent), m_backends(std::move(backends)), m_modelChoice(modelChoice),
      m_modelSelector(modelSelector)
{
}

Seq2SeqWindow* WindowManager::newSeq2SeqWindow()
{
    m_seq2seqWindows.removeAll(nullptr); // closed, deleted
    auto* window = new Seq2SeqWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    window->show();
    m_seq2seqWindows.append(window);
    return window;
}

QList<Seq2SeqWindow*> WindowManager::seq2seqWindows() const
{
    return openOnes(m_seq2seqWindows);
}

ModelWindow* WindowManager::newModelWindow()
{
    m_modelWindows.removeAll(nullptr); // closed, deleted
    ModelWindow* window = ModelWindow::create(m_backends, m_modelChoice, m_modelSelector);
    m_modelWindows.append(window);
    return window;
}

ModelWindow* WindowManager::openModel(const QString& folderOrId, QWidget* dialogParent)
{
    QString source = folderOrId;
    if (source.isEmpty()) {
        OpenModelDialog dialog(dialogParent);
        if (dialog.exec() != QDialog::Accepted || dialog.selectedFolder().isEmpty())
            return nullptr;
        source = dialog.selectedFolder();
    }
    ModelWindow* window = newModelWindow();
    window->openModel(source);
    return window;
}

bool WindowManager::openModelScene(const QString& path)
{
    return newModelWindow()->openScene(path);
}

ModelRecovery* WindowManager::newModelRecovery()
{
    return newModelWindow()->recovery();
}

QList<ModelWindow*> WindowManager::modelWindows() const
{
    return openOnes(m_modelWindows);
}

} // namespace attn::ui
