#include "ui/model/model_window.h"

#include "ui/document/file_names.h"
#include "ui/document/file_prompts.h"
#include "ui/document/preferences.h"
#include "ui/export/export_dialog.h"
#include "ui/hub/download_model_dialog.h"
#include "ui/model/encdec_view.h"
#include "ui/model/gallery_view.h"
#include "ui/model/generate_view.h"
#include "ui/model/head_grid_view.h"
#include "ui/model/head_importance_job.h"
#include "ui/model/importance_view.h"
#include "ui/model/kv_cache_view.h"
#include "ui/model/lens_tabs.h"
#include "ui/model/matrix_panels_view.h"
#include "ui/model/model_head_panel.h"
#include "ui/model/model_load_job.h"
#include "ui/model/model_recovery.h"
#include "ui/model/model_scene_files.h"
#include "ui/model/open_model_dialog.h"
#include "ui/model/predictions_view.h"
#include "ui/model/token_focus_bar.h"
#include "ui/presentation/presentation_window.h"
#include "ui/views/head_view_tabs.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/lines_view.h"
#include "ui/widgets/figure_first_docks.h"
#include "ui/widgets/flow_layout.h"
#include "ui/widgets/message_bar.h"
#include "ui/widgets/score_options.h"
#include "ui/widgets/stale_indicator.h"
#include "ui/widgets/standard_keys.h"
#include "ui/widgets/status_labels.h"

#include "core/atomic_file.h"
#include "core/error.h"
#include "core/model/forward.h"
#include "core/scene_json.h"
#include "core/tokenizers/hf_tokenizer.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>
#include <QUndoStack>
#include <QVBoxLayout>

