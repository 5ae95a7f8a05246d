#pragma once

#include "ui/widgets/deferred_call.h"
#include "ui/figures/figure_builder.h"
#include "ui/figures/figure_spec.h"

#include "core/attention_result.h"

#include <QWidget>
#include <memory>
#include <optional>

class QComboBox;
class QCustomPlot;
class QFrame;
class QLabel;
class QStackedLayout;
class QTimer;
class QToolButton;

namespace attn::ui {

enum class PresentationTheme {
    Light,
    Dark,
    HighContrast, // projectors: pure black on white, thick lines, large type
    Print,        // greyscale
};

QString presentationThemeName(PresentationTheme theme); // "High contrast"
// The figure colours and colormap of a theme (viridis by default, cividis for projectors,
// grey for print: all readable with colour-blind eyes).
FigureStyle presentationStyle(PresentationTheme theme);
Colormap presentationColormap(PresentationTheme theme);

// Presentation mode: one head's computation, step by step, full screen (the caller shows
// it with showFullScreen()). A presentation clicker's keys step it; F11 or Escape closes
// it. Type is sized from the window's height so it reads from the back of a lecture hall;
// the controls appear when the pointer moves and go again after two seconds of stillness.
class PresentationWindow : public QWidget
{
    Q_OBJECT

public:
    explicit PresentationWindow(std::shared_ptr<const core::AttentionResult> result, QWidget* parent = nullptr);
    ~PresentationWindow() override;

    // A new result (the scene was edited): the step and head stay where they are.
    void setResult(std::shared_ptr<const core::AttentionResult> result);
    std::shared_ptr<const core::AttentionResult> result() const { return m_result; }
    void setHead(int head); // clamped to the result's heads
    int head() const { return m_head; }
    void setTheme(PresentationTheme theme);
    PresentationTheme theme() const { return m_theme; }

    int step() const { return m_step; }
    int stepCount() const;
    void setStep(int step); // clamped to 1 .. stepCount()
    static QString stepName(int step);

    // The caption's rich text: the step's equation as this result computes it.
    QString caption() const;
    QCustomPlot* plot() const { return m_plot; }
    // The figure on screen; null before the window is first shown, or when the result
    // cannot be presented (then message() says why).
    const FigureBuilder* figure() const { return m_builder.get(); }
    QString message() const;
    QWidget* controls() const;
    // How long the pointer must rest before the controls go (2 s).
    void setControlsHideDelay(int milliseconds);

public slots:
    void nextStep();
    void previousStep();

signals:
    void stepChanged(int step);
    void closed();

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    FigureSpec figureSpec() const;
    void rebuild();
    void updateTexts();
    void applyTheme();
    void applySizes();
    void fitCaption();
    void updateHeadCombo();
    void pointerMoved();
    void hideControls();
    void placeControls();
    void hover(QPointF pixel);

    std::shared_ptr<const core::AttentionResult> m_result;
    std::unique_ptr<FigureBuilder> m_builder; // refers to m_result's matrices
    int m_step = 1;
    int m_head = 0;
    PresentationTheme m_theme = PresentationTheme::Light;
    std::optional<std::pair<int, std::pair<int, int>>> m_hovered; // panel, (row, column)
    QSize m_builtSize;
    DeferredCall m_rebuild{this, [this] { rebuild(); }}; // coalesces rebuild requests

    QLabel* m_stepLabel = nullptr;     // "Step 4 of 11 · Scores"
    QLabel* m_settingsLabel = nullptr; // "head 1 of 2 · scaled dot product · softmax"
    QLabel* m_caption = nullptr;
    QCustomPlot* m_plot = nullptr;
    QLabel* m_message = nullptr;
    QStackedLayout* m_stack = nullptr;
    QFrame* m_controls = nullptr;
    QToolButton* m_previous = nullptr;
    QToolButton* m_next = nullptr;
    QLabel* m_position = nullptr; // "4 / 11"
    QComboBox* m_headCombo = nullptr;
    QComboBox* m_themeCombo = nullptr;
    QToolButton* m_exit = nullptr;
    QTimer* m_hideTimer = nullptr;
};

} // namespace attn::ui
