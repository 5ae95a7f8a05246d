#pragma once

#include "core/model/encoder_decoder.h"
#include "ui/figures/figure_export.h"
#include "ui/model/matrix_painter.h"
#include "ui/model/model_document.h"

#include <QWidget>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <tuple>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QSplitter;

namespace attn::ui {

class EncDecJob;
class HeadGridView;
class MatrixPanelsView;

// An encoder-decoder model (Marian, BART) in the model window: the source translated word by
// word by greedy decoding or beam search (the chosen hypothesis), Step and Back through the words,
// and the three kinds of heads (encoder self-attention, the decoder's causal self-attention,
// cross-attention) in a grid each, any head or the mean of a layer's heads beside it.
// Cross-attention, target words x source words, is the alignment of Bahdanau et al. 2014 (fig. 3).
// Its head edits are a ModelDocument's (the model window's, else one of its own): every edit one
// undo step there, and the translation follows any change of them.
class EncDecView : public QWidget
{
    Q_OBJECT

public:
    using Kind = HeadKind;
    using BackendMaker = std::function<std::unique_ptr<core::Backend>()>;

    explicit EncDecView(QWidget* parent = nullptr);
    ~EncDecView() override;

    // The document whose interventions the tab edits and translates with (it must outlive the
    // view, or be set back to null: the view's own again).
    void setDocument(ModelDocument* document);
    ModelDocument* document() const { return m_document; }

    // The model and source of `result`; a model that is not an encoder-decoder (or null)
    // leaves a note. A new source or model forgets the translation.
    void setSource(std::shared_ptr<const core::ModelResult> result, BackendMaker makeBackend);

    void translate();         // from the first word, off the UI thread
    void setBeams(int beams); // 1: greedy; takes effect at the next translation
    int beams() const;
    void stop();
    void stepBack();
    void stepForward();
    bool isRunning() const;
    int stepCount() const { return int(m_steps.size()); }
    int shownSteps() const { return m_shown; }
    const core::GreedyStep* shownStep() const;

    void setKind(Kind kind);
    Kind kind() const { return m_kind; }
    void setLayerAndHead(int layer, int head); // head -1: the mean of the layer's heads
    void selectHead(Kind kind, int layer, int head);
    // The forward shown (the translation's word, else the source's own run) with `kind`'s layers
    // as a model's layers and that kind's interventions, as the grids show it; null for the
    // decoder's two kinds before a word is translated.
    std::shared_ptr<const core::ModelResult> kindResult(Kind kind) const;
    // Switches a head of the shown kind off (or back on) and translates again (through the
    // document: one undo step each, as the temperature and W^v's scale).
    void setHeadOff(Kind kind, int layer, int head, bool off);
    // The temperature of a layer's heads of `kind` (1: the checkpoint's), and a head's W^v scaled
    // by `scale` (1: the checkpoint's); both translate again, as heads off do.
    void setLayerTemperature(Kind kind, int layer, double temperature);
    void setValueScale(Kind kind, int layer, int head, double scale);
    double valueScale(Kind kind, int layer, int head) const; // 1: W^v as in the checkpoint
    core::EncoderDecoderInterventions interventions() const;

    // The matrix beside the grid (for cross-attention, the alignment), as drawn and exported.
    std::vector<MatrixPanel> panels() const;
    QByteArray figureBytes(FigureFormat format, QSize size) const;
    QString status() const;

    HeadGridView* grid() const { return m_grid; }
    MatrixPanelsView* matrixView() const { return m_matrix; }

signals:
    void translationDone();
    void shownChanged();        // a word, a kind, a head or an edit: what kindResult gives
    void interventionsEdited(); // on any kind of head

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void onStep(const core::GreedyStep& step);
    void refresh();
    void exportFigure();
    std::shared_ptr<const core::ModelResult> gridResult(Kind kind) const;
    QStringList rowLabels() const;
    // The checkpoint's generation settings the translation applied, for the status; "" for none.
    QString generationSettingsNote() const;
    const core::Interventions& interventionsOf(Kind kind) const;
    // The checkpoint's attention weights of one kind's layer, null outside the model.
    const core::ModelWeights* checkpointWeights(Kind kind, int layer) const;
    void interventionsChanged();
    void syncEdits();

    std::shared_ptr<const core::ModelResult> m_source;
    BackendMaker m_makeBackend;
    std::unique_ptr<ModelDocument> m_ownDocument; // edits while no window's document is set
    ModelDocument* m_document = nullptr;
    std::vector<core::GreedyStep> m_steps;
    std::optional<core::BeamHypothesis> m_best; // the last beam search's choice
    int m_searchBeams = 1;                      // the beams of the translation shown
    // (kind, layer, head): W^v's factor as typed, while the document's W^v is still that.
    std::map<std::tuple<int, int, int>, double> m_valueScales;
    int m_shown = 0;
    Kind m_kind = Kind::Cross;
    int m_layer = 0;
    int m_head = -1;
    QString m_status;
    int m_requestedWords = 0; // the length limit the last translation ran with
    std::unique_ptr<EncDecJob> m_job;

    QPushButton* m_translate = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_back = nullptr;
    QPushButton* m_step = nullptr;
    QSpinBox* m_maxLength = nullptr;
    QSpinBox* m_beams = nullptr;
    QLabel* m_target = nullptr;
    QLabel* m_state = nullptr;
    QComboBox* m_kindCombo = nullptr;
    QComboBox* m_layerCombo = nullptr;
    QComboBox* m_headCombo = nullptr;
    QPushButton* m_export = nullptr;
    QCheckBox* m_headOn = nullptr;
    QDoubleSpinBox* m_temperature = nullptr;
    QDoubleSpinBox* m_valueScale = nullptr;
    QPushButton* m_resetEdits = nullptr;
    QSplitter* m_figures = nullptr; // the grid beside the chosen head's matrix, or above it
    HeadGridView* m_grid = nullptr;
    MatrixPanelsView* m_matrix = nullptr;
};

} // namespace attn::ui
