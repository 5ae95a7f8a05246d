#include "ui/model/generate_view.h"

#include "core/model/model_loader.h"
#include "core/tokenizers/hf_tokenizer.h"
#include "ui/model/generation_job.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPainter>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <numeric>

namespace attn::ui {
namespace {

constexpr int kBars = 12; // the most likely tokens drawn per step

QString percent(float probability)
{
    return QString::number(double(probability) * 100.0, 'f', 1) + QStringLiteral(" %");
}

QString stopText(core::GenerationStop stop)
{
    switch (stop) {
    case core::GenerationStop::Length:
        return GenerateView::tr("Done: as many tokens as asked for.");
    case core::GenerationStop::EndToken:
        return GenerateView::tr("Done: the model wrote its end-of-text token.");
    case core::GenerationStop::StopString:
        return GenerateView::tr("Done: the stop text was written.");
    case core::GenerationStop::NoMask:
        return GenerateView::tr("Done: every [MASK] is filled.");
    case core::GenerationStop::Cancelled:
        return GenerateView::tr("Stopped.");
    }
    return {};
}

} // namespace

DistributionBars::DistributionBars(QWidget* parent) : QWidget(parent)
{
    setMinimumHeight(120);
}

QSize DistributionBars::sizeHint() const
{
    return {360, 160};
}

std::vector<DistributionBars::Bar> DistributionBars::barsOf(const core::GenerationStep& step,
                                                            const core::Model& model)
{
    std::vector<Bar> bars;
    if (step.before.empty())
        return bars;
    std::vector<int> ids(step.before.size());
    std::iota(ids.begin(), ids.end(), 0);
    const std::size_t shown = std::min<std::size_t>(kBars, ids.size());
    std::partial_sort(
        ids.begin(), ids.begin() + std::ptrdiff_t(shown), ids.end(),
        [&](int a, int b) { return step.before[std::size_t(a)] > step.before[std::size_t(b)]; });
    // The chosen token too, where a draw took one outside the most likely.
    if (step.tokenId >= 0 && std::find(ids.begin(), ids.begin() + std::ptrdiff_t(shown),
                                       step.tokenId) == ids.begin() + std::ptrdiff_t(shown))
        ids[shown - 1] = step.tokenId;
    for (std::size_t n = 0; n < shown; ++n) {
        const int id = ids[n];
        bars.push_back({model.tokenizer->displayText(id), step.before[std::size_t(id)],
                        step.after.empty() ? 0.0f : step.after[std::size_t(id)],
                        id == step.tokenId});
    }
    return bars;
}

void DistributionBars::setBars(std::vector<Bar> bars)
{
    m_bars = std::move(bars);
    update();
}

void DistributionBars::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    const QPalette& p = palette();
    if (m_bars.empty())
        return;
    const int rowHeight = std::max(10, height() / int(m_bars.size()));
    const int labelWidth = width() / 4;
    const int barWidth = width() - labelWidth - 8;
    float top = 0.0f;
    for (const Bar& bar : m_bars)
        top = std::max({top, bar.before, bar.after});
    for (std::size_t n = 0; n < m_bars.size(); ++n) {
        const Bar& bar = m_bars[n];
        const int y = int(n) * rowHeight;
        painter.setPen(p.color(QPalette::WindowText));
        painter.drawText(QRect(0, y, labelWidth - 4, rowHeight), Qt::AlignRight | Qt::AlignVCenter,
                         bar.label);
        const int before = int(barWidth * bar.before / top);
        const int after = int(barWidth * bar.after / top);
        painter.fillRect(labelWidth, y + 1, before, rowHeight - 2, p.color(QPalette::Mid));
        QColor kept = p.color(QPalette::Highlight);
        if (!bar.chosen)
            kept.setAlpha(110);
        painter.fillRect(labelWidth, y + rowHeight / 4, after, rowHeight / 2, kept);
    }
}

