#include "ui/explorer/explorer_window.h"

#include "ui/app/window_manager.h"
#include "ui/concepts/concept_pages.h"
#include "ui/concepts/context_page.h"
#include "ui/concepts/hard_page.h"
#include "ui/concepts/layers_page.h"
#include "ui/concepts/mixing_page.h"
#include "ui/concepts/projections_page.h"
#include "ui/concepts/train_page.h"
#include "ui/document/file_names.h"
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
#include "ui/export/export_dialog.h"
#include "ui/figures/colormap.h"
#include "ui/presentation/presentation_export.h"
#include "ui/presentation/presentation_extras.h"
#include "ui/presentation/presentation_window.h"
#include "ui/views/head_view_tabs.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/lines_view.h"
#include "ui/widgets/attention_panel.h"
#include "ui/widgets/figure_first_docks.h"
#include "ui/widgets/message_bar.h"
#include "ui/widgets/score_options.h"
#include "ui/widgets/stale_indicator.h"
#include "ui/widgets/status_labels.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/scene_json.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QMimeData>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

namespace attn::ui {

namespace {

// The scene panel's minimum width, at most: what a projector at a 1.5 scale factor (1024 / 1.5 =
// 683 pixels) leaves beside a usable figure once the other panels are its tabs.
constexpr int kMaxScenePanelMinimum = 683 - kUsableFigureWidth - 60;
// Above this many score cells (all heads together) the raw, scaled and masked scores are
// not kept: the pipeline view needs them, long inputs do not.
constexpr qint64 kKeepIntermediatesCells = qint64(4) << 20;

enum Tab {
    HeadTab,
    PipelineTab,
    LinesTab,
    DifferenceTab,
    TrainTab,
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

// The concept views' tabs follow the heatmaps', in ConceptView's order.
int conceptTab(ConceptView view)
{
    return TrainTab + int(view);
}

std::optional<ConceptView> conceptOfTab(int tab)
{
    if (tab < TrainTab || tab > MixingTab)
        return std::nullopt;
    return ConceptView(tab - TrainTab);
}

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

// --- building ------------------------------------------------------------------------------

void ExplorerWindow::buildViews()
{
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    layout->setSpacing(4);
    m_messages = new MessageBar(central);
    layout->addWidget(m_messages);
    m_staleNote = StaleIndicator::makeNote(central);

    m_viewBar = new ViewBar(central);
    layout->addWidget(m_viewBar);

    m_tabs = new HeadViewTabs(central);
    m_tabs->setObjectName(QStringLiteral("viewTabs"));
    m_headView = m_tabs->headView();
    m_pipelineView = m_tabs->pipelineView();
    m_linesView = m_tabs->linesView();
    m_differenceView = m_tabs->differenceView();
    m_compareCombo = m_tabs->compareCombo();
    m_compareCombo->setToolTip(
        tr("The one change the Difference tab makes: it shows these weights minus "
           "the weights with that change"));
    m_tabs->compareLabel()->setText(tr("These weights minus the &same with:"));
    m_tabs->setTabToolTip(
        HeadTab,
        tr("The attention weights of one head (or their mean): queries as rows, keys as columns"));
    m_tabs->setTabToolTip(PipelineTab,
                          tr("X, Q, K, V, scores, masked scores, weights and output of one head"));
    m_tabs->setTabToolTip(LinesTab,
                          tr("Each query joined to every key by a line as strong as its weight"));
    m_trainPage = new TrainPage(m_document, m_tabs);
    m_gradientPage = new GradientPage(m_tabs);
    m_kernelPage = new KernelPage(m_tabs);
    m_positionsPage = new PositionsPage(m_document, m_tabs);
    m_embeddingPage = new EmbeddingSpacePage(m_tabs);
    m_projectionsPage = new ProjectionsPage(m_tabs);
    m_hardPage = new HardPage(m_tabs);
    m_contextPage = new ContextPage(m_tabs);
    m_layersPage = new LayersPage(m_document, m_tabs);
    m_mixingPage = new MixingPage(m_tabs);
    m_tabs->addTab(m_trainPage, tr("T&rain"));
    m_tabs->addTab(m_gradientPage, tr("&Gradient"));
    m_tabs->addTab(m_kernelPage, tr("&Kernel"));
    m_tabs->addTab(m_positionsPage, tr("P&ositions"));
    m_tabs->addTab(m_embeddingPage, tr("&Embeddings"));
    m_tabs->addTab(m_projectionsPage, tr("Pro&jections"));
    m_tabs->addTab(m_hardPage, tr("&Hard attention"));
    m_tabs->addTab(m_contextPage, tr("&Context"));
    m_tabs->addTab(m_layersPage, tr("S&tacked blocks"));
    m_tabs->addTab(m_mixingPage, tr("Fi&xed weights"));
    m_tabs->setTabToolTip(MixingTab, tr("A fully connected layer, a convolution and attention: "
                                        "which mixing weights move when a word changes"));
    m_tabs->setTabToolTip(
        TrainTab,
        tr("Fit W_q, W_k, W_v and W_O to a task with Adam and watch the weights sharpen as "
           "the loss falls"));
    m_tabs->setTabToolTip(
        GradientTab,
        tr("Why 1/√d_k: the softmax Jacobian of one query and the spread of the scores, "
           "without and with the scaling"));
    m_tabs->setTabToolTip(
        KernelTab,
        tr("Attention as a kernel smoother: keys on a line, the weighted average of their "
           "values as the query moves"));
    m_tabs->setTabToolTip(PositionsTab,
                          tr("The positional encodings P, how alike positions are, and X = E + P"));
    m_tabs->setTabToolTip(EmbeddingSpaceTab,
                          tr("The word vectors on a map, their nearest words and analogies"));
    m_tabs->setTabToolTip(ProjectionsTab,
                          tr("W^Q as the heads' projections side by side, a head's QK and OV "
                             "circuits, and the bias as a row of the weights"));
    m_tabs->setTabToolTip(HardTab, tr("Softmax beside argmax: the weight hard attention drops for "
                                      "each query, and why it cannot be trained directly"));
    m_tabs->setTabToolTip(ContextTab, tr("One word in two sentences: the same input vector, two "
                                         "outputs"));
    m_tabs->setTabToolTip(LayersTab, tr("Stacked blocks: attention, then a feed-forward layer, "
                                        "each with its residual and layer norm; one block's "
                                        "output is the next one's input"));
    connect(m_projectionsPage, &ProjectionsPage::partChosen, this,
            &ExplorerWindow::storeViewSettings);
    connect(m_kernelPage, &KernelPage::partChosen, this, &ExplorerWindow::storeViewSettings);
    connect(m_trainPage, &TrainPage::refused, this,
            [this](const QString& text, const QString& where) {
                showError(QStringLiteral("train"),
                          inWindowWords(where, text, m_document.scene().source.has_value()));
            });
    m_tabs->setTabToolTip(DifferenceTab,
                          tr("These weights minus the weights of the same input with one setting "
                             "changed, or of the scene as it was opened"));
    layout->addWidget(m_staleNote);
    layout->addWidget(m_tabs, 1);
    setCentralWidget(central);

    m_gridView = new HeatmapView(this);
    m_gridView->setObjectName(QStringLiteral("gridView"));
    m_gridView->setToolTip(QString());
    // Figures that no longer match the input are dimmed under a note (ComputeSchedule).
    m_stale = new StaleIndicator(m_staleNote, {m_tabs, m_gridView}, this);
    m_schedule = new ComputeSchedule(*m_compute, m_document, *m_stale,
                                     {[this] { return computeRequest(); },
                                      [this](const QString& where, const QString& error) {
                                          return inWindowWords(
                                              where, error, m_document.scene().source.has_value());
                                      }},
                                     this);
    connect(m_schedule, &ComputeSchedule::computed, this, &ExplorerWindow::onComputed);
    connect(m_schedule, &ComputeSchedule::failed, this, &ExplorerWindow::onComputeFailed);

    connect(m_viewBar, &ViewBar::edited, this, &ExplorerWindow::storeViewSettings);
    // Another layer is another problem (its X is the block below's output): computed again.
    connect(m_viewBar->layerCombo(), &QComboBox::activated, this, &ExplorerWindow::requestCompute);
    connect(m_compareCombo, &QComboBox::activated, this, [this] {
        storeViewSettings();
        requestCompute();
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        if (m_syncingView)
            return;
        storeViewSettings();
        if (tab == DifferenceTab && !m_compareResult)
            requestCompute();
    });
    connect(m_viewBar, &ViewBar::fitRequested, m_headView, &HeatmapView::resetZoom);
    connect(m_gridView, &HeatmapView::headClicked, this, &ExplorerWindow::selectHead);
    new MaskBrush(m_document, *m_headView, this);
    connect(m_headView, &HeatmapView::figureBuilt, this, [this] {
        const auto result = m_document.result();
        if (result && result->pooling.pooled) {
            const QSize grid = m_headView->devicePixelSize();
            const int rows = int(result->heads.front().weights.rows());
            const int cols = int(result->heads.front().weights.cols());
            // Much finer or coarser than the view now is: compute again at its size.
            if (rows > 2 * grid.height() || cols > 2 * grid.width() ||
                2 * rows < grid.height() * 0.9 || 2 * cols < grid.width() * 0.9)
                m_poolingCheck.start();
        }
    });
}

void ExplorerWindow::buildDocks()
{
    // The controls scroll both ways where the panel is smaller than they need (a restored
    // session, four heads, a projector): never clipped.
    auto* scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("sceneScroll"));
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    m_sceneScroll = scroll;
    auto* controls = new QWidget(scroll);
    controls->setObjectName(QStringLiteral("sceneControls"));
    auto* layout = new QVBoxLayout(controls);
    layout->setContentsMargins(8, 4, 8, 8);
    m_input = new InputPanel(m_document, controls);
    m_attention = new AttentionPanel(m_document, controls);
    layout->addWidget(m_input);
    layout->addWidget(m_attention);
    layout->addStretch(1);
    scroll->setWidget(controls);
    m_sceneDock = new QDockWidget(tr("Scene"), this);
    m_sceneDock->setObjectName(QStringLiteral("sceneDock"));
    m_sceneDock->setWidget(scroll);
    m_sceneDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    fitScenePanelWidth(); // and again when the controls change (eventFilter)
    addDockWidget(Qt::LeftDockWidgetArea, m_sceneDock);

