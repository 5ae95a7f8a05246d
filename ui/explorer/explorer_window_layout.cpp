// The explorer window's panels and how they share it: the view tabs and concept pages, the
// scene, heads and weights docks, the status bar, panel widths, the wheel and shortcut filter,
// and the window's size and state kept between sessions.

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
#include "ui/views/head_view_tabs.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/lines_view.h"
#include "ui/widgets/attention_panel.h"
#include "ui/widgets/figure_first_docks.h"
#include "ui/widgets/message_bar.h"
#include "ui/widgets/stale_indicator.h"
#include "ui/widgets/status_labels.h"

#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLabel>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSlider>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>

namespace attn::ui {

namespace {

// The scene panel's minimum width, at most: what a projector at a 1.5 scale factor (1024 / 1.5 =
// 683 pixels) leaves beside a usable figure once the other panels are its tabs.
constexpr int kMaxScenePanelMinimum = 683 - kUsableFigureWidth - 60;

} // namespace

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

    m_tabs = new HeadViewTabs(
        {.headTip = tr(
             "The attention weights of one head (or their mean): queries as rows, keys as columns"),
         .pipelineTip = tr("X, Q, K, V, scores, masked scores, weights and output of one head"),
         .linesTip = tr("Each query joined to every key by a line as strong as its weight"),
         .differenceTip = tr("These weights minus the weights of the same input with one setting "
                             "changed, or of the scene as it was opened"),
         .compareTip = tr("The one change the Difference tab makes: it shows these weights minus "
                          "the weights with that change"),
         .compareLabel = tr("These weights minus the &same with:")},
        central);
    m_tabs->setObjectName(QStringLiteral("viewTabs"));
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
    connect(compareCombo(), &QComboBox::activated, this, [this] {
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
    connect(m_viewBar, &ViewBar::fitRequested, headView(), &HeatmapView::resetZoom);
    connect(m_gridView, &HeatmapView::headClicked, this, &ExplorerWindow::selectHead);
    new MaskBrush(m_document, *headView(), this);
    connect(headView(), &HeatmapView::figureBuilt, this, [this] {
        const auto result = m_document.result();
        if (result && result->pooling.pooled) {
            const QSize grid = headView()->devicePixelSize();
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
        headView()->setMaskPainting(on);
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
    // The docks before the geometry: restored into a window about to be maximized, Qt 6.4 keeps
    // a copy of the docks' layout that it applies again on each resize until the layout fits,
    // and a dock tabified meanwhile (FigureFirstDocks, on a smaller screen than the one the
    // layout was saved on) is left pointing into the discarded one: a crash. Qt 6.5 applies
    // that copy before tabifying (QMainWindowLayout::applyRestoredState).
    const bool docksRestored = restoreState(layout.state);
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
    if (!docksRestored) {
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
} // namespace attn::ui
