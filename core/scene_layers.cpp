#include "scene_layers.h"

#include "error.h"
#include "json_path_reader.h"
#include "random.h"
#include "scene.h"

#include <algorithm>
#include <string>

namespace attn::core {
namespace {

using json_path::shape;

std::string layerPath(int layer, const char* key)
{
    return "layers[" + std::to_string(layer) + "]." + key;
}

void checkShape(const std::string& path, Eigen::Index rows, Eigen::Index cols,
                Eigen::Index expectedRows, Eigen::Index expectedCols)
{
    if (rows != expectedRows || cols != expectedCols)
        throw Error(path,
                    "expected " + shape(expectedRows, expectedCols) + ", got " + shape(rows, cols));
}

} // namespace

std::uint64_t layerSeed(std::uint64_t seed, int layer)
{
    return hashString("layers[" + std::to_string(layer) + "]", seed);
}

int layerCount(const Scene& scene)
{
    return std::max(1, int(scene.layers.size()));
}

bool isStacked(const Scene& scene)
{
    return !scene.layers.empty();
}

const ModelWeights& layerAttention(const Scene& scene, int layer)
{
    return layer == 0 ? scene.weights : scene.layers.at(std::size_t(layer)).attention;
}

ModelWeights& layerAttention(Scene& scene, int layer)
{
    return layer == 0 ? scene.weights : scene.layers.at(std::size_t(layer)).attention;
}

StackedLayer makeStackedLayer(const ModelWeights& shape, int layer, int dFeedForward,
                              std::uint64_t seed)
{
    StackedLayer out;
    if (layer > 0)
        out.attention = makeWeights(shape.dModel, shape.headCount(), shape.dK, shape.dV,
                                    WeightInit::Xavier, layerSeed(seed, layer));
    out.W1.resize(shape.dModel, dFeedForward);
    out.W2.resize(dFeedForward, shape.dModel);
    initialiseMatrix(out.W1, WeightInit::Xavier, seed, layerPath(layer, "W_1"));
    initialiseMatrix(out.W2, WeightInit::Xavier, seed, layerPath(layer, "W_2"));
    out.b1 = RowVector::Zero(dFeedForward);
    out.b2 = RowVector::Zero(shape.dModel);
    return out;
}

void setLayerCount(Scene& scene, int count, int dFeedForward)
{
    if (count < 0 || count > kMaxStackedLayers)
        throw Error("layers", "expected 0 to " + std::to_string(kMaxStackedLayers) +
                                  " layers, got " + std::to_string(count));
    if (count == 0) {
        scene.layers.clear();
        return;
    }
    if (dFeedForward <= 0)
        dFeedForward =
            scene.layers.empty() ? 2 * scene.weights.dModel : scene.layers.front().dFeedForward();
    const int have = int(scene.layers.size());
    scene.layers.resize(std::size_t(count));
    for (int l = have; l < count; ++l)
        scene.layers[std::size_t(l)] = makeStackedLayer(scene.weights, l, dFeedForward, scene.seed);
}

void validateLayers(const Scene& scene)
{
    if (int(scene.layers.size()) > kMaxStackedLayers)
        throw Error("layers", "at most " + std::to_string(kMaxStackedLayers) + " layers, got " +
                                  std::to_string(scene.layers.size()));
    if (isStacked(scene) && scene.source)
        throw Error("layers", "stacked layers are self-attention; remove \"source\" or the layers");
    const int d = scene.weights.dModel;
    for (int l = 0; l < int(scene.layers.size()); ++l) {
        const StackedLayer& layer = scene.layers[std::size_t(l)];
        if (l > 0) {
            const ModelWeights& w = layer.attention;
            if (w.dModel != d || w.headCount() != scene.weights.headCount() ||
                w.dK != scene.weights.dK || w.dV != scene.weights.dV)
                throw Error("layers[" + std::to_string(l) + "]",
                            "the attention's shape differs from the first layer's");
            try {
                w.validate();
            } catch (const Error& error) {
                throw Error("layers[" + std::to_string(l) + "]", error);
            }
        }
        const Eigen::Index f = layer.W1.cols();
        if (f < 1)
            throw Error(layerPath(l, "W_1"), "needs at least one column (d_ff >= 1)");
        checkShape(layerPath(l, "W_1"), layer.W1.rows(), f, d, f);
        checkShape(layerPath(l, "b_1"), layer.b1.rows(), layer.b1.cols(), 1, f);
        checkShape(layerPath(l, "W_2"), layer.W2.rows(), layer.W2.cols(), f, d);
        checkShape(layerPath(l, "b_2"), layer.b2.rows(), layer.b2.cols(), 1, d);
        if (!layer.W1.allFinite() || !layer.b1.allFinite() || !layer.W2.allFinite() ||
            !layer.b2.allFinite())
            throw Error("layers[" + std::to_string(l) + "]", "a feed-forward weight is not finite");
    }
}

NormWeights stackedNorm(int dModel)
{
    NormWeights norm;
    norm.kind = NormKind::LayerNorm;
    norm.gain = RowVector::Ones(dModel);
    norm.bias = RowVector::Zero(dModel);
    norm.eps = kStackedNormEps;
    return norm;
}

FeedForwardWeights stackedFeedForward(const StackedLayer& layer)
{
    FeedForwardWeights ffn;
    ffn.kind = FeedForwardKind::Plain;
    ffn.activation = Activation::Relu;
    ffn.in = LinearWeights{layer.W1, layer.b1};
    ffn.out = LinearWeights{layer.W2, layer.b2};
    return ffn;
}

std::shared_ptr<const Problem> layerProblem(const Problem& first, const Matrix& input,
                                            const ModelWeights& weights)
{
    auto p = std::make_shared<Problem>(first);
    p->queryEmbedding = input;
    p->queryPosition = Matrix();
    p->keyEmbedding = Matrix();
    p->keyPosition = Matrix();
    p->weights = std::make_shared<const ModelWeights>(weights);
    p->weightsValidated = false;
    return p;
}

namespace {

// Blocks 0 .. last of `scene` from its resolved first problem.
std::vector<BlockForward> runBlocks(const Scene& scene, const std::shared_ptr<const Problem>& first,
                                    Backend& backend, const ComputeOptions& options, int last)
{
    std::vector<BlockForward> blocks;
    blocks.reserve(std::size_t(last + 1));
    BlockOps& ops = backend.blockOps();
    const NormWeights norm = stackedNorm(scene.weights.dModel);
    Matrix x;
    for (int l = 0; l <= last; ++l) {
        BlockForward block;
        block.attention = backend.compute(
            l == 0 ? first : layerProblem(*first, x, layerAttention(scene, l)), options);
        if (!isStacked(scene)) {
            blocks.push_back(std::move(block));
            break;
        }
        const StackedLayer& layer = scene.layers[std::size_t(l)];
        block.residual = block.attention->queryInput() + block.attention->output;
        block.normed = ops.norm(block.residual, norm);
        block.feedForward = ops.feedForward(block.normed, stackedFeedForward(layer));
        block.feedForwardResidual = block.normed + block.feedForward;
        block.output = ops.norm(block.feedForwardResidual, norm);
        x = block.output;
        blocks.push_back(std::move(block));
    }
    return blocks;
}

} // namespace

std::vector<BlockForward> forwardLayers(const Scene& scene, Backend& backend,
                                        const ComputeOptions& options, int lastLayer)
{
    validateLayers(scene);
    const int count = layerCount(scene);
    return runBlocks(scene, resolveProblem(scene), backend, options,
                     lastLayer < 0 ? count - 1 : std::min(lastLayer, count - 1));
}

std::shared_ptr<const Problem> resolveLayerProblem(const Scene& scene, Backend& backend, int layer,
                                                   const std::atomic<bool>* cancel)
{
    if (layer < 0 || layer >= layerCount(scene))
        throw Error("view.layer", "layer " + std::to_string(layer + 1) + " is beyond the scene's " +
                                      std::to_string(layerCount(scene)) + " layer(s)");
    std::shared_ptr<const Problem> first = resolveProblem(scene);
    if (layer == 0)
        return first;
    validateLayers(scene);
    ComputeOptions options;
    options.keepIntermediates = false;
    options.cancel = cancel;
    const std::vector<BlockForward> before = runBlocks(scene, first, backend, options, layer - 1);
    return layerProblem(*first, before.back().output, layerAttention(scene, layer));
}

} // namespace attn::core
