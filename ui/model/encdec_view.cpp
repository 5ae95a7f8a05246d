#include "ui/model/encdec_view.h"

#include "core/atomic_file.h"
#include "core/attention_result.h"
#include "core/error.h"
#include "core/model/decoding_memory.h"
#include "core/model/model_loader.h"
#include "core/tokenizers/hf_tokenizer.h"
#include "ui/figures/painted_figure.h"
#include "ui/model/encdec_job.h"
#include "ui/model/head_grid_view.h"
#include "ui/model/matrix_panels_view.h"
#include "ui/widgets/figure_first_docks.h"
#include "ui/widgets/flow_layout.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

namespace attn::ui {
namespace {

QStringList labelsOf(const std::vector<core::Token>& tokens)
{
    QStringList labels;
    for (const core::Token& token : tokens)
        labels << paint::tokenLabel(token.text);
    return labels;
}

// A label and its field kept on one line of a FlowLayout.
QWidget* labelled(QLabel* label, QWidget* field, QWidget* parent)
{
    auto* pair = new QWidget(parent);
    auto* layout = new QHBoxLayout(pair);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(label);
    layout->addWidget(field);
    label->setBuddy(field);
    return pair;
}

// The figures' splitter asks for a usable figure's height only: the Translate tab's page scrolls,
// and QScrollArea makes a page that wraps (height for width) as tall as it asks, so the grid's
// and the matrix's own hints (720 and 420 pixels) would push the matrix below a projector's
// 768 pixels. Given more, the figures take it all (stretch).
class FiguresSplitter : public QSplitter
{
public:
    using QSplitter::QSplitter;
    QSize sizeHint() const override
    {
        return {QSplitter::sizeHint().width(),
                orientation() == Qt::Horizontal ? kUsableFigureHeight : 2 * kUsableFigureHeight};
    }
};

} // namespace

EncDecView::EncDecView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    // Rows that wrap: the tab is about 300 pixels wide beside the grid on a 1024 x 768 projector.
    auto* barHost = new QWidget(this);
    auto* bar = new FlowLayout(barHost, 6, 4);
    bar->setContentsMargins(0, 0, 0, 0);
    m_translate = new QPushButton(tr("&Translate"), this);
    m_translate->setObjectName(QStringLiteral("translateButton"));
    m_translate->setToolTip(tr("Translate the text box's sentence: with 1 beam each word the most "
                               "likely one, with more the likeliest sentence the beams find"));
    m_stop = new QPushButton(tr("Stop"), this);
    m_stop->setObjectName(QStringLiteral("stopTranslationButton"));
    m_stop->setToolTip(tr("Stop translating; the words so far stay"));
    m_back = new QPushButton(tr("◀ Back"), this);
    m_back->setObjectName(QStringLiteral("stepBackButton"));
    m_back->setToolTip(tr("Show the translation one word shorter"));
    m_step = new QPushButton(tr("Step ▶"), this);
    m_step->setObjectName(QStringLiteral("stepForwardButton"));
    m_step->setToolTip(tr("Show the next word and the cross-attention row that chose it"));
    m_maxLength = new QSpinBox(this);
    m_maxLength->setObjectName(QStringLiteral("maxLengthSpin"));
    m_maxLength->setRange(1, 512);
    m_maxLength->setValue(40);
    m_maxLength->setToolTip(tr("The translation stops here if the end token has not come"));
    auto* lengthLabel = new QLabel(tr("Max &words:"), this);
    m_beams = new QSpinBox(this);
    m_beams->setObjectName(QStringLiteral("beamSpin"));
    m_beams->setRange(1, 16);
    m_beams->setValue(1);
    m_beams->setToolTip(tr("1 is greedy decoding: the likeliest word at each step. Wider beams "
                           "keep that many partial translations and choose by the mean "
                           "log-probability per word."));
    auto* beamLabel = new QLabel(tr("&Beams:"), this);
    bar->addWidget(m_translate);
    bar->addWidget(m_stop);
    bar->addWidget(labelled(lengthLabel, m_maxLength, barHost));
    bar->addWidget(labelled(beamLabel, m_beams, barHost));
    layout->addWidget(barHost);
    // Back and Step beside the words they walk through; two rows fit a 1024-pixel projector.
    auto* words = new QHBoxLayout;
    m_target = new QLabel(this);
    m_target->setObjectName(QStringLiteral("translationLabel"));
    m_target->setWordWrap(true);
    m_target->setTextFormat(Qt::RichText);
    m_target->setMinimumWidth(1);
    words->addWidget(m_back);
    words->addWidget(m_step);
    words->addWidget(m_target, 1);
    layout->addLayout(words);
    m_state = new QLabel(this);
    m_state->setObjectName(QStringLiteral("translationState"));
    m_state->setWordWrap(true);
    layout->addWidget(m_state);

