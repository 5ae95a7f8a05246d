#pragma once

#include "attention_result.h"
#include "backend.h"
#include "block_ops.h"
#include "model_weights.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

namespace attn::core {

struct Scene;

// One block of a stacked scene (seed 001: self-attention, then a fully connected layer, used
// "iteratively ... several times"), post-norm as in Vaswani et al. 2017, Fig. 1:
//   H = LayerNorm(X + MultiHead(X)),   Y = LayerNorm(H + FFN(H)),
//   FFN(H) = max(0, H W_1 + b_1) W_2 + b_2   (eq. 2).
// Y is the next block's X. The norms have unit gain and zero bias and are not trained.
struct StackedLayer
{
    // The block's attention; empty in the first block, whose attention is Scene::weights
    // (so a one-layer scene and its matrix editor stay as they are).
    ModelWeights attention;
    Matrix W1;    // d_model x d_ff
    RowVector b1; // 1 x d_ff
    Matrix W2;    // d_ff x d_model
    RowVector b2; // 1 x d_model

    int dFeedForward() const { return int(W1.cols()); }
    bool operator==(const StackedLayer&) const = default;
};

constexpr int kMaxStackedLayers = 4;
constexpr float kStackedNormEps = 1e-5f;

// The seed layer `layer` (> 0) draws its attention from, so that layer 2 is not a copy of
// layer 1 (makeWeights keys its streams by the matrix's name alone).
std::uint64_t layerSeed(std::uint64_t seed, int layer);

// 1 for a scene of one attention layer (no "layers"), else the number of blocks.
int layerCount(const Scene& scene);
bool isStacked(const Scene& scene);
// Layer `layer`'s attention weights (from 0): Scene::weights for the first.
const ModelWeights& layerAttention(const Scene& scene, int layer);
ModelWeights& layerAttention(Scene& scene, int layer);

// A block with fresh weights: Xavier W_1, W_2 drawn from `seed` under the block's own names
// ("layers[1].W_1"), zero biases, and (after the first) Xavier attention of the scene's shape.
StackedLayer makeStackedLayer(const ModelWeights& shape, int layer, int dFeedForward,
                              std::uint64_t seed);
// Turns a scene into `count` blocks (1 to kMaxStackedLayers), keeping the blocks it has;
// count 0 makes it a single attention layer again (the blocks are dropped).
void setLayerCount(Scene& scene, int count, int dFeedForward = 0);
// Throws Error naming the path ("layers[1].W_2: expected 16x8, got 8x8").
void validateLayers(const Scene& scene);

// The norm and feed-forward weights of block `layer` as the block operations read them.
NormWeights stackedNorm(int dModel);
FeedForwardWeights stackedFeedForward(const StackedLayer& layer);

// Everything one block computes, rows = tokens.
struct BlockForward
{
    std::shared_ptr<const AttentionResult> attention; // its queryInput() is the block's X
    Matrix residual;                                  // X + MultiHead(X)
    Matrix normed;                                    // H = LayerNorm(X + MultiHead(X))
    Matrix feedForward;                               // FFN(H)
    Matrix feedForwardResidual;                       // H + FFN(H)
    Matrix output; // Y = LayerNorm(H + FFN(H)): the next block's X
};

// The problem block `layer` computes: the first is resolveProblem(scene); every later one has
// the same tokens, mask and settings, the previous block's output as its X (no positions are
// added again: they entered with the first X) and the block's own attention weights.
std::shared_ptr<const Problem> layerProblem(const Problem& first, const Matrix& input,
                                            const ModelWeights& weights);

// Runs blocks 0 .. lastLayer (every block when lastLayer < 0) on `backend`, attention through
// compute() and the rest through its blockOps(). A scene without layers is one block of
// attention alone (residual, norms and FFN left empty). Throws Error as resolveProblem does.
std::vector<BlockForward> forwardLayers(const Scene& scene, Backend& backend,
                                        const ComputeOptions& options = {}, int lastLayer = -1);

// The problem whose heads the views show for layer `layer` (Scene::view.layer): the scene's
// own problem for the first, else the blocks before it run on `backend` (without
// intermediates; `cancel` is passed on) to make its X. Throws Error ("view.layer: ...") for a
// layer the scene lacks.
std::shared_ptr<const Problem> resolveLayerProblem(const Scene& scene, Backend& backend, int layer,
                                                   const std::atomic<bool>* cancel = nullptr);

} // namespace attn::core
