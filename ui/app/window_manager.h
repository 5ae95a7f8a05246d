#pragma once

#include "core/backend_factory.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

class QWidget;

namespace attn::ui {

class ModelRecovery;
class ModelWindow;
class Seq2SeqWindow;

// The application's windows: it opens the model windows (the explorer asks it for them, so
// neither window knows the other) and keeps the factory every window makes its backends with
// (app hands it gpu's, so ui knows no backend but the CPU's).
class WindowManager : public QObject
{
    Q_OBJECT

public:
    // Model windows compute with what `backends` makes for `modelChoice` on `modelSelector`
    // (the command line's --backend and --vk-device).
    explicit WindowManager(core::BackendFactory backends = {},
                           core::BackendChoice modelChoice = core::BackendChoice::Auto,
                           const QString& modelSelector = QString(), QObject* parent = nullptr);

    const core::BackendFactory& backends() const { return m_backends; }

    // A model window of its own (deleted on close), shown.
    ModelWindow* newModelWindow();
    // File > Open Model…: a model folder or cached id in a new model window. An empty one
    // shows the Open Model dialog over `dialogParent` first; null when that was cancelled.
    ModelWindow* openModel(const QString& folderOrId, QWidget* dialogParent = nullptr);
    // A scene file that names a checkpoint, in a new model window; false (said in that window)
    // where it cannot be opened.
    bool openModelScene(const QString& path);
    // A new model window's crash recovery, to restore a copy a model window left.
    ModelRecovery* newModelRecovery();
    // The model windows open now, oldest first.
    QList<ModelWindow*> modelWindows() const;
    // A sequence-to-sequence window of its own (deleted on close), shown.
    Seq2SeqWindow* newSeq2SeqWindow();
    QList<Seq2SeqWindow*> seq2seqWindows() const;

private:
    core::BackendFactory m_backends;
    core::BackendChoice m_modelChoice;
    QString m_modelSelector;
    QList<QPointer<ModelWindow>> m_modelWindows;
    QList<QPointer<Seq2SeqWindow>> m_seq2seqWindows;
};

} // namespace attn::ui
