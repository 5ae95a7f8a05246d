// The explorer window itself: building it, the scene it shows and its changes, files opened,
// saved and dropped, crash recovery's copy restored, the title, closing. Its panels, computing,
// view settings and exports are the explorer_window_*.cpp files beside this one.

#include "ui/explorer/explorer_window.h"

#include "ui/app/window_manager.h"
#include "ui/concepts/concept_pages.h"
#include "ui/concepts/context_page.h"
#include "ui/concepts/hard_page.h"
#include "ui/concepts/layers_page.h"
#include "ui/concepts/mixing_page.h"
#include "ui/concepts/projections_page.h"
#include "ui/concepts/train_page.h"
#include "ui/document/preferences.h"
#include "ui/explorer/comparison_choices.h"
#include "ui/explorer/compute_schedule.h"
#include "ui/explorer/crash_recovery.h"
#include "ui/explorer/explorer_menus.h"
#include "ui/explorer/input_panel.h"
#include "ui/explorer/mask_brush.h"
#include "ui/explorer/scene_files.h"
#include "ui/explorer/view_bar.h"
#include "ui/explorer/weights_panel.h"
#include "ui/explorer/window_words.h"
#include "ui/figures/colormap.h"
#include "ui/presentation/presentation_export.h"
#include "ui/widgets/attention_panel.h"
#include "ui/widgets/message_bar.h"
#include "ui/widgets/status_labels.h"

#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QLabel>
#include <QMimeData>
#include <QStatusBar>

namespace attn::ui {

namespace {

// Scenes are saved as NAME.attention.json, the extension the installed MIME type gives to
// Attention Explorer (resources/desktop), so a file manager opens them here; plain .json
// scenes open too.

bool isSceneFile(const QString& path)
{
    return QFileInfo(path).suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) == 0;
}

bool isMatrixFile(const QString& path)
{
    const QString suffix = QFileInfo(path).suffix().toLower();
    return suffix == QLatin1String("npy") || suffix == QLatin1String("csv") ||
           suffix == QLatin1String("safetensors");
}

core::Scene defaultScene()
{
    core::Scene scene = core::makeScene(
        QStringLiteral("The animal didn't cross the street because it was too tired"), 16, 4, 1);
    return scene;
}

} // namespace

ExplorerWindow::ExplorerWindow(std::unique_ptr<core::Backend> backend, const QString& backendNotice,
                               WindowManager* windows, QWidget* parent)
    : QMainWindow(parent),
      m_windows(windows ? windows
                        : new WindowManager(core::BackendFactory(), core::BackendChoice::Auto,
                                            QString(), this))
{
    setObjectName(QStringLiteral("ExplorerWindow"));
    setAcceptDrops(true);
    setDockNestingEnabled(true);
    setWindowIcon(QIcon::fromTheme(QStringLiteral("applications-science")));
    m_compute = new ComputeController(std::move(backend), this);
    buildExports();

    buildViews();
    m_files = new SceneFiles(
        *this, m_document, *m_messages, *statusBar(),
        {[this](const core::Scene& scene, const QString& path) { setScene(scene, path); },
         [this](const QString& path) { return m_windows->openModelScene(path); },
         [this](const QString& folder) { openModel(folder); }});
    buildDocks();
    m_menus =
        new ExplorerMenus(*this, *m_files, *m_viewBar, {m_sceneDock, m_headsDock, m_weightsDock});
    buildStatusBar();
    connectDocument();

    m_recovery = new CrashRecovery(
        m_document, *m_files, *m_messages, *statusBar(),
        [this](const core::Scene& scene, const QString& path, const core::Scene& asOpened) {
            showRestored(scene, path, asOpened);
        },
        [this] { return m_windows->newModelRecovery(); }, this);

    // A pooled heatmap follows the view's size: recompute once a resize settles.
    m_poolingCheck.setSingleShot(true);
    m_poolingCheck.setInterval(300);
    connect(&m_poolingCheck, &QTimer::timeout, this, [this] {
        const auto result = m_document.result();
        if (result && result->pooling.pooled)
            requestCompute();
    });

    qApp->installEventFilter(this); // window shortcuts before text fields (eventFilter)
    readSettings();
    setScene(defaultScene(), QString());
    m_backendNotice = backendNotice;
    if (!backendNotice.isEmpty()) {
        m_backendLabel->setToolTip(m_compute->deviceName() + QLatin1Char('\n') + backendNotice);
        if (!preferences::backendNoticeDismissed())
            m_messages->showMessage(QStringLiteral("backendNotice"), MessageBar::Level::Information,
                                    backendNoticeSummary());
    }
    connect(m_messages, &MessageBar::dismissed, this, [](const QString& key) {
        if (key == QLatin1String("backendNotice"))
            preferences::setBackendNoticeDismissed(true);
    });
    m_recovery->offerLeftCopies();
}

ExplorerWindow::~ExplorerWindow()
{
    // A cell editor still open would otherwise commit when ~QWidget hides the window, after
    // the document it writes to is gone.
    commitOpenEditor();
    disconnect(&m_document, nullptr, this, nullptr);
    // Views hold results that refer to problems; drop them before the controller's thread.
    delete m_compute;
    m_compute = nullptr;
}

void ExplorerWindow::commitOpenEditor()
{
    // An item editor commits what it holds when it loses focus.
    if (QWidget* focus = QApplication::focusWidget(); focus && isAncestorOf(focus))
        focus->clearFocus();
}

