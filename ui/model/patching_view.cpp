#include "ui/model/patching_view.h"

#include "ui/model/lens_job.h"
#include "ui/model/matrix_panels_view.h"
#include "ui/model/model_figures.h"
#include "ui/widgets/flow_layout.h"

#include "core/error.h"
#include "core/model/forward.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace attn::ui {

namespace {

// Wang et al. 2022, "Interpretability in the wild", fig. 1: the indirect object is Mary in the
// clean prompt; in the corrupted one the subject and the object are the same name.
const char* const kExampleClean = "When Mary and John went to the store, John gave a drink to";
const char* const kExampleCorrupt = "When Mary and John went to the store, Mary gave a drink to";
const char* const kExampleMetric = " Mary, John";

QString idleMessage()
{
    return PatchingView::tr(
        "Write a clean and a corrupted prompt of the same length in tokens and a metric, then "
        "Run: each head's output and each position of the residual stream is copied from the "
        "clean run into the corrupted one, and the heatmaps show how much of the metric that "
        "brings back (1: all of it).");
}

} // namespace

PatchingView::PatchingView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_clean = new QLineEdit(this);
    m_clean->setObjectName(QStringLiteral("patchingClean"));
    m_clean->setToolTip(tr("The prompt whose activations are copied in (the sentence above until "
                           "you edit it)"));
    m_corrupt = new QLineEdit(this);
    m_corrupt->setObjectName(QStringLiteral("patchingCorrupt"));
    m_corrupt->setPlaceholderText(tr("e.g. %1").arg(QString::fromUtf8(kExampleCorrupt)));
    m_corrupt->setToolTip(tr("The prompt patched: as many tokens as the clean one, differing "
                             "where the answer should change"));
    m_metric = new QLineEdit(this);
    m_metric->setObjectName(QStringLiteral("patchingMetric"));
    m_metric->setMinimumWidth(140);
    m_metric->setPlaceholderText(tr("e.g. %1").arg(QString::fromUtf8(kExampleMetric)));
    m_metric->setToolTip(tr("\"A, B\": the logit of A minus that of B; \"A\" alone: the "
                            "probability of A. Each one token, with its leading space where the "
                            "vocabulary has one"));
    form->addRow(tr("Clean:"), m_clean);
    form->addRow(tr("Corr&upted:"), m_corrupt);
    // The buttons beside the metric, to leave the heatmaps the height of a 1024 x 768 screen.
    auto* rowHost = new QWidget(this);
    auto* row = new FlowLayout(rowHost, 6, 4); // wraps on a narrow window
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_metric);
    m_example = new QPushButton(tr("E&xample"), rowHost);
    m_example->setToolTip(tr("Mary and John (Wang et al. 2022): who gets the drink"));
    m_run = new QPushButton(tr("Run"), rowHost);
    m_run->setObjectName(QStringLiteral("patchingRun"));
    m_run->setToolTip(tr("Patch every head and every position, one at a time (each run "
                         "recomputes from its layer up)"));
    m_progress = new QProgressBar(rowHost);
    m_progress->setVisible(false);
    m_cancel = new QPushButton(tr("Cancel"), rowHost);
    m_cancel->setToolTip(tr("Stop the sweep (nothing of it is shown)"));
    m_cancel->setVisible(false);
    row->addWidget(m_example);
    row->addWidget(m_run);
    row->addWidget(m_progress);
    row->addWidget(m_cancel);
    // One heatmap alone fills the tab: on a 1024 x 768 screen the two together are small.
    m_shown = new QComboBox(rowHost);
    m_shown->setObjectName(QStringLiteral("patchingShown"));
    m_shown->addItem(tr("Heads and positions"));
    m_shown->addItem(tr("Heads"));
    m_shown->addItem(tr("Positions"));
    m_shown->setToolTip(tr("Which heatmaps the tab shows (an export has both)"));
    row->addWidget(m_shown);
    form->addRow(tr("&Metric:"), rowHost);
    if (auto* label = qobject_cast<QLabel*>(form->labelForField(rowHost)))
        label->setBuddy(m_metric);
    m_metric->setAccessibleName(tr("Metric")); // the label is not its sibling, so not found
    layout->addLayout(form);
    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("patchingNote"));
    m_note->setWordWrap(true);
    m_note->setMinimumWidth(1);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_note);
    m_panels = new MatrixPanelsView(this);
    m_panels->setObjectName(QStringLiteral("patchingPanels"));
    layout->addWidget(m_panels, 1);

    connect(m_clean, &QLineEdit::textEdited, this, [this] { m_cleanFollows = false; });
    connect(m_example, &QPushButton::clicked, this, &PatchingView::useExample);
    connect(m_run, &QPushButton::clicked, this, &PatchingView::run);
    connect(m_cancel, &QPushButton::clicked, this, &PatchingView::cancel);
    for (QLineEdit* field : {m_clean, m_corrupt, m_metric})
        connect(field, &QLineEdit::returnPressed, this, &PatchingView::run);
    connect(m_panels, &MatrixPanelsView::cellClicked, this, [this](int panel, int row, int column) {
        if (panel == 0 && m_patching && m_patching->heads.size() && m_shown->currentIndex() != 2)
            emit headClicked(row, column);
    });
    connect(m_shown, &QComboBox::currentIndexChanged, this, [this] {
        if (m_patching)
            showPatching();
    });
    setRunning(false);
    m_panels->setMessage(idleMessage());
}

