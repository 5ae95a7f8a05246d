#include "ui/widgets/attention_panel.h"

#include "ui/widgets/decimal_field.h"
#include "ui/widgets/drag_gesture.h"
#include "ui/widgets/flow_layout.h"
#include "ui/widgets/integer_field.h"
#include "ui/widgets/score_options.h"

#include "core/error.h"
#include "core/limits.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QRegularExpressionValidator>
#include <QSlider>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

namespace attn::ui {

namespace {

QIcon swatch(const QColor& color)
{
    QPixmap pixmap(12, 12);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    painter.drawEllipse(QRectF(1, 1, 10, 10));
    return QIcon(pixmap);
}

QLabel* note(const QString& text, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setWordWrap(true);
    label->setForegroundRole(QPalette::PlaceholderText);
    QFont font = label->font();
    font.setPointSizeF(font.pointSizeF() * 0.9);
    label->setFont(font);
    return label;
}

} // namespace

AttentionPanel::AttentionPanel(SceneDocument& document, QWidget* parent)
    : QWidget(parent), m_document(document)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(buildAttention());
    layout->addWidget(buildMask());
    layout->addWidget(buildHeads());
    connect(&m_document, &SceneDocument::sceneChanged, this, &AttentionPanel::syncFromScene);
    syncFromScene(SceneChange::All);
}

QColor AttentionPanel::headColor(int head)
{
    // Tableau 10: distinct, and readable on light and dark backgrounds.
    static const QColor colors[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b),
                                    QColor(0xe1, 0x57, 0x59), QColor(0x76, 0xb7, 0xb2),
                                    QColor(0x59, 0xa1, 0x4f), QColor(0xed, 0xc9, 0x48),
                                    QColor(0xb0, 0x7a, 0xa1), QColor(0xff, 0x9d, 0xa7),
                                    QColor(0x9c, 0x75, 0x5f), QColor(0xba, 0xb0, 0xac)};
    return colors[std::size_t(std::max(0, head)) % std::size(colors)];
}

double AttentionPanel::sliderToTemperature(int value)
{
    const double t =
        kMinTemperature * std::pow(kMaxTemperature / kMinTemperature, double(value) / kSliderSteps);
    const double magnitude = std::pow(10.0, std::floor(std::log10(t)) - 2);
    return std::clamp(std::round(t / magnitude) * magnitude, kMinTemperature, kMaxTemperature);
}

int AttentionPanel::temperatureToSlider(double temperature)
{
    const double t = std::clamp(temperature, kMinTemperature, kMaxTemperature);
    return int(std::lround(kSliderSteps * std::log(t / kMinTemperature) /
                           std::log(kMaxTemperature / kMinTemperature)));
}

