#include "scene_json.h"

#include "json_numbers.h"
#include "json_path_reader.h"
#include "scene_json_detail.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>

#include <climits>
#include <cmath>
#include <string>
#include <string_view>
#include <utility>

// The format is documented key by key in docs/SCENE_FORMAT.md; keep the two in step.

namespace attn::core {

using json_path::element;
using json_path::fail;
using json_path::formatNumber;
using json_path::member;
using json_path::quoted;
using scene_json_detail::kFormatName;
using scene_json_detail::modeName;
using scene_json_detail::specialName;

namespace {

// Scene files hold finite numbers only (jsonNumber would write "nan" as a string, which no
// reader of weights accepts): names the first value that is not.
template <typename Derived>
void requireFinite(const Eigen::DenseBase<Derived>& values, const std::string& path)
{
    if (values.allFinite())
        return;
    for (Eigen::Index i = 0; i < values.rows(); ++i)
        for (Eigen::Index j = 0; j < values.cols(); ++j)
            if (!std::isfinite(values(i, j))) {
                const std::string where = Derived::SizeAtCompileTime == 1 ? path
                                          : Derived::IsVectorAtCompileTime
                                              ? element(path, i + j)
                                              : element(element(path, i), j);
                fail(where, "cannot save " + formatNumber(values(i, j)) +
                                "; a scene file holds finite numbers only");
            }
}

QJsonArray vectorToJson(const RowVector& vector, const std::string& path)
{
    requireFinite(vector, path);
    return jsonRow(vector);
}

QJsonArray matrixToJson(const Matrix& matrix, const std::string& path)
{
    requireFinite(matrix, path);
    return jsonMatrix(matrix);
}

QJsonValue seedToJson(std::uint64_t seed, const char* path)
{
    if (seed > std::uint64_t(INT64_MAX))
        fail(path, std::to_string(seed) + " cannot be saved; seeds in scene files are at most " +
                       std::to_string(INT64_MAX));
    return qint64(seed);
}

QJsonObject maskToJson(const MaskSpec& mask)
{
    QJsonArray custom;
    for (const auto& [query, key] : mask.customCells)
        custom.append(QJsonArray{query, key});
    return QJsonObject{
        {"causal", mask.causal},
        {"window", mask.window < 0 ? QJsonValue(QJsonValue::Null) : QJsonValue(mask.window)},
        {"window_causal", mask.windowCausal},
        {"padding", mask.padding},
        {"custom", custom}};
}

QJsonValue nameToJson(std::string_view name)
{
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

QJsonObject headToJson(const HeadWeights& head, const std::string& path)
{
    QJsonObject object;
    object["enabled"] = head.enabled;
    object["W_q"] = matrixToJson(head.Wq, member(path, "W_q"));
    object["W_k"] = matrixToJson(head.Wk, member(path, "W_k"));
    object["W_v"] = matrixToJson(head.Wv, member(path, "W_v"));
    const std::pair<const char*, const RowVector*> biases[] = {
        {"b_q", &head.bq}, {"b_k", &head.bk}, {"b_v", &head.bv}};
    for (const auto& [key, bias] : biases)
        if (bias->size() > 0) // an empty bias is "no bias": the key is left out
            object[QLatin1String(key)] = vectorToJson(*bias, member(path, key));
    object["w_additive"] = vectorToJson(head.wAdditive, member(path, "w_additive"));
    object["bilinear"] = matrixToJson(head.bilinear, member(path, "bilinear"));
    return object;
}

// The top-level weights' keys ("heads", "W_o", "b_o") for `weights`, under `prefix`.
void weightsToJson(const ModelWeights& w, const std::string& prefix, QJsonObject& out)
{
    QJsonArray heads;
    for (int h = 0; h < w.headCount(); ++h)
        heads.append(headToJson(w.heads[std::size_t(h)], prefix + element("heads", h)));
    out["heads"] = heads;
    out["W_o"] = matrixToJson(w.Wo, prefix + "W_o");
    if (w.bo.size() > 0)
        out["b_o"] = vectorToJson(w.bo, prefix + "b_o");
}

QJsonArray layersToJson(const std::vector<StackedLayer>& layers)
{
    QJsonArray out;
    for (int l = 0; l < int(layers.size()); ++l) {
        const StackedLayer& layer = layers[std::size_t(l)];
        const std::string prefix = element("layers", l) + ".";
        QJsonObject block{{"d_ff", layer.dFeedForward()},
                          {"W_1", matrixToJson(layer.W1, prefix + "W_1")},
                          {"b_1", vectorToJson(layer.b1, prefix + "b_1")},
                          {"W_2", matrixToJson(layer.W2, prefix + "W_2")},
                          {"b_2", vectorToJson(layer.b2, prefix + "b_2")}};
        if (l > 0)
            weightsToJson(layer.attention, prefix, block);
        out.append(block);
    }
    return out;
}

// "heads_off" and "edits" (`at`: where they are written, for messages).
QJsonObject interventionsToJson(const Interventions& interventions, const std::string& at)
{
    QJsonArray off;
    for (const auto& [layer, head] : interventions.headsOff)
        off.append(QJsonArray{layer + 1, head + 1});
    QJsonArray edits;
    for (const auto& [layer, edit] : interventions.layers) {
        if (edit.empty())
            continue;
        const std::string path = at + "edits[layer " + std::to_string(layer + 1) + "]";
        QJsonObject object{{"layer", layer + 1}};
        if (edit.score)
            object["score"] = nameToJson(toString(*edit.score));
        if (edit.normalization)
            object["normalize"] = nameToJson(toString(*edit.normalization));
        if (edit.fill)
            object["fill"] = nameToJson(toString(*edit.fill));
        if (edit.temperature) {
            requireFinite(Eigen::Matrix<float, 1, 1>::Constant(*edit.temperature),
                          path + ".temperature");
            object["temperature"] = jsonNumber(*edit.temperature);
        }
        if (edit.mask)
            object["mask"] = maskToJson(*edit.mask);
        QJsonArray heads;
        for (const auto& [head, weights] : edit.heads) {
            QJsonObject h{{"head", head + 1}};
            const std::string at = path + ".heads[" + std::to_string(head + 1) + "].";
            if (weights.Wq)
                h["W_q"] = matrixToJson(*weights.Wq, at + "W_q");
            if (weights.Wk)
                h["W_k"] = matrixToJson(*weights.Wk, at + "W_k");
            if (weights.Wv)
                h["W_v"] = matrixToJson(*weights.Wv, at + "W_v");
            heads.append(h);
        }
        if (!heads.isEmpty())
            object["heads"] = heads;
        edits.append(object);
    }
    return QJsonObject{{"heads_off", off}, {"edits", edits}};
}

QJsonObject checkpointToJson(const CheckpointReference& checkpoint)
{
    QJsonObject out = interventionsToJson(checkpoint.interventions, "checkpoint.");
    out["path"] = checkpoint.path;
    out["layer"] = checkpoint.layer + 1;
    out["head"] = checkpoint.head + 1;
    // Written only when there is something: a decoder-only model's file stays as before.
    if (!checkpoint.encoderInterventions.empty())
        out["encoder"] =
            interventionsToJson(checkpoint.encoderInterventions, "checkpoint.encoder.");
    if (!checkpoint.crossInterventions.empty())
        out["cross"] = interventionsToJson(checkpoint.crossInterventions, "checkpoint.cross.");
    if (!checkpoint.kind.isEmpty())
        out["kind"] = checkpoint.kind;
    return out;
}

} // namespace

QByteArray sceneToJson(const Scene& scene)
{
    QJsonObject root;
    root["format"] = QLatin1String(kFormatName);
    root["version"] = scene.checkpoint ? Scene::kFormatVersion : 1;
    root["title"] = scene.title;
    root["description"] = scene.description;
    root["text"] = scene.text;
    if (scene.source)
        root["source"] = *scene.source;

    root["tokenizer"] = QJsonObject{{"mode", nameToJson(modeName(scene.tokenizer.mode))},
                                    {"lowercase", scene.tokenizer.lowercase},
                                    {"special", nameToJson(specialName(scene.tokenizer.special))}};

    QJsonArray positions;
    for (int position : scene.paddingPositions)
        positions.append(position);
    root["padding"] = QJsonObject{{"token", scene.paddingToken}, {"positions", positions}};

    QJsonObject embedding{{"kind", nameToJson(toString(scene.embedding.kind))},
                          {"seed", seedToJson(scene.embedding.seed, "embedding.seed")}};
    if (!scene.embedding.table.empty()) {
        QJsonObject table;
        for (const auto& [token, row] : scene.embedding.table)
            table[token] =
                vectorToJson(Eigen::Map<const RowVector>(row.data(), Eigen::Index(row.size())),
                             "embedding.table[" + quoted(token) + "]");
        embedding["table"] = table;
    }
    if (!scene.embedding.wordVectorPath.isEmpty())
        embedding["file"] = scene.embedding.wordVectorPath;
    if (!scene.embedding.vocabulary.empty())
        embedding["vocabulary"] = QJsonArray::fromStringList(
            QStringList(scene.embedding.vocabulary.begin(), scene.embedding.vocabulary.end()));
    root["embedding"] = embedding;

    QJsonObject positional{{"kind", nameToJson(toString(scene.positional.kind))}};
    if (scene.positional.table.size() > 0)
        positional["table"] = matrixToJson(scene.positional.table, "positional.table");
    root["positional"] = positional;

    const ModelWeights& w = scene.weights;
    // "init" is not written: every weight is, so the file never depends on the generator.
    root["model"] = QJsonObject{{"d_model", w.dModel},
                                {"heads", w.headCount()},
                                {"d_k", w.dK},
                                {"d_v", w.dV},
                                {"seed", seedToJson(scene.seed, "model.seed")}};
    weightsToJson(w, std::string(), root);

    requireFinite(Eigen::Matrix<float, 1, 1>::Constant(scene.temperature), "attention.temperature");
    root["attention"] = QJsonObject{{"score", nameToJson(toString(scene.score))},
                                    {"normalize", nameToJson(toString(scene.normalization))},
                                    {"temperature", jsonNumber(scene.temperature)},
                                    {"fill", nameToJson(toString(scene.fill))}};

    root["mask"] = maskToJson(scene.mask);
    if (scene.checkpoint)
        root["checkpoint"] = checkpointToJson(*scene.checkpoint);

    root["view"] = QJsonObject{{"view", scene.view.view},
                               {"colormap", scene.view.colormap},
                               {"show_values", scene.view.showValues},
                               {"precision", scene.view.valuePrecision},
                               {"compare_score", scene.view.compareScore},
                               {"theme", scene.view.theme},
                               {"color_scale", scene.view.colorScale}};
    if (scene.view.transposed) { // written only when set: every other scene reads as before
        QJsonObject view = root["view"].toObject();
        view.insert(QStringLiteral("transpose"), true);
        root["view"] = view;
    }
    if (scene.view.layer > 0) {
        QJsonObject view = root["view"].toObject();
        view.insert(QStringLiteral("layer"), scene.view.layer + 1);
        root["view"] = view;
    }
    if (isStacked(scene))
        root["layers"] = layersToJson(scene.layers);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

} // namespace attn::core
