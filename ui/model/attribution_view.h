#pragma once

#include "ui/figures/figure_spec.h"

#include "core/model/logit_attribution.h"
#include "core/model/model_result.h"

#include <QWidget>
#include <memory>
#include <optional>

class QLabel;
class QLineEdit;

namespace attn::ui {

class MatrixPanelsView;

// The Attribution tab (Elhage et al. 2021, the direct path): each head's output through the
// final norm, its scale frozen from the run, onto the unembedding of the chosen token (the
// model's prediction, or one typed), as a layers x heads heatmap; the other terms of the logit
// are written beside it. A click on a head's cell opens that head. Cheap (one product per
// head), so computed on the UI thread for each run while the tab is shown.
class AttributionView : public QWidget
{
    Q_OBJECT

public:
    explicit AttributionView(QWidget* parent = nullptr);

    void setSource(std::shared_ptr<const core::ModelResult> result);
    void setSelection(int layer, int head);
    void setFigureStyle(const FigureStyle& style);
    // The attribution of the run shown, once computed (nullopt for another run or none).
    std::optional<core::LogitAttribution> attribution() const;

    QLineEdit* tokenEdit() const { return m_token; }
    QLabel* termsLabel() const { return m_terms; }
    MatrixPanelsView* panels() const { return m_panels; }

public slots:
    void compute();

signals:
    void headClicked(int layer, int head);
    void errorShown(const QString& text); // a token typed that is not one token
    void errorCleared();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void showAttribution();

    std::shared_ptr<const core::ModelResult> m_source;
    std::shared_ptr<const core::ModelResult> m_attributionFor;
    std::optional<core::LogitAttribution> m_attribution;
    int m_layer = -1;
    int m_head = -1;

    QLineEdit* m_token = nullptr;
    QLabel* m_terms = nullptr;
    MatrixPanelsView* m_panels = nullptr;
};

} // namespace attn::ui