    // The grid beside the head it picks where both get a usable width, else above it
    // (resizeEvent).
    auto* figures = new FiguresSplitter(Qt::Horizontal, this);
    m_figures = figures;
    figures->setChildrenCollapsible(false);
    auto* left = new QWidget(figures);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    m_kindCombo = new QComboBox(left);
    m_kindCombo->setObjectName(QStringLiteral("attentionKindCombo"));
    m_kindCombo->addItem(tr("Encoder self-attention (source x source)"));
    m_kindCombo->addItem(tr("Decoder self-attention (target x target, causal)"));
    m_kindCombo->addItem(tr("Cross-attention (target x source)"));
    m_kindCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_kindCombo->setMinimumContentsLength(20);
    m_kindCombo->setToolTip(tr("Which attention the grid shows: the encoder's over the source, "
                               "the decoder's over the words written, or the decoder's over the "
                               "source (the alignment)"));
    leftLayout->addWidget(m_kindCombo);
    m_grid = new HeadGridView(left);
    m_grid->setObjectName(QStringLiteral("encdecGrid"));
    leftLayout->addWidget(m_grid, 1);
    auto* right = new QWidget(figures);
    auto* rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    auto* pick = new QHBoxLayout;
    m_layerCombo = new QComboBox(right);
    m_layerCombo->setObjectName(QStringLiteral("encdecLayerCombo"));
    m_layerCombo->setAccessibleName(tr("Layer"));
    m_layerCombo->setToolTip(tr("The layer whose head, or mean of heads, is shown below"));
    m_headCombo = new QComboBox(right);
    m_headCombo->setObjectName(QStringLiteral("encdecHeadCombo"));
    m_headCombo->setAccessibleName(tr("Head"));
    m_headCombo->setToolTip(tr("One head, or the mean of the layer's heads"));
    m_headCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_export = new QPushButton(tr("E&xport Figure…"), right);
    m_export->setObjectName(QStringLiteral("exportAlignmentButton"));
    m_export->setToolTip(tr("Save this matrix as PNG, SVG or PDF"));
    pick->addWidget(m_layerCombo);
    pick->addWidget(m_headCombo);
    pick->addStretch(1);
    pick->addWidget(m_export);
    rightLayout->addLayout(pick);
    // The chosen head's edits, as the model window's head panel makes them: on or off, its
    // layer's temperature, its W^v scaled (0 with no value bias: the same as off).
    auto* editsHost = new QWidget(right);
    auto* edits = new FlowLayout(editsHost, 6, 4);
    edits->setContentsMargins(0, 0, 0, 0);
    m_headOn = new QCheckBox(tr("Head &on"), right);
    m_headOn->setObjectName(QStringLiteral("encdecHeadOnCheck"));
    m_headOn->setToolTip(
        tr("Off: the head's output leaves the layer; its weights are still shown"));
    m_temperature = new QDoubleSpinBox(right);
    m_temperature->setObjectName(QStringLiteral("encdecTemperatureSpin"));
    m_temperature->setRange(0.05, 20.0);
    m_temperature->setSingleStep(0.25);
    m_temperature->setDecimals(2);
    m_temperature->setKeyboardTracking(false);
    m_temperature->setToolTip(tr("softmax(scores / T) for every head of this layer: above 1 "
                                 "flatter, below 1 sharper"));
    auto* temperatureLabel = new QLabel(tr("Tem&perature:"), right);
    m_valueScale = new QDoubleSpinBox(right);
    m_valueScale->setObjectName(QStringLiteral("encdecValueScaleSpin"));
    m_valueScale->setRange(-10.0, 10.0);
    m_valueScale->setSingleStep(0.25);
    m_valueScale->setDecimals(2);
    m_valueScale->setKeyboardTracking(false);
    m_valueScale->setToolTip(tr("The head's W^v times this factor: how loudly the head writes "
                                "what it reads"));
    auto* scaleLabel = new QLabel(tr("&Scale W^v:"), right);
    m_resetEdits = new QPushButton(tr("&Reset Edits"), right);
    m_resetEdits->setObjectName(QStringLiteral("encdecResetEditsButton"));
    m_resetEdits->setToolTip(tr("Every head of the three kinds back to the checkpoint's"));
    edits->addWidget(m_headOn);
    edits->addWidget(labelled(temperatureLabel, m_temperature, editsHost));
    edits->addWidget(labelled(scaleLabel, m_valueScale, editsHost));
    edits->addWidget(m_resetEdits);
    rightLayout->addWidget(editsHost);
    m_matrix = new MatrixPanelsView(right);
    m_matrix->setObjectName(QStringLiteral("alignmentView"));
    rightLayout->addWidget(m_matrix, 1);
    figures->addWidget(left);
    figures->addWidget(right);
    // The chosen head's matrix, with its labels and numbers, gets the larger part.
    figures->setStretchFactor(0, 2);
    figures->setStretchFactor(1, 3);
    layout->addWidget(figures, 1);

