#include "ui/model/importance_view.h"

#include "ui/model/model_figures.h"
#include "ui/widgets/flow_layout.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace attn::ui {

namespace {

constexpr int kRankedHeads = 5;

} // namespace

ImportanceView::ImportanceView(QWidget* parent) : QWidget(parent)
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 6, 0, 0);
    auto* rowHost = new QWidget(this);
    auto* row = new FlowLayout(rowHost, 6, 4); // wraps on a narrow window
    row->setContentsMargins(0, 0, 0, 0);
    m_compute = new QPushButton(tr("&Rank Heads"), this);
    m_compute->setObjectName(QStringLiteral("importanceCompute"));
    m_compute->setToolTip(tr(
        "Switch each head off in turn and measure how much the predicted token's log-probability "
        "falls (only the layers above each head recompute)"));
    m_progress = new QProgressBar(this);
    m_progress->setTextVisible(true);
    m_progress->setVisible(false);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setVisible(false);
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    m_note->setMinimumWidth(1);
    row->addWidget(m_compute);
    row->addWidget(m_progress);
    row->addWidget(m_cancel);
    layout->addWidget(rowHost);
    layout->addWidget(m_note);
    m_panels = new MatrixPanelsView(this);
    m_panels->setObjectName(QStringLiteral("importancePanels"));
    // The colours rank the heads only roughly: the top ones by name and number beside them.
    m_ranking = new QLabel(this);
    m_ranking->setObjectName(QStringLiteral("importanceRanking"));
    m_ranking->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* panelsRow = new QHBoxLayout;
    panelsRow->addWidget(m_panels, 1);
    panelsRow->addWidget(m_ranking, 0, Qt::AlignTop);
    layout->addLayout(panelsRow, 1);
    connect(m_compute, &QPushButton::clicked, this, &ImportanceView::computeRequested);
    connect(m_cancel, &QPushButton::clicked, this, &ImportanceView::cancelRequested);
    connect(m_panels, &MatrixPanelsView::cellClicked, this,
            [this](int, int row, int column) { emit headClicked(row, column); });
    clear();
}

void ImportanceView::clear()
{
    m_importance.reset();
    setRunning(false);
    m_note->clear();
    m_ranking->clear();
    m_panels->setMessage(
        tr("Rank Heads measures, for the prediction shown, how much each head matters: the drop in "
           "the "
           "log-probability of the top token when that head alone is switched off."));
}

void ImportanceView::setRunning(bool running)
{
    m_compute->setEnabled(!running);
    m_progress->setVisible(running);
    m_cancel->setVisible(running);
    if (running) {
        m_progress->setRange(0, 0);
        m_note->clear();
    }
}

void ImportanceView::setProgress(int done, int total)
{
    m_progress->setRange(0, total);
    m_progress->setValue(done);
    m_progress->setFormat(tr("%1 of %2 heads").arg(done).arg(total));
}

void ImportanceView::setImportance(const std::optional<core::HeadImportance>& importance,
                                   const QString& title, int layer, int head)
{
    m_importance = importance;
    if (!importance) {
        m_ranking->clear();
        return;
    }
    m_panels->setPanels({importancePanel(*importance, layer, head)}, title);
    m_ranking->setText(tr("Most important heads:") + QLatin1Char('\n') +
                       rankedHeadsText(*importance, kRankedHeads));
}

void ImportanceView::setMessage(const QString& text)
{
    m_note->setText(text);
}

} // namespace attn::ui