QWidget* AttentionPanel::buildAttention()
{
    auto* box = new QGroupBox(tr("Attention"), this);
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->setRowWrapPolicy(
        QFormLayout::WrapLongRows); // a field goes under its label in a narrow panel

    // Combos as narrow as ten characters: the panel must fit a projector (the list shows whole
    // names).
    auto narrow = [](QComboBox* combo) {
        combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        combo->setMinimumContentsLength(10);
    };
    m_score = new QComboBox(box);
    m_score->setObjectName(QStringLiteral("scoreCombo"));
    narrow(m_score);
    for (ScoreOption option : kScoreOptions) {
        m_score->addItem(scoreOptionLabel(option), int(option));
        m_score->setItemData(m_score->count() - 1, scoreOptionToolTip(option), Qt::ToolTipRole);
    }
    m_score->setToolTip(scoreChoiceToolTip());
    form->addRow(tr("&Score:"), m_score);
    // Luong et al.'s q^T M k with M = I is q . k: without a word, a learner sees dot-product
    // figures under the name "bilinear" and looks for a difference that is not there.
    m_bilinearNote =
        note(tr("With M = I, the default, the score qᵀMk is q·k: the figures equal dot-product "
                "attention until M is edited (Weights, “M (bilinear)”)."),
             box);
    m_bilinearNote->setObjectName(QStringLiteral("bilinearNote"));
    m_bilinearNote->setVisible(false);
    form->addRow(QString(), m_bilinearNote);

    m_normalization = new QComboBox(box);
    m_normalization->setObjectName(QStringLiteral("normalizationCombo"));
    m_normalization->setToolTip(normalizationChoiceToolTip());
    narrow(m_normalization);
    m_normalization->addItem(tr("Softmax"), int(core::Normalization::Softmax));
    m_normalization->addItem(tr("Hard (argmax)"), int(core::Normalization::Hard));
    m_normalization->addItem(tr("ReLU"), int(core::Normalization::Relu));
    m_normalization->addItem(tr("Sparsemax"), int(core::Normalization::Sparsemax));
    m_normalization->addItem(tr("None (scores as weights)"), int(core::Normalization::None));
    m_normalization->setItemData(
        m_normalization->count() - 1,
        tr("No normalization: the scaled, masked scores are the weights (masked cells 0), "
           "as in (X Xᵀ) V. Rows need not sum to 1."),
        Qt::ToolTipRole);
    form->addRow(tr("&Normalize:"), m_normalization);

    m_temperature = new QSlider(Qt::Horizontal, box);
    m_temperature->setObjectName(QStringLiteral("temperatureSlider"));
    m_temperature->setRange(0, kSliderSteps);
    m_temperature->setPageStep(kSliderSteps / 20);
    m_temperature->setToolTip(temperatureToolTip());
    // The box takes what the slider cannot reach (0.01, 100); the slider then rests at its end.
    m_temperatureSpin = new DecimalField(tr("Temperature"), 4, box);
    m_temperatureSpin->setObjectName(QStringLiteral("temperatureField"));
    m_temperatureSpin->setToolTip(typedTemperatureToolTip());
    m_temperatureSpin->setRange(kMinTypedTemperature, kMaxTypedTemperature);
    m_temperatureSpin->setSingleStep(0.05);
    m_temperatureSpin->setKeyboardTracking(false);
    m_temperatureSpin->setMinimumWidth(
        m_temperatureSpin->fontMetrics().horizontalAdvance(QStringLiteral("0.00000")) + 24);
    connect(m_temperatureSpin, &DecimalField::refused, this, &AttentionPanel::message);
    auto* temperatureRow = new QHBoxLayout;
    temperatureRow->addWidget(m_temperature, 1);
    temperatureRow->addWidget(m_temperatureSpin);
    auto* temperatureLabel = new QLabel(tr("&Temperature:"), box);
    temperatureLabel->setBuddy(m_temperature); // a row of two widgets gets no buddy of its own
    form->addRow(temperatureLabel, temperatureRow);

    m_scaling = new QCheckBox(tr("Scale by 1/√d_k"), box);
    m_scaling->setObjectName(QStringLiteral("scalingCheck"));
    m_scaling->setToolTip(
        tr("Vaswani et al. 2017: the variance of q·k grows with d_k, so large dot products "
           "saturate the softmax; dividing by √d_k keeps it in its sensitive range."));
    form->addRow(QString(), m_scaling);

    m_fill = new QComboBox(box);
    m_fill->setObjectName(QStringLiteral("fillCombo"));
    narrow(m_fill);
    m_fill->addItem(tr("−∞ (cell excluded)"), int(core::MaskFill::NegativeInfinity));
    m_fill->addItem(tr("−9e15 (PyTorch masked_fill)"), int(core::MaskFill::MinusNineE15));
    m_fill->setToolTip(
        tr("What a masked score becomes. With −9e15 a row whose keys are all masked is spread "
           "uniformly, as PyTorch does; with −∞ its weights are all 0."));
    form->addRow(tr("Masked &value:"), m_fill);

    connect(m_score, &QComboBox::activated, this, &AttentionPanel::applyAttention);
    connect(m_normalization, &QComboBox::activated, this, &AttentionPanel::applyAttention);
    connect(m_fill, &QComboBox::activated, this, &AttentionPanel::applyAttention);
    connect(m_scaling, &QCheckBox::toggled, this, [this] {
        if (!m_syncing)
            applyAttention();
    });
    makeDragOneStep(*m_temperature, m_document, m_temperatureGesture);
    connect(m_temperature, &QSlider::valueChanged, this, &AttentionPanel::onTemperatureSlider);
    connect(m_temperatureSpin, &QDoubleSpinBox::valueChanged, this, [this](double t) {
        if (!m_syncing)
            m_document.setTemperature(float(t));
    });
    return box;
}