namespace attn::ui {

namespace {

enum Tab {
    HeadTab,
    PipelineTab,
    LinesTab,
    DifferenceTab,
    RolloutTab,
    ImportanceTab,
    GenerateTab,
    KvCacheTab
};

// What a newly opened model starts with: the sentence last used with it, else a sample that
// shows its prediction (a [MASK] for a masked model).
QString sampleText(const core::Model& model)
{
    if (model.config().objective == core::Objective::MaskedLm) {
        if (const auto mask = model.tokenizer->maskTokenId())
            return QStringLiteral("The cat sat on the %1.")
                .arg(model.tokenizer->displayText(*mask));
    }
    return QStringLiteral("The cat sat on the");
}

} // namespace

ModelWindow::ModelWindow(std::unique_ptr<core::Backend> backend, core::BackendChoice choice,
                         const QString& selector, const QString& notice,
                         core::BackendFactory backends, QWidget* parent)
    : QMainWindow(parent), m_backends(std::move(backends)), m_choice(choice), m_selector(selector),
      m_backendNotice(notice)
{
    setObjectName(QStringLiteral("ModelWindow"));
    m_compute = new ModelComputeController(std::move(backend), this);
    m_files = new ModelSceneFiles(
        *this, m_document, *statusBar(),
        {[this](const QString& folderOrId, const QString& text,
                const core::Interventions& interventions, int layer, int head,
                const QString& scenePath) {
             openModel(folderOrId, text, interventions, layer, head, scenePath);
         },
         [this](const QString& key, const QString& text) { showError(key, text); }});
    buildViews();
    buildDocks();
    m_stale = new StaleIndicator(m_staleNote, {m_grid, m_tabs, m_predictions}, this);
    buildMenus();
    buildStatusBar();
    connectDocument();
    enableModelControls();
    m_typingPause.setSingleShot(true);
    m_typingPause.setInterval(800);
    connect(&m_typingPause, &QTimer::timeout, this, [this] {
        m_document.endGesture(m_typingGesture);
        m_typingGesture = 0;
    });
    updateTitle();
    updateStatus();
    showResult();
    m_recovery = new ModelRecovery(*this, *m_files);
    m_recovery->offerLeftCopies();
}

ModelWindow::~ModelWindow()
{
    m_load.reset();
    m_importanceJob.reset();
    disconnect(&m_document, nullptr, this, nullptr);
    delete m_compute;
    m_compute = nullptr;
}

ModelWindow* ModelWindow::create(const core::BackendFactory& backends, core::BackendChoice choice,
                                 const QString& selector)
{
    std::string notice;
    std::unique_ptr<core::Backend> backend = makeBackend(backends, choice, selector, &notice);
    auto* window = new ModelWindow(std::move(backend), choice, selector,
                                   QString::fromStdString(notice), backends);
    window->setAttribute(Qt::WA_DeleteOnClose);
    const QRect screen =
        window->screen() ? window->screen()->availableGeometry() : QRect(0, 0, 1280, 800);
    window->setGeometry(screen.width() <= 1920 && screen.height() <= 1200
                            ? screen
                            : QRect(screen.center() - QPoint(800, 500), QSize(1600, 1000)));
    if (screen.width() <= 1920 && screen.height() <= 1200)
        window->setWindowState(Qt::WindowMaximized);
    window->show();
    return window;
}

std::unique_ptr<core::Backend> ModelWindow::makeBackend(const core::BackendFactory& backends,
                                                        core::BackendChoice choice,
                                                        const QString& selector,
                                                        std::string* notice)
{
    try {
        return backends.create(choice, selector.toStdString(), notice);
    } catch (const core::Error& error) { // a device selector that names none
        if (notice)
            *notice = error.what();
        return backends.create(core::BackendChoice::Cpu, std::string(), nullptr);
    }
}

// --- building ------------------------------------------------------------------------------

void ModelWindow::buildViews()
{
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(6, 6, 6, 0);
    m_messages = new MessageBar(central);
    layout->addWidget(m_messages);
    m_staleNote = StaleIndicator::makeNote(central);
    layout->addWidget(m_staleNote);
    auto* splitter = new QSplitter(Qt::Horizontal, central);
    m_splitter = splitter;
    splitter->installEventFilter(this); // side by side or one above the other (eventFilter)
    splitter->setObjectName(QStringLiteral("modelSplitter"));
    splitter->setChildrenCollapsible(false);

    auto* gridPane = new QWidget(splitter);
    m_gridPane = gridPane;
    auto* gridLayout = new QVBoxLayout(gridPane);
    gridLayout->setContentsMargins(0, 0, 0, 0);
    auto* gridBar = new QHBoxLayout;
    auto* gridTitle = new QLabel(tr("<b>Every layer and head</b>"), gridPane);
    m_gridNote = new QLabel(gridPane);
    m_gridNote->setWordWrap(true);
    m_gridNote->setMinimumWidth(1);
    auto* reset = new QToolButton(gridPane);
    reset->setObjectName(QStringLiteral("resetModelButton"));
    gridBar->addWidget(gridTitle);
    gridBar->addWidget(m_gridNote, 1);
    gridBar->addWidget(reset);
    gridLayout->addLayout(gridBar);
    m_grid = new HeadGridView(gridPane);
    m_grid->setObjectName(QStringLiteral("headGrid"));
    gridLayout->addWidget(m_grid, 1);
    m_gallery = new GalleryView(gridPane);
    m_gallery->setObjectName(QStringLiteral("modelGallery"));
    gridLayout->addWidget(m_gallery, 1);
    connect(m_gallery, &GalleryView::openRequested, this, [this](const QString& folder) {
        if (m_files->maybeSave())
            openModel(folder);
    });
    connect(m_gallery, &GalleryView::downloadRequested, this,
            [this](const QString& id) { downloadModelDialog(id); });
    splitter->addWidget(gridPane);

    m_tabs = new HeadViewTabs(splitter);
    m_tabs->setObjectName(QStringLiteral("modelViewTabs"));
    m_headView = m_tabs->headView();
    m_pipelineView = m_tabs->pipelineView();
    m_linesView = m_tabs->linesView();
    m_differenceView = m_tabs->differenceView();
    m_compareCombo = m_tabs->compareCombo();
    m_compareCombo->setToolTip(
        tr("The score the Difference tab subtracts: these weights minus the weights "
           "scored this way"));
    for (ScoreOption option :
         {ScoreOption::Dot, ScoreOption::Scaled, ScoreOption::Hard, ScoreOption::Cosine})
        m_compareCombo->addItem(scoreOptionLabel(option), scoreOptionName(option));
    m_tabs->compareLabel()->setText(tr("These weights minus those &scored by:"));
    m_rollout = new MatrixPanelsView(m_tabs);
    m_rollout->setObjectName(QStringLiteral("rolloutView"));
    m_importance = new ImportanceView(m_tabs);
    m_importance->setObjectName(QStringLiteral("importanceView"));
    m_tabs->addTab(m_rollout, tr("&Rollout"));
    m_tabs->addTab(m_importance, tr("&Importance"));
    // Scrolled: its settings and steps need not fit a projector's 1024 x 768.
    auto* generatePage = new QScrollArea(m_tabs);
    generatePage->setObjectName(QStringLiteral("generatePage"));
    generatePage->setWidgetResizable(true);
    generatePage->setFrameShape(QFrame::NoFrame);
    m_generate = new GenerateView(generatePage);
    m_generate->setObjectName(QStringLiteral("generateView"));
    generatePage->setWidget(m_generate);
    m_tabs->addTab(generatePage, tr("&Generate"));
    auto* kvPage = new QScrollArea(m_tabs);
    kvPage->setWidgetResizable(true);
    kvPage->setFrameShape(QFrame::NoFrame);
    m_kvCache = new KvCacheView(kvPage);
    m_kvCache->setObjectName(QStringLiteral("kvCacheView"));
    kvPage->setWidget(m_kvCache);
    m_tabs->addTab(kvPage, tr("&KV Cache"));
    m_tabs->setTabToolTip(KvCacheTab, tr("What a causal model keeps of earlier tokens so that the "
                                         "next one costs one row per layer"));
    // The grid follows the step the Generate tab shows, the newest token's row in every head.
    connect(m_generate, &GenerateView::tokensShown, this,
            [this](const std::vector<core::Token>& tokens) {
                m_followTokens = tokens;
                m_document.setFocusToken(int(tokens.size()) - 1);
                requestCompute();
            });
    // Scrolled too: its controls and figures never widen the tabs past the grid's share.
    auto* translatePage = new QScrollArea(m_tabs);
    translatePage->setWidgetResizable(true);
    translatePage->setFrameShape(QFrame::NoFrame);
    m_encdec = new EncDecView(translatePage);
    m_encdec->setObjectName(QStringLiteral("encdecView"));
    translatePage->setWidget(m_encdec);
    m_tabs->addTab(translatePage, tr("&Translate"));
    m_tabs->setTabToolTip(m_tabs->indexOf(translatePage),
                          tr("Encoder-decoder models: translate word by word, with the encoder's, "
                             "the decoder's and the cross-attention's heads"));
    m_tabs->setTabToolTip(
        HeadTab, tr("The selected head's attention weights: queries as rows, keys as columns"));
    m_tabs->setTabToolTip(
        PipelineTab,
        tr("X, Q, K, V, scores, masked scores, weights and output of the selected head"));
    m_tabs->setTabToolTip(LinesTab, tr("Each query of the selected head joined to every key by a "
                                       "line as strong as its weight"));
    m_tabs->setTabToolTip(DifferenceTab,
                          tr("The selected head's weights minus its weights under another score"));
    m_tabs->setTabToolTip(
        RolloutTab,
        tr("Attention rollout (Abnar & Zuidema 2020) through the selected layer, beside "
           "that layer's raw mean"));
    m_tabs->setTabToolTip(ImportanceTab, tr("How much each head matters to the prediction"));
    m_tabs->setTabToolTip(GenerateTab, tr("Let the model write after the sentence, token by "
                                          "token, with the interventions on"));
    m_lensTabs = new LensTabs(*m_tabs,
                              {[this](int l, int h) {
                                   m_document.select(l, h);
                                   m_tabs->setCurrentIndex(HeadTab);
                               },
                               [this](const QString& key, const QString& text) {
                                   if (text.isEmpty())
                                       m_messages->clearMessage(key);
                                   else
                                       showError(key, text);
                               }},
                              this);
    splitter->addWidget(m_tabs);
    // The grid takes the larger part: 12 x 12 thumbnails readable at 1920 x 1080.
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setSizes({600, 400});
    layout->addWidget(splitter, 1);
    setCentralWidget(central);

    m_resetAction = new QAction(tr("&Reset Model"), this);
    m_resetAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    m_resetAction->setToolTip(
        tr("Undo every intervention: back to the checkpoint (Ctrl+R; Ctrl+Z brings them back)"));
    connect(m_resetAction, &QAction::triggered, this, [this] { m_document.resetInterventions(); });
    reset->setDefaultAction(m_resetAction);

    connect(m_grid, &HeadGridView::headSelected, this,
            [this](int l, int h) { m_document.select(l, h); });
    connect(m_grid, &HeadGridView::headToggled, this,
            [this](int l, int h, bool off) { m_document.setHeadOff(l, h, off); });
    connect(m_grid, &HeadGridView::headActivated, this, [this](int l, int h) {
        m_document.select(l, h);
        m_tabs->setCurrentIndex(HeadTab);
    });
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        if (tab == DifferenceTab && !m_compare)
            requestCompute();
    });
    connect(m_compareCombo, &QComboBox::activated, this, [this] {
        m_compare.reset();
        requestCompute();
    });
    connect(m_importance, &ImportanceView::computeRequested, this, &ModelWindow::computeImportance);
    connect(m_importance, &ImportanceView::cancelRequested, this, &ModelWindow::cancelImportance);
    connect(m_importance, &ImportanceView::headClicked, this,
            [this](int l, int h) { m_document.select(l, h); });
    connect(m_rollout, &MatrixPanelsView::cellClicked, this, [this](int, int row, int) {
        m_document.setFocusToken(m_document.focusToken() == row ? -1 : row);
    });
}

