#pragma once

#include "core/seq2seq/seq2seq_model.h"

#include <QMainWindow>
#include <map>
#include <memory>
#include <optional>

class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;

namespace attn::ui {

class MatrixPanelsView;
class Seq2SeqTrainJob;

// The encoder-decoder translating word by word: a source sentence, the decoder's steps one at
// a time (the scores over the source, the weights, the next-word distribution, the word
// chosen), the alignment growing as it decodes, the hidden states, and training a model on a
// built-in task with its curves.
class Seq2SeqWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit Seq2SeqWindow(QWidget* parent = nullptr);
    ~Seq2SeqWindow() override;

    // Reads a model folder (docs/SEQ2SEQ_FORMAT.md); false with the message shown when it
    // cannot.
    bool openFolder(const QString& folder);
    void setModel(std::shared_ptr<const core::Seq2SeqModel> model, const QString& name);
    void setSource(const QString& text); // and translates it

    // Decoding steps shown: 0 (none yet) to the decoding's length.
    int shownSteps() const { return m_shown; }
    void showSteps(int steps);
    // Trains a fresh model on a built-in task with this attention; the models trained here are
    // kept, one per task and attention, so that choosing another attention shows its model.
    void startTraining(const QString& task, int steps,
                       core::Seq2SeqAttention attention = core::Seq2SeqAttention::Bahdanau);
    // Shows the model trained here on the task chosen with this attention, if there is one.
    bool showTrained(core::Seq2SeqAttention attention);

    const core::Seq2SeqModel* model() const { return m_model.get(); }
    const std::optional<core::Seq2SeqDecoding>& decoding() const { return m_decoding; }
    QString message() const;
    MatrixPanelsView* alignmentView() const { return m_alignment; }
    QCustomPlot* lengthCurves() const { return m_lengthCurves; }
    MatrixPanelsView* stepView() const { return m_stepPanels; }
    QTableWidget* nextWordTable() const { return m_nextWords; }
    QLabel* translationLabel() const { return m_translation; }
    bool isTraining() const { return m_job != nullptr; }

signals:
    void trainingFinished();

private:
    void buildControls();
    void translate();
    void refreshStep();
    void chooseFolder();
    void exportFigure();
    void setMessage(const QString& text);

    std::shared_ptr<const core::Seq2SeqModel> m_model;
    std::optional<core::Seq2SeqDecoding> m_decoding;
    int m_shown = 0;

    QLabel* m_modelLabel = nullptr;
    QComboBox* m_task = nullptr;
    QSpinBox* m_steps = nullptr;
    QPushButton* m_train = nullptr;
    QLabel* m_status = nullptr;
    QLineEdit* m_source = nullptr;
    QSpinBox* m_beam = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_step = nullptr;
    QPushButton* m_all = nullptr;
    QLabel* m_stepLabel = nullptr;
    QLabel* m_translation = nullptr;
    QLabel* m_stepFormula = nullptr;
    QTabWidget* m_tabs = nullptr;
    MatrixPanelsView* m_alignment = nullptr;
    MatrixPanelsView* m_states = nullptr;
    MatrixPanelsView* m_stepPanels = nullptr;
    QTableWidget* m_nextWords = nullptr;
    QCustomPlot* m_curves = nullptr;
    QComboBox* m_attention = nullptr;
    // Held-out exact match by source length, one graph per attention trained on the task.
    QCustomPlot* m_lengthCurves = nullptr;
    std::map<std::pair<QString, int>, std::shared_ptr<const core::Seq2SeqModel>> m_trained;
    std::unique_ptr<Seq2SeqTrainJob> m_job;
};

} // namespace attn::ui
