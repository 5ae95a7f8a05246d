#pragma once

#include "ui/document/compute_controller.h"

#include <QObject>
#include <QString>
#include <QTimer>
#include <functional>

namespace attn::ui {

class SceneDocument;
class StaleIndicator;

// When the explorer computes, and what its figures say meanwhile. The edits of one event (a
// macro, a drag step) coalesce into one request. Figures that stay on screen while they do
// not match the input are marked stale (StaleIndicator): at once when the input as it is
// cannot be computed, and when a compute takes longer than a moment.
class ComputeSchedule : public QObject
{
    Q_OBJECT

public:
    struct WindowHooks
    {
        // The request for the scene as it is now (the view's size, the Difference tab's choice).
        std::function<ComputeRequest()> makeRequest;
        // A compute error in the window's words: the place it names first, and its text.
        std::function<QString(const QString& where, const QString& error)> describeError;
    };

    ComputeSchedule(ComputeController& compute, const SceneDocument& document,
                    StaleIndicator& stale, WindowHooks hooks, QObject* parent = nullptr);

    // Computes the scene once the current event is handled.
    void request();
    // True once the reply to the latest request has been handled.
    bool isAnswered() const;
    // Why the input as it is cannot be computed; empty after a result.
    const QString& error() const { return m_error; }
    // The stale note for the figures on screen now (after a result is shown, say).
    void updateStale();

signals:
    // A result for the latest request, or for one before it while a newer one computes.
    void computed(const attn::ui::ComputeReply& reply);
    // The input could not be computed: `error` in the window's words.
    void failed(const QString& error);

private:
    void onFinished(const ComputeReply& reply);

    ComputeController& m_compute;
    const SceneDocument& m_document;
    StaleIndicator& m_stale;
    WindowHooks m_hooks;
    QTimer m_staleDelay; // a compute that takes longer than this makes the figures stale
    QString m_error;
    quint64 m_shownGeneration = 0;
    bool m_queued = false;
};

} // namespace attn::ui