void ModelWindow::buildDocks()
{
    auto* input = new QWidget(this);
    input->setObjectName(QStringLiteral("modelInput"));
    auto* layout = new QVBoxLayout(input);
    layout->setContentsMargins(8, 4, 8, 8);
    auto* textLabel = new QLabel(tr("&Sentence:"), input);
    m_text = new QLineEdit(input);
    m_text->setObjectName(QStringLiteral("modelText"));
    m_text->setPlaceholderText(tr("Type a sentence"));
    textLabel->setBuddy(m_text);
    layout->addWidget(textLabel);
    layout->addWidget(m_text);
    auto* tokensLabel =
        new QLabel(tr("Tokens (pick one to see what it attends to in every head):"), input);
    tokensLabel->setWordWrap(true);
    layout->addWidget(tokensLabel);
    m_tokens = new TokenFocusBar(input);
    m_tokens->setObjectName(QStringLiteral("tokenFocusBar"));
    layout->addWidget(m_tokens);
    auto* predictionsLabel = new QLabel(tr("<b>Prediction</b> (tick: the unedited model)"), input);
    layout->addSpacing(6);
    layout->addWidget(predictionsLabel);
    m_predictions = new PredictionsView(input);
    m_predictions->setObjectName(QStringLiteral("predictionsView"));
    layout->addWidget(m_predictions);
    layout->addWidget(m_lensTabs->createTrace(input));
    layout->addStretch(1);
    // Both panels scroll rather than widen the window past a 1024-pixel projector.
    auto* inputScroll = new QScrollArea(this);
    inputScroll->setWidgetResizable(true);
    inputScroll->setFrameShape(QFrame::NoFrame);
    inputScroll->setWidget(input);
    const int scrollBar = inputScroll->verticalScrollBar()->sizeHint().width();
    // As wide as the controls need: the panel scrolls down, never sideways.
    inputScroll->setMinimumWidth(std::max(200, input->minimumSizeHint().width() + scrollBar));
    m_inputDock = new QDockWidget(tr("Sentence and prediction"), this);
    m_inputDock->setObjectName(QStringLiteral("modelInputDock"));
    m_inputDock->setWidget(inputScroll);
    m_inputDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::LeftDockWidgetArea, m_inputDock);

    m_headPanel = new ModelHeadPanel(m_document, this);
    m_headScroll = new QScrollArea(this);
    m_headScroll->setWidgetResizable(true);
    m_headScroll->setFrameShape(QFrame::NoFrame);
    m_headScroll->setWidget(m_headPanel);
    fitHeadPanelWidth();
    m_headDock = new QDockWidget(tr("Selected head"), this);
    m_headDock->setObjectName(QStringLiteral("modelHeadDock"));
    m_headDock->setWidget(m_headScroll);
    m_headDock->setFeatures(QDockWidget::DockWidgetMovable | QDockWidget::DockWidgetFloatable);
    addDockWidget(Qt::RightDockWidgetArea, m_headDock);
    resizeDocks({m_inputDock, m_headDock}, {300, 300}, Qt::Horizontal);
    // Figure first: on a small screen the selected head's panel becomes a tab beside the
    // sentence's, leaving the grid and the head's figures the middle.
    new FigureFirstDocks(*this, *m_inputDock, {m_headDock}, 2 * kUsableFigureWidth + 20, [this] {
        addDockWidget(Qt::RightDockWidgetArea, m_headDock);
        fitPanels();
    });

    connect(m_text, &QLineEdit::textEdited, this, [this](const QString& text) {
        if (m_typingGesture == 0)
            m_typingGesture = m_document.beginGesture();
        m_typingPause.start();
        m_document.setText(text);
    });
    connect(m_tokens, &TokenFocusBar::focusTokenChosen, this,
            [this](int token) { m_document.setFocusToken(token); });
    connect(m_headPanel, &ModelHeadPanel::message, this,
            [this](const QString& text) { showError(QStringLiteral("edit"), text); });
}

void ModelWindow::buildMenus()
{
    auto add = [this](QMenu* menu, const QString& text, QKeySequence shortcut, auto slot) {
        QAction* action = menu->addAction(text);
        action->setShortcut(shortcut);
        connect(action, &QAction::triggered, this, slot);
        return action;
    };
    // A standard command: the key the menu and the README name, and the platform's others.
    auto addStandard = [add](QMenu* menu, const QString& text, QKeySequence::StandardKey standard,
                             QKeySequence advertised, auto slot) {
        QAction* action = add(menu, text, QKeySequence(), slot);
        action->setShortcuts(standardKeys(standard, advertised));
        return action;
    };
    QMenu* file = menuBar()->addMenu(tr("&File"));
    add(file, tr("Open &Model…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O),
        [this] { openModelDialog(); });
    add(file, tr("&Download Model…"), QKeySequence(), [this] { downloadModelDialog(); });
    addStandard(file, tr("&Open Scene…"), QKeySequence::Open, QKeySequence(Qt::CTRL | Qt::Key_O),
                [this] { m_files->openDialog(); });
    QMenu* recent = file->addMenu(tr("Open &Recent"));
    connect(recent, &QMenu::aboutToShow, this,
            [this, recent] { m_files->fillRecentMenu(*recent); });
    file->addSeparator();
    addStandard(file, tr("&Save"), QKeySequence::Save, QKeySequence(Qt::CTRL | Qt::Key_S),
                [this] { m_files->save(); });
    addStandard(file, tr("Save &As…"), QKeySequence::SaveAs,
                QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), [this] { m_files->saveAs(); });
    file->addSeparator();
    m_exportAction = add(file, tr("&Export Head Figure…"), QKeySequence(Qt::CTRL | Qt::Key_E),
                         [this] { openExportDialog(); });
    QMenu* exportMenu = file->addMenu(tr("Export &Model Figure"));
    add(exportMenu, tr("&Layers × Heads Grid…"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
        [this] { exportModelFigureDialog(ModelFigure::Grid); });
    add(exportMenu, tr("&Rollout…"), QKeySequence(),
        [this] { exportModelFigureDialog(ModelFigure::Rollout); });
    add(exportMenu, tr("&Predictions…"), QKeySequence(),
        [this] { exportModelFigureDialog(ModelFigure::Predictions); });
    add(exportMenu, tr("Head &Importance…"), QKeySequence(),
        [this] { exportModelFigureDialog(ModelFigure::Importance); });
    add(exportMenu, tr("L&ogit Lens…"), QKeySequence(),
        [this] { exportModelFigureDialog(ModelFigure::LogitLens); });
    add(exportMenu, tr("&Activation Patching…"), QKeySequence(),
        [this] { exportModelFigureDialog(ModelFigure::Patching); });
    add(exportMenu, tr("&Direct Logit Attribution…"), QKeySequence(),
        [this] { exportModelFigureDialog(ModelFigure::Attribution); });
    file->addSeparator();
    addStandard(file, tr("&Close"), QKeySequence::Close, QKeySequence(Qt::CTRL | Qt::Key_W),
                [this] { close(); });

    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    QAction* undo = m_document.undoStack()->createUndoAction(this, tr("&Undo"));
    undo->setShortcuts(standardKeys(QKeySequence::Undo, QKeySequence(Qt::CTRL | Qt::Key_Z)));
    QAction* redo = m_document.undoStack()->createRedoAction(this, tr("&Redo"));
    redo->setShortcuts(
        standardKeys(QKeySequence::Redo, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z)));
    edit->addAction(undo);
    edit->addAction(redo);
    edit->addSeparator();
    edit->addAction(m_resetAction);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    add(view, tr("&Grid"), QKeySequence(Qt::CTRL | Qt::Key_G), [this] { m_grid->setFocus(); });
    add(view, tr("&Clear Token Focus"), QKeySequence(Qt::Key_Escape),
        [this] { m_document.setFocusToken(-1); });
    view->addSeparator();
    view->addAction(m_inputDock->toggleViewAction());
    view->addAction(m_headDock->toggleViewAction());
    view->addSeparator();
    m_presentAction =
        add(view, tr("&Present Head"), QKeySequence(Qt::Key_F11), [this] { togglePresentation(); });

    QMenu* compute = menuBar()->addMenu(tr("&Compute"));
    m_backendGroup = new QActionGroup(this);
    for (auto [choice, text] : {std::pair{core::BackendChoice::Auto, tr("&Auto (the faster here)")},
                                std::pair{core::BackendChoice::Cpu, tr("&CPU")},
                                std::pair{core::BackendChoice::Vulkan, tr("&Vulkan")}}) {
        QAction* action = compute->addAction(text);
        action->setCheckable(true);
        action->setChecked(choice == m_choice);
        action->setData(int(choice));
        m_backendGroup->addAction(action);
        connect(action, &QAction::triggered, this,
                [this, choice = choice] { setBackendChoice(choice); });
    }
}

