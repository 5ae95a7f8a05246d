#pragma once

#include "core/attention_result.h"
#include "core/scene.h"

#include <QString>
#include <memory>
#include <optional>

namespace attn::core {
class Trainer;
}

namespace attn::ui {

// The views of what the seed notes teach beyond the attention arithmetic: how a layer learns,
// why 1/sqrt(d_k) keeps the gradient, attention as a kernel smoother (seed 004), positional
// encodings (seeds 001 and 003), embedding space (seed 003), the algebra of the projections
// (seeds 002 and 004) and what hard attention loses (seed 000). Each is a tab of the explorer
// window and a figure of the command line's --view.
enum class ConceptView {
    Train,          // the loss curve and the heads' weights of a layer trained on a task
    Gradient,       // the softmax Jacobian and the scores' histogram, scaled beside unscaled
    Kernel,         // attention as a Nadaraya-Watson smoother on a line, and Q, K in 2-D
    Positions,      // P, P P^T and X = E + P; rotary positions' score against distance
    EmbeddingSpace, // the token vectors on two principal components, neighbours, analogies
    Projections,    // W^Q as the heads' W_i^Q side by side, QK and OV circuits, absorbed biases
    Hard,           // softmax beside argmax: the weight hard attention drops, per query
    Context,        // one word in two sentences: the same input, two outputs
    Layers,         // stacked blocks: attention, feed-forward, residuals and norms, per layer
    Mixing,         // fully connected, convolution and attention weights as a word changes
};

// "train", "gradient", "kernel", "positions", "embedding-space", "projections", "hard",
// "context", "layers", "mixing" (the command line's and the scene file's words).
std::optional<ConceptView> parseConceptView(const QString& name);
QString conceptViewName(ConceptView view);

// What a concept figure is drawn from. The window fills it from the document and its latest
// result; the command line from the scene file (or --text) and one compute.
struct ConceptSource
{
    std::shared_ptr<const core::Scene> scene; // the scene as it is; never null
    std::shared_ptr<const core::AttentionResult>
        result;    // its result with intermediates; may be null
    int head = 0;  // the head the window shows (0-based; the mean of heads shows head 0)
    int query = 0; // the query row in focus (0-based)
    const core::Trainer* trainer = nullptr; // the train view's trainer; null: not trained yet
};

} // namespace attn::ui
