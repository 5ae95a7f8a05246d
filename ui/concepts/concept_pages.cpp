#include "ui/concepts/concept_pages.h"

#include "ui/concepts/embedding_space_figure.h"
#include "ui/concepts/gradient_figure.h"
#include "ui/concepts/positions_figure.h"
#include "ui/document/scene_document.h"
#include "ui/widgets/flow_layout.h"

#include "core/analysis/embedding_space.h"
#include "core/analysis/positional_analysis.h"
#include "core/error.h"

#include <qcustomplot.h>

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSlider>
#include <QStackedLayout>
#include <QVBoxLayout>
#include <cmath>
#include <numeric>

namespace attn::ui {

// --- ConceptPage ---------------------------------------------------------------------------

ConceptPage::ConceptPage(ConceptView view, QWidget* parent)
    : QWidget(parent), m_view(view), m_rebuild(this, [this] { rebuildNow(); })
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    auto* bar = new QWidget(this);
    m_controls = new FlowLayout(bar, 8, 4); // wraps on a narrow window instead of widening it
    layout->addWidget(bar);
    auto* host = new QWidget(this);
    m_stack = new QStackedLayout(host);
    m_plot = new QCustomPlot(host);
    m_plot->setObjectName(conceptViewName(view) + QStringLiteral("Plot"));
    m_message = new QLabel(host);
    m_message->setWordWrap(true);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setMargin(24);
    m_stack->addWidget(m_plot);
    m_stack->addWidget(m_message);
    layout->addWidget(host, 1);
}

ConceptPage::~ConceptPage() = default;

void ConceptPage::setSource(const ConceptSource& source)
{
    m_source = source;
    scheduleRebuild();
}

void ConceptPage::setSpec(const FigureSpec& spec)
{
    m_spec = spec;
    scheduleRebuild();
}

QString ConceptPage::message() const
{
    return m_stack->currentWidget() == m_message ? m_message->text() : QString();
}

void ConceptPage::scheduleRebuild()
{
    m_dirty = true;
    if (isVisible())
        m_rebuild.schedule();
}

void ConceptPage::rebuildNow()
{
    m_rebuild.markDone();
    m_dirty = false;
    if (!m_source.scene) {
        m_message->setText(tr("Nothing to show yet."));
        m_stack->setCurrentWidget(m_message);
        return;
    }
    refreshReadouts();
    try {
        m_plot->setViewport(m_plot->rect());
        draw(*m_plot, m_spec);
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        m_stack->setCurrentWidget(m_plot);
    } catch (const core::Error& e) {
        m_message->setText(QString::fromUtf8(e.what()));
        m_stack->setCurrentWidget(m_message);
    }
}

void ConceptPage::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_dirty)
        m_rebuild.schedule();
}

void ConceptPage::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    scheduleRebuild();
}

QLabel* ConceptPage::buddyLabel(const QString& text, QWidget* field, QWidget* parent)
{
    auto* label = new QLabel(text, parent);
    label->setBuddy(field);
    return label;
}

// --- Gradient ------------------------------------------------------------------------------

GradientPage::GradientPage(QWidget* parent) : ConceptPage(ConceptView::Gradient, parent)
{
    m_query = new QComboBox(this);
    m_query->setObjectName(QStringLiteral("gradientQuery"));
    m_query->setProperty("dataItems", true); // the sentence's tokens
    m_query->setAccessibleName(tr("Query"));
    m_query->setToolTip(tr("The query whose weights' Jacobian and scores are shown"));
    m_query->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    controls()->addWidget(buddyLabel(tr("&Query:"), m_query, this));
    controls()->addWidget(m_query);
    controls()->addStretch();
    connect(m_query, &QComboBox::currentIndexChanged, this, [this] { scheduleRebuild(); });
}