void ModelWindow::buildStatusBar()
{
    auto permanent = [this](const QString& name) { return addStatusLabel(*statusBar(), name, 1); };
    m_loadProgress = new QProgressBar(this);
    m_loadProgress->setObjectName(QStringLiteral("loadProgress"));
    m_loadProgress->setMaximumWidth(220);
    m_loadProgress->setVisible(false);
    m_loadCancel = new QToolButton(this);
    m_loadCancel->setObjectName(QStringLiteral("loadCancel"));
    m_loadCancel->setText(tr("Cancel"));
    m_loadCancel->setVisible(false);
    statusBar()->addPermanentWidget(m_loadProgress);
    statusBar()->addPermanentWidget(m_loadCancel);
    m_modelLabel = permanent(QStringLiteral("modelLabel"));
    m_timeLabel = permanent(QStringLiteral("modelTimeLabel"));
    m_backendLabel = permanent(QStringLiteral("modelBackendLabel"));
    connect(m_loadCancel, &QToolButton::clicked, this, &ModelWindow::cancelLoad);
    connect(m_compute, &ModelComputeController::finished, this, &ModelWindow::onComputeFinished);
    connect(m_compute, &ModelComputeController::busyChanged, this, [this](bool busy) {
        if (busy)
            m_timeLabel->setText(tr("Computing…"));
    });
}

void ModelWindow::connectDocument()
{
    connect(&m_document, &ModelDocument::modelChanged, this, [this] {
        m_importanceJob.reset(); // ranks the heads of the model before
        m_followTokens.clear();
        m_importanceResult.reset();
        m_importanceFor.reset();
        m_importance->clear();
        m_compare.reset();
        enableModelControls();
        fitHeadPanelWidth();
        updateTitle();
        updateStatus();
    });
    connect(&m_document, &ModelDocument::textChanged, this, [this] {
        m_followTokens.clear();
        if (m_text->text() != m_document.text())
            m_text->setText(m_document.text());
        m_compare.reset();
        requestCompute();
    });
    connect(&m_document, &ModelDocument::interventionsChanged, this, [this] {
        m_followTokens.clear(); // the sentence again, which the next Generate starts from
        m_compare.reset();
        requestCompute();
        updateGridOptions();
    });
    connect(&m_document, &ModelDocument::selectionChanged, this, [this] {
        if (m_tabs->currentIndex() == DifferenceTab)
            requestCompute(); // the other score for this layer
        else
            m_compare.reset();
        updateGridOptions();
        showSelection();
    });
    connect(&m_document, &ModelDocument::focusChanged, this, [this](int token) {
        m_tokens->setFocusToken(token);
        updateGridOptions();
        showSelection();
    });
    connect(&m_document, &ModelDocument::resultChanged, this, &ModelWindow::showResult);
    connect(&m_document, &ModelDocument::modifiedChanged, this, &ModelWindow::updateTitle);
    connect(&m_document, &ModelDocument::filePathChanged, this, &ModelWindow::updateTitle);
}

// --- models, files ---------------------------------------------------------------------------

void ModelWindow::openModelDialog()
{
    OpenModelDialog dialog(this);
    if (dialog.exec() != QDialog::Accepted || dialog.selectedFolder().isEmpty())
        return;
    if (!m_files->maybeSave())
        return;
    openModel(dialog.selectedFolder());
}

void ModelWindow::downloadModelDialog(const QString& id)
{
    DownloadModelDialog dialog(this);
    if (!id.isEmpty()) {
        dialog.idEdit()->setText(id);
        QTimer::singleShot(0, dialog.downloadButton(), &QPushButton::click);
    }
    if (dialog.exec() != QDialog::Accepted || !m_files->maybeSave())
        return;
    openModel(dialog.selectedFolder());
}

void ModelWindow::openModel(const QString& folderOrId, const QString& text,
                            const core::Interventions& interventions, int layer, int head,
                            const QString& scenePath)
{
    m_load.reset(); // a load in progress is cancelled: the newest choice wins
    m_load = std::make_unique<ModelLoadJob>(folderOrId);
    ModelLoadJob* job = m_load.get();
    m_loadProgress->setRange(0, 0);
    m_loadProgress->setFormat(tr("Loading %p%"));
    m_loadProgress->setVisible(true);
    m_loadCancel->setVisible(true);
    m_messages->clearMessage(QStringLiteral("load"));
    connect(job, &ModelLoadJob::progress, this, [this](int done, int total) {
        // As wide as its longest text, which the bar's own size hint (a few digits) cuts off.
        const QString widest = tr("Loading layer %1 of %2").arg(total).arg(total);
        m_loadProgress->setMinimumWidth(m_loadProgress->fontMetrics().horizontalAdvance(widest) +
                                        24);
        m_loadProgress->setMaximumWidth(std::max(220, m_loadProgress->minimumWidth()));
        m_loadProgress->setFormat(tr("Loading layer %1 of %2").arg(done).arg(total));
        m_loadProgress->setRange(0, total);
        m_loadProgress->setValue(done);
    });
    // Loaded, failed or cancelled: the status bar names the model shown again, and an empty
    // window says how to open one.
    auto finish = [this] {
        m_loadProgress->setVisible(false);
        m_loadCancel->setVisible(false);
        m_load.reset();
        updateStatus();
        if (!m_document.hasModel())
            showResult();
    };
    connect(job, &ModelLoadJob::loaded, this,
            [this, finish, text, interventions, layer, head,
             scenePath](std::shared_ptr<const core::Model> model) {
                finish();
                setModel(std::move(model), text, interventions, layer, head, scenePath);
                emit modelLoaded();
                emit loadEnded();
            });
    connect(job, &ModelLoadJob::failed, this, [this, finish, folderOrId](const QString& message) {
        finish();
        showError(QStringLiteral("load"),
                  tr("Could not open the model %1. %2").arg(folderOrId, message));
        emit loadEnded();
    });
    connect(job, &ModelLoadJob::cancelled, this, [this, finish, folderOrId] {
        finish();
        m_messages->showMessage(QStringLiteral("load"), MessageBar::Level::Information,
                                tr("Loading %1 was cancelled.").arg(folderOrId));
        emit loadEnded();
    });
    job->start();
    // Which model is loading, in the status bar and, in an empty window, where its heads will be.
    updateStatus();
    if (!m_document.hasModel())
        showResult();
}

