#pragma once

#include "ui/model/model_document.h"

#include <QWidget>
#include <utility>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QPushButton;
class QSlider;
class QSpinBox;

namespace attn::ui {

class DecimalField;
class EncDecView;
class MatrixEditor;

// The selected head's controls, acting on that head of that layer as interventions: the
// head's switch, its layer's attention settings (score, normalization, temperature, masks,
// fill: a model computes all heads of a layer with one setting, so these apply to the whole
// layer and say so) and its W^q, W^k, W^v in the explorer's MatrixEditor. Every control edits
// the ModelDocument through an undo command; a drag or a scrub is one step.
class ModelHeadPanel : public QWidget
{
    Q_OBJECT

public:
    explicit ModelHeadPanel(ModelDocument& document, QWidget* parent = nullptr);

    QCheckBox* headOnCheck() const { return m_headOn; }
    QComboBox* scoreCombo() const { return m_score; }
    QComboBox* normalizationCombo() const { return m_normalization; }
    QSlider* temperatureSlider() const { return m_temperature; }
    DecimalField* temperatureField() const { return m_temperatureField; }
    QCheckBox* causalCheck() const { return m_causal; }
    QComboBox* fillCombo() const { return m_fill; }
    MatrixEditor* editor() const { return m_editor; }
    // An encoder-decoder model's encoder or cross head: W^v times a factor (the Translate tab's).
    QDoubleSpinBox* valueScaleSpin() const { return m_valueScale; }
    HeadMatrix currentMatrix() const;
    void setCurrentMatrix(HeadMatrix matrix);
    // What the title says while there is no model ("No model open", "Loading gpt2…").
    void setPlaceholder(const QString& text);
    // Where an encoder-decoder model's encoder and cross-attention heads are edited (the
    // Translate tab's interventions): the head's switch and its layer's temperature act there;
    // what those interventions lack is disabled and says why.
    void setKindEdits(EncDecView* view);

signals:
    void message(const QString& text);

private:
    void sync();
    void syncEditor();
    // The selected head is an encoder-decoder model's encoder or cross-attention head.
    bool otherKind() const;
    void setTemperature(float temperature);
    void applySettings(const QString& what);
    void applyCell(int row, int column, float value);

    ModelDocument& m_document;
    EncDecView* m_kinds = nullptr;
    std::vector<std::pair<QWidget*, QString>> m_decoderOnly; // with their own tool tips
    bool m_syncing = false;
    QLabel* m_title = nullptr;
    QString m_placeholder;
    QCheckBox* m_headOn = nullptr;
    QWidget* m_valueScaleRow = nullptr;
    QDoubleSpinBox* m_valueScale = nullptr;
    QLabel* m_layerNote = nullptr;
    QComboBox* m_score = nullptr;
    QComboBox* m_normalization = nullptr;
    QSlider* m_temperature = nullptr;
    DecimalField* m_temperatureField = nullptr;
    QCheckBox* m_causal = nullptr;
    QCheckBox* m_windowOn = nullptr;
    QSpinBox* m_window = nullptr;
    QComboBox* m_fill = nullptr;
    QPushButton* m_resetLayer = nullptr;
    QComboBox* m_matrixChoice = nullptr;
    MatrixEditor* m_editor = nullptr;
    int m_temperatureGesture = 0;
    int m_scrubGesture = 0;
};

} // namespace attn::ui