void GradientPage::setSource(const ConceptSource& source)
{
    QStringList tokens;
    if (source.result)
        for (const core::Token& t : source.result->problem->queryTokens)
            tokens << t.text;
    QStringList shown;
    for (int i = 0; i < m_query->count(); ++i)
        shown << m_query->itemText(i);
    if (tokens != shown) {
        const QSignalBlocker blocker(m_query);
        const int keep = m_query->currentIndex();
        m_query->clear();
        for (int i = 0; i < tokens.size(); ++i)
            m_query->addItem(QStringLiteral("%1 · %2").arg(i + 1).arg(tokens[i]));
        m_query->setCurrentIndex(
            keep >= 0 && keep < tokens.size() ? keep : std::max(0, int(tokens.size()) - 1));
    }
    ConceptPage::setSource(source);
}

void GradientPage::draw(QCustomPlot& plot, const FigureSpec& spec) const
{
    ConceptSource source = m_source;
    source.query = std::max(0, m_query->currentIndex());
    buildGradientFigure(plot, source, spec);
}

// --- Kernel --------------------------------------------------------------------------------

namespace {

constexpr int kBandwidthSteps = 200;
constexpr double kMinBandwidth = 0.05;
constexpr double kMaxBandwidth = 5.0;

double sliderBandwidth(int value)
{
    return kMinBandwidth * std::pow(kMaxBandwidth / kMinBandwidth, double(value) / kBandwidthSteps);
}

int sliderPosition(double h)
{
    return int(std::lround(kBandwidthSteps *
                           std::log(std::clamp(h, kMinBandwidth, kMaxBandwidth) / kMinBandwidth) /
                           std::log(kMaxBandwidth / kMinBandwidth)));
}

QCPGraph* kernelPoints(QCustomPlot& plot)
{
    for (int i = 0; i < plot.graphCount(); ++i)
        if (plot.graph(i)->objectName() == QLatin1String("kernelPoints"))
            return plot.graph(i);
    return nullptr;
}

} // namespace

KernelPage::KernelPage(QWidget* parent) : ConceptPage(ConceptView::Kernel, parent)
{
    m_part = new QComboBox(this);
    m_part->setObjectName(QStringLiteral("kernelPart"));
    m_part->setAccessibleName(tr("Show"));
    m_part->addItem(tr("Kernel smoother"), kernelPartName(KernelPart::Smoother));
    m_part->addItem(tr("Fixed against learned"), kernelPartName(KernelPart::Learned));
    m_part->setToolTip(tr("Kernel machines tune the kernel; attention keeps it fixed and learns "
                          "the embedding of queries and keys (seed 004)"));
    m_part->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    controls()->addWidget(buddyLabel(tr("Sho&w:"), m_part, this));
    controls()->addWidget(m_part);
    m_bandwidth = new QSlider(Qt::Horizontal, this);
    m_bandwidth->setObjectName(QStringLiteral("kernelBandwidth"));
    m_bandwidth->setAccessibleName(tr("Bandwidth"));
    m_bandwidth->setToolTip(
        tr("The kernel's width h (logarithmic): softmax of −(q − k)² / 2h² is a Gaussian "
           "kernel of width h"));
    m_bandwidth->setRange(0, kBandwidthSteps);
    m_bandwidth->setMinimumWidth(120);
    m_bandwidth->setValue(sliderPosition(m_setup.bandwidth));
    m_bandwidthLabel = new QLabel(this);
    m_score = new QComboBox(this);
    m_score->setObjectName(QStringLiteral("kernelScore"));
    m_score->setAccessibleName(tr("Score"));
    m_score->setToolTip(tr("How the query and each key are compared"));
    m_score->addItem(tr("distance: −(q − k)²"), int(core::SmootherScore::Distance));
    m_score->addItem(tr("dot product: q k"), int(core::SmootherScore::Dot));
    auto* reset = new QPushButton(tr("Reset &points"), this);
    reset->setObjectName(QStringLiteral("kernelReset"));
    reset->setToolTip(tr("The points back where the scene puts them"));
    // Each label with its field: the flow layout breaks lines between widgets, and a line
    // starting with the slider's value or a lone "Score:" reads as nothing.
    const auto together = [this](std::initializer_list<QWidget*> widgets) {
        auto* group = new QWidget(this);
        auto* row = new QHBoxLayout(group);
        row->setContentsMargins(0, 0, 0, 0);
        for (QWidget* w : widgets)
            row->addWidget(w);
        controls()->addWidget(group);
        return group;
    };
    QWidget* bandwidth = together(
        {buddyLabel(tr("&Bandwidth h:"), m_bandwidth, this), m_bandwidth, m_bandwidthLabel});
    QWidget* score = together({buddyLabel(tr("S&core:"), m_score, this), m_score});
    controls()->addWidget(reset);
    controls()->addStretch();
    auto* hint = new QLabel(tr("Drag a point to move a key and its value."), this);
    hint->setEnabled(false);
    hint->setWordWrap(true);
    controls()->addWidget(hint);
    m_smootherControls = {bandwidth, score, reset, hint};
    connect(m_part, &QComboBox::activated, this, [this] {
        showPartControls();
        scheduleRebuild();
        emit partChosen();
    });
    m_bandwidthLabel->setText(QLocale().toString(m_setup.bandwidth, 'g', 3));
    connect(m_bandwidth, &QSlider::valueChanged, this, [this](int value) {
        m_setup.bandwidth = sliderBandwidth(value);
        m_bandwidthLabel->setText(QLocale().toString(m_setup.bandwidth, 'g', 3));
        rebuildNow();
    });
    connect(m_score, &QComboBox::currentIndexChanged, this, [this] {
        m_setup.score = core::SmootherScore(m_score->currentData().toInt());
        rebuildNow();
    });
    connect(reset, &QPushButton::clicked, this, [this] {
        const double h = m_setup.bandwidth;
        const core::SmootherScore score = m_setup.score;
        m_setup = KernelSetup::defaults();
        m_setup.bandwidth = h;
        m_setup.score = score;
        rebuildNow();
    });
    plot()->setInteractions({});
    connect(plot(), &QCustomPlot::mousePress, this, &KernelPage::onPress);
    connect(plot(), &QCustomPlot::mouseMove, this, &KernelPage::onMove);
    connect(plot(), &QCustomPlot::mouseRelease, this, [this] { m_dragged = -1; });
}

