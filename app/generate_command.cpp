#include "generate_command.h"

#include "command_line.h"

#include <QCommandLineParser>
#include <QJsonArray>

namespace attn::app {
namespace {

const char* stopName(core::GenerationStop stop)
{
    switch (stop) {
    case core::GenerationStop::Length:
        return "length";
    case core::GenerationStop::EndToken:
        return "eos";
    case core::GenerationStop::StopString:
        return "stop-string";
    case core::GenerationStop::NoMask:
        return "no-mask";
    case core::GenerationStop::Cancelled:
        return "cancelled";
    }
    return "length";
}

} // namespace

core::GenerationSettings GenerateOptions::settings() const
{
    core::GenerationSettings s;
    s.maxNewTokens = count.value_or(1);
    s.sampling.temperature = temperature.value_or(samplingAsked ? 1.0f : 0.0f);
    s.sampling.topK = topK;
    s.sampling.topP = topP;
    s.sampling.repetitionPenalty = repetitionPenalty;
    s.sampling.seed = seed.value_or(0);
    s.stopStrings = stopStrings;
    s.keepDistributions = false;
    return s;
}

void addGenerateOptions(QCommandLineParser& parser)
{
    parser.addOptions({
        {QStringLiteral("generate"),
         QStringLiteral("With --model: write N tokens after --text (masked models: fill up to N "
                        "[MASK]s). Greedy unless --temperature, --top-k, --top-p or --seed."),
         QStringLiteral("N")},
        {QStringLiteral("top-p"),
         QStringLiteral("With --generate: sample from the smallest set of tokens whose "
                        "probability reaches P, in (0, 1] (default 1)."),
         QStringLiteral("P")},
        {QStringLiteral("repetition-penalty"),
         QStringLiteral("With --generate: divide the positive logits of tokens already in the "
                        "text by R and multiply the negative ones (default 1: none)."),
         QStringLiteral("R")},
        {QStringLiteral("stop"),
         QStringLiteral("With --generate: stop once the continuation contains TEXT."),
         QStringLiteral("TEXT")},
    });
}

bool readGenerateOptions(const QCommandLineParser& parser, GenerateOptions& options,
                         CommandLineError& error)
{
    if (!parser.isSet(QStringLiteral("generate"))) {
        for (const char* name : {"top-p", "repetition-penalty", "stop"}) {
            if (parser.isSet(QLatin1String(name))) {
                error = {kUsage, QStringLiteral("--%1 needs --generate").arg(QLatin1String(name))};
                return false;
            }
        }
        return true;
    }
    auto value = [&](const char* name) { return parser.value(QLatin1String(name)); };
    if (!readWholeNumber(parser, QStringLiteral("generate"), 1, 100000, options.count, error))
        return false;
    bool ok = false;
    if (parser.isSet(QStringLiteral("top-k"))) {
        const int k = value("top-k").toInt(&ok);
        if (!ok || k < 0) {
            error = {kUsage, QStringLiteral("--top-k: expected 0 (every token) or a whole number "
                                            "above 0, got \"%1\"")
                                 .arg(value("top-k"))};
            return false;
        }
        options.topK = k;
    }
    if (parser.isSet(QStringLiteral("top-p"))) {
        const double p = value("top-p").toDouble(&ok);
        if (!ok || !(p > 0.0 && p <= 1.0)) {
            error = {kUsage, QStringLiteral("--top-p: expected a probability above 0 and at most "
                                            "1, got \"%1\"")
                                 .arg(value("top-p"))};
            return false;
        }
        options.topP = float(p);
    }
    if (parser.isSet(QStringLiteral("repetition-penalty"))) {
        const double r = value("repetition-penalty").toDouble(&ok);
        if (!ok || !(r > 0.0) || r > 1e6) {
            error = {kUsage, QStringLiteral("--repetition-penalty: expected a number above 0 (1: "
                                            "none), got \"%1\"")
                                 .arg(value("repetition-penalty"))};
            return false;
        }
        options.repetitionPenalty = float(r);
    }
    options.stopStrings = parser.values(QStringLiteral("stop"));
    options.samplingAsked = parser.isSet(QStringLiteral("top-k")) ||
                            parser.isSet(QStringLiteral("top-p")) ||
                            parser.isSet(QStringLiteral("seed"));
    return true;
}

void addGenerationToJson(const core::Generation& generation, QJsonObject& dump)
{
    QJsonArray generated;
    QJsonArray steps;
    for (const core::GenerationStep& step : generation.steps) {
        generated.append(step.tokenId);
        QJsonArray top;
        for (const core::Prediction& p : step.top)
            top.append(QJsonObject{{QStringLiteral("id"), p.id},
                                   {QStringLiteral("token"), p.text},
                                   {QStringLiteral("probability"), double(p.probability)}});
        steps.append(QJsonObject{{QStringLiteral("position"), step.position},
                                 {QStringLiteral("token_id"), step.tokenId},
                                 {QStringLiteral("token"), step.text},
                                 {QStringLiteral("probability"), double(step.probability)},
                                 {QStringLiteral("sampledProbability"), double(step.drawnFrom)},
                                 {QStringLiteral("top"), top}});
    }
    dump.insert(QStringLiteral("generated"), generated);
    dump.insert(QStringLiteral("steps"), steps);
    dump.insert(QStringLiteral("continuation"), generation.continuation);
    dump.insert(QStringLiteral("stop"), QLatin1String(stopName(generation.stop)));
}

} // namespace attn::app