QWidget* AttentionPanel::buildMask()
{
    auto* box = new QGroupBox(tr("Masks"), this);
    auto* layout = new QVBoxLayout(box);
    m_causal = new QCheckBox(tr("&Causal (no later keys)"), box);
    m_causal->setToolTip(
        tr("A query sees no key after it: key j > query i is masked, as in a language model"));
    m_causal->setObjectName(QStringLiteral("causalCheck"));
    m_padding = new QCheckBox(tr("Mask &padding keys"), box);
    m_padding->setObjectName(QStringLiteral("paddingCheck"));
    m_padding->setToolTip(tr("Keys whose token is the padding token get no weight"));
    layout->addWidget(m_causal);
    layout->addWidget(m_padding);

    m_windowOn = new QCheckBox(tr("Local &window"), box);
    m_windowOn->setObjectName(QStringLiteral("windowCheck"));
    m_windowOn->setToolTip(
        tr("Only keys with |i − j| ≤ N are seen: each word attends to its neighbours, not to "
           "the whole sentence."));
    m_window = new QSlider(Qt::Horizontal, box);
    m_window->setObjectName(QStringLiteral("windowSlider"));
    m_window->setAccessibleName(tr("Window width"));
    m_window->setToolTip(tr("N: how many tokens on each side a query may attend to"));
    m_window->setRange(0, 1);
    m_windowLabel = new QLabel(box);
    m_windowLabel->setMinimumWidth(
        m_windowLabel->fontMetrics().horizontalAdvance(QStringLiteral("N = 0000")));
    auto* windowRow = new QHBoxLayout;
    windowRow->addWidget(m_windowOn);
    windowRow->addWidget(m_window, 1);
    windowRow->addWidget(m_windowLabel);
    layout->addLayout(windowRow);
    m_windowCausal = new QCheckBox(tr("One-sided (N keys before)"), box);
    m_windowCausal->setToolTip(
        tr("Only the N keys before a query and the query itself: i − N ≤ j ≤ i"));
    auto* indent = new QHBoxLayout;
    indent->addSpacing(24);
    indent->addWidget(m_windowCausal);
    layout->addLayout(indent);

    m_customLabel = new QLabel(box);
    m_paint = new QToolButton(box);
    m_paint->setObjectName(QStringLiteral("paintMaskButton"));
    m_paint->setText(tr("Paint on heatmap"));
    m_paint->setCheckable(true);
    m_paint->setToolTip(
        tr("Click or drag on the heatmap's cells to mask or unmask them (Undo takes a whole "
           "stroke back). Turn off to pan the heatmap instead."));
    m_clearCustom = new QPushButton(tr("Clear"), box);
    m_clearCustom->setToolTip(tr("Unmask every cell masked by hand"));
    auto* customHost = new QWidget(box);
    auto* customRow = new FlowLayout(customHost, 6, 4); // wraps in a narrow panel
    customRow->addWidget(m_customLabel);
    customRow->addStretch();
    customRow->addWidget(m_paint);
    customRow->addWidget(m_clearCustom);
    layout->addWidget(customHost);

    for (QCheckBox* check : {m_causal, m_padding, m_windowOn, m_windowCausal})
        connect(check, &QCheckBox::toggled, this, [this] {
            if (!m_syncing)
                applyMask();
        });
    makeDragOneStep(*m_window, m_document, m_windowGesture);
    connect(m_window, &QSlider::valueChanged, this, [this](int n) {
        m_windowLabel->setText(QStringLiteral("N = %1").arg(n));
        if (!m_syncing && m_windowOn->isChecked())
            applyMask();
    });
    connect(m_paint, &QToolButton::toggled, this, &AttentionPanel::paintMaskToggled);
    connect(m_clearCustom, &QPushButton::clicked, this, [this] {
        core::MaskSpec mask = m_document.scene().mask;
        mask.customCells.clear();
        m_document.setMask(mask);
    });
    return box;
}