void PatchingView::setSource(std::shared_ptr<const core::ModelResult> result,
                             BackendMaker makeBackend, const QString& sentence)
{
    if (!result || (m_source && result->model != m_source->model)) {
        cancel();
        m_patching.reset();
        m_panels->setMessage(idleMessage());
        m_note->clear();
    }
    m_source = std::move(result);
    m_makeBackend = std::move(makeBackend);
    if (m_cleanFollows)
        m_clean->setText(sentence);
    setRunning(isRunning());
}

void PatchingView::setSelection(int layer, int head)
{
    m_layer = layer;
    m_head = head;
    if (m_patching)
        showPatching();
}

void PatchingView::setFigureStyle(const FigureStyle& style)
{
    m_panels->setFigureStyle(style);
}

bool PatchingView::isRunning() const
{
    return m_job && m_job->isRunning();
}

void PatchingView::useExample()
{
    m_cleanFollows = false;
    m_clean->setText(QString::fromUtf8(kExampleClean));
    m_corrupt->setText(QString::fromUtf8(kExampleCorrupt));
    m_metric->setText(QString::fromUtf8(kExampleMetric));
}

void PatchingView::fail(const QString& text)
{
    m_note->setText(text);
    emit errorShown(text);
}

void PatchingView::run()
{
    if (!m_source || !m_makeBackend || isRunning())
        return;
    const std::shared_ptr<const core::Model> model = m_source->model;
    if (m_clean->text().trimmed().isEmpty() || m_corrupt->text().trimmed().isEmpty()) {
        fail(tr("Patching needs a clean and a corrupted prompt."));
        return;
    }
    if (m_metric->text().trimmed().isEmpty()) {
        fail(tr("Patching needs a metric: \"A, B\" (the logit difference) or \"A\" (its "
                "probability)."));
        return;
    }
    core::PatchingMetric metric;
    std::vector<core::Token> clean;
    std::vector<core::Token> corrupt;
    try {
        metric = core::parsePatchingMetric(*model, m_metric->text());
        clean = core::modelTokens(*model, m_clean->text());
        corrupt = core::modelTokens(*model, m_corrupt->text());
    } catch (const std::exception& e) {
        fail(tr("Patching: %1").arg(QString::fromUtf8(e.what())));
        return;
    }
    emit errorCleared();
    const core::Interventions interventions = m_source->interventions;
    m_job = new LensJob(
        [this, model, clean, corrupt, interventions,
         metric](core::Backend& backend, const std::atomic<bool>* cancel,
                 const LensJob::Progress& progress) -> std::function<void()> {
            const core::PatchingRuns runs =
                core::patchingRuns(model, clean, corrupt, interventions, metric, backend);
            core::PatchingOptions options;
            options.cancel = cancel;
            options.progress = progress;
            core::ActivationPatching patching = core::activationPatching(runs, backend, options);
            return [this, patching = std::move(patching)] {
                m_patching = patching;
                showPatching();
            };
        },
        m_makeBackend(), this);
    connect(m_job, &LensJob::progress, this, [this](int done, int total) {
        m_progress->setRange(0, total);
        m_progress->setValue(done);
    });
    connect(m_job, &LensJob::finished, this, [this] {
        setRunning(false);
        emit ended();
    });
    connect(m_job, &LensJob::failed, this, [this](const QString& message) {
        setRunning(false);
        fail(tr("Patching: %1").arg(message));
        emit ended();
    });
    connect(m_job, &LensJob::cancelled, this, [this] {
        setRunning(false);
        m_note->setText(tr("Cancelled."));
        emit ended();
    });
    m_note->setText(
        tr("Patching %1 heads and %2 positions…")
            .arg(m_source->layerCount() *
                 (m_source->layerCount() ? int(m_source->layers.front()->heads.size()) : 0))
            .arg(m_source->layerCount() * int(clean.size())));
    setRunning(true);
    m_job->start();
}

void PatchingView::cancel()
{
    if (m_job)
        m_job->cancel();
}

void PatchingView::showPatching()
{
    const core::ActivationPatching& patching = *m_patching;
    const core::Model& model = *patching.runs.corrupt->model;
    QString note = tr("%1: clean %2, corrupted %3. 1 = the clean run's value restored, 0 = no "
                      "change. Click a head to open it.")
                       .arg(patchingMetricText(model, patching.runs.metric))
                       .arg(patching.runs.cleanMetric, 0, 'f', 3)
                       .arg(patching.runs.corruptMetric, 0, 'f', 3);
    for (const std::string& warning : patching.warnings)
        note += QLatin1Char('\n') + QString::fromStdString(warning);
    m_note->setText(note);
    ModelFigureSource source;
    source.result = patching.runs.clean;
    source.patching = patching;
    std::vector<MatrixPanel> panels = patchingPanels(patching, m_layer, m_head);
    if (panels.size() == 2 && m_shown->currentIndex() > 0)
        panels.erase(panels.begin() + (m_shown->currentIndex() == 1 ? 1 : 0));
    m_panels->setPanels(std::move(panels), defaultModelFigureTitle(ModelFigure::Patching, source));
}

void PatchingView::setRunning(bool running)
{
    m_run->setEnabled(!running && m_source);
    m_example->setEnabled(!running);
    m_progress->setVisible(running);
    m_cancel->setVisible(running);
    if (running) {
        m_progress->setRange(0, 0);
        m_progress->setFormat(tr("%p%"));
    }
}

} // namespace attn::ui
