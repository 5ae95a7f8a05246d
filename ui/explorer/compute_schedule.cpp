#include "ui/explorer/compute_schedule.h"

#include "ui/document/scene_document.h"
#include "ui/widgets/stale_indicator.h"

namespace attn::ui {

ComputeSchedule::ComputeSchedule(ComputeController& compute, const SceneDocument& document,
                                 StaleIndicator& stale, WindowHooks hooks, QObject* parent)
    : QObject(parent), m_compute(compute), m_document(document), m_stale(stale),
      m_hooks(std::move(hooks))
{
    m_staleDelay.setSingleShot(true);
    m_staleDelay.setInterval(400);
    connect(&m_staleDelay, &QTimer::timeout, this, &ComputeSchedule::updateStale);
    connect(&m_compute, &ComputeController::finished, this, &ComputeSchedule::onFinished);
}

void ComputeSchedule::request()
{
    if (m_queued)
        return;
    m_queued = true;
    QTimer::singleShot(0, this, [this] {
        m_queued = false;
        if (!m_staleDelay.isActive() && !m_stale.isStale())
            m_staleDelay.start(); // stale if this takes a while
        m_compute.request(m_hooks.makeRequest());
    });
}

bool ComputeSchedule::isAnswered() const
{
    return !m_queued && !m_compute.isBusy() && m_shownGeneration == m_compute.latestGeneration();
}

// The figures stay when the input cannot be computed (a half-typed sentence is still worth
// seeing the last result of), and during a compute; either way they must not pass for the
// input as it is now.
void ComputeSchedule::updateStale()
{
    const auto result = m_document.result();
    QString note;
    if (result && !m_error.isEmpty()) {
        note = StaleIndicator::earlierInputNote(result->problem->queryTokens);
    } else if (result && (m_queued || m_compute.isBusy()) && !m_staleDelay.isActive()) {
        note = tr("Not current: computing the input as it is now…");
    }
    m_stale.setStale(note);
}

void ComputeSchedule::onFinished(const ComputeReply& reply)
{
    m_shownGeneration = reply.generation;
    m_staleDelay.stop();
    if (!reply.result) {
        // The last good figure stays, dimmed under a note; the reason is shown until an edit
        // fixes it.
        m_error = m_hooks.describeError(reply.errorWhere, reply.error);
        updateStale();
        emit failed(m_error);
        return;
    }
    m_error.clear();
    if (m_compute.isBusy())
        m_staleDelay.start(); // a newer input is computing: stale only if it takes a while
    emit computed(reply);
}

} // namespace attn::ui