    m_headsDock = new QDockWidget(tr("All heads"), this);
    m_headsDock->setObjectName(QStringLiteral("headsDock"));
    m_headsDock->setWidget(m_gridView);
    m_gridView->setMinimumSize(150, 100);

    m_weights = new WeightsPanel(m_document, this);
    m_weightsDock = new QDockWidget(tr("Weights"), this);
    m_weightsDock->setObjectName(QStringLiteral("weightsDock"));
    // Scrolls where the dock is shorter than the editor's buttons and note need (a projector).
    auto* weightsScroll = new QScrollArea(this);
    m_weightsScroll = weightsScroll;
    weightsScroll->setObjectName(QStringLiteral("weightsScroll"));
    weightsScroll->setWidgetResizable(true);
    weightsScroll->setFrameShape(QFrame::NoFrame);
    weightsScroll->setHorizontalScrollBarPolicy(
        Qt::ScrollBarAlwaysOff); // the table scrolls sideways itself
    weightsScroll->setWidget(m_weights);
    weightsScroll->setMinimumWidth(m_weights->minimumSizeHint().width() +
                                   weightsScroll->verticalScrollBar()->sizeHint().width());
    m_weightsDock->setWidget(weightsScroll);
    placeRightDocks();
    // Figure first: on a small screen All heads and Weights become tabs beside Scene.
    new FigureFirstDocks(*this, *m_sceneDock, {m_headsDock, m_weightsDock}, kUsableFigureWidth + 12,
                         [this] { placeRightDocks(); });