    m_kindCombo->setCurrentIndex(int(Kind::Cross));
    connect(m_translate, &QPushButton::clicked, this, &EncDecView::translate);
    connect(m_stop, &QPushButton::clicked, this, &EncDecView::stop);
    connect(m_back, &QPushButton::clicked, this, &EncDecView::stepBack);
    connect(m_step, &QPushButton::clicked, this, &EncDecView::stepForward);
    connect(m_export, &QPushButton::clicked, this, &EncDecView::exportFigure);
    connect(m_kindCombo, &QComboBox::activated, this, [this](int index) { setKind(Kind(index)); });
    connect(m_layerCombo, &QComboBox::activated, this,
            [this](int index) { setLayerAndHead(index, m_head); });
    connect(m_headCombo, &QComboBox::activated, this,
            [this](int index) { setLayerAndHead(m_layer, index - 1); });
    connect(m_grid, &HeadGridView::headSelected, this, &EncDecView::setLayerAndHead);
    connect(m_grid, &HeadGridView::headToggled, this,
            [this](int layer, int head, bool off) { setHeadOff(m_kind, layer, head, off); });
    connect(m_headOn, &QCheckBox::toggled, this,
            [this](bool on) { setHeadOff(m_kind, m_layer, m_head, !on); });
    connect(m_temperature, &QDoubleSpinBox::valueChanged, this,
            [this](double t) { setLayerTemperature(m_kind, m_layer, t); });
    connect(m_valueScale, &QDoubleSpinBox::valueChanged, this,
            [this](double scale) { setValueScale(m_kind, m_layer, m_head, scale); });
    connect(m_resetEdits, &QPushButton::clicked, this,
            [this] { m_document->resetInterventions(); });
    m_ownDocument = std::make_unique<ModelDocument>();
    setDocument(nullptr);
    setSource(nullptr, {});
}

EncDecView::~EncDecView() = default;

void EncDecView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    const Qt::Orientation wanted = width() >= 2 * kUsableFigureWidth + m_figures->handleWidth()
                                       ? Qt::Horizontal
                                       : Qt::Vertical;
    if (wanted == m_figures->orientation())
        return; // the user's sizes stay
    m_figures->setOrientation(wanted);
    const int length = wanted == Qt::Horizontal ? width() : m_figures->height();
    m_figures->setSizes({length * 2 / 5, length * 3 / 5});
}

void EncDecView::setSource(std::shared_ptr<const core::ModelResult> result,
                           BackendMaker makeBackend)
{
    if (result && !result->model->config().encoderDecoder())
        result.reset();
    const bool same = result && m_source && result->model == m_source->model &&
                      result->sourceTokens == m_source->sourceTokens;
    if (!same) {
        if (m_job)
            m_job->stop();
        m_job.reset();
        m_steps.clear();
        m_best.reset();
        m_shown = 0;
        m_status.clear();
        if (!result || !m_source || result->model != m_source->model) {
            // transformers' max_length counts the decoder start token.
            if (result && result->model->config().generation.maxLength > 1)
                m_maxLength->setValue(result->model->config().generation.maxLength - 1);
            m_valueScales.clear();
            if (m_document == m_ownDocument.get()) {
                // The window's document is reset by the window; the own one with the model.
                const QSignalBlocker quiet(m_ownDocument.get());
                m_ownDocument->reset(result ? result->model : nullptr, QString());
            }
            m_layer = 0;
            m_head = -1;
        }
    }
    m_source = std::move(result);
    m_makeBackend = std::move(makeBackend);
    refresh();
}