void ModelWindow::cancelLoad()
{
    if (m_load)
        m_load->cancel();
}

bool ModelWindow::isLoading() const
{
    return m_load && m_load->isRunning();
}

void ModelWindow::setModel(std::shared_ptr<const core::Model> model, const QString& text,
                           const core::Interventions& interventions, int layer, int head,
                           const QString& scenePath)
{
    QString sentence = text;
    if (sentence.isEmpty())
        sentence = preferences::recentModelText(model->folder);
    if (text.isEmpty() && !sentence.isEmpty()) {
        // A remembered sentence the model cannot take (past its context) would fail at every
        // start: the sample stands in.
        try {
            core::modelTokens(*model, sentence);
        } catch (const core::Error&) {
            sentence.clear();
        }
    }
    if (sentence.isEmpty())
        sentence = sampleText(*model);
    cancelImportance();
    m_document.reset(std::move(model), sentence, interventions, layer, head, scenePath);
    if (scenePath.isEmpty())
        preferences::addRecentModel(m_document.model()->folder, sentence);
    else
        preferences::addRecentFile(scenePath);
    m_messages->clearMessage(QStringLiteral("compute"));
}

bool ModelWindow::openScene(const QString& path)
{
    return m_files->openScene(path);
}

bool ModelWindow::saveFile(const QString& path)
{
    return m_files->saveFile(path);
}

void ModelWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (m_docksFitted)
        return;
    m_docksFitted = true;
    fitPanels();
}

// As wide as the head panel's controls need, so that it scrolls down, never sideways. Without a
// model it shows its title alone: its controls widen it once a model is open, never narrow it.
void ModelWindow::fitHeadPanelWidth()
{
    const int scrollBar = m_headScroll->verticalScrollBar()->sizeHint().width();
    m_headScroll->setMinimumWidth(std::max(
        {220, m_headScroll->minimumWidth(), m_headPanel->minimumSizeHint().width() + scrollBar}));
}

void ModelWindow::fitPanels()
{
    // The grid and the head's figures keep the middle, on a 1024-pixel projector too.
    const int panel = std::clamp(width() / 5, 200, 300);
    resizeDocks({m_inputDock, m_headDock}, {panel, panel}, Qt::Horizontal);
}

bool ModelWindow::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_splitter && event->type() == QEvent::Resize)
        QTimer::singleShot(0, this, &ModelWindow::arrangeFigures);
    return QMainWindow::eventFilter(watched, event);
}

// The grid beside the selected head's figures where both get a usable width, else above
// them where both get a usable height, else a tab of its own beside them.
void ModelWindow::arrangeFigures()
{
    const QSize room = m_splitter->size();
    const int handle = m_splitter->handleWidth();
    const bool sideBySide = room.width() >= 2 * kUsableFigureWidth + handle;
    // Stacked, the grid's title row and the figures' tab bar take about 30 pixels each.
    const bool stacked = !sideBySide && room.height() >= 2 * kUsableFigureHeight + 60 + handle;
    const int gridTab = m_tabs->indexOf(m_gridPane);
    if (!sideBySide && !stacked) {
        if (gridTab < 0) {
            m_tabs->addTab(m_gridPane, tr("&All heads"));
            m_tabs->setTabToolTip(m_tabs->indexOf(m_gridPane),
                                  tr("Every layer and head of the model: pick a head to see it"));
            m_tabs->setCurrentWidget(m_gridPane);
        }
        return;
    }
    if (gridTab >= 0) {
        const bool shown = m_tabs->currentIndex() == gridTab;
        m_tabs->removeTab(gridTab);
        m_splitter->insertWidget(0, m_gridPane);
        m_gridPane->show();
        if (shown)
            m_tabs->setCurrentIndex(HeadTab);
    }
    const Qt::Orientation wanted = sideBySide ? Qt::Horizontal : Qt::Vertical;
    const int length = sideBySide ? room.width() - handle : room.height() - handle;
    // Side by side the grid takes the larger part; above, the head's figure does. Each keeps
    // a usable figure (and its tab bar or title row).
    const int usable = sideBySide ? kUsableFigureWidth + 10 : kUsableFigureHeight + 30;
    QList<int> sizes = m_splitter->sizes();
    if (wanted != m_splitter->orientation() || gridTab >= 0 || sizes.size() != 2)
        sizes = sideBySide ? QList<int>{length * 3 / 5, length * 2 / 5}
                           : QList<int>{length * 2 / 5, length * 3 / 5};
    if (sizes[1] < usable || sizes[0] < usable) {
        sizes[1] = std::max(usable, std::min(sizes[1], length - usable));
        sizes[0] = length - sizes[1];
    }
    m_splitter->setOrientation(wanted);
    m_splitter->setSizes(sizes);
}

void ModelWindow::closeEvent(QCloseEvent* event)
{
    if (!m_files->maybeSave()) {
        event->ignore();
        return;
    }
    if (m_document.hasModel())
        preferences::addRecentModel(m_document.model()->folder, m_document.text());
    m_recovery->closedCleanly();
    event->accept();
}

// --- computing ---------------------------------------------------------------------------------

void ModelWindow::requestCompute()
{
    if (m_computeQueued || !m_document.hasModel())
        return;
    m_computeQueued = true;
    // The edits of one event (a macro, a drag step) make one request.
    QTimer::singleShot(0, this, [this] {
        m_computeQueued = false;
        if (!m_document.hasModel())
            return;
        ModelComputeRequest request;
        request.model = m_document.model();
        request.text = m_document.text();
        request.tokens = m_followTokens;
        request.interventions = m_document.interventions();
        request.detailLayer = m_document.selectedLayer();
        if (m_tabs->currentIndex() == DifferenceTab) {
            const core::LayerEdit settings = m_document.layerSettings(m_document.selectedLayer());
            core::ScoreKind score = *settings.score;
            core::Normalization normalization = *settings.normalization;
            const ScoreOption other =
                comparisonOption(m_compareCombo->currentData().toString(), score, normalization);
            {
                const QSignalBlocker blocker(m_compareCombo);
                m_compareCombo->setCurrentIndex(
                    std::max(0, m_compareCombo->findData(scoreOptionName(other))));
            }
            applyScoreOption(other, score, normalization);
            request.compareLayer = m_document.selectedLayer();
            request.compareScore = score;
            request.compareNormalization = normalization;
        }
        m_compute->request(std::move(request));
    });
}

