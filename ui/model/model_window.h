#pragma once

#include "ui/model/model_compute_controller.h"
#include "ui/model/model_document.h"
#include "ui/model/model_figures.h"
#include "ui/views/head_view_tabs.h"
#include "ui/widgets/deferred_call.h"

#include "core/backend.h"
#include "core/backend_factory.h"
#include "core/scene.h"

#include <QMainWindow>
#include <QPointer>
#include <QTimer>
#include <memory>
#include <optional>

class QAction;
class QActionGroup;
class QComboBox;
class QDockWidget;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QSplitter;
class QTabWidget;
class QToolButton;

namespace attn::ui {

class ExportDialog;
class FigureExports;
class HeadGridView;
class HeadImportanceJob;
class HeatmapView;
class EncDecView;
class GalleryView;
class GenerateView;
class KvCacheView;
class ImportanceView;
class LensTabs;
class LinesView;
class MatrixPanelsView;
class MessageBar;
class ModelHeadPanel;
class ModelLoadJob;
class ModelRecovery;
class ModelSceneFiles;
class PredictionsView;
class PresentationWindow;
class StaleIndicator;
class TokenFocusBar;
struct ExportSource;

// The model explorer: every layer and head of a real checkpoint, interventions,
// and the prediction that reacts to them.
//
// A window of its own rather than a mode of ExplorerWindow: that window is built around one
// editable Scene (its panels edit d_model, heads, embeddings and seeds, none of which a
// checkpoint has), and a mode would put a branch in every one of its handlers and leave a
// user who never opens a model with a changed window. This one reuses what fits a model head
// unchanged: HeatmapView and LinesView take a layer's AttentionResult, the export dialog and
// the presentation take it too, and the head's controls reuse the explorer's MatrixEditor,
// DecimalField and score options; ModelDocument is its SceneDocument.
//
// One class in several files, each named for its job (model_window.cpp, then _layout, _menus,
// _compute and _export), so that its tr() calls keep the one context their translations have.
class ModelWindow : public QMainWindow
{
    Q_OBJECT

public:
    // `backend` computes the model; `choice` and `selector` are how `backends` made it (the
    // Compute menu and head importance make others the same way); `notice` says why auto chose
    // it.
    ModelWindow(std::unique_ptr<core::Backend> backend, core::BackendChoice choice,
                const QString& selector, const QString& notice, core::BackendFactory backends = {},
                QWidget* parent = nullptr);
    ~ModelWindow() override;

    // A window of its own (deleted on close) with the backend `backends` makes for `choice`,
    // shown (WindowManager opens them).
    static ModelWindow* create(const core::BackendFactory& backends, core::BackendChoice choice,
                               const QString& selector);

    // Loads a model folder or a cached id off the UI thread (progress and Cancel in the
    // status bar), then shows it with `text` (empty: the last sentence used with it, else a
    // sample) and the given interventions. The model shown stays until the new one is in.
    void openModel(const QString& folderOrId, const QString& text = QString(),
                   const core::Interventions& interventions = {}, int layer = 0, int head = 0,
                   const QString& scenePath = QString());
    // The same with an encoder-decoder model's three kinds of interventions and the kind of
    // head selected (a scene's; none: the kind the grid shows).
    void openModel(const QString& folderOrId, const QString& text,
                   const core::EncoderDecoderInterventions& interventions,
                   std::optional<HeadKind> kind, int layer, int head, const QString& scenePath);
    // A model already loaded (tests; the load's end).
    void setModel(std::shared_ptr<const core::Model> model, const QString& text,
                  const core::Interventions& interventions = {}, int layer = 0, int head = 0,
                  const QString& scenePath = QString());
    void setModel(std::shared_ptr<const core::Model> model, const QString& text,
                  const core::EncoderDecoderInterventions& interventions,
                  std::optional<HeadKind> kind, int layer, int head, const QString& scenePath);
    // A scene file with a checkpoint. False (with the reason in the message bar) otherwise.
    bool openScene(const QString& path);
    // Writes a scene: the text, the checkpoint (path, layer, head, interventions). A model
    // folder is written relative to the scene's folder, a cached model as its id.
    bool saveFile(const QString& path);
    // File > Open Model…: the cache list and a folder button.
    void openModelDialog();
    // File > Download Model…: a model from the Hugging Face Hub, opened once downloaded.
    void downloadModelDialog(const QString& id = QString()); // id: start it at once
    void cancelLoad();
    bool isLoading() const;

