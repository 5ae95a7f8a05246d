#pragma once

#include "ui/figures/figure_spec.h"
#include "ui/presentation/presentation_steps.h"
#include "ui/presentation/presentation_theme.h"
#include "ui/presentation/slide.h"
#include "ui/widgets/deferred_call.h"

#include "core/attention_result.h"

#include <QPointer>
#include <QWidget>
#include <memory>
#include <optional>

class QComboBox;
class QFrame;
class QLabel;
class QTimer;
class QToolButton;

namespace attn::ui {

// Presentation mode: one head's computation, step by step, full screen (the caller shows
// it with showFullScreen()). Each step's matrices fill the screen with labels and numbers a
// lecture hall's back row can read (buildSlide); the equation stays on screen, with the
// numbers of the chosen cell put in. A clicker's keys step it; Up and Down, the wheel or the
// pointer choose the query (and the pointer the key); F11 or Escape closes it. The controls
// appear when the pointer moves and go again after two seconds of stillness.
class PresentationWindow : public QWidget
{
    Q_OBJECT

public:
    explicit PresentationWindow(std::shared_ptr<const core::AttentionResult> result,
                                QWidget* parent = nullptr);
    ~PresentationWindow() override;

    // A new result (the scene was edited): the step, head and chosen cell stay where they are.
    void setResult(std::shared_ptr<const core::AttentionResult> result);
    std::shared_ptr<const core::AttentionResult> result() const { return m_result; }
    void setHead(int head); // clamped to the result's heads
    int head() const { return m_head; }
    void setTheme(PresentationTheme theme);
    PresentationTheme theme() const { return m_theme; }
    void setWeightScale(WeightScale scale);
    // The steps the scene adds after attention's twelve (presentation_extras.h); null: none.
    void setExtras(std::shared_ptr<const PresentationExtras> extras);
    const PresentationExtras* extras() const { return m_extras.get(); }

    int step() const { return m_step; }
    int stepCount() const;
    void setStep(int step); // clamped to 1 .. stepCount()
    // What step `step()` shows: from 13 on, one of the scene's.
    PresentationStep stepKind() const;
    static QString stepName(int step);

    // The chosen cell: query row i and key column j, from 0 (clamped to the tokens).
    int query() const { return m_query; }
    int key() const { return m_key; }
    void setQuery(int query); // the key follows: the one the new query weighs most
    void setKey(int key);

    // The caption's rich text: the step's equation as this result computes it; and the same
    // equation with the chosen cell's numbers.
    QString caption() const;
    QString numbers() const;
    // The page on screen; null when the result cannot be presented (then message() says why).
    const Slide* slide() const { return m_slide ? &*m_slide : nullptr; }
    QString message() const { return m_message; }
    QWidget* controls() const;
    // How long the pointer must rest before the controls go (2 s).
    void setControlsHideDelay(int milliseconds);
    // Full screen on `window`'s screen (a projector beside a laptop is a second screen),
    // covering it even where no window manager applies the full-screen state. When it closes,
    // `window` is active again and the widget that had the keys has them back (`fallback`
    // where that widget is gone or lay outside `window`).
    void showOver(QWidget& window, QWidget* fallback = nullptr);

public slots:
    void nextStep();
    void previousStep();

signals:
    void stepChanged(int step);
    void cellChosen(int query, int key);
    void closed();

protected:
    void paintEvent(QPaintEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void closeEvent(QCloseEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();
    void applyTheme();
    void applySizes();
    void updateControls();
    void updateHeadCombo();
    void pointerMoved();
    void hideControls();
    void placeControls();
    void choose(int query, int key);
    void hover(QPointF pixel);

    std::shared_ptr<const core::AttentionResult> m_result;
    std::shared_ptr<const PresentationExtras> m_extras;
    std::optional<Slide> m_slide;
    QString m_message;
    int m_step = 1;
    int m_head = 0;
    int m_query = -1; // -1: not chosen yet (the presentation opens on defaultQuery)
    int m_key = -1;
    PresentationTheme m_theme = PresentationTheme::Light;
    WeightScale m_weightScale = WeightScale::Fixed;
    DeferredCall m_rebuild{this, [this] { rebuild(); }}; // coalesces rebuild requests

    QFrame* m_controls = nullptr;
    QToolButton* m_previous = nullptr;
    QToolButton* m_next = nullptr;
    QLabel* m_position = nullptr; // "4 / 12"
    QComboBox* m_headCombo = nullptr;
    QComboBox* m_themeCombo = nullptr;
    QToolButton* m_exit = nullptr;
    QTimer* m_hideTimer = nullptr;
};

} // namespace attn::ui