void KernelPage::setSource(const ConceptSource& source)
{
    // The bandwidth follows the scene's temperature when that changes (h = √T).
    const bool temperatureChanged = !m_source.scene || !source.scene ||
                                    m_source.scene->temperature != source.scene->temperature;
    if (temperatureChanged && source.scene)
        m_bandwidth->setValue(sliderPosition(bandwidthForTemperature(source.scene->temperature)));
    ConceptPage::setSource(source);
}

void KernelPage::draw(QCustomPlot& plot, const FigureSpec& spec) const
{
    if (part() == KernelPart::Learned)
        buildLearnedKernelFigure(plot, spec);
    else
        buildKernelFigure(plot, m_setup, m_source, spec);
}

KernelPart KernelPage::part() const
{
    return parseKernelPart(m_part->currentData().toString()).value_or(KernelPart::Smoother);
}

void KernelPage::setPart(KernelPart part)
{
    const int index = m_part->findData(kernelPartName(part));
    if (index == m_part->currentIndex())
        return;
    const QSignalBlocker blocker(m_part);
    m_part->setCurrentIndex(index);
    showPartControls();
    scheduleRebuild();
}

QString KernelPage::viewName() const
{
    const QString part = kernelPartName(this->part());
    return conceptViewName(ConceptView::Kernel) +
           (part.isEmpty() ? QString() : QLatin1Char(':') + part);
}

void KernelPage::showPartControls()
{
    const bool smoother = part() == KernelPart::Smoother;
    for (QWidget* w : m_smootherControls)
        w->setVisible(smoother);
}

void KernelPage::movePoint(int index, double key, double value)
{
    if (index < 0 || index >= int(m_setup.keys.size()))
        return;
    m_setup.keys[std::size_t(index)] = std::clamp(key, m_setup.from, m_setup.to);
    m_setup.values[std::size_t(index)] = value;
    rebuildNow();
}

