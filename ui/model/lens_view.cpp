#include "ui/model/lens_view.h"

#include "ui/model/lens_job.h"
#include "ui/model/matrix_panels_view.h"
#include "ui/model/model_figures.h"
#include "ui/widgets/flow_layout.h"

#include "core/error.h"
#include "core/model/activation_patching.h"

#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace attn::ui {

namespace {

QString readingNote()
{
    return LensView::tr("Left: the top token if the model stopped after that layer (colour: its "
                        "probability). Right: the rank of the followed token there (1: the top).");
}

} // namespace

std::optional<int> typedToken(const core::Model& model, const QString& text, QString* error)
{
    if (text.isEmpty())
        return std::nullopt;
    try {
        const core::PatchingMetric metric = core::parsePatchingMetric(model, text);
        if (metric.tokenB < 0)
            return metric.tokenA;
    } catch (const core::Error& e) {
        // The message speaks of the metric's token: "is 2 tokens of the vocabulary (...)".
        if (error)
            *error =
                LensView::tr("The token %1%2%3 %4")
                    .arg(QChar(0x201c), text, QChar(0x201d), QString::fromStdString(e.message()));
        return std::nullopt;
    }
    if (error)
        *error = LensView::tr("Write one token (a comma separates two)");
    return std::nullopt;
}

// The token field reports editingFinished when it loses the focus, which it also does while
// QWidget's destructor deletes it: by then this is no longer a LensView.
LensView::~LensView()
{
    m_token->disconnect(this);
}

LensView::LensView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    auto* rowHost = new QWidget(this);
    auto* row = new FlowLayout(rowHost, 6, 4); // wraps on a narrow window
    row->setContentsMargins(0, 0, 0, 0);
    auto* tokenLabel = new QLabel(tr("Follow to&ken:"), rowHost);
    m_token = new QLineEdit(rowHost);
    m_token->setObjectName(QStringLiteral("lensToken"));
    m_token->setPlaceholderText(tr("the model's prediction"));
    m_token->setToolTip(tr("The token whose rank is followed through the layers: empty for what "
                           "the model predicts at each position, or one token of the vocabulary "
                           "(with its leading space, as \" Mary\")"));
    m_token->setMinimumWidth(160);
    tokenLabel->setBuddy(m_token);
    m_progress = new QProgressBar(rowHost);
    m_progress->setVisible(false);
    m_cancel = new QPushButton(tr("Cancel"), rowHost);
    m_cancel->setToolTip(tr("Stop computing the lens"));
    m_cancel->setVisible(false);
    row->addWidget(tokenLabel);
    row->addWidget(m_token);
    row->addWidget(m_progress);
    row->addWidget(m_cancel);
    layout->addWidget(rowHost);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setMinimumWidth(1);
    m_note->setText(readingNote());
    layout->addWidget(m_note);
    m_panels = new MatrixPanelsView(this);
    m_panels->setObjectName(QStringLiteral("lensPanels"));
    layout->addWidget(m_panels, 1);
    connect(m_token, &QLineEdit::editingFinished, this, [this] {
        if (m_token->isModified()) {
            m_token->setModified(false);
            compute();
        }
    });
    connect(m_cancel, &QPushButton::clicked, this, [this] {
        if (m_job)
            m_job->cancel();
    });
    m_panels->setMessage(tr("No model open"));
    // A run per key typed: the lens (and the backend each job makes, a device for Vulkan)
    // waits for a pause.
    m_typing.setSingleShot(true);
    m_typing.setInterval(250);
    connect(&m_typing, &QTimer::timeout, this, [this] {
        if (isVisible())
            compute();
    });
}

