#pragma once

#include "ui/seq2seq/output_types_figure.h"

#include "core/seq2seq/output_heads.h"
#include "core/seq2seq/seq2seq_model.h"

#include <QWidget>
#include <memory>

class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace attn::ui {

class OutputTypesTrainJob;
class Seq2SeqTrainJob;

// The output types of seed 001 over one sentence: a tagger, a sentence classifier and an
// encoder-decoder, each trained here on its built-in task of the English grammar (live, with
// its loss and held-out accuracy), drawn side by side so that a learner sees which of the
// encoder's outputs each reads.
class OutputTypesView : public QWidget
{
    Q_OBJECT

public:
    explicit OutputTypesView(QWidget* parent = nullptr);
    ~OutputTypesView() override;

    void setSentence(const QString& text);
    // Trains the model of `type` (the pooling chosen for classification) off the UI thread.
    void startTraining(OutputType type, int steps);
    bool isTraining() const { return m_headJob || m_seq2seqJob; }
    void chooseType(OutputType type);
    void choosePooling(core::SentencePooling pooling);

    const OutputTypesFigure& figure() const { return m_figure; }
    QWidget* canvas() const { return m_canvas; }
    QCustomPlot* curves() const { return m_curves; }
    QString status() const;
    // Writes the figure (PNG, SVG or PDF by the name's suffix); false with the reason in
    // message() when it cannot.
    bool exportTo(const QString& path);
    // Asks for a file name, then exportTo.
    void exportFigure();

signals:
    void trainingFinished();
    void message(const QString& text);

private:
    void refresh();
    void trainClicked();
    void finishTraining(OutputType type, double accuracy);
    void plotProgress(int step, double loss, double accuracy);

    std::shared_ptr<const core::OutputHeadModel> m_tagger, m_classifier;
    std::shared_ptr<const core::Seq2SeqModel> m_seq2seq;
    OutputTypesFigure m_figure;

    QComboBox* m_type = nullptr;
    QComboBox* m_pooling = nullptr;
    QSpinBox* m_steps = nullptr;
    QPushButton* m_train = nullptr;
    QLineEdit* m_sentence = nullptr;
    QLabel* m_status = nullptr;
    QWidget* m_canvas = nullptr;
    QCustomPlot* m_curves = nullptr;
    std::unique_ptr<OutputTypesTrainJob> m_headJob;
    std::unique_ptr<Seq2SeqTrainJob> m_seq2seqJob;
};

} // namespace attn::ui
