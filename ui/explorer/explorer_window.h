#pragma once

#include "ui/document/compute_controller.h"
#include "ui/document/scene_document.h"
#include "ui/figures/figure_spec.h"
#include "ui/views/head_view_tabs.h"

#include "core/backend.h"
#include "core/backend_factory.h"
#include "core/scene.h"

#include <QMainWindow>
#include <QPointer>
#include <QTimer>
#include <array>
#include <memory>
#include <optional>

class QAction;
class QComboBox;
class QCheckBox;
class QDockWidget;
class QLabel;
class QMenu;
class QScrollArea;
class QTabWidget;
class QToolButton;

namespace attn::ui {

class AttentionPanel;
class CrashRecovery;
class RecoveryStore;
class ComputeSchedule;
enum class ConceptView;
class ConceptPage;
class EmbeddingSpacePage;
class GradientPage;
class ProjectionsPage;
class HardPage;
class LayersPage;
class ContextPage;
class MixingPage;
class KernelPage;
class PositionsPage;
class TrainPage;
class ViewBar;
class WindowManager;
class ExplorerMenus;
class ExportDialog;
class FigureExports;
class SceneFiles;
class HeatmapView;
class PresentationWindow;
struct ExportSource;
class InputPanel;
class LinesView;
class MessageBar;
class StaleIndicator;
class WeightsPanel;

// The explorer: type a sentence, choose how attention is computed, edit any weight, and see
// every matrix recompute live. The scene lives in a SceneDocument (undo for every edit);
// computing happens on a worker thread (ComputeController) so the window never waits; every
// heatmap is drawn by FigureBuilder, the code that also draws exported figures.
//
// One class in several files, each named for its job (explorer_window.cpp, then _layout,
// _compute, _view and _export; its menus are ExplorerMenus), so that its tr() calls keep the one
// context their translations have.
class ExplorerWindow : public QMainWindow
{
    Q_OBJECT

public:
    // `backendNotice` (from the backend factory: why Vulkan is not used) is said once, in a
    // learner's words, until dismissed; the notice itself is the backend label's tooltip.
    // `windows` opens the model windows this one asks for; null: a manager of its own, whose
    // model windows compute on the CPU.
    ExplorerWindow(std::unique_ptr<core::Backend> backend, const QString& backendNotice,
                   WindowManager* windows = nullptr, QWidget* parent = nullptr);
    ~ExplorerWindow() override;

    // Shows `scene` with a fresh undo history; an empty path is an untitled scene.
    void setScene(const core::Scene& scene, const QString& path);
    // Opens a scene file. On failure shows the reason in the message bar (non-blocking),
    // keeps the current scene and returns false. It does not ask about unsaved changes:
    // the menu, the recent list and drag and drop ask first.
    bool openFile(const QString& path);
    // Saves atomically to `path` and makes it the document's file; on failure shows why
    // and returns false (the old file, if any, is intact).
    bool saveFile(const QString& path);
    // File > Open Model…: a real model in a window of its own (the window manager opens it),
    // leaving this one as it is. An empty path shows the Open Model dialog first; false when
    // that was cancelled.
    bool openModel(const QString& folderOrId = QString());
    // File > Sequence to Sequence…: the encoder-decoder window.
    void openSeq2Seq();
    // File > New: the built-in example, a fresh untitled scene. Does not ask about unsaved changes.
    void newScene();

    SceneDocument* document() { return &m_document; }
    ComputeController* computeController() const { return m_compute; }
    // Why the backend computing is the one it is (for Help > About); empty when it is Vulkan.
    QString backendNotice() const { return m_backendNotice; }
    // The backends the application offers (Help > About describes their devices).
    const core::BackendFactory& backends() const;
    InputPanel* inputPanel() const { return m_input; }
    AttentionPanel* attentionPanel() const { return m_attention; }
    WeightsPanel* weightsPanel() const { return m_weights; }
    MessageBar* messageBar() const { return m_messages; }
    RecoveryStore* recoveryStore() const;
    HeatmapView* headView() const { return m_tabs->headView(); }
    HeatmapView* gridView() const { return m_gridView; }
    HeatmapView* pipelineView() const { return m_tabs->pipelineView(); }
    HeatmapView* differenceView() const { return m_tabs->differenceView(); }
    LinesView* linesView() const { return m_tabs->linesView(); }
    TrainPage* trainPage() const { return m_trainPage; }
    GradientPage* gradientPage() const { return m_gradientPage; }
    KernelPage* kernelPage() const { return m_kernelPage; }
    PositionsPage* positionsPage() const { return m_positionsPage; }
    EmbeddingSpacePage* embeddingSpacePage() const { return m_embeddingPage; }
    ProjectionsPage* projectionsPage() const { return m_projectionsPage; }
    HardPage* hardPage() const { return m_hardPage; }
    ContextPage* contextPage() const { return m_contextPage; }
    MixingPage* mixingPage() const { return m_mixingPage; }
    QTabWidget* viewTabs() const { return m_tabs; }
    QComboBox* headCombo() const;
    QComboBox* compareCombo() const { return m_tabs->compareCombo(); }
    // Shown above the figures while they do not match the input (a compute error, or a
    // compute that takes a while); the figures are dimmed meanwhile.
    QLabel* staleNote() const { return m_staleNote; }
    bool isShowingStale() const;
    // Non-null while open.
    ExportDialog* exportDialog() const;
    PresentationWindow* presentation() const;