QWidget* AttentionPanel::buildHeads()
{
    auto* box = new QGroupBox(tr("Heads"), this);
    auto* layout = new QVBoxLayout(box);
    // The ranges are the core's limits, so that every width a scene file may hold can be typed.
    auto spin = [this, box](const QString& object, const QString& name, int high) {
        auto* s = new IntegerField(name, box);
        s->setObjectName(object);
        s->setRange(1, high);
        s->setKeyboardTracking(false);
        connect(s, &IntegerField::refused, this, &AttentionPanel::message);
        return s;
    };
    m_heads = spin(QStringLiteral("headsSpin"), tr("Heads h"), core::kMaxHeads);
    m_dModel = spin(QStringLiteral("dModelSpin"), QStringLiteral("d_model"), core::kMaxModelWidth);
    m_dK = spin(QStringLiteral("dKSpin"), QStringLiteral("d_k"), core::kMaxModelWidth);
    m_dV = spin(QStringLiteral("dVSpin"), QStringLiteral("d_v"), core::kMaxModelWidth);
    m_heads->setToolTip(tr("Number of heads h; each has its own W^q, W^k, W^v"));
    m_dModel->setToolTip(
        tr("Width of each token's vector; a new width draws new weights from the seed"));
    m_dK->setToolTip(
        tr("Query and key width per head; d_model / h unless set apart, so that h heads cost "
           "about as much as one head of full width (Vaswani et al. 2017)"));
    m_dV->setToolTip(tr("Value width per head; d_model / h unless set apart"));
    m_seed = new QLineEdit(box);
    m_seed->setObjectName(QStringLiteral("seedEdit"));
    m_seed->setToolTip(
        tr("The random weights' seed: the same seed and shape give the same weights"));
    // Digits only; a number too large to save is refused with a message in applyShape.
    m_seed->setValidator(
        new QRegularExpressionValidator(QRegularExpression(QStringLiteral("\\d{1,20}")), m_seed));
    // Label and field pairs of one width, two to a line where the panel is wide enough and
    // one below the other where it is not (a projector).
    auto* pairs = new QWidget(box);
    auto* flow = new FlowLayout(pairs, 12, 4);
    const int labelWidth = fontMetrics().horizontalAdvance(QStringLiteral("d_model ")) + 4;
    const int fieldWidth = fontMetrics().horizontalAdvance(QStringLiteral("00000000")) + 24;
    auto addPair = [pairs, flow, labelWidth, fieldWidth](const QString& label, QWidget* field) {
        auto* pair = new QWidget(pairs);
        auto* row = new QHBoxLayout(pair);
        row->setContentsMargins(0, 0, 0, 0);
        auto* l = new QLabel(label, pair);
        l->setBuddy(field);
        l->setFixedWidth(labelWidth);
        field->setParent(pair);
        field->setFixedWidth(fieldWidth);
        row->addWidget(l);
        row->addWidget(field);
        flow->addWidget(pair);
    };
    addPair(tr("&Heads h"), m_heads);
    addPair(tr("&d_model"), m_dModel);
    addPair(tr("d_&k"), m_dK);
    addPair(tr("d_&v"), m_dV);
    addPair(tr("S&eed"), m_seed);
    layout->addWidget(pairs);
    m_shapeNote = note(QString(), box);
    layout->addWidget(m_shapeNote);
    auto* switches = new QWidget(box);
    switches->setObjectName(QStringLiteral("headSwitches"));
    m_headGrid = new FlowLayout(switches, 12, 4);
    layout->addWidget(switches);

    for (QSpinBox* s : {m_heads, m_dModel, m_dK, m_dV})
        connect(s, &QSpinBox::valueChanged, this, [this, s] {
            if (!m_syncing)
                applyShape(s);
        });
    connect(m_seed, &QLineEdit::editingFinished, this, [this] {
        if (!m_syncing)
            applyShape(nullptr);
    });
    return box;
}

