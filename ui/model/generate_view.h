#pragma once

#include "core/backend.h"
#include "core/model/generation.h"

#include <QWidget>
#include <functional>
#include <memory>
#include <vector>

class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QPushButton;
class QSlider;
class QSpinBox;

namespace attn::ui {

class GenerationJob;

// The bars of one step's distribution: the model's most likely tokens (softmax at temperature
// 1) and, over them, what is left after the penalty, temperature, top-k and top-p; a token the
// filters removed keeps only its grey bar.
class DistributionBars : public QWidget
{
    Q_OBJECT

public:
    struct Bar
    {
        QString label;
        float before = 0.0f;
        float after = 0.0f;
        bool chosen = false;
    };

    explicit DistributionBars(QWidget* parent = nullptr);
    // The step's most likely tokens, with their probabilities before and after the filters.
    static std::vector<Bar> barsOf(const core::GenerationStep& step, const core::Model& model);
    void setBars(std::vector<Bar> bars);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<Bar> m_bars;
};

// The Generate tab: the model writes after the sentence, one token at a time, with heads off
// and edits on as the window has them; each token appears with its probability, Stop ends it,
// and the slider scrubs back through the steps (the text up to that step, its alternatives and
// its distribution before and after the filters).
class GenerateView : public QWidget
{
    Q_OBJECT

public:
    using BackendMaker = std::function<std::unique_ptr<core::Backend>()>;

    explicit GenerateView(QWidget* parent = nullptr);
    ~GenerateView() override;

    // What Generate starts from: the run the window shows (its model, tokens and
    // interventions), and how to make a backend of the generation's own.
    void setSource(std::shared_ptr<const core::ModelResult> result, BackendMaker makeBackend);
    core::GenerationSettings settings() const;
    bool isRunning() const;
    int stepCount() const { return int(m_steps.size()); }
    const std::vector<core::GenerationStep>& steps() const { return m_steps; }

    QPushButton* generateButton() const { return m_generate; }
    QPushButton* stopButton() const { return m_stop; }
    QSlider* scrubber() const { return m_scrub; }
    QSpinBox* countBox() const { return m_count; }
    QDoubleSpinBox* temperatureBox() const { return m_temperature; }
    QLabel* textLabel() const { return m_text; }
    QLabel* detailsLabel() const { return m_details; }
    QListWidget* stepList() const { return m_list; }

public slots:
    void generate();
    void stop();

signals:
    void finished(); // stopped, ended or failed
    // Causal models: the tokens up to the step the slider shows (the prompt's and the chosen
    // ones), for the grid and the head views to follow, the newest token last.
    void tokensShown(const std::vector<attn::core::Token>& tokens);

private:
    void showStep(int step); // from 1; 0: the prompt alone
    void setRunning(bool running);

    std::shared_ptr<const core::ModelResult> m_source;
    BackendMaker m_makeBackend;
    std::unique_ptr<GenerationJob> m_job;
    std::vector<core::GenerationStep> m_steps;
    std::vector<QString> m_texts; // the continuation after each step
    // Per step, what is drawn of its distributions (which are not kept: a vocabulary-sized
    // pair per step would hold 400 KB a token for GPT-2) and how many tokens the filters kept.
    std::vector<std::vector<DistributionBars::Bar>> m_drawn;
    std::vector<long> m_kept;
    std::vector<core::Token> m_tokens; // the prompt's, then each step's
    QString m_prompt;

    QSpinBox* m_count = nullptr;
    QDoubleSpinBox* m_temperature = nullptr;
    QSpinBox* m_topK = nullptr;
    QDoubleSpinBox* m_topP = nullptr;
    QDoubleSpinBox* m_penalty = nullptr;
    QSpinBox* m_seed = nullptr;
    QPushButton* m_generate = nullptr;
    QPushButton* m_stop = nullptr;
    QLabel* m_status = nullptr;
    QLabel* m_text = nullptr;
    QListWidget* m_list = nullptr;
    QSlider* m_scrub = nullptr;
    QLabel* m_details = nullptr;
    DistributionBars* m_bars = nullptr;
};

} // namespace attn::ui