GenerateView::GenerateView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    m_count = new QSpinBox(this);
    m_count->setRange(1, 1000);
    m_count->setValue(20);
    m_count->setToolTip(tr("How many tokens to write (masked models: [MASK]s to fill)"));
    m_temperature = new QDoubleSpinBox(this);
    m_temperature->setRange(0.0, 5.0);
    m_temperature->setSingleStep(0.1);
    m_temperature->setValue(0.0);
    m_temperature->setToolTip(tr("Divides the logits before the softmax; 0 is greedy: always "
                                 "the most likely token"));
    m_topK = new QSpinBox(this);
    m_topK->setRange(0, 1000000);
    m_topK->setToolTip(tr("Draw only among the K most likely tokens; 0: all of them"));
    m_topP = new QDoubleSpinBox(this);
    m_topP->setRange(0.01, 1.0);
    m_topP->setSingleStep(0.05);
    m_topP->setValue(1.0);
    m_topP->setToolTip(tr("Draw only from the smallest set of most likely tokens whose "
                          "probability reaches P"));
    m_penalty = new QDoubleSpinBox(this);
    m_penalty->setRange(0.1, 10.0);
    m_penalty->setSingleStep(0.1);
    m_penalty->setValue(1.0);
    m_penalty->setToolTip(tr("Tokens already in the text: positive logits divided by it, "
                             "negative ones multiplied; 1: none"));
    m_seed = new QSpinBox(this);
    m_seed->setRange(0, 1 << 30);
    m_seed->setToolTip(tr("The same seed draws the same tokens"));
    form->addRow(tr("&Tokens:"), m_count);
    form->addRow(tr("T&emperature:"), m_temperature);
    form->addRow(tr("Top-&k:"), m_topK);
    form->addRow(tr("Top-&p:"), m_topP);
    form->addRow(tr("Repetition penalt&y:"), m_penalty);
    form->addRow(tr("&Seed:"), m_seed);
    layout->addLayout(form);

    auto* buttons = new QHBoxLayout;
    m_generate = new QPushButton(tr("Ge&nerate"), this);
    m_generate->setToolTip(tr("Let the model write after the sentence, with the heads off and "
                              "edits on as they are"));
    m_stop = new QPushButton(tr("St&op"), this);
    m_stop->setToolTip(tr("Stop writing; the tokens so far stay"));
    m_stop->setEnabled(false);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    buttons->addWidget(m_generate);
    buttons->addWidget(m_stop);
    buttons->addWidget(m_status, 1);
    layout->addLayout(buttons);

    m_text = new QLabel(this);
    m_text->setWordWrap(true);
    m_text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_text);
    m_scrub = new QSlider(Qt::Horizontal, this);
    m_scrub->setRange(0, 0);
    m_scrub->setAccessibleName(tr("Step shown"));
    m_scrub->setToolTip(tr("Back through the steps: the text up to that token, its alternatives "
                           "and its distribution"));
    layout->addWidget(m_scrub);
    auto* lower = new QHBoxLayout;
    m_list = new QListWidget(this);
    m_list->setAccessibleName(tr("Generated tokens"));
    m_list->setToolTip(tr("Each token written, with the model's probability of it"));
    lower->addWidget(m_list, 1);
    auto* right = new QVBoxLayout;
    m_details = new QLabel(this);
    m_details->setWordWrap(true);
    m_bars = new DistributionBars(this);
    m_bars->setToolTip(tr("The most likely tokens: grey, the model's probability; inside it, "
                          "what the filters leave (the chosen token highlighted)"));
    right->addWidget(m_details);
    right->addWidget(m_bars, 1);
    lower->addLayout(right, 1);
    layout->addLayout(lower, 1);

    connect(m_generate, &QPushButton::clicked, this, &GenerateView::generate);
    connect(m_stop, &QPushButton::clicked, this, &GenerateView::stop);
    connect(m_scrub, &QSlider::valueChanged, this, &GenerateView::showStep);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0)
            m_scrub->setValue(row + 1);
    });
    m_status->setText(tr("Open a model and type a sentence, then Generate."));
    m_generate->setEnabled(false);
}

GenerateView::~GenerateView() = default;

void GenerateView::setSource(std::shared_ptr<const core::ModelResult> result,
                             BackendMaker makeBackend)
{
    m_source = std::move(result);
    m_makeBackend = std::move(makeBackend);
    m_generate->setEnabled(m_source && !isRunning());
    if (m_source && !isRunning())
        m_status->setText(tr("Generate writes after the sentence shown, with its interventions."));
}

core::GenerationSettings GenerateView::settings() const
{
    core::GenerationSettings s;
    s.maxNewTokens = m_count->value();
    s.sampling.temperature = float(m_temperature->value());
    s.sampling.topK = m_topK->value();
    s.sampling.topP = float(m_topP->value());
    s.sampling.repetitionPenalty = float(m_penalty->value());
    s.sampling.seed = std::uint64_t(m_seed->value());
    return s;
}

