#pragma once

#include <QString>
#include <QTabWidget>

class QComboBox;
class QLabel;

namespace attn::ui {

class HeatmapView;
class LinesView;

// The four views of one head that both windows open with, in this order: its weights, its
// pipeline (X to output), its lines, and the difference from the same head with one thing
// changed (the choice of that change above the difference heatmap). A window adds its own tabs
// after these, gives the tooltips and the label its own words and fills the choice.
class HeadViewTabs : public QTabWidget
{
    Q_OBJECT

public:
    // A window's own words for the four views: their tabs' tooltips, and the change the
    // Difference tab subtracts (its choice's tooltip and the label before it).
    struct Words
    {
        QString headTip;
        QString pipelineTip;
        QString linesTip;
        QString differenceTip;
        QString compareTip;
        QString compareLabel;
    };

    explicit HeadViewTabs(const Words& words, QWidget* parent = nullptr);

    // The four views' tabs; a window's own tabs follow from FirstOwnTab on.
    enum Tab { HeadTab, PipelineTab, LinesTab, DifferenceTab, FirstOwnTab };

    HeatmapView* headView() const { return m_headView; }
    HeatmapView* pipelineView() const { return m_pipelineView; }
    LinesView* linesView() const { return m_linesView; }
    HeatmapView* differenceView() const { return m_differenceView; }
    QComboBox* compareCombo() const { return m_compareCombo; }

private:
    HeatmapView* m_headView = nullptr;
    HeatmapView* m_pipelineView = nullptr;
    LinesView* m_linesView = nullptr;
    HeatmapView* m_differenceView = nullptr;
    QComboBox* m_compareCombo = nullptr;
    QLabel* m_compareLabel = nullptr;
};

} // namespace attn::ui