    // Wheel focus would hand a passing control the focus and then the wheel (eventFilter).
    for (QScrollArea* panel : {m_sceneScroll, m_weightsScroll})
        for (QWidget* control : panel->widget()->findChildren<QWidget*>())
            if ((qobject_cast<QComboBox*>(control) || qobject_cast<QAbstractSpinBox*>(control) ||
                 qobject_cast<QSlider*>(control)) &&
                control->focusPolicy() == Qt::WheelFocus)
                control->setFocusPolicy(Qt::StrongFocus);

    connect(m_input, &InputPanel::tokensChanged, this, [this] {
        m_attention->setTokenCounts(int(m_input->queryTokens().size()),
                                    int(m_input->keyTokens().size()));
    });
    connect(m_input, &InputPanel::message, this, [this](const QString& text) {
        m_messages->showMessage(QStringLiteral("input"), MessageBar::Level::Information, text);
    });
    connect(m_input, &InputPanel::error, this,
            [this](const QString& text) { showError(QStringLiteral("edit"), text); });
    connect(m_attention, &AttentionPanel::message, this,
            [this](const QString& text) { showError(QStringLiteral("edit"), text); });
    connect(m_weights, &WeightsPanel::message, this,
            [this](const QString& text) { showError(QStringLiteral("edit"), text); });
    connect(m_attention, &AttentionPanel::paintMaskToggled, this, [this](bool on) {
        m_headView->setMaskPainting(on);
        if (on)
            m_tabs->setCurrentIndex(HeadTab);
    });
}

// All heads above Weights, right of the figures.
void ExplorerWindow::placeRightDocks()
{
    addDockWidget(Qt::RightDockWidgetArea, m_headsDock);
    addDockWidget(Qt::RightDockWidgetArea, m_weightsDock);
    splitDockWidget(m_headsDock, m_weightsDock, Qt::Vertical);
    resizeDocks({m_headsDock, m_weightsDock}, {40, 60}, Qt::Vertical);
}

void ExplorerWindow::buildStatusBar()
{
    auto permanent = [this](const QString& name) { return addStatusLabel(*statusBar(), name); };
    m_warningLabel = permanent(QStringLiteral("warningLabel"));
    m_shapeLabel = permanent(QStringLiteral("shapeLabel"));
    m_timeLabel = permanent(QStringLiteral("timeLabel"));
    m_backendLabel = permanent(QStringLiteral("backendLabel"));
    m_backendLabel->setText(m_compute->backendName() + QStringLiteral(" · ") +
                            shortDeviceName(m_compute->deviceName()));
    m_backendLabel->setToolTip(m_compute->deviceName());
    m_warningLabel->hide();
    connect(m_compute, &ComputeController::backendChanged, this,
            [this](const QString& backend, const QString& device, const QString& reason) {
                m_backendLabel->setText(backend + QStringLiteral(" · ") + shortDeviceName(device));
                m_backendLabel->setToolTip(device);
                m_messages->showMessage(QStringLiteral("backend"), MessageBar::Level::Warning,
                                        reason.isEmpty()
                                            ? tr("Now computing with %1 · %2.").arg(backend, device)
                                            : tr("%1. Your scene is unchanged.").arg(reason));
            });
    connect(m_compute, &ComputeController::busyChanged, this, [this](bool busy) {
        if (busy)
            m_timeLabel->setText(tr("Computing…"));
    });
}

void ExplorerWindow::connectDocument()
{
    connect(&m_document, &SceneDocument::sceneChanged, this, &ExplorerWindow::onSceneChanged);
    connect(&m_document, &SceneDocument::resultChanged, this, &ExplorerWindow::showResult);
    connect(&m_document, &SceneDocument::modifiedChanged, this, &ExplorerWindow::updateTitle);
    connect(&m_document, &SceneDocument::filePathChanged, this, &ExplorerWindow::updateTitle);
}

// --- the scene and its result ----------------------------------------------------------------

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
        fillCompareCombo(m_compareCombo->currentData().toString());
    }
    if (what & SceneChange::Weights)
        updateAllHeadsOffWarning();
    if (what & (SceneChange::Text | SceneChange::Settings | SceneChange::Weights)) {
        m_compareResult.reset();
        requestCompute();
    }
    updateTitle();
}

