#pragma once

#include "ui/model/matrix_panels_view.h"

#include "core/model/model_analysis.h"

#include <QWidget>
#include <optional>

class QLabel;
class QProgressBar;
class QPushButton;

namespace attn::ui {

// Head importance: a button that starts it (each head switched off in turn, in the
// background), its progress and Cancel, and the layers x heads heatmap of how much the
// log-probability of the predicted token drops without each head. A click selects the head.
class ImportanceView : public QWidget
{
    Q_OBJECT

public:
    explicit ImportanceView(QWidget* parent = nullptr);

    void setRunning(bool running);
    void setProgress(int done, int total);
    void setImportance(const std::optional<core::HeadImportance>& importance, const QString& title,
                       int layer, int head);
    void setMessage(const QString& text);
    // Nothing ranked (another model is open): the heatmap's place says what Rank Heads does.
    void clear();
    const std::optional<core::HeadImportance>& importance() const { return m_importance; }

    QPushButton* computeButton() const { return m_compute; }
    QProgressBar* progressBar() const { return m_progress; }
    MatrixPanelsView* panels() const { return m_panels; }
    QLabel* ranking() const { return m_ranking; } // the top heads, most important first

signals:
    void computeRequested();
    void cancelRequested();
    void headClicked(int layer, int head);

private:
    QPushButton* m_compute = nullptr;
    QPushButton* m_cancel = nullptr;
    QProgressBar* m_progress = nullptr;
    QLabel* m_note = nullptr;
    MatrixPanelsView* m_panels = nullptr;
    QLabel* m_ranking = nullptr;
    std::optional<core::HeadImportance> m_importance;
};

} // namespace attn::ui
