// The model window's tabs and panels: the grid beside the selected head's views, the
// sentence and head docks, and how they share the window at any size.

#include "ui/model/model_window.h"

#include "ui/model/encdec_view.h"
#include "ui/model/gallery_view.h"
#include "ui/model/generate_view.h"
#include "ui/model/head_grid_view.h"
#include "ui/model/importance_view.h"
#include "ui/model/kv_cache_view.h"
#include "ui/model/lens_tabs.h"
#include "ui/model/matrix_panels_view.h"
#include "ui/model/model_head_panel.h"
#include "ui/model/model_scene_files.h"
#include "ui/model/predictions_view.h"
#include "ui/model/token_focus_bar.h"
#include "ui/views/head_view_tabs.h"
#include "ui/views/heatmap_view.h"
#include "ui/views/lines_view.h"
#include "ui/widgets/figure_first_docks.h"
#include "ui/widgets/message_bar.h"
#include "ui/widgets/score_options.h"
#include "ui/widgets/stale_indicator.h"

#include <QAction>
#include <QComboBox>
#include <QDockWidget>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace attn::ui {

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
    // An encoder-decoder model has three kinds of heads; the grid shows one kind at a time, in
    // the order the source meets them.
    m_gridKind = new QComboBox(gridPane);
    m_gridKind->setObjectName(QStringLiteral("gridKindCombo"));
    m_gridKind->addItem(tr("Encoder self-attention"));
    m_gridKind->addItem(tr("Decoder self-attention"));
    m_gridKind->addItem(tr("Cross-attention"));
    m_gridKind->setAccessibleName(tr("Kind of heads"));
    m_gridKind->setToolTip(tr("Which heads the grid shows: the encoder's over the source, the "
                              "decoder's over the words the Translate tab wrote, or the "
                              "decoder's over the source (the alignment)"));
    m_gridKind->hide();
    gridBar->addWidget(gridTitle);
    gridBar->addWidget(m_gridNote, 1);
    gridBar->addWidget(reset);
    gridLayout->addLayout(gridBar);
    gridLayout->addWidget(m_gridKind, 0, Qt::AlignLeft); // below: the note keeps its width
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

    m_tabs = new HeadViewTabs(
        {.headTip = tr("The selected head's attention weights: queries as rows, keys as columns"),
         .pipelineTip =
             tr("X, Q, K, V, scores, masked scores, weights and output of the selected head"),
         .linesTip = tr("Each query of the selected head joined to every key by a "
                        "line as strong as its weight"),
         .differenceTip = tr("The selected head's weights minus its weights under another score"),
         .compareTip = tr("The score the Difference tab subtracts: these weights minus the weights "
                          "scored this way"),
         .compareLabel = tr("These weights minus those &scored by:")},
        splitter);
    m_tabs->setObjectName(QStringLiteral("modelViewTabs"));
    for (ScoreOption option :
         {ScoreOption::Dot, ScoreOption::Scaled, ScoreOption::Hard, ScoreOption::Cosine})
        m_tabs->compareCombo()->addItem(scoreOptionLabel(option), scoreOptionName(option));
    m_rollout = new MatrixPanelsView(m_tabs);
    m_rollout->setObjectName(QStringLiteral("rolloutView"));
    m_importance = new ImportanceView(m_tabs);
    m_importance->setObjectName(QStringLiteral("importanceView"));
    m_tabs->addTab(m_rollout, tr("&Rollout"));
    m_tabs->addTab(m_importance, tr("&Importance"));
    // A tab of `View`, made as `view`, in a page that scrolls: Generate's settings and steps need
    // not fit a projector's 1024 x 768.
    auto addScrolled = [this]<typename View>(View*& view, const QString& name,
                                             const QString& title) {
        auto* page = new QScrollArea(m_tabs);
        page->setWidgetResizable(true);
        page->setFrameShape(QFrame::NoFrame);
        view = new View(page);
        view->setObjectName(name);
        page->setWidget(view);
        m_tabs->addTab(page, title);
        return page;
    };
    addScrolled(m_generate, QStringLiteral("generateView"), tr("&Generate"))
        ->setObjectName(QStringLiteral("generatePage"));
    addScrolled(m_kvCache, QStringLiteral("kvCacheView"), tr("&KV Cache"));
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
    QScrollArea* translatePage =
        addScrolled(m_encdec, QStringLiteral("encdecView"), tr("&Translate"));
    m_tabs->setTabToolTip(m_tabs->indexOf(translatePage),
                          tr("Encoder-decoder models: translate word by word, with the encoder's, "
                             "the decoder's and the cross-attention's heads"));
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

    // An encoder-decoder model's head of the kind shown is the Translate tab's too, whose edits
    // apply to that kind; the selected head's figures show it.
    auto select = [this](int l, int h) {
        const bool kinds = gridResult() != m_document.result();
        const auto kind = kinds ? EncDecView::Kind(m_gridKind->currentIndex()) : HeadKind::Decoder;
        if (kinds)
            m_encdec->selectHead(kind, l, h);
        m_document.select(kind, l, h);
        m_selectionLater.schedule();
    };
    connect(m_grid, &HeadGridView::headSelected, this, select);
    connect(m_grid, &HeadGridView::headToggled, this, [this](int l, int h, bool off) {
        const bool kinds = gridResult() != m_document.result();
        m_document.setHeadOff(kinds ? HeadKind(m_gridKind->currentIndex()) : HeadKind::Decoder, l,
                              h, off);
    });
    connect(m_grid, &HeadGridView::headActivated, this, [this, select](int l, int h) {
        select(l, h);
        m_tabs->setCurrentIndex(HeadTab);
    });
    connect(m_gridKind, &QComboBox::activated, this, [this](int kind) {
        m_document.setFocusToken(-1); // a row of other tokens
        m_document.select(HeadKind(kind), m_document.selectedLayer(), m_document.selectedHead());
        showGrid();
        updateTokens();
        m_selectionLater.schedule();
    });
    // A word translated, a head switched: the grid and the head's figures follow.
    connect(m_encdec, &EncDecView::shownChanged, this, [this] {
        if (gridResult() == m_document.result())
            return;
        showGrid();
        updateGridOptions();
        m_selectionLater.schedule();
    });
    connect(m_encdec, &EncDecView::interventionsEdited, this, &ModelWindow::requestCompute);
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        if (tab == DifferenceTab && !m_compare)
            requestCompute();
        if (m_tabs->indexOf(m_gridPane) < 0 && m_gridPane->isHidden() != translateTakesGridRoom())
            arrangeFigures();
    });
    connect(m_tabs->compareCombo(), &QComboBox::activated, this, [this] {
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
    m_encdec->setDocument(&m_document);  // one edit state: the tab's heads are the document's
    m_headPanel->setKindEdits(m_encdec); // an encoder-decoder model's encoder and cross heads
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

bool ModelWindow::translateTakesGridRoom() const
{
    const QWidget* page = m_tabs->currentWidget();
    return m_document.model() && m_document.model()->config().encoderDecoder() && page &&
           page->isAncestorOf(m_encdec);
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
    m_gridPane->setVisible(!translateTakesGridRoom());
    if (m_gridPane->isHidden()) { // the splitter keeps the grid's size for its return
        m_splitter->setOrientation(wanted);
        return;
    }
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
} // namespace attn::ui
