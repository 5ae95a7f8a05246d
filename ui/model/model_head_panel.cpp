#include "ui/model/model_head_panel.h"

#include "ui/figures/figure_spec.h"
#include "ui/model/encdec_view.h"
#include "ui/widgets/attention_panel.h"
#include "ui/widgets/decimal_field.h"
#include "ui/widgets/drag_gesture.h"
#include "ui/widgets/matrix_editor.h"
#include "ui/widgets/score_options.h"

#include "core/error.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QUndoStack>
#include <QVBoxLayout>

#include <algorithm>

namespace attn::ui {

namespace {

// The scores a checkpoint's head can take: additive and bilinear need weights a checkpoint
// does not have.
constexpr ScoreOption kModelScores[] = {ScoreOption::Scaled, ScoreOption::Dot, ScoreOption::Hard,
                                        ScoreOption::Cosine};
constexpr core::Normalization kNormalizations[] = {
    core::Normalization::Softmax, core::Normalization::Relu, core::Normalization::Sparsemax,
    core::Normalization::None};

} // namespace

ModelHeadPanel::ModelHeadPanel(ModelDocument& document, QWidget* parent)
    : QWidget(parent), m_document(document)
{
    setObjectName(QStringLiteral("modelHeadPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 8);
    m_title = new QLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.15);
    m_title->setFont(bold);
    m_title->setWordWrap(true); // "Cross-attention · layer 12 · head 16" in a narrow dock
    layout->addWidget(m_title);
    m_headOn = new QCheckBox(tr("Head &on (its output goes into W^O)"), this);
    m_headOn->setObjectName(QStringLiteral("headOnCheck"));
    m_headOn->setToolTip(
        tr("Off: the head's output is left out of W^O, and the prediction is computed again"));
    layout->addWidget(m_headOn);
    m_valueScaleRow = new QWidget(this);
    auto* scaleLayout = new QHBoxLayout(m_valueScaleRow);
    scaleLayout->setContentsMargins(0, 0, 0, 0);
    m_valueScale = new QDoubleSpinBox(m_valueScaleRow);
    m_valueScale->setObjectName(QStringLiteral("modelValueScaleSpin"));
    m_valueScale->setRange(-10.0, 10.0); // as the Translate tab's
    m_valueScale->setSingleStep(0.25);
    m_valueScale->setDecimals(2);
    m_valueScale->setKeyboardTracking(false);
    m_valueScale->setToolTip(
        tr("The head's W^v times this factor: how loudly the head writes what it reads"));
    auto* scaleLabel = new QLabel(tr("&Scale W^v:"), m_valueScaleRow);
    scaleLabel->setBuddy(m_valueScale);
    scaleLayout->addWidget(scaleLabel);
    scaleLayout->addWidget(m_valueScale);
    scaleLayout->addStretch(1);
    layout->addWidget(m_valueScaleRow);

    auto* settings = new QGroupBox(this);
    auto* form = new QFormLayout(settings);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_layerNote = new QLabel(settings);
    m_layerNote->setWordWrap(true);
    form->addRow(m_layerNote);
    m_score = new QComboBox(settings);
    m_score->setObjectName(QStringLiteral("modelScoreCombo"));
    for (ScoreOption option : kModelScores) {
        m_score->addItem(scoreOptionLabel(option), scoreOptionName(option));
        m_score->setItemData(m_score->count() - 1, scoreOptionToolTip(option), Qt::ToolTipRole);
    }
    m_score->setToolTip(scoreChoiceToolTip());
    form->addRow(tr("&Score:"), m_score);
    m_normalization = new QComboBox(settings);
    m_normalization->setObjectName(QStringLiteral("modelNormalizationCombo"));
    m_normalization->setToolTip(normalizationChoiceToolTip());
    for (core::Normalization n : kNormalizations)
        m_normalization->addItem(normalizationDisplayName(n), QString::fromUtf8(core::toString(n)));
    form->addRow(tr("&Normalize:"), m_normalization);
    auto* temperatureRow = new QWidget(settings);
    auto* temperatureLayout = new QHBoxLayout(temperatureRow);
    temperatureLayout->setContentsMargins(0, 0, 0, 0);
    m_temperature = new QSlider(Qt::Horizontal, temperatureRow);
    m_temperature->setObjectName(QStringLiteral("modelTemperatureSlider"));
    m_temperature->setRange(0, AttentionPanel::kSliderSteps);
    m_temperature->setAccessibleName(
        tr("Temperature")); // the row's label names the field beside it
    m_temperature->setToolTip(temperatureToolTip());
    m_temperatureField = new DecimalField(tr("Temperature"), 4, temperatureRow);
    m_temperatureField->setRange(AttentionPanel::kMinTypedTemperature,
                                 AttentionPanel::kMaxTypedTemperature);
    m_temperatureField->setToolTip(typedTemperatureToolTip());
    temperatureLayout->addWidget(m_temperature, 1);
    temperatureLayout->addWidget(m_temperatureField);
    form->addRow(tr("&Temperature:"), temperatureRow);
    m_causal = new QCheckBox(tr("&Causal mask (no looking ahead)"), settings);
    m_causal->setToolTip(tr("Each token attends only to itself and the tokens before it"));
    form->addRow(m_causal);
    auto* windowRow = new QWidget(settings);
    auto* windowLayout = new QHBoxLayout(windowRow);
    windowLayout->setContentsMargins(0, 0, 0, 0);
    m_windowOn = new QCheckBox(tr("&Window ±"), windowRow);
    m_window = new QSpinBox(windowRow);
    m_window->setRange(0, 100000);
    m_window->setValue(2);
    m_window->setAccessibleName(tr("Window width"));
    m_windowOn->setToolTip(tr("Each query attends only to keys at most this many tokens away"));
    m_window->setAccessibleDescription(tr("How many tokens on each side a query may attend to"));
    windowLayout->addWidget(m_windowOn);
    windowLayout->addWidget(m_window);
    windowLayout->addStretch(1);
    form->addRow(windowRow);
    m_fill = new QComboBox(settings);
    m_fill->addItem(tr("−∞ (excluded)"), QStringLiteral("-inf"));
    m_fill->addItem(tr("−9e15"), QStringLiteral("-9e15"));
    m_fill->setToolTip(
        tr("What a masked score becomes: −∞ gives it weight 0 exactly; −9e15 spreads a fully "
           "masked row evenly"));
    form->addRow(tr("&Masked value:"), m_fill);
    m_resetLayer = new QPushButton(tr("Checkpoint's settings"), settings);
    m_resetLayer->setToolTip(
        tr("The scaled dot product, softmax, temperature 1 and the model's own mask"));
    form->addRow(m_resetLayer);
    layout->addWidget(settings);

    auto* weightsRow = new QHBoxLayout;
    auto* weightsLabel = new QLabel(tr("&Projection:"), this);
    m_matrixChoice = new QComboBox(this);
    m_matrixChoice->setObjectName(QStringLiteral("modelMatrixCombo"));
    m_matrixChoice->setToolTip(tr("The selected head's projection matrix shown below"));
    for (HeadMatrix m : {HeadMatrix::Wq, HeadMatrix::Wk, HeadMatrix::Wv})
        m_matrixChoice->addItem(headMatrixTitle(m).replace(QStringLiteral("^"), QString()), int(m));
    weightsLabel->setBuddy(m_matrixChoice);
    weightsRow->addWidget(weightsLabel);
    weightsRow->addWidget(m_matrixChoice, 1);
    layout->addLayout(weightsRow);
    m_editor = new MatrixEditor(this);
    m_editor->setObjectName(QStringLiteral("modelMatrixEditor"));
    layout->addWidget(m_editor, 1);

    for (QWidget* control :
         std::initializer_list<QWidget*>{m_score, m_normalization, m_causal, m_windowOn, m_window,
                                         m_fill, m_resetLayer, m_matrixChoice, m_editor})
        m_decoderOnly.emplace_back(control, control->toolTip());

    connect(m_headOn, &QCheckBox::toggled, this, [this](bool on) {
        if (m_syncing)
            return;
        m_document.setHeadOff(m_document.selectedKind(), m_document.selectedLayer(),
                              m_document.selectedHead(), !on);
    });
    connect(m_valueScale, &QDoubleSpinBox::valueChanged, this, [this](double scale) {
        if (!m_syncing && otherKind())
            m_kinds->setValueScale(m_document.selectedKind(), m_document.selectedLayer(),
                                   m_document.selectedHead(), scale);
    });
    connect(m_score, &QComboBox::activated, this, [this] { applySettings(tr("Score")); });
    connect(m_normalization, &QComboBox::activated, this,
            [this] { applySettings(tr("Normalization")); });
    connect(m_fill, &QComboBox::activated, this, [this] { applySettings(tr("Masked value")); });
    connect(m_causal, &QCheckBox::toggled, this, [this] { applySettings(tr("Causal mask")); });
    connect(m_windowOn, &QCheckBox::toggled, this, [this] { applySettings(tr("Window")); });
    connect(m_window, &QSpinBox::valueChanged, this, [this] {
        if (m_windowOn->isChecked())
            applySettings(tr("Window"));
    });
    connect(m_resetLayer, &QPushButton::clicked, this, [this] {
        const int layer = m_document.selectedLayer();
        m_document.undoStack()->beginMacro(tr("Checkpoint's settings · layer %1").arg(layer + 1));
        m_document.setLayerSettings(layer, core::LayerEdit{}, tr("Checkpoint's settings"));
        m_document.setTemperature(layer, 1.0f);
        m_document.undoStack()->endMacro();
    });
    makeDragOneStep(*m_temperature, m_document, m_temperatureGesture);
    connect(m_temperature, &QSlider::valueChanged, this, [this](int value) {
        if (!m_syncing)
            setTemperature(float(AttentionPanel::sliderToTemperature(value)));
    });
    connect(m_temperatureField, &DecimalField::editingFinished, this, [this] {
        if (!m_syncing)
            setTemperature(float(m_temperatureField->value()));
    });
    connect(m_temperatureField, &DecimalField::refused, this, &ModelHeadPanel::message);
    connect(m_matrixChoice, &QComboBox::currentIndexChanged, this, [this] { syncEditor(); });
    connect(m_editor, &MatrixEditor::scrubStarted, this,
            [this] { m_scrubGesture = m_document.beginGesture(); });
    connect(m_editor, &MatrixEditor::cellChanging, this, &ModelHeadPanel::applyCell);
    connect(m_editor, &MatrixEditor::scrubFinished, this, [this] {
        m_document.endGesture(m_scrubGesture);
        m_scrubGesture = 0;
    });
    connect(m_editor, &MatrixEditor::cellEdited, this, &ModelHeadPanel::applyCell);
    connect(m_editor, &MatrixEditor::matrixReplaced, this,
            [this](const core::Matrix& matrix, const QString& what) {
                try {
                    m_document.setHeadMatrix(m_document.selectedLayer(), m_document.selectedHead(),
                                             currentMatrix(), matrix, what);
                } catch (const core::Error& error) {
                    emit message(QString::fromUtf8(error.what()));
                    syncEditor();
                }
            });
    connect(m_editor, &MatrixEditor::errorOccurred, this, &ModelHeadPanel::message);

    connect(&m_document, &ModelDocument::selectionChanged, this, [this] { sync(); });
    connect(&m_document, &ModelDocument::interventionsChanged, this, [this] { sync(); });
    connect(&m_document, &ModelDocument::modelChanged, this, [this] { sync(); });
    sync();
}

HeadMatrix ModelHeadPanel::currentMatrix() const
{
    return HeadMatrix(m_matrixChoice->currentData().toInt());
}

void ModelHeadPanel::setCurrentMatrix(HeadMatrix matrix)
{
    m_matrixChoice->setCurrentIndex(m_matrixChoice->findData(int(matrix)));
}

void ModelHeadPanel::setPlaceholder(const QString& text)
{
    m_placeholder = text;
    sync();
}

void ModelHeadPanel::setKindEdits(EncDecView* view)
{
    if (m_kinds)
        disconnect(m_kinds, nullptr, this, nullptr);
    m_kinds = view;
    if (view)
        connect(view, &EncDecView::interventionsEdited, this, [this] { sync(); });
    sync();
}

bool ModelHeadPanel::otherKind() const
{
    return m_kinds && m_document.hasModel() && m_document.selectedKind() != HeadKind::Decoder;
}

void ModelHeadPanel::setTemperature(float temperature)
{
    m_document.setTemperature(m_document.selectedKind(), m_document.selectedLayer(), temperature);
}

void ModelHeadPanel::sync()
{
    m_syncing = true;
    const bool model = m_document.hasModel();
    setEnabled(model);
    // Without a model the controls would speak of a layer of 0 heads at the temperature
    // field's minimum: only the title stays, and says so.
    for (QWidget* child : findChildren<QWidget*>(Qt::FindDirectChildrenOnly))
        child->setVisible(model || child == m_title);
    const int layer = m_document.selectedLayer();
    const int head = m_document.selectedHead();
    const bool other = otherKind();
    const HeadKind kind = m_document.selectedKind();
    const QString kindName =
        kind == HeadKind::Encoder ? tr("Encoder self-attention") : tr("Cross-attention");
    m_title->setText(
        model ? (other ? tr("%1 · layer %2 · head %3").arg(kindName) : tr("Layer %1 · head %2"))
                    .arg(layer + 1)
                    .arg(head + 1)
        : m_placeholder.isEmpty() ? tr("No model open")
                                  : m_placeholder);
    const core::Interventions* kindEdits = &m_document.interventions(kind);
    m_headOn->setChecked(!kindEdits->headsOff.contains({layer, head}));
    // The interventions the Translate tab makes on these kinds too: heads off, a layer's
    // temperature and W^v's scale (EncDecView).
    const QString why =
        tr("The encoder's and the cross-attention's heads take heads off, a layer's "
           "temperature and W^v's scale, as in the Translate tab");
    m_valueScaleRow->setVisible(other); // the decoder's W^v is edited cell by cell below
    if (other)
        m_valueScale->setValue(m_kinds->valueScale(kind, layer, head));
    for (const auto& [control, own] : m_decoderOnly) {
        control->setEnabled(!other);
        control->setToolTip(other ? why : own);
    }
    m_layerNote->setText(tr("How layer %1 computes attention: these settings act on all %2 of its "
                            "heads, as the model "
                            "computes a layer's heads with one setting.")
                             .arg(layer + 1)
                             .arg(m_document.headCount(kind)));
    core::LayerEdit settings = m_document.layerSettings(layer);
    if (other) { // the checkpoint's settings but for the Translate tab's temperature
        const auto edit = kindEdits->layers.find(layer);
        settings.temperature = edit != kindEdits->layers.end() && edit->second.temperature
                                   ? *edit->second.temperature
                                   : 1.0f;
    }
    if (model) {
        const ScoreOption option = scoreOptionOf(*settings.score, *settings.normalization);
        m_score->setCurrentIndex(std::max(0, m_score->findData(scoreOptionName(option))));
        m_normalization->setEnabled(!other && option != ScoreOption::Hard);
        m_normalization->setCurrentIndex(std::max(
            0,
            m_normalization->findData(QString::fromUtf8(core::toString(*settings.normalization)))));
        if (!m_temperature->isSliderDown())
            m_temperature->setValue(AttentionPanel::temperatureToSlider(*settings.temperature));
        m_temperatureField->setValue(*settings.temperature);
        m_causal->setChecked(settings.mask->causal);
        m_windowOn->setChecked(settings.mask->window >= 0);
        if (settings.mask->window >= 0)
            m_window->setValue(settings.mask->window);
        m_fill->setCurrentIndex(*settings.fill == core::MaskFill::NegativeInfinity ? 0 : 1);
    }
    m_syncing = false;
    syncEditor();
}

void ModelHeadPanel::syncEditor()
{
    if (!m_document.hasModel())
        return;
    const int layer = m_document.selectedLayer();
    const int head = m_document.selectedHead();
    const HeadMatrix which = currentMatrix();
    core::Matrix matrix = m_document.headMatrix(layer, head, which);
    QString title =
        tr("%1 · layer %2 head %3").arg(headMatrixTitle(which)).arg(layer + 1).arg(head + 1);
    if (otherKind()) { // that kind's projection (W^v scaled in the Translate tab), not edited here
        const core::TransformerWeights& w = m_document.model()->weights;
        const bool encoder = m_document.selectedKind() == HeadKind::Encoder;
        const auto& layers = encoder ? w.encoderLayers : w.layers;
        matrix = {};
        if (layer < int(layers.size())) {
            const auto& attention = encoder ? layers[std::size_t(layer)].attention
                                            : layers[std::size_t(layer)].crossAttention;
            if (attention && head < attention->headCount()) {
                const core::HeadWeights& own = attention->heads[std::size_t(head)];
                matrix = which == HeadMatrix::Wq   ? own.Wq
                         : which == HeadMatrix::Wk ? own.Wk
                                                   : own.Wv;
            }
        }
        const core::Interventions& edits = m_document.interventions(m_document.selectedKind());
        const auto edited = edits.layers.find(layer);
        if (which == HeadMatrix::Wv && edited != edits.layers.end()) {
            const auto edit = edited->second.heads.find(head);
            if (edit != edited->second.heads.end() && edit->second.Wv)
                matrix = *edit->second.Wv;
        }
        title = tr("%1 · %2 layer %3 head %4")
                    .arg(headMatrixTitle(which))
                    .arg(encoder ? tr("encoder") : tr("cross-attention"))
                    .arg(layer + 1)
                    .arg(head + 1);
    }
    const core::Matrix& shown = m_editor->matrix();
    // A head switched off elsewhere leaves this matrix as it is: no need to refill d_model x
    // d_head cells (49,152 for GPT-2) on every intervention.
    if (title == m_editor->title() && shown.rows() == matrix.rows() &&
        shown.cols() == matrix.cols() &&
        std::equal(shown.data(), shown.data() + shown.size(), matrix.data()))
        return;
    m_editor->setTitle(title);
    if (!m_editor->isScrubbing())
        m_editor->setMatrix(matrix, {}, {}); // rows and columns numbered from 0, as in the explorer
}

void ModelHeadPanel::applySettings(const QString& what)
{
    if (m_syncing)
        return;
    const int layer = m_document.selectedLayer();
    core::LayerEdit settings = m_document.layerSettings(layer);
    core::ScoreKind score = *settings.score;
    core::Normalization normalization = core::Normalization(
        *core::parseNormalization(m_normalization->currentData().toString().toStdString()));
    if (const auto option = parseScoreOption(m_score->currentData().toString()))
        applyScoreOption(*option, score, normalization);
    settings.score = score;
    settings.normalization = normalization;
    settings.fill = m_fill->currentIndex() == 0 ? core::MaskFill::NegativeInfinity
                                                : core::MaskFill::MinusNineE15;
    core::MaskSpec mask = *settings.mask;
    mask.causal = m_causal->isChecked();
    mask.window = m_windowOn->isChecked() ? m_window->value() : -1;
    settings.mask = mask;
    m_document.setLayerSettings(layer, settings, what);
}

void ModelHeadPanel::applyCell(int row, int column, float value)
{
    const int layer = m_document.selectedLayer();
    const int head = m_document.selectedHead();
    core::Matrix matrix = m_document.headMatrix(layer, head, currentMatrix());
    if (row < 0 || column < 0 || row >= matrix.rows() || column >= matrix.cols())
        return;
    matrix(row, column) = value;
    m_document.setHeadMatrix(layer, head, currentMatrix(), matrix);
}

} // namespace attn::ui
