#pragma once

#include "core/backend.h"
#include "core/model/generation.h"
#include "ui/document/job_thread.h"

#include <QObject>
#include <memory>

namespace attn::ui {

// core::generate in the background, each chosen token handed to the UI thread as it comes,
// Stop between tokens (and inside a forward). It has a backend of its own, so the window's
// live updates never wait for it.
class GenerationJob : public QObject
{
    Q_OBJECT

public:
    GenerationJob(std::shared_ptr<const core::Model> model, std::vector<core::Token> prompt,
                  core::Interventions interventions, core::GenerationSettings settings,
                  std::unique_ptr<core::Backend> backend, QObject* parent = nullptr);

    void start();
    void stop() { m_thread.cancel(); }
    bool isRunning() const { return m_thread.isRunning(); }

signals:
    // The newest token; `text` is the continuation so far.
    void stepped(const attn::core::GenerationStep& step, const QString& text);
    void finished(attn::core::GenerationStop stop);
    void failed(const QString& message);

private:
    std::shared_ptr<const core::Model> m_model;
    std::vector<core::Token> m_prompt;
    core::Interventions m_interventions;
    core::GenerationSettings m_settings;
    std::unique_ptr<core::Backend> m_backend;
    JobThread m_thread; // last: the thread ends before the members above go
};

} // namespace attn::ui

Q_DECLARE_METATYPE(attn::core::GenerationStep)
Q_DECLARE_METATYPE(attn::core::GenerationStop)