bool ModelWindow::isUpToDate() const
{
    return !m_computeQueued && !m_compute->isBusy() &&
           m_shownGeneration == m_compute->latestGeneration() && !m_selectionLater.isPending();
}

void ModelWindow::onComputeFinished(const ModelComputeReply& reply)
{
    m_shownGeneration = reply.generation;
    if (!reply.result) {
        m_computeError = reply.error;
        showError(QStringLiteral("compute"),
                  reply.error.isEmpty() ? tr("The model could not be computed.") : reply.error);
        m_timeLabel->setText(m_document.result()
                                 ? tr("Not computed: the figures show an earlier input")
                                 : tr("Not computed"));
        if (const auto shown = m_document.result()) {
            m_stale->setStale(StaleIndicator::earlierInputNote(shown->tokens));
        } else {
            const QString why = tr("Not computed: the message above says why.");
            m_grid->setMessage(why);
            for (HeatmapView* view : {m_headView, m_pipelineView, m_differenceView})
                view->showMessage(why);
            m_rollout->setMessage(why);
        }
        emit resultShown();
        return;
    }
    m_computeError.clear();
    m_messages->clearMessage(QStringLiteral("compute"));
    m_compare = reply.compare;
    m_compareFor = reply.result;
    m_detail = reply.detail;
    m_detailLayer = reply.detailLayer;
    m_detailFor = reply.result;
    m_kvCache->setRun(reply.result, reply.cachedPositions, reply.milliseconds);
    m_document.setResults(reply.result, reply.baseline); // -> showResult
}

void ModelWindow::showResult()
{
    const auto result = m_document.result();
    m_stale->setStale(QString()); // a new result, or a new model still computing
    const bool gallery = !result && !m_document.hasModel() && !m_load;
    if (gallery && m_gallery->isHidden())
        m_gallery->refresh(); // what was downloaded meanwhile
    m_gallery->setVisible(gallery);
    m_grid->setVisible(!gallery);
    if (!result) {
        const QString empty = m_load
                                  ? tr("Loading %1…").arg(core::modelDisplayName(m_load->source()))
                                  : tr("No model open");
        m_grid->setMessage(m_document.hasModel() ? tr("Computing…")
                           : m_load              ? empty
                                    : tr("No model open: File > Open Model… (Ctrl+Shift+O)"));
        m_predictions->setResults(nullptr, nullptr);
        m_tokens->setTokens({});
        for (HeatmapView* view : {m_headView, m_pipelineView, m_differenceView})
            view->showMessage(m_document.hasModel() ? tr("Computing…") : empty);
        m_rollout->setMessage(m_document.hasModel() ? tr("Computing…") : empty);
        if (!m_document.hasModel()) {
            m_generate->setSource(nullptr, {});
            m_encdec->setSource(nullptr, {});
            m_lensTabs->setSource(nullptr, {}, QString());
        }
        m_headPanel->setPlaceholder(empty);
        updateStatus();
        return;
    }
    m_grid->setResult(result);
    if (m_followTokens.empty()) // else the grid shows a step of what Generate wrote
        m_generate->setSource(
            result, [this] { return makeBackend(m_backends, m_choice, m_selector, nullptr); });
    m_encdec->setSource(result,
                        [this] { return makeBackend(m_backends, m_choice, m_selector, nullptr); });
    m_lensTabs->setSource(
        result, [this] { return makeBackend(m_backends, m_choice, m_selector, nullptr); },
        m_document.text());
    updateGridOptions();
    m_predictions->setResults(result, m_document.baseline());
    updateTokens();
    // The grid and the predictions paint first (posted paints go before a zero timer); the
    // selected head's figures, rebuilt by QCustomPlot, follow in the next pass.
    m_selectionLater.schedule();
    if (m_importanceResult && m_importanceFor != result) {
        m_importance->setMessage(tr("Ranked for an earlier run: Rank Heads again for this one."));
    }
    updateStatus();
    emit resultShown();
}

void ModelWindow::updateTokens()
{
    const auto result = m_document.result();
    m_tokens->setTokens(result ? result->tokens : std::vector<core::Token>{});
    m_tokens->setFocusToken(m_document.focusToken());
}

void ModelWindow::updateGridOptions()
{
    HeadGridOptions options = m_grid->options();
    options.selectedLayer = m_document.selectedLayer();
    options.selectedHead = m_document.selectedHead();
    options.focusToken = m_document.focusToken();
    options.headsOff = m_document.interventions().headsOff;
    if (const auto result = m_document.result())
        options.edited = editedHeads(*result);
    options.style.text = palette().color(QPalette::WindowText);
    options.style.background = palette().color(QPalette::Base);
    options.style.mutedText = palette().color(QPalette::PlaceholderText);
    m_grid->setOptions(options);
    const auto& off = m_document.interventions().headsOff;
    const int edited = int(options.edited.size());
    QStringList notes;
    if (!off.empty())
        notes << (off.size() == 1 ? tr("1 head off") : tr("%1 heads off").arg(off.size()));
    if (edited > 0)
        notes << (edited == 1 ? tr("1 head edited") : tr("%1 heads edited").arg(edited));
    if (!m_followTokens.empty())
        notes.prepend(tr("a step of Generate: its newest token's row"));
    m_gridNote->setText(notes.isEmpty() ? tr("(click a head; its box switches it off)")
                                        : notes.join(QStringLiteral(" · ")));
    m_resetAction->setEnabled(!m_document.interventions().empty());
}

FigureSpec ModelWindow::figureSpec(FigureView view) const
{
    FigureSpec spec;
    spec.view = view;
    spec.head = m_document.selectedHead();
    spec.dpi = logicalDpiY();
    spec.fontPoints = 9.0;
    spec.showValues = true;
    const auto result = m_document.result();
    if (result && m_document.model())
        spec.title = tr("%1 · layer %2 · head %3 · %4")
                         .arg(m_document.model()->name)
                         .arg(m_document.selectedLayer() + 1)
                         .arg(m_document.selectedHead() + 1)
                         .arg(view == FigureView::Pipeline     ? tr("pipeline")
                              : view == FigureView::Difference ? tr("difference")
                                                               : tr("weights"));
    if (palette().color(QPalette::Base).lightness() < 128)
        spec.style = presentationStyle(PresentationTheme::Dark);
    return spec;
}

