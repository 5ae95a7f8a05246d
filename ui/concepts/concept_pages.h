#pragma once

#include "ui/concepts/concept_view.h"
#include "ui/concepts/kernel_figure.h"
#include "ui/concepts/learned_kernel_figure.h"
#include "ui/figures/figure_spec.h"
#include "ui/widgets/deferred_call.h"

#include <QWidget>

#include <vector>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;
class QLineEdit;
class QSlider;
class QStackedLayout;

namespace attn::ui {

class FlowLayout;
class SceneDocument;

// A tab of the explorer window showing one concept figure: a row of the view's own controls
// above a QCustomPlot that the view's figure builder fills (the builder that also writes the
// exported files). Rebuilt when the source changes, when resized, and when shown after a
// change while hidden; a figure that cannot be drawn is replaced by a message saying why.
class ConceptPage : public QWidget
{
    Q_OBJECT

public:
    ConceptPage(ConceptView view, QWidget* parent);
    ~ConceptPage() override;

    ConceptView view() const { return m_view; }
    // The window's scene, result, head and focused query.
    virtual void setSource(const ConceptSource& source);
    const ConceptSource& source() const { return m_source; }
    void setSpec(const FigureSpec& spec);

    // Draws what the page shows now (its controls' state included) into `plot`, for export.
    virtual void draw(QCustomPlot& plot, const FigureSpec& spec) const = 0;
    // Another scene (New, Open, an example): what the page's controls held for the scene before
    // (its words, its task) goes; how it is shown (a map, a learning rate) stays.
    virtual void forgetScene() {}

    QCustomPlot* plot() const { return m_plot; }
    QString message() const;

protected:
    FlowLayout* controls() const { return m_controls; }
    void scheduleRebuild();
    void rebuildNow();
    // A label for a control, its mnemonic moving the focus there.
    static QLabel* buddyLabel(const QString& text, QWidget* field, QWidget* parent);
    // Brings the page's own read-outs (beside the controls) up to date with m_source; called
    // before each rebuild, so that work costs nothing while the tab is hidden.
    virtual void refreshReadouts() {}
    void showEvent(QShowEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

    ConceptSource m_source;
    FigureSpec m_spec;

private:
    ConceptView m_view;
    FlowLayout* m_controls = nullptr;
    QStackedLayout* m_stack = nullptr;
    QCustomPlot* m_plot = nullptr;
    QLabel* m_message = nullptr;
    DeferredCall m_rebuild;
    bool m_dirty = true;
};

// Seeds 000 and 002: the Jacobian of one query's weights, scaled beside unscaled.
class GradientPage : public ConceptPage
{
    Q_OBJECT
public:
    explicit GradientPage(QWidget* parent = nullptr);
    void setSource(const ConceptSource& source) override;
    void draw(QCustomPlot& plot, const FigureSpec& spec) const override;

private:
    QComboBox* m_query = nullptr;
};

// Seed 004: attention as a kernel smoother; the points are dragged with the mouse. Or
// (KernelPart::Learned) the fixed kernel against learned query and key maps.
class KernelPage : public ConceptPage
{
    Q_OBJECT
public:
    explicit KernelPage(QWidget* parent = nullptr);
    void setSource(const ConceptSource& source) override;
    void draw(QCustomPlot& plot, const FigureSpec& spec) const override;
    const KernelSetup& setup() const { return m_setup; }
    // Moves point `index` to (key, value), as a drag does.
    void movePoint(int index, double key, double value);

    KernelPart part() const;
    void setPart(KernelPart part);
    QComboBox* partCombo() const { return m_part; }
    // "kernel" or "kernel:learned", as the scene stores it.
    QString viewName() const;

signals:
    // The user picked another part (the window stores it in the scene's view).
    void partChosen();

private:
    void onPress(QMouseEvent* event);
    void onMove(QMouseEvent* event);
    void showPartControls();

    KernelSetup m_setup = KernelSetup::defaults();
    QComboBox* m_part = nullptr;
    QSlider* m_bandwidth = nullptr;
    QLabel* m_bandwidthLabel = nullptr;
    QComboBox* m_score = nullptr;
    std::vector<QWidget*> m_smootherControls; // hidden while the learned kernel shows
    int m_dragged = -1;
};

// Seeds 001 and 003: P, P Pᵀ, X = E + P; positions switched off and on through the document.
class PositionsPage : public ConceptPage
{
    Q_OBJECT
public:
    PositionsPage(SceneDocument& document, QWidget* parent = nullptr);
    void setSource(const ConceptSource& source) override;
    void draw(QCustomPlot& plot, const FigureSpec& spec) const override;
    QCheckBox* positionsCheck() const { return m_positions; }
    QLabel* orderLabel() const { return m_order; }

protected:
    void refreshReadouts() override;

private:
    SceneDocument& m_document;
    QCheckBox* m_positions = nullptr;
    QLabel* m_order = nullptr;
};

// Seed 003: the scene's vectors on a map, the nearest words, a − b + c.
class EmbeddingSpacePage : public ConceptPage
{
    Q_OBJECT
public:
    explicit EmbeddingSpacePage(QWidget* parent = nullptr);
    void draw(QCustomPlot& plot, const FigureSpec& spec) const override;
    void forgetScene() override;
    QLineEdit* analogyEdit() const { return m_analogy; }

protected:
    void refreshReadouts() override;

private:
    QComboBox* m_map = nullptr;
    QLineEdit* m_analogy = nullptr; // "king - man + woman"
    QLabel* m_nearest = nullptr;
};

} // namespace attn::ui
