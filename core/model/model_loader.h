#pragma once

#include "core/error.h"
#include "core/model/transformer_weights.h"

#include <QString>
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace attn::core {

class Checkpoint;
class HfTokenizer;

// A checkpoint opened for the explorer: its architecture and weights in the common
// description, and its tokenizer. Immutable once loaded; every forward shares it.
struct Model
{
    QString folder; // the resolved folder the files were read from
    QString name;   // "gpt2", "HuggingFaceTB/SmolLM-135M": the id, or the folder's name
    TransformerWeights weights;
    std::shared_ptr<const HfTokenizer> tokenizer;

    const ModelConfig& config() const { return weights.config; }
};

// A model found in the Hugging Face cache.
struct CachedModel
{
    QString id;     // "openai-community/gpt2"
    QString folder; // .../hub/models--openai-community--gpt2/snapshots/<rev>
};

// The Hugging Face cache's hub folder: $HF_HUB_CACHE, else $HF_HOME/hub, else
// ~/.cache/huggingface/hub.
QString huggingFaceHubFolder();
// $HF_HOME, else $XDG_CACHE_HOME/huggingface, else ~/.cache/huggingface (the token lives there).
QString huggingFaceHomeFolder();

// A folder as given, or a model id ("gpt2", "openai-community/gpt2") looked up in the hub
// cache (models--ORG--NAME/snapshots/REV, the revision refs/main names, else the newest).
// Nothing is downloaded. Throws Error saying where it looked.
QString resolveModelFolder(const QString& folderOrId);

// Every snapshot in the hub cache that has a config.json.
std::vector<CachedModel> listCachedModels();

// The name of a model from its folder or id alone, nothing read (what a window says while it
// loads): a hub snapshot folder's id as loadModel names it, a folder's name, else the id given.
QString modelDisplayName(const QString& folderOrId);

struct LoadOptions
{
    // Called after each layer is read: (done, total). From the loading thread.
    std::function<void(int, int)> progress;
    // Checked between tensors; when it becomes true, loadModel throws Cancelled.
    const std::atomic<bool>* cancel = nullptr;
};

// What can be said of a model without reading its weights (--model-info): config.json, the
// tokenizer and the safetensors headers.
struct ModelInfo
{
    QString folder;
    QString name;
    ModelConfig config; // its dtype the one most weights have in the checkpoint
    std::shared_ptr<const HfTokenizer> tokenizer;
    std::int64_t float32Bytes = 0; // every floating-point tensor as float32, as loading holds them
};

// Reads a model folder or id as loadModel does, short of the weights: the same checks of
// config.json, the tokenizer and the headers, and the same errors.
ModelInfo readModelInfo(const QString& folderOrId);

// Opens a model folder or id: config.json, the safetensors weights mapped into the common
// description (the family's tensor names), the tokenizer. Throws Error naming the file and
// the tensor or key for anything missing, malformed or of the wrong shape; unknown extra
// tensors (attention-mask buffers, pooler) are ignored. Before any weight is read, the
// memory the weights need (memoryToLoad) is compared with what is available
// (availableMemory): "not enough memory: the model needs 3.9 GiB, 2.1 GiB are available
// (MemAvailable in /proc/meminfo)"; running out of memory all the same is reported as an
// Error of the same kind, never as std::bad_alloc.
std::shared_ptr<const Model> loadModel(const QString& folderOrId, const LoadOptions& options = {});

// The family mapping alone, for the loader and its tests: reads every tensor the family
// needs from `checkpoint` in the hub's names (with and without their usual prefixes) and
// checks each shape against `config`.
TransformerWeights readTransformerWeights(const Checkpoint& checkpoint, const ModelConfig& config,
                                          const LoadOptions& options = {});

} // namespace attn::core
