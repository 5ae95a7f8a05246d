#pragma once

#include "core/seq2seq/seq2seq_model.h"

#include <QMainWindow>
#include <QPointF>
#include <QVector>
#include <map>
#include <memory>
#include <optional>
#include <vector>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;
class QUndoStack;

namespace attn::ui {

class MatrixPanelsView;
class Seq2SeqPresentationWindow;
class OutputTypesView;
class Seq2SeqTrainJob;
class Seq2SeqTrainCommand;
struct Seq2SeqTrained;

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
    // Trains a fresh model on a built-in task with this attention, in the variant the training
    // row chooses (cell, layers, bidirectional encoder), and beside it the same variant without
    // attention when compareWithoutAttention() (both on the same pairs); the models trained here
    // are kept, one per task and attention, so that choosing another attention shows its
    // model. What a training gives is one undo step.
    void startTraining(const QString& task, int steps,
                       core::Seq2SeqAttention attention = core::Seq2SeqAttention::Bahdanau);
    void setVariant(core::Seq2SeqCell cell, int layers, bool bidirectional);
    void setCompareWithoutAttention(bool compare);
    bool compareWithoutAttention() const;
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
    OutputTypesView* outputTypesView() const { return m_outputTypes; }
    QTabWidget* tabs() const { return m_tabs; }
    bool isTraining() const { return m_job != nullptr; }
    QUndoStack* undoStack() const { return m_undo; }
    // Opens the lecture slides of the current decoding (the encoder, then each decoder step),
    // full screen; null with a message when nothing is translated yet.
    Seq2SeqPresentationWindow* present();
    // "no attention", "additive (Bahdanau) attention", ...
    static QString attentionLabel(core::Seq2SeqAttention attention);

    // What trainings here gave: the model shown, those kept, the accuracy-by-length curves.
    struct LengthCurve
    {
        QString task;
        int attention = 0;
        QVector<QPointF> exact, tokens; // Seq2SeqTrained's
    };
    struct TrainedState
    {
        std::shared_ptr<const core::Seq2SeqModel> model;
        QString name;
        std::map<std::pair<QString, int>, std::shared_ptr<const core::Seq2SeqModel>> trained;
        std::vector<LengthCurve> curves;
    };

signals:
    void trainingFinished();

private:
    friend class Seq2SeqTrainCommand;

    void buildControls();
    QWidget* buildTrainingPage(QWidget* parent); // seq2seq_window_training.cpp
    void trainingFinishedWith(const QString& task, const std::vector<Seq2SeqTrained>& trained);
    TrainedState trainedState() const;
    void restoreTrained(const TrainedState& state);
    void redrawLengthCurves(const QString& task);
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
    QComboBox* m_cell = nullptr;
    QComboBox* m_layers = nullptr;
    QCheckBox* m_bidirectional = nullptr;
    QCheckBox* m_compare = nullptr;
    // Held-out accuracy by source length, two graphs (exact match, tokens right) per attention
    // trained on the task.
    QCustomPlot* m_lengthCurves = nullptr;
    QString m_modelName;
    OutputTypesView* m_outputTypes = nullptr; // tagging, classification, seq2seq side by side
    std::map<std::pair<QString, int>, std::shared_ptr<const core::Seq2SeqModel>> m_trained;
    std::vector<LengthCurve> m_curveData;
    std::unique_ptr<Seq2SeqTrainJob> m_job;
    QUndoStack* m_undo = nullptr;
};

} // namespace attn::ui
