#include "ui/concepts/projections_page.h"

#include "ui/widgets/flow_layout.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>

namespace attn::ui {

ProjectionsPage::ProjectionsPage(QWidget* parent) : ConceptPage(ConceptView::Projections, parent)
{
    m_part = new QComboBox(this);
    m_part->setObjectName(QStringLiteral("projectionsPart"));
    m_part->setAccessibleName(tr("Show"));
    m_part->addItem(tr("One projection cut into heads (W^Q)"),
                    projectionsPartName(ProjectionsPart::Split));
    m_part->addItem(tr("QK and OV circuits of the head"),
                    projectionsPartName(ProjectionsPart::Circuits));
    m_part->addItem(tr("Bias as a row of the weights"), projectionsPartName(ProjectionsPart::Bias));
    m_part->setToolTip(tr("Which identity of the projections to show, with both of its sides"));
    m_part->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    auto* label = new QLabel(tr("S&how:"), this);
    label->setBuddy(m_part);
    controls()->addWidget(label);
    controls()->addWidget(m_part);
    controls()->addStretch();
    connect(m_part, &QComboBox::activated, this, [this] {
        scheduleRebuild();
        emit partChosen();
    });
}

ProjectionsPart ProjectionsPage::part() const
{
    return parseProjectionsPart(m_part->currentData().toString()).value_or(ProjectionsPart::Split);
}

void ProjectionsPage::setPart(ProjectionsPart part)
{
    const int index = m_part->findData(projectionsPartName(part));
    if (index == m_part->currentIndex())
        return;
    const QSignalBlocker blocker(m_part);
    m_part->setCurrentIndex(index);
    scheduleRebuild();
}

void ProjectionsPage::draw(QCustomPlot& plot, const FigureSpec& spec) const
{
    buildProjectionsFigure(plot, m_source, spec, part());
}

} // namespace attn::ui