void ExplorerWindow::requestCompute()
{
    m_schedule->request();
}

ComputeRequest ExplorerWindow::computeRequest() const
{
    ComputeRequest request;
    request.scene = m_document.scene();
    const qint64 queries = qint64(m_input->queryTokens().size());
    const qint64 keys = qint64(m_input->keyTokens().size());
    const qint64 heads = std::max(1, request.scene.weights.headCount());
    request.options.keepIntermediates = queries * keys * heads <= kKeepIntermediatesCells;
    // Long inputs: pool in the backend to what the heatmap can show.
    QSize pixels = m_headView->devicePixelSize();
    if (pixels.width() < 64 || pixels.height() < 64)
        pixels = QSize(1024, 1024);
    if (queries > pixels.height() || keys > pixels.width()) {
        request.options.viewRows = pixels.height();
        request.options.viewCols = pixels.width();
        // The largest weight of a block: a mean of 1/T-sized weights is one dark colour.
        request.options.pool = core::PoolMode::Max;
    }
    if (m_tabs->currentIndex() == DifferenceTab) {
        try {
            request.compare =
                comparisonScene(request.scene, m_compareCombo->currentData().toString(),
                                m_openedScene ? &*m_openedScene : nullptr);
        } catch (const core::Error& e) {
            m_differenceView->showMessage(QString::fromUtf8(e.what()));
        }
    }
    return request;
}

bool ExplorerWindow::isShowingStale() const
{
    return m_stale->isStale();
}

bool ExplorerWindow::isUpToDate() const
{
    return m_schedule->isAnswered() && !m_headView->isRebuildPending();
}

void ExplorerWindow::onComputeFailed(const QString& error)
{
    showError(QStringLiteral("compute"), error);
    if (m_document.result()) {
        m_timeLabel->setText(tr("Not computed: the figures show an earlier input"));
    } else {
        m_timeLabel->setText(tr("Not computed"));
        for (HeatmapView* view : {m_headView, m_gridView, m_pipelineView, m_differenceView})
            view->showMessage(tr("Nothing to show yet: %1").arg(error));
    }
    emit resultShown();
}

void ExplorerWindow::onComputed(const ComputeReply& reply)
{
    m_messages->clearMessage(QStringLiteral("compute"));
    m_compareResult = reply.compare;
    m_compareError = reply.compareError;
    m_document.setResult(reply.result); // -> showResult
}