QSpinBox* AttentionPanel::headsSpin() const
{
    return m_heads;
}

QSpinBox* AttentionPanel::dModelSpin() const
{
    return m_dModel;
}

QSpinBox* AttentionPanel::dKSpin() const
{
    return m_dK;
}

QCheckBox* AttentionPanel::headCheck(int head) const
{
    return head >= 0 && head < int(m_headChecks.size()) ? m_headChecks[std::size_t(head)] : nullptr;
}

void AttentionPanel::setTokenCounts(int queries, int keys)
{
    m_queries = queries;
    m_keys = keys;
    m_syncing = true;
    const int window = m_document.scene().mask.window;
    m_window->setMaximum(std::max({1, std::max(queries, keys) - 1, window}));
    m_syncing = false;
}

void AttentionPanel::syncFromScene(SceneChanges what)
{
    if (!(what & (SceneChange::Settings | SceneChange::Weights | SceneChange::Text)))
        return;
    const core::Scene& scene = m_document.scene();
    m_syncing = true;
    const ScoreOption option = scoreOptionOf(scene.score, scene.normalization);
    m_score->setCurrentIndex(m_score->findData(int(option)));
    const auto identity = [](const core::HeadWeights& head) {
        return head.bilinear.rows() == head.bilinear.cols() && head.bilinear.isIdentity(0.0f);
    };
    m_bilinearNote->setVisible(
        scene.score == core::ScoreKind::Bilinear &&
        std::all_of(scene.weights.heads.begin(), scene.weights.heads.end(), identity));
    m_normalization->setCurrentIndex(m_normalization->findData(int(scene.normalization)));
    m_fill->setCurrentIndex(m_fill->findData(int(scene.fill)));
    const bool dotLike =
        scene.score == core::ScoreKind::Dot || scene.score == core::ScoreKind::ScaledDot;
    m_scaling->setEnabled(dotLike);
    m_scaling->setChecked(scene.score == core::ScoreKind::ScaledDot);
    if (!m_temperature->isSliderDown())
        m_temperature->setValue(temperatureToSlider(scene.temperature));
    if (!m_temperatureSpin->hasFocus())
        m_temperatureSpin->setValue(scene.temperature);

    const core::MaskSpec& mask = scene.mask;
    m_causal->setChecked(mask.causal);
    m_padding->setChecked(mask.padding);
    m_windowOn->setChecked(mask.window >= 0);
    m_window->setEnabled(mask.window >= 0);
    m_windowCausal->setEnabled(mask.window >= 0);
    m_windowCausal->setChecked(mask.windowCausal);
    if (mask.window >= 0) {
        m_window->setMaximum(std::max(m_window->maximum(), mask.window));
        if (!m_window->isSliderDown())
            m_window->setValue(mask.window);
    }
    m_windowLabel->setText(mask.window >= 0 ? QStringLiteral("N = %1").arg(m_window->value())
                                            : tr("off"));
    m_customLabel->setText(tr("Custom cells: %1").arg(mask.customCells.size()));
    m_clearCustom->setEnabled(!mask.customCells.empty());

    const core::ModelWeights& w = scene.weights;
    m_heads->setValue(w.headCount());
    m_dModel->setValue(w.dModel);
    m_dK->setValue(w.dK);
    m_dV->setValue(w.dV);
    if (!m_seed->hasFocus())
        m_seed->setText(QString::number(scene.seed));
    m_shapeNote->setText(
        tr("Changing h, d_model, d_k, d_v or the seed draws every weight again from seed %1 "
           "(Undo brings the old weights back).")
            .arg(scene.seed));
    syncHeadChecks();
    m_syncing = false;
}