    // A model figure as PNG, SVG or PDF (by the suffix); `size` empty: the figure's own.
    bool exportModelFigure(ModelFigure figure, const QString& path, QSize size = QSize(),
                           double dpi = 200.0);
    ModelFigureSource figureSource() const;
    // The selected head's figure, as the explorer's export dialog and clipboard take it.
    ExportSource exportSource() const;
    void openExportDialog();
    // F11: the selected head step by step, full screen; again closes it.
    void togglePresentation();
    // Head importance for the run on screen, in the background; cancel stops it.
    void computeImportance();
    void cancelImportance();
    // The side panels a fifth of the window's width each (at most 300 pixels); done once when
    // the window is first shown, again on request (a window resized before it is used).
    void fitPanels();
    void fitHeadPanelWidth();
    // Another backend (Compute menu): the next run computes there.
    void setBackendChoice(core::BackendChoice choice);

    ModelDocument* document() { return &m_document; }
    ModelRecovery* recovery() const { return m_recovery; }
    ModelComputeController* computeController() const { return m_compute; }
    HeadGridView* gridView() const { return m_grid; }
    QComboBox* gridKindCombo() const { return m_gridKind; } // encoder-decoder models' kinds
    EncDecView* translateView() const { return m_encdec; }
    PredictionsView* predictionsView() const { return m_predictions; }
    ModelHeadPanel* headPanel() const { return m_headPanel; }
    TokenFocusBar* tokenBar() const { return m_tokens; }
    QLineEdit* textEdit() const { return m_text; }
    QTabWidget* viewTabs() const { return m_tabs; }
    HeatmapView* headView() const { return m_tabs->headView(); }
    HeatmapView* pipelineView() const { return m_tabs->pipelineView(); }
    HeatmapView* differenceView() const { return m_tabs->differenceView(); }
    LinesView* linesView() const { return m_tabs->linesView(); }
    MatrixPanelsView* rolloutView() const { return m_rollout; }
    ImportanceView* importanceView() const { return m_importance; }
    LensTabs* lensTabs() const { return m_lensTabs; } // logit lens, patching, attribution
    MessageBar* messageBar() const { return m_messages; }
    // Dims the figures while they show an earlier sentence than the one typed.
    StaleIndicator* staleIndicator() const { return m_stale; }
    QLabel* modelLabel() const { return m_modelLabel; }
    QLabel* backendLabel() const { return m_backendLabel; }
    QLabel* timeLabel() const { return m_timeLabel; }
    QProgressBar* loadProgress() const { return m_loadProgress; }
    QToolButton* loadCancelButton() const { return m_loadCancel; }
    QAction* resetAction() const { return m_resetAction; }
    PresentationWindow* presentation() const;
    ExportDialog* exportDialog() const;
    // True once what is on screen is the run of the document as it is now.
    // The selected layer as the Pipeline view and the presentation show it: with every
    // intermediate when it has been computed for the run shown, else the run's own layer.
    std::shared_ptr<const core::AttentionResult> selectedLayerDetail() const;
    bool isUpToDate() const;

signals:
    void resultShown();
    void modelLoaded();
    void loadEnded(); // loaded, failed or cancelled

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    // The tabs in the order buildViews adds them: HeadViewTabs' four, then the model's own.
    using enum HeadViewTabs::Tab;
    enum ModelTab { RolloutTab = FirstOwnTab, ImportanceTab, GenerateTab, KvCacheTab };

    void buildViews();
    void buildDocks();
    void arrangeFigures();
    // The Translate tab of an encoder-decoder model in front: it has grids of its own and takes
    // the grid's room too.
    bool translateTakesGridRoom() const;
    void buildMenus();
    void buildStatusBar();
    void connectDocument();