    // What the figure export and the clipboard take: the result and the view on screen.
    ExportSource exportSource() const;
    // File > Export Figure (Ctrl+E): the non-modal export dialog, kept up to date.
    void openExportDialog();
    // Edit > Copy Figure: the view on screen as PNG and SVG.
    void copyFigure();
    // View > Present (F11): the selected head step by step, full screen; again closes it.
    // Leaving it gives the keys back to the control that had them.
    void togglePresentation();
    // File > Export Presentation: every step of the selected head as one page of a PDF, in
    // the scene's theme. On failure shows why and returns false (an old file is intact).
    bool exportPresentation(const QString& path);

    // The head the large views show; -1 is the mean of the enabled heads. With All heads
    // chosen the Weights tab shows every head and the other views head 1.
    int selectedHead() const;
    void selectHead(int head);
    bool allHeadsShown() const;
    // What Save As proposes: the file's name, else the scene title as a file name
    // ("this-is-a-cat.attention.json"), in the last folder used.
    QString suggestedSavePath() const;
    // True once the result on screen belongs to the scene as it is now.
    bool isUpToDate() const;
    // Where crash-recovery copies are kept (QStandardPaths::AppDataLocation/recovery).
    static QString recoveryDirectory();

signals:
    // A result (or a compute error) has been shown.
    void resultShown();

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    // The tabs in the order buildViews adds them: HeadViewTabs' four, then the concept views in
    // ConceptView's order.
    using enum HeadViewTabs::Tab;
    enum ConceptTab {
        TrainTab = FirstOwnTab,
        GradientTab,
        KernelTab,
        PositionsTab,
        EmbeddingSpaceTab,
        ProjectionsTab,
        HardTab,
        ContextTab,
        LayersTab,
        MixingTab
    };
    static int conceptTab(ConceptView view);
    static std::optional<ConceptView> conceptOfTab(int tab);

    void buildViews();
    void buildDocks();
    void placeRightDocks();
    void buildExports();
    void buildStatusBar();
    void connectDocument();

    void onSceneChanged(SceneChanges what);
    void requestCompute();
    ComputeRequest computeRequest() const;
    void onComputed(const ComputeReply& reply);
    void onComputeFailed(const QString& error);
    void showResult();
    void applyViewSettings();
    void storeViewSettings();
    void fillCompareCombo(const QString& wanted);
    void updateConceptPages();
    void forgetPreviousScene();
    std::array<ConceptPage*, 10> conceptPages() const;
    FigureSpec figureSpec(FigureView view) const;
    void updateTitle();
    void showError(const QString& key, const QString& text);
    void updateAllHeadsOffWarning();
    void fitScenePanelWidth();
    void commitOpenEditor();

    // A crash's copy restored: shown as modified work on `path`.
    void showRestored(const core::Scene& scene, const QString& path, const core::Scene& asOpened);

    void readSettings();
    void writeSettings();

    SceneDocument m_document;
    ComputeController* m_compute = nullptr;
    QString m_backendNotice;

    MessageBar* m_messages = nullptr;
    HeadViewTabs* m_tabs = nullptr;
    ViewBar* m_viewBar = nullptr;
    HeatmapView* m_gridView = nullptr;
    TrainPage* m_trainPage = nullptr;
    GradientPage* m_gradientPage = nullptr;
    KernelPage* m_kernelPage = nullptr;
    PositionsPage* m_positionsPage = nullptr;
    EmbeddingSpacePage* m_embeddingPage = nullptr;
    ProjectionsPage* m_projectionsPage = nullptr;
    HardPage* m_hardPage = nullptr;
    LayersPage* m_layersPage = nullptr;
    ContextPage* m_contextPage = nullptr;
    MixingPage* m_mixingPage = nullptr;

    QDockWidget* m_sceneDock = nullptr;
    QDockWidget* m_headsDock = nullptr;
    QDockWidget* m_weightsDock = nullptr;
    InputPanel* m_input = nullptr;
    AttentionPanel* m_attention = nullptr;
    WeightsPanel* m_weights = nullptr;

    QLabel* m_staleNote = nullptr;
    StaleIndicator* m_stale = nullptr;
    ComputeSchedule* m_schedule = nullptr;
    QScrollArea* m_sceneScroll = nullptr;
    QScrollArea* m_weightsScroll = nullptr;
    QLabel* m_shapeLabel = nullptr;
    QLabel* m_warningLabel = nullptr;
    QLabel* m_timeLabel = nullptr;
    QLabel* m_backendLabel = nullptr;

    WindowManager* m_windows = nullptr;
    FigureExports* m_exports = nullptr; // the export dialog, the clipboard, the presentation

    std::shared_ptr<const core::AttentionResult> m_compareResult;
    std::optional<core::Scene> m_openedScene; // the Difference tab's "the scene as opened"
    QString m_compareError;
    bool m_syncingView = false;

    QTimer m_poolingCheck;
    CrashRecovery* m_recovery = nullptr;
    SceneFiles* m_files = nullptr;
    ExplorerMenus* m_menus = nullptr;
};

} // namespace attn::ui
