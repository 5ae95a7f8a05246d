// Scene files (core/scene_json): the reader, then what a loaded scene is used for: resolving
// it to a problem (tokens, embeddings, masks) and writing it back.
#include "fuzz_target.h"

#include "core/scene.h"
#include "core/scene_json.h"

namespace {

void fuzzScene(const QByteArray& input)
{
    const attn::core::Scene scene = attn::core::sceneFromJson(input);
    attn::core::resolveProblem(scene);
    attn::core::sceneFromJson(attn::core::sceneToJson(scene)); // what is written reads back
}

} // namespace

ATTN_FUZZ_TARGET(fuzzScene)