void EncDecView::translate()
{
    if (!m_source || !m_makeBackend)
        return;
    // Refused before anything is dropped: the translation shown stays.
    try {
        core::checkDecodingMemory(m_source->model->config(), int(m_source->sourceTokens.size()),
                                  m_maxLength->value(), beams(), core::availableMemory());
    } catch (const core::Error& error) {
        m_status = tr("Not translated: %1").arg(QString::fromUtf8(error.what()));
        refresh();
        emit translationDone();
        return;
    }
    if (m_job)
        m_job->stop();
    m_job.reset(); // waits for the old one's thread
    m_steps.clear();
    m_best.reset();
    m_searchBeams = beams();
    m_shown = 0;
    m_status = tr("Translating…");
    m_requestedWords = m_maxLength->value();
    m_job = std::make_unique<EncDecJob>(m_source->model, m_source->sourceTokens, interventions(),
                                        m_requestedWords, m_makeBackend(), m_searchBeams);
    connect(m_job.get(), &EncDecJob::stepped, this, &EncDecView::onStep);
    connect(m_job.get(), &EncDecJob::searched, this,
            [this](const core::BeamHypothesis& best) { m_best = best; });
    connect(m_job.get(), &EncDecJob::finished, this, [this](bool stopped) {
        const core::ModelConfig& config = m_source->model->config();
        const bool ended = !m_steps.empty() && m_steps.back().id == config.eosToken;
        const bool forced =
            !m_steps.empty() && stepCount() == m_requestedWords &&
            std::find(config.generation.forcedEos.begin(), config.generation.forcedEos.end(),
                      m_steps.back().id) != config.generation.forcedEos.end();
        m_status =
            stopped ? tr("Stopped at word %1.").arg(stepCount())
            : forced
                ? tr("Done: the end token, forced at the length limit (%1 words).").arg(stepCount())
            : ended ? tr("Done: the model wrote its end token.")
                    : tr("Done: the length limit (%1 words).").arg(stepCount());
        const QString settings = generationSettingsNote();
        if (!stopped && !settings.isEmpty())
            m_status += QLatin1Char(' ') + settings;
        if (!stopped && m_best)
            m_status += QLatin1Char(' ') +
                        tr("Of %1 beams, the chosen translation has log-probability %2, %3 "
                           "per word.")
                            .arg(m_searchBeams)
                            .arg(m_best->logProbability, 0, 'f', 2)
                            .arg(m_best->score, 0, 'f', 2);
        refresh();
        emit translationDone();
    });
    connect(m_job.get(), &EncDecJob::failed, this, [this](const QString& message) {
        m_status = tr("Translation failed: %1").arg(message);
        refresh();
        emit translationDone();
    });
    m_job->start();
    refresh();
}

QString EncDecView::generationSettingsNote() const
{
    const core::Model& model = *m_source->model;
    const core::CheckpointGeneration& generation = model.config().generation;
    QStringList parts;
    if (!generation.bannedTokens.empty()) {
        QStringList tokens;
        for (int id : generation.bannedTokens)
            tokens << model.tokenizer->displayText(id);
        parts << tr("%1 banned").arg(tokens.join(QStringLiteral(", ")));
    }
    if (!generation.forcedEos.empty())
        parts << tr("the end token forced at the last word allowed");
    if (generation.unappliedBadWords > 0)
        parts << tr("%1 banned sequences of several tokens not applied")
                     .arg(generation.unappliedBadWords);
    if (parts.isEmpty())
        return {};
    return tr("As the checkpoint's generation settings say: %1.")
        .arg(parts.join(QStringLiteral("; ")));
}

void EncDecView::setBeams(int beams)
{
    m_beams->setValue(beams);
}

int EncDecView::beams() const
{
    return m_beams->value();
}

void EncDecView::stop()
{
    if (m_job)
        m_job->stop();
}

bool EncDecView::isRunning() const
{
    return m_job && m_job->isRunning();
}

void EncDecView::onStep(const core::GreedyStep& step)
{
    const bool following = m_shown == stepCount();
    m_steps.push_back(step);
    if (following) // the learner who stepped back keeps the word they look at
        m_shown = stepCount();
    refresh();
}

