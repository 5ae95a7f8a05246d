#pragma once

#include "core/backend.h"
#include "core/model/encoder_decoder.h"
#include "ui/document/thread_mailbox.h"

#include <QObject>
#include <atomic>
#include <memory>
#include <thread>

namespace attn::ui {

// core::decodeGreedilyWith in the background: each chosen word handed to the UI thread as it
// comes, Stop between words and inside a forward. It has a backend of its own, so the window's
// live updates never wait for it.
class EncDecJob : public QObject
{
    Q_OBJECT

public:
    EncDecJob(std::shared_ptr<const core::Model> model, std::vector<core::Token> source,
              core::EncoderDecoderInterventions interventions, int maxNewTokens,
              std::unique_ptr<core::Backend> backend, QObject* parent = nullptr);
    ~EncDecJob() override; // stops and waits

    void start();
    void stop() { m_cancel = true; }
    bool isRunning() const { return m_running; }

signals:
    void stepped(const attn::core::GreedyStep& step);
    void finished(bool stopped); // the end-of-sequence token, the length, or Stop
    void failed(const QString& message);

private:
    std::shared_ptr<const core::Model> m_model;
    std::vector<core::Token> m_source;
    core::EncoderDecoderInterventions m_interventions;
    int m_maxNewTokens = 0;
    std::unique_ptr<core::Backend> m_backend;
    ThreadMailbox m_mailbox;
    std::thread m_thread;
    std::atomic<bool> m_cancel{false};
    bool m_running = false;
};

} // namespace attn::ui