void ModelWindow::showSelection()
{
    m_selectionLater.markDone();
    const auto result = m_document.result();
    if (!result || result->layerCount() == 0)
        return;
    const int layer = std::clamp(m_document.selectedLayer(), 0, result->layerCount() - 1);
    const int head = m_document.selectedHead();
    const auto& attention = result->layers[std::size_t(layer)];
    // A layer below the first one a run computed is the earlier run's very result: its
    // figures stand as they are.
    auto show = [&attention](HeatmapView* view, const FigureSpec& spec) {
        if (view->result() == attention && view->spec().head == spec.head &&
            view->spec().title == spec.title)
            return;
        view->setSpec(spec);
        view->setResult(attention);
    };
    show(m_headView, figureSpec(FigureView::Head));
    const auto detail = selectedLayerDetail();
    if (detail->intermediatesKept) {
        const FigureSpec spec = figureSpec(FigureView::Pipeline);
        if (m_pipelineView->result() != detail || m_pipelineView->spec().head != spec.head ||
            m_pipelineView->spec().title != spec.title) {
            m_pipelineView->setSpec(spec);
            m_pipelineView->setResult(detail);
        }
    } else if (m_computeQueued || m_compute->isBusy()) {
        m_pipelineView->showMessage(
            tr("Computing…")); // the reply asked for brings it, or asks again
    } else if (m_detailAsked != std::pair{result.get(), layer}) {
        // Another layer than the last run's detail: computed again with its intermediates (the
        // run itself is reused whole).
        m_detailAsked = {result.get(), layer};
        m_pipelineView->showMessage(tr("Computing…"));
        requestCompute();
    } else {
        m_pipelineView->showMessage(
            tr("The sentence is long: every head's intermediate scores are not kept. The "
               "Weights and Lines tabs show this head."));
    }
    if (m_linesView->result() != attention || m_linesView->head() != head)
        m_linesView->setResult(attention, head);
    m_differenceView->setSpec(figureSpec(FigureView::Difference));
    if (m_compare && m_compareFor == result &&
        m_compare->problem->queryCount() == attention->problem->queryCount())
        m_differenceView->setResult(attention, m_compare);
    else
        m_differenceView->showMessage(tr("Computing the other score…"));
    std::vector<MatrixPanel> panels = rolloutPanels(*result, layer, Colormap::Viridis);
    for (MatrixPanel& panel : panels)
        panel.highlightRow = m_document.focusToken();
    FigureStyle style;
    style.text = palette().color(QPalette::WindowText);
    style.background = palette().color(QPalette::Base);
    style.mutedText = palette().color(QPalette::PlaceholderText);
    m_rollout->setFigureStyle(style);
    m_rollout->setPanels(
        panels,
        tr("Attention rollout (Abnar & Zuidema 2020): residual included, layers multiplied from "
           "the bottom"));
    m_importance->panels()->setFigureStyle(style);
    m_lensTabs->setFigureStyle(style);
    m_lensTabs->setSelection(layer, head);
    m_kvCache->setFigureStyle(style);
    m_kvCache->setSelection(layer, head);
    if (m_importanceResult)
        m_importance->setImportance(
            m_importanceResult, defaultModelFigureTitle(ModelFigure::Importance, figureSource()),
            layer, head);
    if (m_presentation) {
        m_presentation->setResult(detail);
        m_presentation->setHead(head);
    }
    if (m_exportDialog)
        m_exportDialog->setSource(exportSource());
}

void ModelWindow::updateTitle()
{
    // Ends with the application's name, which the platform would otherwise append again.
    setWindowTitle(tr("%1[*] · model — Attention Explorer").arg(m_document.displayName()));
    setWindowModified(m_document.isModified());
    setWindowFilePath(m_document.filePath());
}

// Which model, backend and device computed what is shown, and why that backend.
void ModelWindow::updateStatus()
{
    const auto model = m_document.model();
    if (m_load) {
        m_modelLabel->setText(tr("Loading %1…").arg(core::modelDisplayName(m_load->source())));
        m_modelLabel->setToolTip(QDir::toNativeSeparators(m_load->source()));
    } else if (model) {
        const core::ModelConfig& c = model->config();
        m_modelLabel->setText(tr("%1 · %2 layers × %3 heads · %4")
                                  .arg(model->name)
                                  .arg(c.layers)
                                  .arg(c.heads)
                                  .arg(c.dtype));
        m_modelLabel->setToolTip(model->folder);
    } else {
        m_modelLabel->setText(tr("No model"));
        m_modelLabel->setToolTip(QString());
    }
    const auto result = m_document.result();
    const QString backend =
        result ? QString::fromStdString(result->backend) : m_compute->backendName();
    const QString device =
        result ? QString::fromStdString(result->device) : m_compute->deviceName();
    QString text = tr("%1 · %2").arg(backend, shortDeviceName(device));
    // The label says it in a learner's words; the tooltip holds the notice, written for developers.
    QString why;
    if (m_choice == core::BackendChoice::Auto)
        why = m_backendNotice.isEmpty() ? tr("auto: a GPU is faster than the CPU backend")
                                        : tr("auto: no graphics card to use");
    else
        why = m_choice == core::BackendChoice::Cpu ? tr("chosen: CPU")
              : m_backendNotice.isEmpty()          ? tr("chosen: Vulkan")
                                                   : tr("chosen: Vulkan, not available here");
    m_backendLabel->setText(text + QStringLiteral(" (") + why + QLatin1Char(')'));
    m_backendLabel->setToolTip(
        tr("Computed by %1 on %2.\n%3\nCompute > Vulkan or CPU to choose.")
            .arg(backend, device, m_backendNotice.isEmpty() ? why : m_backendNotice));
    if (result) {
        const int first = result->firstComputedLayer;
        const int cached = m_kvCache->result() == result ? m_kvCache->cachedPositions() : 0;
        const bool shorter = cached >= int(result->tokens.size()); // only the logits
        const QString layers = shorter      ? tr("the prediction only")
                               : cached > 0 ? tr("positions %1–%2, the earlier ones from the "
                                                 "key/value cache")
                                                  .arg(cached + 1)
                                                  .arg(result->tokens.size())
                               : first == 0 ? tr("every layer")
                               : first >= result->layerCount()
                                   ? tr("the prediction only")
                                   : tr("layers %1–%2").arg(first + 1).arg(result->layerCount());
        m_timeLabel->setText(
            tr("Computed in %1 (%2)").arg(formatComputeTime(result->milliseconds), layers));
    }
}

// Without a model there is no sentence to type, token to pick, score to compare or head to
// rank: those controls wait, disabled, for one (the head panel hides its own).
void ModelWindow::enableModelControls()
{
    const bool model = m_document.hasModel();
    for (QWidget* control :
         std::initializer_list<QWidget*>{m_text, m_tokens, m_compareCombo, m_importance})
        control->setEnabled(model);
    m_resetAction->setEnabled(model && !m_document.interventions().empty());
}

void ModelWindow::showError(const QString& key, const QString& text)
{
    m_messages->showMessage(key, MessageBar::Level::Error, text);
}

void ModelWindow::setBackendChoice(core::BackendChoice choice)
{
    m_choice = choice;
    std::string notice;
    auto backend = makeBackend(m_backends, m_choice, m_selector, &notice);
    m_backendNotice = QString::fromStdString(notice);
    m_compute->setBackend(std::move(backend));
    for (QAction* action : m_backendGroup->actions())
        action->setChecked(action->data().toInt() == int(choice));
    if (!m_backendNotice.isEmpty())
        m_messages->showMessage(QStringLiteral("backend"), MessageBar::Level::Information,
                                m_backendNotice);
    else
        m_messages->clearMessage(QStringLiteral("backend"));
    updateStatus();
    requestCompute();
}