void KernelPage::onPress(QMouseEvent* event)
{
    QCPGraph* points = kernelPoints(*plot());
    if (!points)
        return;
    const double reach = 12.0 * devicePixelRatioF();
    double best = reach;
    m_dragged = -1;
    for (std::size_t i = 0; i < m_setup.keys.size(); ++i) {
        const QPointF at(points->keyAxis()->coordToPixel(m_setup.keys[i]),
                         points->valueAxis()->coordToPixel(m_setup.values[i]));
        const double distance = QLineF(at, event->position()).length();
        if (distance < best) {
            best = distance;
            m_dragged = int(i);
        }
    }
}

void KernelPage::onMove(QMouseEvent* event)
{
    QCPGraph* points = kernelPoints(*plot());
    if (m_dragged < 0 || !points)
        return;
    movePoint(m_dragged, points->keyAxis()->pixelToCoord(event->position().x()),
              points->valueAxis()->pixelToCoord(event->position().y()));
}

// --- Positions -----------------------------------------------------------------------------

PositionsPage::PositionsPage(SceneDocument& document, QWidget* parent)
    : ConceptPage(ConceptView::Positions, parent), m_document(document)
{
    m_positions = new QCheckBox(tr("&Sinusoidal positions"), this);
    m_positions->setObjectName(QStringLiteral("positionsCheck"));
    m_positions->setToolTip(
        tr("Off: X = E, and without a causal mask the layer cannot tell the order of the words"));
    m_order = new QLabel(this);
    m_order->setObjectName(QStringLiteral("orderCheck"));
    m_order->setWordWrap(true);
    controls()->addWidget(m_positions);
    controls()->addWidget(m_order);
    connect(m_positions, &QCheckBox::toggled, this, [this](bool on) {
        core::PositionalSettings positional = m_document.scene().positional;
        const core::PositionalKind kind =
            on ? core::PositionalKind::Sinusoidal : core::PositionalKind::None;
        if (positional.kind == kind)
            return;
        positional.kind = kind;
        m_document.setPositional(positional,
                                 on ? tr("Switch positions on") : tr("Switch positions off"));
    });
}

void PositionsPage::setSource(const ConceptSource& source)
{
    if (source.scene) {
        const QSignalBlocker blocker(m_positions);
        m_positions->setChecked(source.scene->positional.kind != core::PositionalKind::None);
    }
    ConceptPage::setSource(source);
}

// Order blindness, measured: the sentence reversed, computed again (only while shown).
void PositionsPage::refreshReadouts()
{
    QString text;
    try {
        const int tokens = m_source.result ? m_source.result->problem->queryCount() : 0;
        if (m_source.scene && tokens >= 2 && tokens <= 512 && !m_source.scene->source) {
            std::vector<int> reversed(static_cast<std::size_t>(tokens));
            std::iota(reversed.rbegin(), reversed.rend(), 0);
            const core::PermutationCheck check = core::checkPermutation(*m_source.scene, reversed);
            text = check.equivariant
                       ? tr("The sentence reversed only reverses the weights (largest change "
                            "%1): the layer cannot "
                            "tell the order of the words.")
                             .arg(QLocale().toString(check.weightDeviation, 'g', 2))
                       : tr("The sentence reversed changes the weights by up to %1: positions "
                            "(or the causal mask) "
                            "give the layer the order of the words.")
                             .arg(QLocale().toString(check.weightDeviation, 'g', 2));
        }
    } catch (const core::Error&) {
        text.clear(); // a scene the check cannot pose: nothing to say
    }
    m_order->setText(text);
}

void PositionsPage::draw(QCustomPlot& plot, const FigureSpec& spec) const
{
    buildPositionsFigure(plot, m_source, spec);
}

// --- Embedding space -----------------------------------------------------------------------

