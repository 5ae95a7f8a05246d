#pragma once

#include <QTabWidget>

class QComboBox;
class QLabel;

namespace attn::ui {

class HeatmapView;
class LinesView;

// The four views of one head that both windows open with, in this order: its weights, its
// pipeline (X to output), its lines, and the difference from the same head with one thing
// changed (the choice of that change above the difference heatmap). A window adds its own tabs
// after these and fills the choice, the label and the tooltips with its own words.
class HeadViewTabs : public QTabWidget
{
    Q_OBJECT

public:
    explicit HeadViewTabs(QWidget* parent = nullptr);

    HeatmapView* headView() const { return m_headView; }
    HeatmapView* pipelineView() const { return m_pipelineView; }
    LinesView* linesView() const { return m_linesView; }
    HeatmapView* differenceView() const { return m_differenceView; }
    QComboBox* compareCombo() const { return m_compareCombo; }
    QLabel* compareLabel() const { return m_compareLabel; }

private:
    HeatmapView* m_headView = nullptr;
    HeatmapView* m_pipelineView = nullptr;
    LinesView* m_linesView = nullptr;
    HeatmapView* m_differenceView = nullptr;
    QComboBox* m_compareCombo = nullptr;
    QLabel* m_compareLabel = nullptr;
};

} // namespace attn::ui