// --- head importance ------------------------------------------------------------------------

void ModelWindow::computeImportance()
{
    const auto result = m_document.result();
    if (!result)
        return;
    if (!predictionsMessage(*result).isEmpty()) {
        m_importance->setMessage(predictionsMessage(*result));
        return;
    }
    m_importanceJob.reset();
    m_importanceJob = std::make_unique<HeadImportanceJob>(
        result, makeBackend(m_backends, m_choice, m_selector, nullptr));
    HeadImportanceJob* job = m_importanceJob.get();
    m_importance->setRunning(true);
    connect(job, &HeadImportanceJob::progress, m_importance, &ImportanceView::setProgress);
    connect(job, &HeadImportanceJob::finished, this,
            [this, result](const core::HeadImportance& importance) {
                m_importance->setRunning(false);
                m_importanceResult = importance;
                m_importanceFor = result;
                m_importance->setMessage(tr("For the run with %1.")
                                             .arg(result->interventions.empty()
                                                      ? tr("no interventions")
                                                      : tr("the interventions then")));
                m_importance->setImportance(
                    importance, defaultModelFigureTitle(ModelFigure::Importance, figureSource()),
                    m_document.selectedLayer(), m_document.selectedHead());
                QTimer::singleShot(0, this, [this] { m_importanceJob.reset(); });
            });
    connect(job, &HeadImportanceJob::failed, this, [this](const QString& message) {
        m_importance->setRunning(false);
        m_importance->setMessage(message);
        QTimer::singleShot(0, this, [this] { m_importanceJob.reset(); });
    });
    connect(job, &HeadImportanceJob::cancelled, this, [this] {
        m_importance->setRunning(false);
        m_importance->setMessage(tr("Cancelled."));
        QTimer::singleShot(0, this, [this] { m_importanceJob.reset(); });
    });
    job->start();
}

void ModelWindow::cancelImportance()
{
    if (m_importanceJob)
        m_importanceJob->cancel();
}

// --- figures ----------------------------------------------------------------------------------

ModelFigureSource ModelWindow::figureSource() const
{
    ModelFigureSource source;
    source.result = m_document.result();
    source.baseline = m_document.baseline();
    source.layer = m_document.selectedLayer();
    source.focusToken = m_document.focusToken();
    if (m_importanceResult && m_importanceFor == source.result)
        source.importance = m_importanceResult;
    m_lensTabs->fill(source);
    return source;
}

bool ModelWindow::exportModelFigure(ModelFigure figure, const QString& path, QSize size, double dpi)
{
    const auto format = figureFormatForPath(path);
    if (!format) {
        showError(QStringLiteral("export"),
                  tr("Export: the file name must end in .png, .svg or .pdf"));
        return false;
    }
    if (!size.isValid() || size.isEmpty()) {
        switch (figure) {
        case ModelFigure::Grid:
            size = QSize(1800, 1700);
            break;
        case ModelFigure::Rollout:
            size = QSize(2200, 1200);
            break;
        case ModelFigure::Predictions:
            size = QSize(1600, 1000);
            break;
        case ModelFigure::Importance:
            size = QSize(1600, 1500);
            break;
        case ModelFigure::LogitLens:
        case ModelFigure::Patching:
        case ModelFigure::Attribution:
            size = QSize(1920, 1080);
            break;
        }
    }
    try {
        core::writeFileAtomically(path,
                                  modelFigureBytes(figure, figureSource(), size, dpi, *format));
    } catch (const std::exception& error) {
        showError(QStringLiteral("export"),
                  tr("The figure was not exported: %1").arg(QString::fromUtf8(error.what())));
        return false;
    }
    statusBar()->showMessage(tr("Exported %1").arg(QDir::toNativeSeparators(path)), 6000);
    return true;
}

void ModelWindow::exportModelFigureDialog(ModelFigure figure)
{
    if (!m_document.result())
        return;
    const QString name = QFileInfo(m_document.model()->name).fileName() + QLatin1Char('-') +
                         modelFigureName(figure) + QStringLiteral(".pdf");
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Figure"), QDir(preferences::sceneDirectory()).filePath(name),
        tr("PDF (*.pdf);;SVG (*.svg);;PNG (*.png)"));
    if (path.isEmpty())
        return;
    preferences::rememberSceneFile(path);
    exportModelFigure(figure, path);
}

std::shared_ptr<const core::AttentionResult> ModelWindow::selectedLayerDetail() const
{
    const auto result = m_document.result();
    if (!result || result->layerCount() == 0)
        return nullptr;
    const int layer = std::clamp(m_document.selectedLayer(), 0, result->layerCount() - 1);
    if (m_detail && m_detailFor == result && m_detailLayer == layer)
        return m_detail;
    return result->layers[std::size_t(layer)];
}

ExportSource ModelWindow::exportSource() const
{
    ExportSource source;
    const auto result = m_document.result();
    if (!result || result->layerCount() == 0)
        return source;
    const int layer = std::clamp(m_document.selectedLayer(), 0, result->layerCount() - 1);
    source.result = m_tabs->currentIndex() == PipelineTab ? selectedLayerDetail()
                                                          : result->layers[std::size_t(layer)];
    if (m_compareFor == result)
        source.compare = m_compare;
    const int tab = m_tabs->currentIndex();
    source.spec = figureSpec(tab == PipelineTab     ? FigureView::Pipeline
                             : tab == DifferenceTab ? FigureView::Difference
                                                    : FigureView::Head);
    source.spec.style = FigureStyle{};
    source.lines = tab == LinesTab;
    source.suggestedName = QStringLiteral("%1-layer%2-head%3")
                               .arg(QFileInfo(m_document.model()->name).fileName())
                               .arg(layer + 1)
                               .arg(m_document.selectedHead() + 1);
    return source;
}

void ModelWindow::openExportDialog()
{
    if (!m_document.result())
        return;
    if (!m_exportDialog) {
        m_exportDialog = new ExportDialog(exportSource(), this);
        m_exportDialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_exportDialog->show();
    m_exportDialog->raise();
}

ExportDialog* ModelWindow::exportDialog() const
{
    return m_exportDialog;
}

PresentationWindow* ModelWindow::presentation() const
{
    return m_presentation;
}

void ModelWindow::togglePresentation()
{
    if (m_presentation) {
        m_presentation->close();
        return;
    }
    const auto result = m_document.result();
    if (!result || result->layerCount() == 0)
        return;
    // A model head is an ordinary AttentionResult: the presentation takes it as it is.
    m_presentation = new PresentationWindow(selectedLayerDetail(), this);
    m_presentation->setAttribute(Qt::WA_DeleteOnClose);
    m_presentation->setHead(m_document.selectedHead());
    m_presentation->showOver(*this, m_grid);
}

} // namespace attn::ui
