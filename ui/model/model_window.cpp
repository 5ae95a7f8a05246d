// The model window itself: building it, the document's signals, opening models and scene files,
// the status bar and the title, closing. Its tabs, menus, computing and exports are the
// model_window_*.cpp files beside this one.

#include "ui/model/model_window.h"

#include "ui/document/preferences.h"
#include "ui/hub/download_model_dialog.h"
#include "ui/model/head_grid_view.h"
#include "ui/model/head_importance_job.h"
#include "ui/model/importance_view.h"
#include "ui/model/kv_cache_view.h"
#include "ui/model/model_load_job.h"
#include "ui/model/model_recovery.h"
#include "ui/model/model_scene_files.h"
#include "ui/model/open_model_dialog.h"
#include "ui/model/predictions_view.h"
#include "ui/model/token_focus_bar.h"
#include "ui/widgets/message_bar.h"
#include "ui/widgets/stale_indicator.h"
#include "ui/widgets/status_labels.h"

#include "core/error.h"
#include "core/model/forward.h"
#include "core/tokenizers/hf_tokenizer.h"

#include <QAction>
#include <QCloseEvent>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QScreen>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolButton>

namespace attn::ui {

namespace {

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
    buildExports();
    m_files = new ModelSceneFiles(
        *this, m_document, *statusBar(),
        {[this](const QString& folderOrId, const QString& text,
                const core::EncoderDecoderInterventions& interventions,
                std::optional<HeadKind> kind, int layer, int head, const QString& scenePath) {
             openModel(folderOrId, text, interventions, kind, layer, head, scenePath);
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
    openModel(folderOrId, text, core::EncoderDecoderInterventions{{}, interventions, {}},
              std::nullopt, layer, head, scenePath);
}

void ModelWindow::openModel(const QString& folderOrId, const QString& text,
                            const core::EncoderDecoderInterventions& interventions,
                            std::optional<HeadKind> kind, int layer, int head,
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
            [this, finish, text, interventions, kind, layer, head,
             scenePath](std::shared_ptr<const core::Model> model) {
                finish();
                setModel(std::move(model), text, interventions, kind, layer, head, scenePath);
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
    setModel(std::move(model), text, core::EncoderDecoderInterventions{{}, interventions, {}},
             std::nullopt, layer, head, scenePath);
}

void ModelWindow::setModel(std::shared_ptr<const core::Model> model, const QString& text,
                           const core::EncoderDecoderInterventions& interventions,
                           std::optional<HeadKind> kind, int layer, int head,
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
    // The grid shows an encoder-decoder model's heads of the kind selected.
    m_document.reset(std::move(model), sentence, interventions,
                     kind.value_or(HeadKind(m_gridKind->currentIndex())), layer, head, scenePath);
    if (m_document.model()->config().encoderDecoder())
        m_gridKind->setCurrentIndex(int(m_document.selectedKind()));
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

// --- the window ------------------------------------------------------------------------------

void ModelWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (m_docksFitted)
        return;
    m_docksFitted = true;
    fitPanels();
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
         std::initializer_list<QWidget*>{m_text, m_tokens, m_tabs->compareCombo(), m_importance})
        control->setEnabled(model);
    m_resetAction->setEnabled(model && m_document.hasInterventions());
}

void ModelWindow::showError(const QString& key, const QString& text)
{
    m_messages->showMessage(key, MessageBar::Level::Error, text);
}
} // namespace attn::ui
