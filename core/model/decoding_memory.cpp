#include "core/model/decoding_memory.h"

#include "core/error.h"
#include "core/model/model_config.h"

#include <algorithm>
#include <limits>

namespace attn::core {

namespace {

constexpr double kFloat = 4.0;
constexpr double kCandidate = 36.0; // a Candidate (24 bytes), its log-probability, its logit

// Floats a step's forward over t decoder rows keeps (decodingMemory's list).
double stepFloats(double layers, double heads, double dHead, double dModel, double vocab,
                  double source, bool relative, double t)
{
    const double self = heads * (4.0 * t * dHead + t * t);
    const double cross = heads * (2.0 * t * dHead + 2.0 * source * dHead + t * source);
    return layers * (self + cross + 4.0 * t * dModel) + (relative ? heads * t * t : 0.0) +
           (layers + 2.0) * t * dModel + vocab;
}

// d_head as the loader sets it; d_model / heads for a configuration made by hand.
double headWidth(const ModelConfig& config)
{
    return config.dHead > 0 ? config.dHead : config.dModel / std::max(1, config.heads);
}

} // namespace

int decodedLength(const ModelConfig& config, int maxNewTokens)
{
    return std::max(1, std::min(maxNewTokens, config.maxPositions - 1));
}

std::int64_t decodingMemory(const ModelConfig& config, int sourceTokens, int length, int beams)
{
    const double layers = config.layers;
    const double heads = config.heads;
    const double dHead = headWidth(config);
    const double source = sourceTokens;
    const double keysValues = layers * heads * 2.0 * double(length) * dHead; // one hypothesis
    const double cross = layers * heads * 2.0 * source * dHead;
    double steps = keysValues;
    for (int t = 1; t <= length + 1; ++t)
        steps += stepFloats(layers, heads, dHead, config.dModel, config.vocab, source,
                            config.positions == PositionKind::RelativeBias, t);
    double bytes = kFloat * (cross + steps);
    if (beams > 1)
        bytes = std::max(bytes, kFloat * (cross + 2.0 * beams * keysValues) +
                                    kCandidate * beams * double(config.vocab));
    const auto most = double(std::numeric_limits<std::int64_t>::max());
    return bytes >= most ? std::numeric_limits<std::int64_t>::max() : std::int64_t(bytes);
}

void checkDecodingMemory(const ModelConfig& config, int sourceTokens, int maxNewTokens, int beams,
                         const AvailableMemory& available, const std::string& prefix)
{
    const int length = decodedLength(config, maxNewTokens);
    const std::int64_t needed = decodingMemory(config, sourceTokens, length, beams);
    if (available.bytes < 0 || needed <= available.bytes)
        return;
    // The longest that fits: the memory grows with the length.
    int fits = 0;
    for (int low = 1, high = length - 1; low <= high;) {
        const int mid = low + (high - low) / 2;
        if (decodingMemory(config, sourceTokens, mid, beams) <= available.bytes) {
            fits = mid;
            low = mid + 1;
        } else {
            high = mid - 1;
        }
    }
    const std::string how =
        beams > 1 ? " with " + std::to_string(beams) + " beams" : std::string(" greedily");
    throw Error(prefix + "decoding " + std::to_string(length) + " tokens" + how + " needs " +
                memoryText(needed) + " for the decoder's keys, values and attention weights; " +
                memoryText(available.bytes) + " is available (" + available.limitedBy + "): " +
                (fits > 0 ? "at most " + std::to_string(fits) +
                                (fits == 1 ? " token fits" : " tokens fit") + how
                          : "not even 1 token fits" + how));
}

std::int64_t keyValueCacheMemory(const ModelConfig& config, int tokens)
{
    const double dHead = headWidth(config);
    const double bytes = kFloat * config.layers * config.heads * 2.0 * double(tokens) * dHead;
    const auto most = double(std::numeric_limits<std::int64_t>::max());
    return bytes >= most ? std::numeric_limits<std::int64_t>::max() : std::int64_t(bytes);
}

void checkGenerationMemory(const ModelConfig& config, int promptTokens, int newTokens,
                           const AvailableMemory& available)
{
    const int total = promptTokens + newTokens;
    const std::int64_t needed = keyValueCacheMemory(config, total);
    if (available.bytes < 0 || needed <= available.bytes)
        return;
    const std::int64_t perToken = std::max<std::int64_t>(1, keyValueCacheMemory(config, 1));
    const std::int64_t fits = available.bytes / perToken - promptTokens;
    throw Error("generation",
                std::to_string(promptTokens) + " + " + std::to_string(newTokens) + " tokens need " +
                    memoryText(needed) + " for the keys and values of every layer and head; " +
                    memoryText(available.bytes) + " is available (" + available.limitedBy + "): " +
                    (fits > 0 ? "ask for at most " + std::to_string(fits) +
                                    (fits == 1 ? " new token" : " new tokens")
                              : "not even the prompt fits"));
}

} // namespace attn::core