void ExplorerWindow::showResult()
{
    const auto result = m_document.result();
    if (!result)
        return;
    const int head = selectedHead();
    m_headView->setResult(result);
    m_gridView->setResult(result);
    m_pipelineView->setResult(result);
    if (m_compareResult)
        m_differenceView->setResult(result, m_compareResult);
    else if (!m_compareError.isEmpty())
        m_differenceView->showMessage(m_compareError);
    m_linesView->setResult(result, head);
    m_linesView->setColor(AttentionPanel::headColor(std::max(0, head)));
    updateConceptPages();

    const core::Problem& p = *result->problem;
    const QLocale locale;
    // No translations are loaded, so no %n plurals ("1 head(s)"): the words themselves.
    const int heads = int(result->heads.size());
    QString shape = tr("%1 × %2 tokens · %3")
                        .arg(locale.toString(p.queryCount()), locale.toString(p.keyCount()),
                             heads == 1 ? tr("1 head") : tr("%1 heads").arg(heads));
    if (result->pooling.pooled)
        shape += tr(" · shown pooled, %1 × %2 per cell")
                     .arg(result->pooling.rowBlock)
                     .arg(result->pooling.colBlock);
    m_shapeLabel->setText(shape);
    m_timeLabel->setText(
        tr("Computed in %1").arg(formatComputeTime(result->diagnostics.computeMilliseconds)));
    const auto& warnings = result->diagnostics.warnings;
    m_warningLabel->setVisible(!warnings.empty());
    if (!warnings.empty()) {
        QStringList lines;
        for (const std::string& w : warnings)
            lines << QString::fromStdString(w);
        m_warningLabel->setText(QStringLiteral("⚠ ") + lines.first());
        m_warningLabel->setMaximumWidth(
            m_warningLabel->fontMetrics().horizontalAdvance(m_warningLabel->text()) + 16);
        m_warningLabel->setToolTip(lines.join(QLatin1Char('\n')));
    }
    m_input->setFallback(p.queryFallback, p.keyFallback);
    updateAllHeadsOffWarning();
    m_schedule->updateStale();
    if (m_exportDialog)
        m_exportDialog->setSource(exportSource());
    if (m_presentation) {
        m_presentation->setResult(result);
        m_presentation->setExtras(presentationExtras(m_document.scene(), m_mixingPage->viewName()));
    }
    emit resultShown();
}

QComboBox* ExplorerWindow::headCombo() const
{
    return m_viewBar->headCombo();
}

int ExplorerWindow::selectedHead() const
{
    return m_viewBar->selectedHead();
}

bool ExplorerWindow::allHeadsShown() const
{
    return m_viewBar->allHeadsShown();
}

void ExplorerWindow::selectHead(int head)
{
    m_viewBar->selectHead(head);
    storeViewSettings();
}

// Every head off leaves nothing to average and an output of zeros: say so where the
// controls are, not only in the figure's title.
void ExplorerWindow::updateAllHeadsOffWarning()
{
    const auto& heads = m_document.scene().weights.heads;
    const bool allOff =
        !heads.empty() && std::none_of(heads.begin(), heads.end(),
                                       [](const core::HeadWeights& h) { return h.enabled; });
    if (allOff)
        m_messages->showMessage(
            QStringLiteral("heads"), MessageBar::Level::Warning,
            tr("Every head is switched off: the output is all zeros and the mean of heads has "
               "nothing to average. Switch a head on under Heads."));
    else
        m_messages->clearMessage(QStringLiteral("heads"));
}

FigureSpec ExplorerWindow::figureSpec(FigureView view) const
{
    const core::ViewSettings& settings = m_document.scene().view;
    FigureSpec spec;
    spec.view = view;
    spec.head = selectedHead();
    spec.colormap = parseColormap(settings.colormap).value_or(Colormap::Viridis);
    spec.showValues = settings.showValues;
    spec.weightScale = parseWeightScale(settings.colorScale).value_or(WeightScale::Fixed);
    spec.precision = std::clamp(settings.valuePrecision, 0, 6);
    spec.transposed = settings.transposed;
    if (view == FigureView::Difference)
        spec.compareLabel =
            comparisonLabel(m_document.scene(), m_compareCombo->currentData().toString());
    spec.dpi = logicalDpiY();
    spec.fontPoints = 9.0;
    // A dark system palette darkens the figures on screen too; exported and copied figures
    // keep their own light colours (ExportSettings::figureSpec).
    if (palette().color(QPalette::Base).lightness() < 128)
        spec.style = presentationStyle(PresentationTheme::Dark);
    return spec;
}

// The scene panel is as wide as its controls need (they wrap: a row of head switches, the
// sentence), but never wider than a third of a 1024-pixel projector: past that it scrolls.
void ExplorerWindow::fitScenePanelWidth()
{
    QWidget* controls = m_sceneScroll->widget();
    const int scrollBar = m_sceneScroll->verticalScrollBar()->sizeHint().width();
    const int wanted = controls->minimumSizeHint().width() + scrollBar;
    m_sceneScroll->setMinimumWidth(std::min(wanted, kMaxScenePanelMinimum));
}