bool GenerateView::isRunning() const
{
    return m_job && m_job->isRunning();
}

void GenerateView::generate()
{
    if (!m_source || isRunning())
        return;
    m_job.reset();
    m_steps.clear();
    m_texts.clear();
    m_drawn.clear();
    m_kept.clear();
    m_list->clear();
    m_scrub->setRange(0, 0);
    const core::Model& model = *m_source->model;
    std::vector<int> ids;
    for (const core::Token& token : m_source->tokens)
        ids.push_back(token.id);
    m_prompt = model.tokenizer->decode(ids);
    m_tokens = m_source->tokens;
    showStep(0);
    m_job = std::make_unique<GenerationJob>(m_source->model, m_source->tokens,
                                            m_source->interventions, settings(), m_makeBackend());
    connect(m_job.get(), &GenerationJob::stepped, this,
            [this](const core::GenerationStep& step, const QString& text) {
                m_steps.push_back(step);
                m_tokens.push_back(core::generatedToken(*m_source->model->tokenizer, step.tokenId));
                core::GenerationStep& kept = m_steps.back();
                m_drawn.push_back(DistributionBars::barsOf(kept, *m_source->model));
                m_kept.push_back(long(std::count_if(kept.after.begin(), kept.after.end(),
                                                    [](float p) { return p > 0.0f; })));
                std::vector<float>().swap(kept.before);
                std::vector<float>().swap(kept.after);
                m_texts.push_back(text);
                m_list->addItem(QStringLiteral("%1. \"%2\"  %3")
                                    .arg(m_steps.size())
                                    .arg(step.text, percent(step.probability)));
                const bool following = m_scrub->value() == m_scrub->maximum();
                m_scrub->setRange(0, int(m_steps.size()));
                if (following) // the newest token, unless the user scrubbed back
                    m_scrub->setValue(int(m_steps.size()));
            });
    connect(m_job.get(), &GenerationJob::finished, this, [this](core::GenerationStop stop) {
        setRunning(false);
        m_status->setText(stopText(stop));
        emit finished();
    });
    connect(m_job.get(), &GenerationJob::failed, this, [this](const QString& message) {
        setRunning(false);
        m_status->setText(message);
        emit finished();
    });
    setRunning(true);
    m_status->setText(tr("Writing…"));
    m_job->start();
}

void GenerateView::stop()
{
    if (m_job)
        m_job->stop();
}

void GenerateView::setRunning(bool running)
{
    m_generate->setEnabled(!running && m_source);
    m_stop->setEnabled(running);
}

void GenerateView::showStep(int step)
{
    const bool masked =
        m_source && m_source->model->config().objective == core::Objective::MaskedLm;
    if (!masked && !m_tokens.empty()) {
        const int shown = std::clamp(step, 0, int(m_steps.size()));
        emit tokensShown({m_tokens.begin(), m_tokens.end() - (int(m_steps.size()) - shown)});
    }
    if (step <= 0 || step > int(m_steps.size())) {
        m_text->setText(m_prompt);
        m_details->setText(m_steps.empty() ? QString()
                                           : tr("The sentence before the first token."));
        m_bars->setBars({});
        return;
    }
    const core::GenerationStep& s = m_steps[std::size_t(step - 1)];
    const QString& text = m_texts[std::size_t(step - 1)];
    m_text->setText(masked ? text : m_prompt + text);
    QStringList alternatives;
    for (const core::Prediction& p : s.top)
        alternatives << QStringLiteral("\"%1\" %2").arg(p.text, percent(p.probability));
    const long kept = m_kept[std::size_t(step - 1)];
    m_details->setText(tr("Step %1 of %2: \"%3\", %4 for the model, %5 after the filters (which "
                          "kept %6 tokens).")
                           .arg(step)
                           .arg(m_steps.size())
                           .arg(s.text, percent(s.probability), percent(s.drawnFrom))
                           .arg(kept) +
                       QLatin1Char('\n') +
                       tr("Alternatives: %1").arg(alternatives.join(QStringLiteral(", "))));
    m_bars->setBars(m_drawn[std::size_t(step - 1)]);
    if (m_list->currentRow() != step - 1) {
        const QSignalBlocker block(m_list);
        m_list->setCurrentRow(step - 1);
    }
}

} // namespace attn::ui
