#pragma once

#include "ui/document/recovery_store.h"

#include <QObject>
#include <QString>
#include <optional>

namespace attn::ui {

class ModelSceneFiles;
class ModelWindow;
class RecoveryOffers;

// The model window's crash recovery, as the explorer's (CrashRecovery): its unsaved work (the
// sentence, heads switched off, edited layers and heads, the selected head) is copied aside as
// the scene File > Save would write, and a window offers the model windows' copies that
// sessions which did not close normally left behind. A restored copy opens its model; the copy
// is deleted once the model is in and this window's own copy holds the work.
class ModelRecovery : public QObject
{
    Q_OBJECT

public:
    ModelRecovery(ModelWindow& window, ModelSceneFiles& files);

    RecoveryStore* store() const { return m_store; }
    // Claims the model windows' copies crashed sessions left and offers the first.
    void offerLeftCopies();
    // Restores a copy another window of this session released for this one.
    void restoreLeftCopy(const QString& copyPath);
    // The window closes with its work saved or discarded: no copy is needed.
    void closedCleanly();

private:
    void restore(const RecoveryStore::LeftCopy& copy);
    void restoredModelLoaded();

    struct Restoring
    {
        RecoveryStore::LeftCopy copy;
        QString model; // its folder or hub id
        QString text;  // what the window shows once the copy's model is in
        QString originalPath;
    };

    ModelWindow& m_window;
    ModelSceneFiles& m_files;
    RecoveryStore* m_store = nullptr;
    RecoveryOffers* m_offers = nullptr;
    std::optional<Restoring> m_restoring; // its model is loading
};

} // namespace attn::ui