// Text fields take Ctrl+E (end of line on X11) and other keys before the window's shortcuts
// see them: the window's own commands win wherever the focus is.
bool ExplorerWindow::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() == QEvent::LayoutRequest && m_sceneScroll &&
        watched == m_sceneScroll->widget())
        QTimer::singleShot(0, this, &ExplorerWindow::fitScenePanelWidth);
    // The wheel scrolls a panel; it does not change the combo, spin box or slider that passes
    // under the pointer on the way (seen: scrolling the scene panel set the masked value).
    // A control takes the wheel once it has the focus.
    if (event->type() == QEvent::Wheel) {
        auto* control = qobject_cast<QWidget*>(watched);
        if (control && !control->hasFocus() &&
            (qobject_cast<QComboBox*>(control) || qobject_cast<QAbstractSpinBox*>(control) ||
             qobject_cast<QAbstractSlider*>(control)) &&
            !qobject_cast<QScrollBar*>(control))
            for (QScrollArea* panel : {m_sceneScroll, m_weightsScroll})
                if (panel && panel->isAncestorOf(control)) {
                    QCoreApplication::sendEvent(panel->verticalScrollBar(), event);
                    return true;
                }
    }
    if (event->type() == QEvent::ShortcutOverride) {
        auto* widget = qobject_cast<QWidget*>(watched);
        if (widget && (widget == this || isAncestorOf(widget))) {
            const QKeySequence pressed(static_cast<QKeyEvent*>(event)->keyCombination());
            for (QAction* action : m_menus->windowShortcuts())
                if (action->isEnabled() && action->shortcuts().contains(pressed)) {
                    event->ignore(); // not overridden: the shortcut fires
                    return true;
                }
        }
    }
    return QMainWindow::eventFilter(watched, event);
}

void ExplorerWindow::changeEvent(QEvent* event)
{
    QMainWindow::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyViewSettings(); // the figures' colours follow the palette
}

// scene.view -> the controls and the views' specs.
void ExplorerWindow::applyViewSettings()
{
    m_syncingView = true;
    m_viewBar->setHeadCount(m_document.scene().weights.headCount());
    m_viewBar->setLayerCount(core::layerCount(m_document.scene()));
    const core::ViewSettings& settings = m_document.scene().view;
    FigureView view = FigureView::Head;
    int head = 0;
    int tab = HeadTab;
    if (const auto conceptView = parseConceptView(settings.view.section(QLatin1Char(':'), 0, 0))) {
        tab = conceptTab(*conceptView);
        if (*conceptView == ConceptView::Train && settings.view.contains(QLatin1Char(':')))
            m_trainPage->setTask(settings.view.section(QLatin1Char(':'), 1));
        if (*conceptView == ConceptView::Context)
            m_contextPage->setRequest(settings.view);
        if (*conceptView == ConceptView::Mixing)
            m_mixingPage->setRequest(settings.view);
        if (*conceptView == ConceptView::Projections)
            m_projectionsPage->setPart(projectionsPartOf(m_document.scene()));
        if (*conceptView == ConceptView::Kernel)
            m_kernelPage->setPart(kernelPartOf(m_document.scene()));
    } else if (parseFigureView(settings.view, view, head)) {
        tab = view == FigureView::Pipeline     ? PipelineTab
              : view == FigureView::Difference ? DifferenceTab
              : view == FigureView::Lines      ? LinesTab
                                               : HeadTab;
        if (view == FigureView::Heads)
            head = 0;
    }
    // The scene's own view, as an export of it shows: "heads" is All heads on the Weights tab.
    const bool all =
        tab == HeadTab && parseFigureView(settings.view, view, head) && view == FigureView::Heads;
    m_viewBar->showSettings(settings, head, all);
    m_tabs->setCurrentIndex(tab);
    // Never the scene as it is: that difference is all zeros.
    fillCompareCombo(settings.compareScore);
    m_syncingView = false;

    m_headView->setSpec(figureSpec(allHeadsShown() ? FigureView::Heads : FigureView::Head));
    m_headView->setMaskPainting(m_attention->paintMaskButton()->isChecked());
    FigureSpec grid = figureSpec(FigureView::Heads);
    grid.showValues = false;
    grid.title = QStringLiteral(" "); // the dock's title says it
    grid.colorBar = false;
    grid.showTokenLabels = false; // thumbnails: the large view beside them names the tokens
    m_gridView->setSpec(grid);
    m_gridView->setHighlightedHead(allHeadsShown() ? -1 : selectedHead());
    FigureSpec pipeline = figureSpec(FigureView::Pipeline);
    pipeline.head = std::max(0, pipeline.head);
    m_pipelineView->setSpec(pipeline);
    m_differenceView->setSpec(figureSpec(FigureView::Difference));
    for (ConceptPage* page : conceptPages())
        page->setSpec(figureSpec(FigureView::Head));
    const auto result = m_document.result();
    if (result && m_linesView->head() != selectedHead()) {
        m_linesView->setResult(result, selectedHead());
        m_linesView->setColor(AttentionPanel::headColor(std::max(0, selectedHead())));
    }
}

std::array<ConceptPage*, 10> ExplorerWindow::conceptPages() const
{
    return {m_trainPage,       m_gradientPage, m_kernelPage,  m_positionsPage, m_embeddingPage,
            m_projectionsPage, m_hardPage,     m_contextPage, m_layersPage,    m_mixingPage};
}

// The concept views get the scene and its result; each redraws when next shown.
void ExplorerWindow::updateConceptPages()
{
    ConceptSource source;
    source.scene = std::make_shared<const core::Scene>(m_document.scene());
    source.result = m_document.result();
    source.head = std::max(0, selectedHead());
    source.query = source.result ? std::max(0, source.result->problem->queryCount() - 1) : 0;
    for (ConceptPage* page : conceptPages())
        page->setSource(source);
}

