#include "ui/views/head_view_tabs.h"

#include "ui/views/heatmap_view.h"
#include "ui/views/lines_view.h"
#include "ui/widgets/flow_layout.h"

#include <QComboBox>
#include <QLabel>
#include <QVBoxLayout>

namespace attn::ui {

HeadViewTabs::HeadViewTabs(const Words& words, QWidget* parent) : QTabWidget(parent)
{
    setDocumentMode(true);
    m_headView = new HeatmapView(this);
    m_headView->setObjectName(QStringLiteral("headView"));
    m_pipelineView = new HeatmapView(this);
    m_pipelineView->setObjectName(QStringLiteral("pipelineView"));
    m_linesView = new LinesView(this);
    m_linesView->setObjectName(QStringLiteral("linesView"));

    auto* differencePage = new QWidget(this);
    auto* differenceLayout = new QVBoxLayout(differencePage);
    differenceLayout->setContentsMargins(0, 6, 0, 0);
    auto* compareHost = new QWidget(differencePage);
    auto* compareRow = new FlowLayout(compareHost, 6, 4); // wraps on a narrow window
    compareRow->setContentsMargins(0, 0, 0, 0);
    m_compareCombo = new QComboBox(differencePage);
    m_compareCombo->setObjectName(QStringLiteral("compareCombo"));
    m_compareCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    m_compareLabel = new QLabel(differencePage);
    m_compareLabel->setBuddy(m_compareCombo);
    compareRow->addWidget(m_compareLabel);
    compareRow->addWidget(m_compareCombo);
    differenceLayout->addWidget(compareHost);
    m_differenceView = new HeatmapView(differencePage);
    m_differenceView->setObjectName(QStringLiteral("differenceView"));
    differenceLayout->addWidget(m_differenceView, 1);

    addTab(m_headView, tr("&Weights"));
    addTab(m_pipelineView, tr("&Pipeline"));
    addTab(m_linesView, tr("&Lines"));
    addTab(differencePage, tr("&Difference"));
    setTabToolTip(HeadTab, words.headTip);
    setTabToolTip(PipelineTab, words.pipelineTip);
    setTabToolTip(LinesTab, words.linesTip);
    setTabToolTip(DifferenceTab, words.differenceTip);
    m_compareCombo->setToolTip(words.compareTip);
    m_compareLabel->setText(words.compareLabel);
}

} // namespace attn::ui
