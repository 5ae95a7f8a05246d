#pragma once

#include "core/model/generation.h"

#include <QJsonObject>
#include <QString>
#include <optional>

class QCommandLineParser;

namespace attn::app {

struct CommandLineError;

// --generate N and the sampling options that go with it (with --model).
struct GenerateOptions
{
    std::optional<int> count; // --generate N
    // --temperature (0: greedy); unset: greedy unless --top-k, --top-p or --seed asks for
    // sampling, then 1 (transformers' default).
    std::optional<float> temperature;
    int topK = 0;                   // --top-k K (0: every token)
    float topP = 1.0f;              // --top-p P
    float repetitionPenalty = 1.0f; // --repetition-penalty R
    std::optional<std::uint64_t> seed;
    QStringList stopStrings; // --stop TEXT
    bool samplingAsked = false;

    bool active() const { return count.has_value(); }
    core::GenerationSettings settings() const;
};

// Adds --generate, --top-p, --repetition-penalty and --stop (--temperature, --top-k and --seed
// are the parser's own and take the sampling meaning with --generate).
void addGenerateOptions(QCommandLineParser& parser);
// Reads --generate, --top-p, --repetition-penalty, --stop and, with --generate, --top-k; false
// (with a usage error) for a malformed value or one of them without --generate.
bool readGenerateOptions(const QCommandLineParser& parser, GenerateOptions& options,
                         CommandLineError& error);

// What --dump adds for a generation: "generated" (the new ids in order) and "steps".
void addGenerationToJson(const core::Generation& generation, QJsonObject& dump);

} // namespace attn::app