// Another scene starts as in a fresh window: the side panels at their top, the concept pages
// without the task or words of the scene before (its view may set them again).
void ExplorerWindow::forgetPreviousScene()
{
    for (QScrollArea* panel : {m_sceneScroll, m_weightsScroll}) {
        panel->verticalScrollBar()->setValue(0);
        panel->horizontalScrollBar()->setValue(0);
    }
    for (ConceptPage* page : conceptPages())
        page->forgetScene();
}

// The Difference tab's choices for the scene as it is now, `wanted` selected where it is one.
void ExplorerWindow::fillCompareCombo(const QString& wanted)
{
    const core::Scene& scene = m_document.scene();
    const QSignalBlocker blocker(m_compareCombo);
    m_compareCombo->clear();
    for (const ComparisonChoice& choice : comparisonChoices(scene, m_openedScene.has_value()))
        m_compareCombo->addItem(choice.label, choice.name);
    m_compareCombo->setCurrentIndex(std::max(
        0, m_compareCombo->findData(chooseComparison(wanted, scene, m_openedScene.has_value()))));
}

// The controls -> scene.view (saved with the scene; not an undo step).
void ExplorerWindow::storeViewSettings()
{
    if (m_syncingView)
        return;
    core::ViewSettings settings = m_document.scene().view;
    const int head = selectedHead();
    switch (m_tabs->currentIndex()) {
    case PipelineTab:
        settings.view = figureViewName(FigureView::Pipeline, std::max(0, head));
        break;
    case LinesTab:
        settings.view = figureViewName(FigureView::Lines, head);
        break;
    case DifferenceTab:
        settings.view = figureViewName(FigureView::Difference, head);
        break;
    case TrainTab:
        settings.view =
            conceptViewName(ConceptView::Train) + QLatin1Char(':') + m_trainPage->taskName();
        break;
    case GradientTab:
    case PositionsTab:
    case EmbeddingSpaceTab:
    case HardTab:
    case LayersTab:
        settings.view = conceptViewName(*conceptOfTab(m_tabs->currentIndex()));
        break;
    case ContextTab: // the word and the second sentence the page holds
        settings.view = m_contextPage->viewName();
        break;
    case MixingTab: // the second sentence the page holds
        settings.view = m_mixingPage->viewName();
        break;
    case KernelTab: // the smoother or the learned kernel
        settings.view = m_kernelPage->viewName();
        break;
    case ProjectionsTab:
        settings.view = conceptViewName(ConceptView::Projections) + QLatin1Char(':') +
                        projectionsPartName(m_projectionsPage->part());
        break;
    default:
        settings.view = allHeadsShown() ? figureViewName(FigureView::Heads, 0)
                                        : figureViewName(FigureView::Head, head);
        break;
    }
    m_viewBar->storeSettings(settings);
    settings.compareScore = m_compareCombo->currentData().toString();
    m_document.setView(settings); // -> applyViewSettings
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

// --- window state ----------------------------------------------------------------------------

void ExplorerWindow::resizeEvent(QResizeEvent* event)
{
    QMainWindow::resizeEvent(event);
    // Figure first on a short window (a projector at a 1.5 scale factor): the tool bar's buttons
    // are small icons, their words in tooltips, and the figures get the height.
    if (auto* bar = findChild<QToolBar*>(QStringLiteral("mainToolBar"))) {
        const bool small = height() < 560;
        bar->setToolButtonStyle(small ? Qt::ToolButtonIconOnly : Qt::ToolButtonTextBesideIcon);
        bar->setIconSize(small ? QSize(16, 16) : QSize()); // an invalid size: the style's
    }
}

void ExplorerWindow::readSettings()
{
    const preferences::WindowLayout layout = preferences::windowLayout(QStringLiteral("explorer"));
    if (!restoreGeometry(layout.geometry)) {
        // First start: the whole of a laptop or projector screen, a large window on a larger one.
        const QRect screen =
            this->screen() ? this->screen()->availableGeometry() : QRect(0, 0, 1280, 800);
        if (screen.width() <= 1920 && screen.height() <= 1200) {
            setGeometry(screen); // also where no window manager maximizes
            setWindowState(Qt::WindowMaximized);
        } else {
            const QSize size(1600, 1000);
            setGeometry(QRect(screen.center() - QPoint(size.width() / 2, size.height() / 2), size));
        }
    }
    if (!restoreState(layout.state)) {
        // First start: the figures take the middle; the panels about a quarter each side.
        const int width = geometry().width();
        const int controls = m_sceneScroll->widget()->minimumSizeHint().width() +
                             m_sceneScroll->verticalScrollBar()->sizeHint().width();
        resizeDocks({m_sceneDock, m_headsDock},
                    {std::clamp(width * 27 / 100, std::min(controls, 300), 380),
                     std::clamp(width * 22 / 100, 220, 360)},
                    Qt::Horizontal);
    }
}

void ExplorerWindow::writeSettings()
{
    preferences::setWindowLayout(QStringLiteral("explorer"), {saveGeometry(), saveState()});
}

// --- figures and presenting ----------------------------------------------------------------

ExportDialog* ExplorerWindow::exportDialog() const
{
    return m_exportDialog;
}

PresentationWindow* ExplorerWindow::presentation() const
{
    return m_presentation;
}

ExportSource ExplorerWindow::exportSource() const
{
    ExportSource source;
    source.result = m_document.result();
    source.compare = m_compareResult;
    const int tab = m_tabs->currentIndex();
    source.spec = figureSpec(tab == PipelineTab                  ? FigureView::Pipeline
                             : tab == DifferenceTab              ? FigureView::Difference
                             : tab == HeadTab && allHeadsShown() ? FigureView::Heads
                                                                 : FigureView::Head);
    source.lines = tab == LinesTab;
    if (const auto view = conceptOfTab(tab)) {
        // What the page shows now (dragged points, the chosen query, the training so far).
        QPointer<ConceptPage> page = conceptPages()[std::size_t(*view)];
        source.drawConcept = [page](QCustomPlot& plot, const FigureSpec& spec) {
            if (!page)
                throw core::Error("the view was closed");
            page->draw(plot, spec);
        };
        source.suggestedName += QLatin1Char('-') + conceptViewName(*view);
    }
    source.suggestedName =
        m_document.filePath().isEmpty()
            ? fileNameFromTitle(m_document.scene().title, QStringLiteral("attention"))
            : QFileInfo(m_document.filePath()).completeBaseName();
    return source;
}

void ExplorerWindow::openExportDialog()
{
    if (!m_document.result()) {
        showError(QStringLiteral("export"),
                  tr("There is no figure to export yet: the scene has not been computed."));
        return;
    }
    if (!m_exportDialog) {
        m_exportDialog = new ExportDialog(exportSource(), this);
        m_exportDialog->setAttribute(Qt::WA_DeleteOnClose);
        connect(m_exportDialog, &ExportDialog::saved, this, [this](const QString& path) {
            statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 6000);
        });
    }
    m_exportDialog->show();
    m_exportDialog->raise();
    m_exportDialog->activateWindow();
}

