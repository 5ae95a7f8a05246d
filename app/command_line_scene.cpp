#include "command_line.h"

#include "core/error.h"
#include "core/scene_json.h"
#include "core/word_vectors.h"
#include "ui/explorer/comparison_choices.h"

#include <QFile>

// The scene a parsed command line describes.
namespace attn::app {

namespace {

const char* const kBuiltInExample = ":/examples/01-this-is-a-cat.json";

// A fresh scene for a sentence typed on the command line: the built-in example's weights
// were set by hand for its own four tokens, so another sentence gets seeded weights.
constexpr int kDefaultModelWidth = 16;
constexpr int kDefaultHeads = 2;

} // namespace

core::Scene builtInExample()
{
    QFile file(QString::fromLatin1(kBuiltInExample));
    if (file.open(QIODevice::ReadOnly))
        return core::sceneFromJson(file.readAll());
    return core::makeScene(QStringLiteral("This is a cat."), kDefaultModelWidth, kDefaultHeads, 1);
}

core::Scene sceneFor(const CommandLine& commandLine)
{
    core::Scene scene;
    if (!commandLine.scenePath.isEmpty()) {
        scene = core::loadScene(commandLine.scenePath);
        if (commandLine.text)
            scene.text = *commandLine.text;
    } else if (commandLine.text) {
        scene = core::makeScene(*commandLine.text, commandLine.dModel.value_or(kDefaultModelWidth),
                                commandLine.heads.value_or(kDefaultHeads),
                                commandLine.seed.value_or(1));
    } else {
        scene = builtInExample();
    }
    if (commandLine.source)
        scene.source = *commandLine.source;
    if (commandLine.heads || commandLine.dModel || commandLine.dK || commandLine.seed) {
        // A new shape or seed draws new weights; the rest of the scene is kept (tables of
        // another width give way, as in the window).
        const int d = commandLine.dModel.value_or(scene.weights.dModel);
        const int h = commandLine.heads.value_or(scene.weights.headCount());
        const bool reshaped = commandLine.heads || commandLine.dModel;
        if (reshaped && d % h != 0)
            throw core::Error("--heads " + std::to_string(h) + " does not divide --d-model " +
                              std::to_string(d) + " (d_v = d_model / h)");
        const int dV = reshaped ? d / h : scene.weights.dV;
        const int dk = commandLine.dK.value_or(reshaped ? d / h : scene.weights.dK);
        const std::uint64_t seed = commandLine.seed.value_or(scene.seed);
        core::reshapeModel(scene, d, h, dk, dV, seed);
        scene.embedding.seed = seed;
    }
    if (commandLine.embedding || !commandLine.wordVectors.isEmpty()) {
        const core::EmbeddingKind kind =
            commandLine.embedding.value_or(core::EmbeddingKind::WordVectors);
        switch (kind) {
        case core::EmbeddingKind::Hashed:
            scene.embedding.kind = kind;
            break;
        case core::EmbeddingKind::OneHot:
            // One dimension per word of the sentences as given here.
            scene.embedding.kind = kind;
            scene.embedding.vocabulary.clear();
            core::fitOneHotVocabulary(scene);
            break;
        case core::EmbeddingKind::Table:
            // The scene's own table where it has one, else the vectors in use kept as one.
            if (scene.embedding.table.empty())
                core::keepEmbeddingsAsTable(scene);
            scene.embedding.kind = kind;
            break;
        case core::EmbeddingKind::WordVectors: {
            auto vectors = std::make_shared<const core::WordVectors>(
                core::WordVectors::load(commandLine.wordVectors));
            if (vectors->dimension() != scene.weights.dModel)
                throw core::Error("--word-vectors: " + commandLine.wordVectors.toStdString() +
                                  " has " + std::to_string(vectors->dimension()) +
                                  "-dimensional vectors and d_model is " +
                                  std::to_string(scene.weights.dModel) + "; give --d-model " +
                                  std::to_string(vectors->dimension()));
            scene.embedding.kind = kind;
            scene.embedding.wordVectorPath = commandLine.wordVectors;
            scene.embedding.wordVectors = std::move(vectors);
            break;
        }
        }
    }
    if (commandLine.positional) {
        if (*commandLine.positional == core::PositionalKind::Table) {
            if (scene.positional.table.size() == 0)
                core::keepPositionsAsTable(scene);
        }
        scene.positional.kind = *commandLine.positional;
    }
    if (commandLine.fill)
        scene.fill = *commandLine.fill;
    if (commandLine.mode)
        applyModeName(*commandLine.mode, scene.score, scene.normalization);
    if (commandLine.normalization)
        scene.normalization = *commandLine.normalization;
    if (commandLine.temperature)
        scene.temperature = *commandLine.temperature;
    if (commandLine.causal)
        scene.mask.causal = true;
    if (commandLine.window) {
        scene.mask.window = *commandLine.window;
        scene.mask.windowCausal = false;
    }
    if (commandLine.paddingToken) {
        scene.paddingToken = *commandLine.paddingToken;
        scene.mask.padding = true;
    }
    if (!commandLine.compare.isEmpty()) {
        QStringList names;
        for (const ui::ComparisonChoice& choice : ui::comparisonChoices(scene, false))
            names << choice.name;
        if (!names.contains(commandLine.compare))
            throw core::Error(
                QStringLiteral("--compare: \"%1\" is not a change of this scene; one of %2")
                    .arg(commandLine.compare, names.join(QStringLiteral(", ")))
                    .toStdString());
        scene.view.compareScore = commandLine.compare;
    }
    return scene;
}

} // namespace attn::app