QString ExplorerWindow::recoveryDirectory()
{
    return CrashRecovery::directory();
}

RecoveryStore* ExplorerWindow::recoveryStore() const
{
    return m_recovery->store();
}

void ExplorerWindow::connectDocument()
{
    connect(&m_document, &SceneDocument::sceneChanged, this, &ExplorerWindow::onSceneChanged);
    connect(&m_document, &SceneDocument::resultChanged, this, &ExplorerWindow::showResult);
    connect(&m_document, &SceneDocument::modifiedChanged, this, &ExplorerWindow::updateTitle);
    connect(&m_document, &SceneDocument::filePathChanged, this, &ExplorerWindow::updateTitle);
}

// --- the scene ------------------------------------------------------------------------------

void ExplorerWindow::setScene(const core::Scene& scene, const QString& path)
{
    forgetPreviousScene();
    m_compareResult.reset();
    m_openedScene = scene;
    m_document.reset(scene, path);
    // What the scene sets out to show (the examples say it): until it is dismissed or
    // another scene is opened. Never in place of another message (an error, a recovery offer).
    const QString shown = m_messages->key();
    if (scene.description.isEmpty())
        m_messages->clearMessage(QStringLiteral("scene"));
    else if (shown.isEmpty() || shown == QLatin1String("scene"))
        m_messages->showMessage(
            QStringLiteral("scene"), MessageBar::Level::Information,
            scene.title.isEmpty() ? scene.description
                                  : QStringLiteral("%1 — %2").arg(scene.title, scene.description));
    applyViewSettings();
    updateTitle();
}

void ExplorerWindow::onSceneChanged(SceneChanges what)
{
    if (what & SceneChange::Weights) {
        m_viewBar->setHeadCount(m_document.scene().weights.headCount());
        m_viewBar->setLayerCount(core::layerCount(m_document.scene()));
    }
    if (what & SceneChange::View) {
        applyViewSettings();
        if (what == SceneChange::View)
            return; // a view setting alone is neither a compute nor an unsaved change
    }
    if (what & SceneChange::Settings) {
        // A new setting may be the one the Difference tab compared with: compare with another.
        fillCompareCombo(compareCombo()->currentData().toString());
    }
    if (what & SceneChange::Weights)
        updateAllHeadsOffWarning();
    if (what & (SceneChange::Text | SceneChange::Settings | SceneChange::Weights)) {
        m_compareResult.reset();
        requestCompute();
    }
    updateTitle();
}

void ExplorerWindow::showError(const QString& key, const QString& text)
{
    m_messages->showMessage(key, MessageBar::Level::Error, text);
}

void ExplorerWindow::updateTitle()
{
    // The same name as the unsaved-changes question uses.
    setWindowTitle(m_document.displayName() + QStringLiteral("[*] — ") + tr("Attention Explorer"));
    setWindowModified(m_document.isModified());
    setWindowFilePath(m_document.filePath());
}

// --- files ---------------------------------------------------------------------------------

void ExplorerWindow::newScene()
{
    setScene(defaultScene(), QString());
}

bool ExplorerWindow::openFile(const QString& path)
{
    return m_files->openFile(path);
}

bool ExplorerWindow::openModel(const QString& folderOrId)
{
    return m_windows->openModel(folderOrId, this) != nullptr;
}

void ExplorerWindow::openSeq2Seq()
{
    m_windows->newSeq2SeqWindow();
}

const core::BackendFactory& ExplorerWindow::backends() const
{
    return m_windows->backends();
}

bool ExplorerWindow::saveFile(const QString& path)
{
    return m_files->saveFile(path);
}

QString ExplorerWindow::suggestedSavePath() const
{
    return m_files->suggestedSavePath();
}

void ExplorerWindow::dragEnterEvent(QDragEnterEvent* event)
{
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile() &&
            (isSceneFile(url.toLocalFile()) || isMatrixFile(url.toLocalFile()))) {
            event->acceptProposedAction();
            return;
        }
}

void ExplorerWindow::dropEvent(QDropEvent* event)
{
    for (const QUrl& url : event->mimeData()->urls()) {
        const QString path = url.toLocalFile();
        if (isSceneFile(path)) {
            event->acceptProposedAction();
            if (m_files->maybeSave())
                openFile(path);
            return;
        }
        if (isMatrixFile(path)) {
            event->acceptProposedAction();
            m_weightsDock->show();
            if (m_weights->importFile(path))
                statusBar()->showMessage(
                    tr("%1 read into %2")
                        .arg(QFileInfo(path).fileName(), weightTitle(m_weights->current())),
                    4000);
            return;
        }
    }
}

// --- crash recovery ------------------------------------------------------------------------

void ExplorerWindow::showRestored(const core::Scene& scene, const QString& path,
                                  const core::Scene& asOpened)
{
    forgetPreviousScene();
    m_compareResult.reset();
    m_openedScene = asOpened;
    m_document.reset(scene, path, true);
    applyViewSettings();
    updateTitle();
}

void ExplorerWindow::closeEvent(QCloseEvent* event)
{
    commitOpenEditor(); // a value typed but not yet entered counts as an unsaved change
    if (!m_files->maybeSave()) {
        event->ignore();
        return;
    }
    writeSettings();
    m_recovery->closedCleanly();
    event->accept();
}
} // namespace attn::ui
