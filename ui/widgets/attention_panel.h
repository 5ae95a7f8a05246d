#pragma once

#include "ui/document/scene_document.h"

#include <QWidget>
#include <vector>

class QCheckBox;
class QComboBox;

class QLabel;
class QLineEdit;
class QPushButton;
class QSlider;
class QSpinBox;
class QToolButton;

namespace attn::ui {

class DecimalField;
class FlowLayout;
class IntegerField;

// How queries meet keys and what is masked: score, normalization, temperature (a log
// slider, 0.05 to 20, beside a box that takes any value from 0.0001), 1/sqrt(d_k) scaling, the fill
// value, the masks, and the heads (their number, widths, seed and on/off switches). Every control
// edits the document through an undo command; a slider drag is one step.
class AttentionPanel : public QWidget
{
    Q_OBJECT

public:
    static constexpr double kMinTemperature = 0.05;
    static constexpr double kMaxTemperature = 20.0;
    // What the temperature box takes (the command line's upper limit).
    static constexpr double kMinTypedTemperature = 0.0001;
    static constexpr double kMaxTypedTemperature = 1e6;
    static constexpr int kSliderSteps = 1000;

    explicit AttentionPanel(SceneDocument& document, QWidget* parent = nullptr);

    // The window slider's range follows the number of tokens.
    void setTokenCounts(int queries, int keys);
    // The colour each head is drawn in (lines view, head switches).
    static QColor headColor(int head);
    // Slider position <-> temperature, rounded to three significant digits.
    static double sliderToTemperature(int value);
    static int temperatureToSlider(double temperature);

    QComboBox* scoreCombo() const { return m_score; }
    QComboBox* normalizationCombo() const { return m_normalization; }
    QSlider* temperatureSlider() const { return m_temperature; }
    DecimalField* temperatureField() const { return m_temperatureSpin; }
    QCheckBox* causalCheck() const { return m_causal; }
    QSpinBox* headsSpin() const;
    QSpinBox* dModelSpin() const;
    QSpinBox* dKSpin() const;
    QComboBox* fillCombo() const { return m_fill; }
    QCheckBox* headCheck(int head) const;
    QToolButton* paintMaskButton() const { return m_paint; }

signals:
    void paintMaskToggled(bool on);
    void message(const QString& text);

private:
    QWidget* buildAttention();
    QWidget* buildMask();
    QWidget* buildHeads();
    void syncFromScene(SceneChanges what);
    void syncHeadChecks();
    // A drag of `slider` is one undo step: the document's gesture, kept in `gesture`.
    void applyAttention();
    void applyMask();
    void applyShape(QSpinBox* changed);
    void onTemperatureSlider(int value);

    SceneDocument& m_document;
    bool m_syncing = false;
    int m_queries = 0;
    int m_keys = 0;

    QComboBox* m_score = nullptr;
    QLabel* m_bilinearNote = nullptr; // while the score is bilinear and every head's M is I
    QComboBox* m_normalization = nullptr;
    QSlider* m_temperature = nullptr;
    DecimalField* m_temperatureSpin = nullptr;
    QCheckBox* m_scaling = nullptr;
    QComboBox* m_fill = nullptr;
    int m_temperatureGesture = 0;

    QCheckBox* m_causal = nullptr;
    QCheckBox* m_padding = nullptr;
    QCheckBox* m_windowOn = nullptr;
    QSlider* m_window = nullptr;
    QLabel* m_windowLabel = nullptr;
    QCheckBox* m_windowCausal = nullptr;
    QLabel* m_customLabel = nullptr;
    QToolButton* m_paint = nullptr;
    QPushButton* m_clearCustom = nullptr;
    int m_windowGesture = 0;

    IntegerField* m_heads = nullptr;
    IntegerField* m_dModel = nullptr;
    IntegerField* m_dK = nullptr;
    IntegerField* m_dV = nullptr;
    QLineEdit* m_seed = nullptr;
    QLabel* m_shapeNote = nullptr;
    FlowLayout* m_headGrid = nullptr; // the head switches, wrapping to the panel's width
    std::vector<QCheckBox*> m_headChecks;
};

} // namespace attn::ui