EmbeddingSpacePage::EmbeddingSpacePage(QWidget* parent)
    : ConceptPage(ConceptView::EmbeddingSpace, parent)
{
    m_map = new QComboBox(this);
    m_map->setObjectName(QStringLiteral("embeddingMap"));
    m_map->setAccessibleName(tr("Map"));
    m_map->setToolTip(
        tr("PCA keeps the directions of largest spread; t-SNE keeps each word's neighbours"));
    m_map->addItem(tr("PCA"));
    m_map->addItem(tr("t-SNE"));
    m_analogy = new QLineEdit(this);
    m_analogy->setObjectName(QStringLiteral("embeddingAnalogy"));
    m_analogy->setAccessibleName(tr("Analogy"));
    m_analogy->setPlaceholderText(tr("king - man + woman, or one word"));
    m_analogy->setClearButtonEnabled(true);
    m_nearest = new QLabel(this);
    m_nearest->setObjectName(QStringLiteral("embeddingNearest"));
    m_nearest->setWordWrap(true);
    controls()->addWidget(buddyLabel(tr("&Map:"), m_map, this));
    controls()->addWidget(m_map);
    controls()->addWidget(buddyLabel(tr("&Words:"), m_analogy, this));
    controls()->addWidget(m_analogy);
    controls()->addWidget(m_nearest);
    connect(m_map, &QComboBox::currentIndexChanged, this, [this] { scheduleRebuild(); });
    connect(m_analogy, &QLineEdit::editingFinished, this, [this] { scheduleRebuild(); });
}

namespace {

// "a - b + c" (either minus sign) or one word.
std::optional<std::array<QString, 3>> parseAnalogy(const QString& text)
{
    static const QRegularExpression pattern(
        QStringLiteral("^\\s*(\\S+)\\s*[-−]\\s*(\\S+)\\s*\\+\\s*(\\S+)\\s*$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    return std::array<QString, 3>{match.captured(1), match.captured(2), match.captured(3)};
}

} // namespace

void EmbeddingSpacePage::forgetScene()
{
    m_analogy->clear(); // the words of the scene before, which this one may not have
    scheduleRebuild();
}

// The words nearest the typed word or analogy (only while shown).
void EmbeddingSpacePage::refreshReadouts()
{
    m_nearest->clear();
    const QString text = m_analogy->text().trimmed();
    if (m_source.scene && !text.isEmpty()) {
        try {
            const core::EmbeddingSpace space = core::EmbeddingSpace::fromScene(*m_source.scene);
            QStringList words;
            if (const auto analogy = parseAnalogy(text)) {
                for (const auto& n :
                     space.analogy((*analogy)[0], (*analogy)[1], (*analogy)[2], 5).answers)
                    words << QStringLiteral("%1 (%2)").arg(n.word,
                                                           QLocale().toString(n.cosine, 'f', 3));
            } else {
                for (const auto& n : space.nearest(text, 5))
                    words << QStringLiteral("%1 (%2)").arg(n.word,
                                                           QLocale().toString(n.cosine, 'f', 3));
            }
            m_nearest->setText(tr("Nearest by cosine: %1").arg(words.join(QStringLiteral(", "))));
        } catch (const core::Error& e) {
            m_nearest->setText(QString::fromUtf8(e.what()));
        }
    }
}

void EmbeddingSpacePage::draw(QCustomPlot& plot, const FigureSpec& spec) const
{
    if (!m_source.scene)
        throw core::Error("embedding space: there is no scene");
    const core::EmbeddingSpace space = core::EmbeddingSpace::fromScene(*m_source.scene);
    EmbeddingMapOptions options;
    options.tsne = m_map->currentIndex() == 1;
    // t-SNE is O(n²) per iteration: a few hundred words stay interactive.
    constexpr int kMaxTsneWords = 600;
    if (options.tsne && space.size() > kMaxTsneWords)
        throw core::Error(tr("t-SNE of %1 words would take minutes here; PCA draws them at once "
                             "(t-SNE up to %2).")
                              .arg(space.size())
                              .arg(kMaxTsneWords)
                              .toStdString());
    if (m_source.result)
        for (const core::Token& token : m_source.result->problem->queryTokens)
            options.highlighted << token.text;
    const auto analogy = parseAnalogy(m_analogy->text());
    if (analogy && space.indexOf((*analogy)[0]) && space.indexOf((*analogy)[1]) &&
        space.indexOf((*analogy)[2]))
        options.analogy = analogy;
    buildEmbeddingSpaceFigure(plot, space, options, spec);
}

} // namespace attn::ui
