#pragma once

#include "core/scene.h"
#include "ui/document/recovery_store.h"

#include <QObject>
#include <QString>
#include <functional>

class QStatusBar;

namespace attn::ui {

class MessageBar;
class ModelRecovery;
class RecoveryOffers;
class SceneDocument;
class SceneFiles;

// The explorer window's crash recovery: keeps a copy of unsaved work (RecoveryStore), and at
// start offers the copies that sessions which did not close normally left behind, one at a
// time in the message bar (the model window's too: those open in a model window). A copy stays
// on disk until it is restored and this session's own copy holds the work, or until it is
// discarded.
class CrashRecovery : public QObject
{
    Q_OBJECT

public:
    // Shows a restored scene as modified; `asOpened` is the saved file it came from where that
    // still reads (what "the scene as opened" compares with), else the scene itself.
    using ShowRestored = std::function<void(const core::Scene& scene, const QString& originalPath,
                                            const core::Scene& asOpened)>;
    // Opens a model window for a model window's copy, and returns its recovery.
    using NewModelWindow = std::function<ModelRecovery*()>;

    CrashRecovery(SceneDocument& document, SceneFiles& files, MessageBar& messages,
                  QStatusBar& status, ShowRestored showRestored, NewModelWindow newModelWindow,
                  QObject* parent = nullptr);

    // Where the copies are kept (QStandardPaths::AppDataLocation/recovery).
    static QString directory();

    RecoveryStore* store() const { return m_store; }
    // Claims what crashed sessions left and offers the first.
    void offerLeftCopies();
    // The window closes with its work saved or discarded: no copy is needed.
    void closedCleanly();

private:
    void restore(const RecoveryStore::LeftCopy& copy);

    SceneDocument& m_document;
    SceneFiles& m_files;
    ShowRestored m_showRestored;
    NewModelWindow m_newModelWindow;
    RecoveryStore* m_store = nullptr;
    RecoveryOffers* m_offers = nullptr;
};

} // namespace attn::ui