void ExplorerWindow::copyFigure()
{
    if (!m_document.result())
        return;
    const ExportSource source = exportSource();
    try {
        copyFigureToClipboard(source, windowExportSettings(source));
    } catch (const std::exception& error) {
        showError(QStringLiteral("export"),
                  tr("The figure was not copied: %1").arg(QString::fromUtf8(error.what())));
        return;
    }
    statusBar()->showMessage(tr("Figure copied as PNG and SVG"), 4000);
}

void ExplorerWindow::togglePresentation()
{
    if (m_presentation) {
        m_presentation->close();
        return;
    }
    if (!m_document.result()) {
        showError(QStringLiteral("export"),
                  tr("There is nothing to present yet: the scene has not been computed."));
        return;
    }
    m_presentation = new PresentationWindow(m_document.result(), this);
    m_presentation->setAttribute(Qt::WA_DeleteOnClose);
    m_presentation->setHead(std::max(0, selectedHead()));
    m_presentation->setWeightScale(figureSpec(FigureView::Head).weightScale);
    m_presentation->setExtras(presentationExtras(m_document.scene(), m_mixingPage->viewName()));
    if (m_document.scene().view.theme == QLatin1String("dark"))
        m_presentation->setTheme(PresentationTheme::Dark);
    m_presentation->showOver(*this, m_tabs->currentWidget());
}

bool ExplorerWindow::exportPresentation(const QString& path)
{
    const auto result = m_document.result();
    if (!result) {
        showError(QStringLiteral("export"),
                  tr("There is nothing to present yet: the scene has not been computed."));
        return false;
    }
    DeckOptions deck;
    deck.head = std::max(0, selectedHead());
    deck.theme = m_document.scene().view.theme == QLatin1String("dark") ? PresentationTheme::Dark
                                                                        : PresentationTheme::Light;
    deck.weightScale = figureSpec(FigureView::Head).weightScale;
    deck.extras = presentationExtras(m_document.scene(), m_mixingPage->viewName());
    if (m_presentation) { // what is on the screen: its head, theme and chosen cell
        deck.head = m_presentation->head();
        deck.theme = m_presentation->theme();
        deck.query = m_presentation->query();
        deck.key = m_presentation->key();
    }
    try {
        core::writeFileAtomically(path, presentationPdf(*result, deck));
    } catch (const std::exception& error) {
        showError(QStringLiteral("export"),
                  tr("The presentation was not exported: %1").arg(QString::fromUtf8(error.what())));
        return false;
    }
    statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 6000);
    return true;
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
