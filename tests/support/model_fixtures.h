#pragma once
// The tiny checkpoints of tests/data/models (written by make_tiny_models.py) and the
// expectations an independent float64 NumPy forward wrote beside each (expected.json, its
// schema in that script's header).

#include "core/matrix.h"
#include "core/model/model_loader.h"
#include "support/json_file.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <cmath>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace attn::test {

inline QString modelFixturesDir()
{
    return QStringLiteral(ATTN_TEST_DATA_DIR "/models");
}

// One fixture folder, by name.
inline QString modelFixture(const QString& name)
{
    return modelFixturesDir() + QLatin1Char('/') + name;
}

// A fixture's model, loaded once per test binary (the load is most of a small test's time).
inline std::shared_ptr<const core::Model> loadedModelFixture(const QString& name)
{
    static std::map<QString, std::shared_ptr<const core::Model>> loaded;
    auto& model = loaded[name];
    if (!model)
        model = core::loadModel(modelFixture(name));
    return model;
}

// Every fixture folder's name ("gpt2", "bert", ...).
inline QStringList modelFixtures()
{
    QStringList names;
    const QDir dir(modelFixturesDir());
    for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (QFile::exists(dir.filePath(name + QStringLiteral("/expected.json"))))
            names << name;
    return names;
}

inline QJsonObject expectedFor(const QString& fixture)
{
    return readJsonObject(modelFixture(fixture) + QStringLiteral("/expected.json"));
}

inline core::Matrix matrixOf(const QJsonValue& rows)
{
    const QJsonArray array = rows.toArray();
    const int cols = array.isEmpty() ? 0 : int(array[0].toArray().size());
    core::Matrix m(array.size(), cols);
    for (int i = 0; i < array.size(); ++i) {
        const QJsonArray row = array[i].toArray();
        for (int j = 0; j < cols && j < row.size(); ++j)
            m(i, j) = float(row[j].toDouble());
    }
    return m;
}

inline core::RowVector rowOf(const QJsonValue& values)
{
    const QJsonArray array = values.toArray();
    core::RowVector v(array.size());
    for (int j = 0; j < array.size(); ++j)
        v(j) = float(array[j].toDouble());
    return v;
}

// Largest |a - b| over all cells; infinity when the shapes differ.
inline double maxDifference(const core::Matrix& a, const core::Matrix& b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return INFINITY;
    return a.size() ? double((a - b).cwiseAbs().maxCoeff()) : 0.0;
}

// Where withWeight puts a value: the first weight of a matrix or gain of the first layer.
enum class WeightPlace {
    FeedForwardIn,  // W_in(0, 0): GPT-2's mlp.c_fc
    FeedForwardOut, // W_out(0, 0): mlp.c_proj, straight into the residual stream
    Query,          // head 1's W_q(0, 0)
    Value,          // head 1's W_v(0, 0)
    QueryAndKey,    // head 1's W_q(0, 0) and W_k(0, 0): their product meets in one score
    AttentionNorm,  // the gain g(0) of the norm before attention (ln_1)
    FeedForwardNorm // the gain g(0) of the norm before the feed-forward network (ln_2)
};

// `model` with one value of its first layer replaced: a checkpoint holding what no file in
// tests/data holds (1e20 in a layer), without writing one. The loader refuses non-finite weights
// (a NaN here is what a checkpoint cannot give).
inline std::shared_ptr<const core::Model> withWeight(const core::Model& model, WeightPlace place,
                                                     float value)
{
    auto edited = std::make_shared<core::Model>(model);
    core::TransformerLayer& layer = edited->weights.layers.front();
    auto attention = std::make_shared<core::ModelWeights>(*layer.attention);
    core::HeadWeights& head = attention->heads.front();
    switch (place) {
    case WeightPlace::FeedForwardIn:
        layer.feedForward.in.weight(0, 0) = value;
        break;
    case WeightPlace::FeedForwardOut:
        layer.feedForward.out.weight(0, 0) = value;
        break;
    case WeightPlace::Query:
        head.Wq(0, 0) = value;
        break;
    case WeightPlace::Value:
        head.Wv(0, 0) = value;
        break;
    case WeightPlace::QueryAndKey:
        head.Wq(0, 0) = value;
        head.Wk(0, 0) = value;
        break;
    case WeightPlace::AttentionNorm:
        layer.attentionNorm.gain(0) = value;
        break;
    case WeightPlace::FeedForwardNorm:
        layer.feedForwardNorm.gain(0) = value;
        break;
    }
    layer.attention = std::move(attention);
    return edited;
}

// GPT-2 (the fixture) on "The cat sat on the" with a value whose forward leaves float32's
// range, and what every backend must report: the first place met, and no prediction.
struct NonFiniteCase
{
    const char* name;
    WeightPlace place;
    float value;
    QStringList warnings;
};

// A result's warnings as QCOMPARE prints them.
inline QStringList warningList(const std::vector<std::string>& warnings)
{
    QStringList list;
    for (const std::string& warning : warnings)
        list << QString::fromStdString(warning);
    return list;
}

inline std::vector<NonFiniteCase> nonFiniteCases()
{
    const QString scores =
        "layer 1: non-finite values (NaN or infinity) in head 0 scores, query row 0: "
        "the weights are too large for float32";
    const QString layer1 = "layer 1: non-finite values (NaN or infinity) in head 0 Q, K or V: "
                           "the weights are too large for float32";
    const QString layer2 = "layer 2: non-finite values (NaN or infinity) in head 0 Q, K or V: "
                           "the weights are too large for float32";
    const QString none1 = "position 5: no prediction: the forward met non-finite values in layer 1";
    const QString none2 = "position 5: no prediction: the forward met non-finite values in layer 2";
    // ln_1's gain of 1e20 makes column 0 of every head's Q and K about 1e19-1e20: token 1's score
    // with itself sums products past 3.4e38 of both signs (-inf on the CPU's fused chain, NaN
    // on the GPU's). 1e20 in both W_q(0, 0) and W_k(0, 0) puts one such product in each score.
    // 3e38 in W_q or W_v overflows Q or V itself; in W_in, the feed-forward output, which
    // layer 2 reads.
    return {
        {"1e20 in ln_1's gain", WeightPlace::AttentionNorm, 1e20f, {scores, none1}},
        {"1e30 in ln_1's gain", WeightPlace::AttentionNorm, 1e30f, {scores, none1}},
        {"1e20 in W_q and W_k", WeightPlace::QueryAndKey, 1e20f, {scores, none1}},
        {"3e38 in W_q", WeightPlace::Query, 3e38f, {layer1, none1}},
        {"3e38 in W_v", WeightPlace::Value, 3e38f, {layer1, none1}},
        {"3e38 in W_in", WeightPlace::FeedForwardIn, 3e38f, {layer2, none2}},
        // What no checkpoint gives (the loader refuses it), edited in: the same outcome.
        {"NaN in ln_2's gain", WeightPlace::FeedForwardNorm, NAN, {layer2, none2}},
    };
}

} // namespace attn::test