    void requestCompute();
    void onComputeFinished(const ModelComputeReply& reply);
    void showResult();
    void showSelection();
    void showGrid();
    void showKindSelection(const std::shared_ptr<const core::ModelResult>& grid);
    // What the grid shows: the run, or an encoder-decoder model's heads of the kind chosen
    // (null: the decoder's, before a translation).
    std::shared_ptr<const core::ModelResult> gridResult() const;
    void updateGridOptions();
    void updateTokens();
    void updateTitle();
    void updateStatus();
    void showError(const QString& key, const QString& text);
    void enableModelControls();
    FigureSpec figureSpec(FigureView view) const;
    void buildExports();
    void exportModelFigureDialog(ModelFigure figure);
    // What m_backends makes for m_choice; where the selector names no device, the CPU backend
    // with the error as the notice.
    static std::unique_ptr<core::Backend> makeBackend(const core::BackendFactory& backends,
                                                      core::BackendChoice choice,
                                                      const QString& selector, std::string* notice);

    ModelDocument m_document;
    ModelComputeController* m_compute = nullptr;
    core::BackendFactory m_backends;
    core::BackendChoice m_choice = core::BackendChoice::Auto;
    QString m_selector;
    QString m_backendNotice;
    std::unique_ptr<ModelLoadJob> m_load;
    std::unique_ptr<HeadImportanceJob> m_importanceJob;
    std::shared_ptr<const core::ModelResult> m_compareFor; // the run m_compare belongs to
    std::shared_ptr<const core::AttentionResult> m_compare;
    // The selected layer with every intermediate, for the run m_detailFor (the controller's
    // detail); the layer a request asked it for last, so that a failed one is not asked again.
    std::shared_ptr<const core::ModelResult> m_detailFor;
    std::shared_ptr<const core::AttentionResult> m_detail;
    int m_detailLayer = -1;
    std::pair<const core::ModelResult*, int> m_detailAsked{nullptr, -1};
    std::optional<core::HeadImportance> m_importanceResult;
    std::shared_ptr<const core::ModelResult> m_importanceFor;

    MessageBar* m_messages = nullptr;
    QLabel* m_staleNote = nullptr;
    StaleIndicator* m_stale = nullptr;
    ModelSceneFiles* m_files = nullptr;
    ModelRecovery* m_recovery = nullptr;
    HeadGridView* m_grid = nullptr;
    QLabel* m_gridNote = nullptr;
    QComboBox* m_gridKind = nullptr;
    HeadViewTabs* m_tabs = nullptr;
    MatrixPanelsView* m_rollout = nullptr;
    ImportanceView* m_importance = nullptr;
    GenerateView* m_generate = nullptr;
    EncDecView* m_encdec = nullptr;   // encoder-decoder models: translation word by word
    GalleryView* m_gallery = nullptr; // in the grid's place while no model is open
    LensTabs* m_lensTabs = nullptr;
    KvCacheView* m_kvCache = nullptr;
    // The Generate tab's step the grid follows (its tokens, not the sentence's); empty: none.
    std::vector<core::Token> m_followTokens;
    QLineEdit* m_text = nullptr;
    TokenFocusBar* m_tokens = nullptr;
    PredictionsView* m_predictions = nullptr;
    ModelHeadPanel* m_headPanel = nullptr;
    QScrollArea* m_headScroll = nullptr;
    QDockWidget* m_inputDock = nullptr;
    QDockWidget* m_headDock = nullptr;
    QSplitter* m_splitter = nullptr;
    QWidget* m_gridPane = nullptr;

    QLabel* m_modelLabel = nullptr;
    QLabel* m_backendLabel = nullptr;
    QLabel* m_timeLabel = nullptr;
    QProgressBar* m_loadProgress = nullptr;
    QToolButton* m_loadCancel = nullptr;

    QAction* m_resetAction = nullptr;
    QAction* m_presentAction = nullptr;
    QAction* m_exportAction = nullptr;
    QActionGroup* m_backendGroup = nullptr;
    FigureExports* m_exports = nullptr; // the export dialog, figure files, the presentation

    bool m_docksFitted = false;
    bool m_computeQueued = false;
    quint64 m_shownGeneration = 0;
    QString m_computeError;
    int m_typingGesture = 0;
    QTimer m_typingPause; // a pause in typing ends the undo step
    DeferredCall m_selectionLater{this, [this] { showSelection(); }};
};

} // namespace attn::ui