void EncDecView::stepBack()
{
    if (m_shown > 1) {
        --m_shown;
        refresh();
    }
}

void EncDecView::stepForward()
{
    if (m_shown < stepCount()) {
        ++m_shown;
        refresh();
    }
}

const core::GreedyStep* EncDecView::shownStep() const
{
    return m_shown > 0 ? &m_steps[std::size_t(m_shown - 1)] : nullptr;
}

void EncDecView::setKind(Kind kind)
{
    m_kind = kind;
    refresh();
}

void EncDecView::setLayerAndHead(int layer, int head)
{
    m_layer = std::max(0, layer);
    m_head = std::max(-1, head);
    refresh();
}

void EncDecView::selectHead(Kind kind, int layer, int head)
{
    m_kind = kind;
    setLayerAndHead(layer, head);
}

// The shown forward with `kind`'s layers as a model's layers, for the grids.
std::shared_ptr<const core::ModelResult> EncDecView::gridResult(Kind kind) const
{
    const core::GreedyStep* step = shownStep();
    const core::ModelResult& from = step ? *step->result : *m_source;
    auto result = std::make_shared<core::ModelResult>();
    result->model = from.model;
    result->tokens = kind == Kind::Encoder ? from.sourceTokens : from.tokens;
    result->layers = kind == Kind::Encoder   ? from.encoderLayers
                     : kind == Kind::Decoder ? from.layers
                                             : from.crossLayers;
    result->interventions = interventionsOf(kind);
    return result;
}

std::shared_ptr<const core::ModelResult> EncDecView::kindResult(Kind kind) const
{
    if (!m_source || (kind != Kind::Encoder && !shownStep()))
        return nullptr;
    return gridResult(kind);
}

// Each decoder row is the position that chose the next word: labelled with that word, as the
// alignment figures of Bahdanau et al. label their rows.
QStringList EncDecView::rowLabels() const
{
    QStringList labels;
    if (m_kind == Kind::Encoder || !shownStep())
        return labels;
    for (int k = 0; k < m_shown; ++k) {
        const core::GreedyStep& step = m_steps[std::size_t(k)];
        labels << paint::tokenLabel(core::decoderTokens(*m_source->model, {step.id})[0].text);
    }
    return labels;
}

std::vector<MatrixPanel> EncDecView::panels() const
{
    if (!m_source)
        return {};
    const auto grid = gridResult(m_kind);
    if (grid->layers.empty() || m_layer >= grid->layerCount())
        return {};
    const core::AttentionResult& layer = *grid->layers[std::size_t(m_layer)];
    MatrixPanel panel;
    const bool mean = m_head < 0 || m_head >= int(layer.heads.size());
    panel.matrix =
        mean ? core::meanOfEnabledHeads(layer) : layer.heads[std::size_t(m_head)].weights;
    panel.title = mean ? tr("Layer %1, mean of the heads").arg(m_layer + 1)
                       : tr("Layer %1, head %2").arg(m_layer + 1).arg(m_head + 1);
    const QStringList rows = rowLabels();
    panel.rowLabels =
        rows.size() == panel.matrix.rows() ? rows : labelsOf(layer.problem->queryTokens);
    panel.columnLabels = labelsOf(layer.problem->keyTokens);
    panel.rowAxis = m_kind == Kind::Encoder ? tr("source (query)") : tr("target word written");
    panel.columnAxis = m_kind == Kind::Cross     ? tr("source (key)")
                       : m_kind == Kind::Encoder ? tr("source (key)")
                                                 : tr("target so far (key)");
    panel.scaleLabel = tr("weight");
    panel.valueDecimals = panel.matrix.size() <= 144 ? 2 : -1;
    std::vector<MatrixPanel> panels;
    panels.push_back(std::move(panel));
    return panels;
}

QByteArray EncDecView::figureBytes(FigureFormat format, QSize size) const
{
    const std::vector<MatrixPanel> shown = panels();
    const QString title = m_kindCombo->currentText();
    return paintedFigureBytes(
        [shown, title](QPainter& painter, const QRectF& target, const QFont& font,
                       const FigureStyle& style, bool vector) {
            paintMatrixPanels(painter, target, shown, title, font, style, vector);
        },
        size, 150.0, format);
}

