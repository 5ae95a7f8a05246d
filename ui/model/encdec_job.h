#pragma once

#include "core/backend.h"
#include "core/model/encoder_decoder.h"
#include "ui/document/job_thread.h"

#include <QObject>
#include <memory>

namespace attn::ui {

// core::decodeGreedilyWith (one beam) or core::decodeWithBeams in the background: each chosen
// word handed to the UI thread as it comes (with beams, the chosen hypothesis' words once the
// search has ended), Stop between words and inside a forward. It has a backend of its own, so the
// window's live updates never wait for it.
class EncDecJob : public QObject
{
    Q_OBJECT

public:
    EncDecJob(std::shared_ptr<const core::Model> model, std::vector<core::Token> source,
              core::EncoderDecoderInterventions interventions, int maxNewTokens,
              std::unique_ptr<core::Backend> backend, int beams = 1, QObject* parent = nullptr);

    void start();
    void stop() { m_thread.cancel(); }
    bool isRunning() const { return m_thread.isRunning(); }

signals:
    void stepped(const attn::core::GreedyStep& step);
    // With beams: the chosen hypothesis, after its steps and before finished().
    void searched(const attn::core::BeamHypothesis& best);
    void finished(bool stopped); // the end-of-sequence token, the length, or Stop
    void failed(const QString& message);

private:
    std::shared_ptr<const core::Model> m_model;
    std::vector<core::Token> m_source;
    core::EncoderDecoderInterventions m_interventions;
    int m_maxNewTokens = 0;
    int m_beams = 1;
    std::unique_ptr<core::Backend> m_backend;
    JobThread m_thread; // last: the thread ends before the members above go
};

} // namespace attn::ui

Q_DECLARE_METATYPE(attn::core::BeamHypothesis)