void AttentionPanel::syncHeadChecks()
{
    const core::ModelWeights& w = m_document.scene().weights;
    const int count = w.headCount();
    while (int(m_headChecks.size()) > count) {
        delete m_headChecks.back();
        m_headChecks.pop_back();
    }
    while (int(m_headChecks.size()) < count) {
        const int head = int(m_headChecks.size());
        auto* check = new QCheckBox(tr("Head %1").arg(head + 1), this);
        check->setObjectName(QStringLiteral("headCheck%1").arg(head));
        check->setIcon(swatch(headColor(head)));
        check->setToolTip(
            tr("Switch head %1 off: its output becomes zeros in the concatenation before W^O")
                .arg(head + 1));
        connect(check, &QCheckBox::toggled, this, [this, head](bool on) {
            if (!m_syncing)
                m_document.setHeadEnabled(head, on);
        });
        m_headGrid->addWidget(check);
        m_headChecks.push_back(check);
    }
    for (int h = 0; h < count; ++h)
        m_headChecks[std::size_t(h)]->setChecked(w.heads[std::size_t(h)].enabled);
}

void AttentionPanel::applyAttention()
{
    if (m_syncing)
        return;
    const core::Scene& scene = m_document.scene();
    core::ScoreKind score = scene.score;
    core::Normalization normalization = core::Normalization(m_normalization->currentData().toInt());
    const auto option = ScoreOption(m_score->currentData().toInt());
    if (option != scoreOptionOf(scene.score, scene.normalization))
        applyScoreOption(option, score, normalization);
    else if (score == core::ScoreKind::Dot || score == core::ScoreKind::ScaledDot)
        score = m_scaling->isChecked() ? core::ScoreKind::ScaledDot : core::ScoreKind::Dot;
    m_document.setAttention(score, normalization, core::MaskFill(m_fill->currentData().toInt()));
}

void AttentionPanel::applyMask()
{
    core::MaskSpec mask = m_document.scene().mask;
    mask.causal = m_causal->isChecked();
    mask.padding = m_padding->isChecked();
    mask.window = m_windowOn->isChecked() ? m_window->value() : -1;
    mask.windowCausal = m_windowCausal->isChecked();
    m_document.setMask(mask);
}

void AttentionPanel::onTemperatureSlider(int value)
{
    if (m_syncing)
        return;
    m_document.setTemperature(float(sliderToTemperature(value)));
}

void AttentionPanel::applyShape(QSpinBox* changed)
{
    const ModelShape old = modelShape(m_document.scene());
    ModelShape shape{m_dModel->value(), m_heads->value(), m_dK->value(), m_dV->value(), old.seed};
    bool seedOk = false;
    const qulonglong seed = m_seed->text().toULongLong(&seedOk);
    if (seedOk && seed <= qulonglong(std::numeric_limits<qint64>::max())) {
        shape.seed = seed;
    } else if (changed == nullptr && !m_seed->text().isEmpty()) {
        // Scene files keep seeds as JSON integers, at most 2^63 - 1.
        emit message(tr("Seed: %1 is more than %2, the largest seed a scene can keep; it stays %3")
                         .arg(m_seed->text())
                         .arg(std::numeric_limits<qint64>::max())
                         .arg(old.seed));
        m_seed->setText(QString::number(old.seed));
        return;
    }
    // Keep the usual d_k = d_model / h (seed 002) when it held before and still can.
    if (changed == m_heads || changed == m_dModel) {
        if (old.dK * old.heads == old.dModel && shape.dModel % shape.heads == 0)
            shape.dK = shape.dModel / shape.heads;
        if (old.dV * old.heads == old.dModel && shape.dModel % shape.heads == 0)
            shape.dV = shape.dModel / shape.heads;
    }
    if (shape == old)
        return;
    try {
        m_document.setModelShape(shape);
    } catch (const core::Error& error) {
        emit message(QString::fromUtf8(error.what()));
        syncFromScene(SceneChange::Weights);
    }
}

} // namespace attn::ui