void EncDecView::exportFigure()
{
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Export Figure"), QStringLiteral("alignment.png"),
                                     tr("Figures (*.png *.svg *.pdf)"));
    if (path.isEmpty())
        return;
    const auto format = figureFormatForPath(path);
    if (!format) {
        m_status = tr("Could not write %1: name it .png, .svg or .pdf").arg(path);
        refresh();
        return;
    }
    try { // the old file stays until the new one is complete
        core::writeFileAtomically(path, figureBytes(*format, QSize(1200, 900)));
    } catch (const std::exception& error) {
        m_status = tr("Not exported: %1").arg(QString::fromUtf8(error.what()));
        refresh();
    }
}

QString EncDecView::status() const
{
    return m_state->text();
}

void EncDecView::refresh()
{
    const bool model = m_source != nullptr;
    const bool running = isRunning();
    m_translate->setEnabled(model && !running);
    m_stop->setEnabled(running);
    m_back->setEnabled(m_shown > 1);
    m_step->setEnabled(m_shown < stepCount());
    m_kindCombo->setCurrentIndex(int(m_kind));
    m_export->setEnabled(model);
    m_resetEdits->setEnabled(model && m_document->hasInterventions());
    if (!model) {
        for (QWidget* w : {static_cast<QWidget*>(m_headOn), static_cast<QWidget*>(m_temperature),
                           static_cast<QWidget*>(m_valueScale)})
            w->setEnabled(false);
        m_target->setText(tr("Open a translation model (an encoder-decoder such as Marian's "
                             "opus-mt or BART) to translate the text box's sentence word by "
                             "word."));
        m_state->clear();
        m_grid->setMessage(tr("No encoder-decoder model open"));
        m_matrix->setMessage(tr("No encoder-decoder model open"));
        emit shownChanged();
        return;
    }
    QStringList words;
    // The last dozen words: a long translation would push the figures off a projector.
    constexpr int kWordsShown = 12;
    if (m_shown > kWordsShown)
        words << QStringLiteral("…");
    for (int k = std::max(0, m_shown - kWordsShown); k < m_shown; ++k) {
        const core::GreedyStep& step = m_steps[std::size_t(k)];
        const QString word =
            core::decoderTokens(*m_source->model, {step.id})[0].text.toHtmlEscaped();
        words << (k + 1 == m_shown ? tr("<b>%1</b> <small>(p = %2)</small>")
                                         .arg(word)
                                         .arg(double(step.probability), 0, 'f', 2)
                                   : word);
    }
    m_target->setText(m_shown ? tr("Word %1 of %2: %3")
                                    .arg(m_shown)
                                    .arg(stepCount())
                                    .arg(words.join(QLatin1Char(' ')))
                              : tr("Translate to see the target grow one word at a time."));
    m_state->setText(!running ? m_status
                     : m_searchBeams > 1 && m_steps.empty()
                         ? tr("Searching with %1 beams…").arg(m_searchBeams)
                         : tr("Translating… word %1.").arg(stepCount() + 1));

    const auto grid = gridResult(m_kind);
    const int layers = grid->layerCount();
    const int heads = layers ? int(grid->layers.front()->heads.size()) : 0;
    m_layer = std::min(m_layer, std::max(0, layers - 1));
    m_layerCombo->clear();
    for (int l = 0; l < layers; ++l)
        m_layerCombo->addItem(tr("Layer %1").arg(l + 1));
    m_layerCombo->setCurrentIndex(m_layer);
    m_headCombo->clear();
    m_headCombo->addItem(tr("Mean of heads"));
    for (int h = 0; h < heads; ++h)
        m_headCombo->addItem(tr("Head %1").arg(h + 1));
    if (m_head >= heads)
        m_head = -1;
    m_headCombo->setCurrentIndex(m_head + 1);
    syncEdits();
    if (m_kind != Kind::Encoder && !shownStep()) {
        m_grid->setMessage(tr("Translate to see the decoder's heads"));
        m_matrix->setMessage(tr("Translate to see the decoder's heads"));
        emit shownChanged();
        return;
    }
    m_grid->setResult(grid);
    HeadGridOptions options = m_grid->options();
    options.headsOff = grid->interventions.headsOff;
    options.selectedLayer = m_layer;
    options.selectedHead = m_head;
    m_grid->setOptions(options);
    m_matrix->setPanels(panels());
    emit shownChanged();
}

} // namespace attn::ui