void LensView::setSource(std::shared_ptr<const core::ModelResult> result, BackendMaker makeBackend)
{
    if (result && m_source && result->model != m_source->model)
        m_token->clear(); // a token id of another vocabulary
    m_source = std::move(result);
    m_makeBackend = std::move(makeBackend);
    if (!m_source) {
        m_typing.stop();
        if (m_job)
            m_job->cancel();
        setRunning(false);
        m_lens.reset();
        m_lensFor.reset();
        m_panels->setMessage(tr("No model open"));
        if (m_trace)
            m_trace->setLens(nullptr, nullptr);
        return;
    }
    if (m_trace && m_lensFor != m_source)
        m_trace->setLens(nullptr, nullptr);
    if (isVisible())
        m_typing.start();
}

void LensView::setFigureStyle(const FigureStyle& style)
{
    m_style = style;
    m_panels->setFigureStyle(style);
}

std::optional<core::LogitLens> LensView::lens() const
{
    return m_lensFor && m_lensFor == m_source ? m_lens : std::nullopt;
}

bool LensView::isComputing() const
{
    return m_typing.isActive() || (m_job && m_job->isRunning());
}

LensTraceView* LensView::createTrace(QWidget* parent)
{
    if (!m_trace)
        m_trace = new LensTraceView(parent);
    return m_trace;
}

void LensView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    // Hidden, the tab let runs go by: the lens of the one shown now, unless on its way.
    if (m_source && m_lensFor != m_source && !(isComputing() && m_jobFor == m_source))
        compute();
}

void LensView::compute()
{
    m_typing.stop();
    if (!m_source || !m_makeBackend)
        return;
    QString error;
    const std::optional<int> token = typedToken(*m_source->model, m_token->text(), &error);
    if (!error.isEmpty()) {
        emit errorShown(error);
        m_note->setText(error);
        return;
    }
    emit errorCleared();
    if (m_job) { // left to end on its own: it deletes itself
        disconnect(m_job, nullptr, this, nullptr);
        m_job->cancel();
    }
    const auto run = m_source;
    m_jobFor = run;
    core::LensOptions options;
    options.token = token.value_or(-1);
    m_job = new LensJob(
        [this, run, options](core::Backend& backend, const std::atomic<bool>* cancel,
                             const LensJob::Progress&) -> std::function<void()> {
            core::LensOptions withCancel = options;
            withCancel.cancel = cancel;
            core::LogitLens lens = core::logitLens(*run, backend, withCancel);
            return [this, run, lens = std::move(lens)] {
                m_lensFor = run;
                m_lens = lens;
                if (run == m_source) // else another run is on screen, its lens on its way
                    showLens(*m_lens);
            };
        },
        m_makeBackend(), this);
    connect(m_job, &LensJob::finished, this, [this] {
        setRunning(false);
        emit computed();
    });
    connect(m_job, &LensJob::failed, this, [this](const QString& message) {
        setRunning(false);
        m_lens.reset();
        m_lensFor.reset();
        m_panels->setMessage(message);
        if (m_trace)
            m_trace->setLens(nullptr, nullptr);
        emit computed();
    });
    connect(m_job, &LensJob::cancelled, this, [this] {
        setRunning(false);
        m_note->setText(tr("Cancelled."));
    });
    setRunning(true);
    m_job->start();
}

void LensView::showLens(const core::LogitLens& lens)
{
    m_note->setText(readingNote());
    ModelFigureSource source;
    source.result = m_lensFor;
    source.lens = lens;
    m_panels->setPanels(logitLensPanels(*m_lensFor, lens, Colormap::Viridis),
                        defaultModelFigureTitle(ModelFigure::LogitLens, source));
    if (m_trace)
        m_trace->setLens(m_lensFor.get(), &lens);
}

void LensView::setRunning(bool running)
{
    m_progress->setVisible(running);
    m_cancel->setVisible(running);
    if (running) {
        m_progress->setRange(0, 0); // core reports no steps: busy until it ends
        if (!m_lens || m_lensFor != m_source)
            m_panels->setMessage(tr("Computing the lens…"));
    }
}

} // namespace attn::ui
