#include "core/model/model_loader.h"

#include "core/error.h"
#include "core/model/available_memory.h"
#include "core/model/checkpoint.h"
#include "core/model/families/registry.h"
#include "core/regular_file.h"
#include "core/tokenizers/hf_tokenizer.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>

namespace attn::core {

// ---- What the family files share ------------------------------------------------------------

namespace families {

void TensorReader::checkCancelled() const
{
    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed))
        throw Cancelled();
}

Matrix TensorReader::matrix(const std::string& name, std::int64_t rows, std::int64_t cols) const
{
    checkCancelled();
    return m_checkpoint.matrix(name, rows, cols);
}

RowVector TensorReader::vector(const std::string& name, std::int64_t size) const
{
    checkCancelled();
    return m_checkpoint.vector(name, size);
}

Matrix TensorReader::linear(const std::string& name, std::int64_t dOut, std::int64_t dIn) const
{
    checkCancelled();
    return m_checkpoint.transposedMatrix(name, dOut, dIn);
}

LinearWeights TensorReader::linear(const std::string& weight, const std::string& bias,
                                   std::int64_t dOut, std::int64_t dIn) const
{
    LinearWeights layer;
    layer.weight = linear(weight, dOut, dIn);
    if (!bias.empty())
        layer.bias = vector(bias, dOut);
    return layer;
}

NormWeights TensorReader::layerNorm(const std::string& weight, const std::string& bias,
                                    std::int64_t size, float eps) const
{
    NormWeights norm;
    norm.kind = NormKind::LayerNorm;
    norm.gain = vector(weight, size);
    norm.bias = vector(bias, size);
    norm.eps = eps;
    return norm;
}

NormWeights TensorReader::layerNorm(const std::string& base, std::int64_t size, float eps) const
{
    if (!contains(base + ".weight") && contains(base + ".gamma"))
        return layerNorm(base + ".gamma", base + ".beta", size, eps);
    return layerNorm(base + ".weight", base + ".bias", size, eps);
}

NormWeights TensorReader::rmsNorm(const std::string& weight, std::int64_t size, float eps) const
{
    NormWeights norm;
    norm.kind = NormKind::RmsNorm;
    norm.gain = vector(weight, size);
    norm.eps = eps;
    return norm;
}

void TensorReader::layerDone(int done, int total) const
{
    if (m_options.progress)
        m_options.progress(done, total);
}

namespace {

// Partial rotary (GPT-NeoX, Phi) turns dimension i < r/2 of a head with dimension i + r/2 and
// leaves dimensions r.. alone, where RotarySpec pairs i with i + d/2. The scores depend only on
// q . k, which a permutation of both sides keeps, so the columns are put in the order
// [turned first half, r/2 unturned, turned second half, the other unturned], and the unturned
// pairs get the frequency 0 (cos 1, sin 0: untouched, exactly).
std::vector<Eigen::Index> rotaryColumnOrder(int dHead, int rotaryDims)
{
    const int half = rotaryDims / 2;
    const int rest = (dHead - rotaryDims) / 2;
    std::vector<Eigen::Index> order;
    for (int part = 0; part < 2; ++part) {
        for (int i = 0; i < half; ++i)
            order.push_back(part * half + i);
        for (int i = 0; i < rest; ++i)
            order.push_back(rotaryDims + part * rest + i);
    }
    return order;
}

Matrix permutedColumns(const Matrix& m, const std::vector<Eigen::Index>& order)
{
    Matrix out(m.rows(), m.cols());
    for (std::size_t j = 0; j < order.size(); ++j)
        out.col(Eigen::Index(j)) = m.col(order[j]);
    return out;
}

RowVector permuted(const RowVector& v, const std::vector<Eigen::Index>& order)
{
    if (v.size() == 0)
        return v;
    RowVector out(v.size());
    for (std::size_t j = 0; j < order.size(); ++j)
        out(Eigen::Index(j)) = v(order[j]);
    return out;
}

} // namespace

std::shared_ptr<const ModelWeights> splitHeads(const ModelConfig& config, int layer,
                                               AttentionProjections p)
{
    const int dHead = config.dHead;
    const bool partialRotary =
        config.positions == PositionKind::Rotary && config.rotaryDims < dHead;
    const std::vector<Eigen::Index> order =
        partialRotary ? rotaryColumnOrder(dHead, config.rotaryDims) : std::vector<Eigen::Index>();
    const int group = config.heads / config.kvHeads; // query heads per kv head
    auto weights = std::make_shared<ModelWeights>();
    weights->dModel = config.dModel;
    weights->dK = dHead;
    weights->dV = dHead;
    weights->heads.resize(std::size_t(config.heads));
    const std::string prefix = "layers[" + std::to_string(layer) + "].heads[";
    for (int h = 0; h < config.heads; ++h) {
        HeadWeights& head = weights->heads[std::size_t(h)];
        const Eigen::Index q = Eigen::Index(h) * dHead;
        const Eigen::Index kv = Eigen::Index(h / group) * dHead;
        head.Wq = p.wq.middleCols(q, dHead);
        head.Wk = p.wk.middleCols(kv, dHead);
        head.Wv = p.wv.middleCols(kv, dHead);
        if (p.bq.size())
            head.bq = p.bq.segment(q, dHead);
        if (p.bk.size())
            head.bk = p.bk.segment(kv, dHead);
        if (partialRotary) {
            head.Wq = permutedColumns(head.Wq, order);
            head.Wk = permutedColumns(head.Wk, order);
            head.bq = permuted(head.bq, order);
            head.bk = permuted(head.bk, order);
        }
        if (p.bv.size())
            head.bv = p.bv.segment(kv, dHead);
        Matrix additive(1, dHead);
        initialiseMatrix(additive, WeightInit::Xavier, 1,
                         prefix + std::to_string(h) + "].w_additive", h);
        head.wAdditive = additive.row(0);
        head.bilinear = Matrix::Identity(dHead, dHead);
    }
    weights->Wo = std::move(p.wo);
    weights->bo = std::move(p.bo);
    try {
        weights->validate();
    } catch (const Error& e) { // a mapping mistake, not the file's: say which layer
        throw Error("layers[" + std::to_string(layer) + "]: " + e.what());
    }
    return weights;
}

std::shared_ptr<const ModelWeights> readAttention(const TensorReader& reader,
                                                  const ModelConfig& config, int layer,
                                                  const std::string& prefix,
                                                  const ProjectionNames& names, bool biases)
{
    const int d = config.dModel;
    const int qWidth = config.heads * config.dHead;
    const int kvWidth = config.kvHeads * config.dHead;
    auto linear = [&](const char* name, int dOut, int dIn) {
        const std::string base = prefix + name;
        return reader.linear(base + ".weight", biases ? base + ".bias" : std::string(), dOut, dIn);
    };
    LinearWeights q = linear(names.q, qWidth, d);
    LinearWeights k = linear(names.k, kvWidth, d);
    LinearWeights v = linear(names.v, kvWidth, d);
    LinearWeights o = linear(names.o, d, qWidth);
    AttentionProjections p;
    p.wq = std::move(q.weight);
    p.bq = std::move(q.bias);
    p.wk = std::move(k.weight);
    p.bk = std::move(k.bias);
    p.wv = std::move(v.weight);
    p.bv = std::move(v.bias);
    p.wo = std::move(o.weight);
    p.bo = std::move(o.bias);
    return splitHeads(config, layer, std::move(p));
}

void readLmHead(const TensorReader& reader, TransformerWeights& w, const std::string& name)
{
    if (w.config.objective != Objective::None &&
        (!w.config.tiedEmbeddings || reader.contains(name)))
        w.lmHead = reader.matrix(name, w.config.vocab, w.config.dModel);
}

} // namespace families

// ---- The Hugging Face cache -----------------------------------------------------------------

namespace {

const QString kModelsPrefix = QStringLiteral("models--");
// refs/main holds a commit hash: 40 hexadecimal digits.
constexpr qint64 kMaxRefBytes = 4096;

// "models--openai-community--gpt2" -> "openai-community/gpt2" (the hub forbids "--" in names).
QString idOfCacheFolder(const QString& folderName)
{
    return folderName.mid(kModelsPrefix.size()).replace(QLatin1String("--"), QLatin1String("/"));
}

// The snapshot refs/main names, else the newest snapshot; "" when there is none.
QString snapshotOf(const QDir& repo)
{
    QByteArray ref;
    try {
        ref = readRegularFile(repo.filePath("refs/main"), kMaxRefBytes);
    } catch (const Error&) { // none, or not a file: the newest snapshot below
    }
    if (!ref.isEmpty()) {
        const QString revision = QString::fromUtf8(ref).trimmed();
        const QString snapshot = repo.filePath("snapshots/" + revision);
        if (!revision.isEmpty() && !revision.contains('/') && QFileInfo(snapshot).isDir())
            return snapshot;
    }
    const QFileInfoList snapshots =
        QDir(repo.filePath("snapshots"))
            .entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Time);
    return snapshots.isEmpty() ? QString() : snapshots.front().absoluteFilePath();
}

// A hub id: NAME or ORG/NAME, letters, digits, '-', '_', '.' (the hub's own rule).
bool looksLikeModelId(const QString& text)
{
    static const QRegularExpression id(
        QStringLiteral("^([A-Za-z0-9][A-Za-z0-9._-]*/)?[A-Za-z0-9][A-Za-z0-9._-]*$"));
    return id.match(text).hasMatch() && !text.contains(QLatin1String("--")) &&
           !text.contains(QLatin1String(".."));
}

// The name a model is shown by: the id for a hub snapshot folder, else the folder's name.
QString displayName(const QString& folderOrId, const QString& folder)
{
    const QFileInfo info(folder);
    const QDir snapshots = info.dir();
    QDir repo = snapshots;
    if (snapshots.dirName() == QLatin1String("snapshots") && repo.cdUp() &&
        repo.dirName().startsWith(kModelsPrefix))
        return idOfCacheFolder(repo.dirName());
    return QFileInfo(folderOrId).isDir() ? QDir(folder).dirName() : folderOrId;
}

bool hasTokenizerFiles(const QDir& dir)
{
    return dir.exists("tokenizer.json") || (dir.exists("vocab.json") && dir.exists("merges.txt")) ||
           dir.exists("vocab.txt");
}

} // namespace

QString huggingFaceHubFolder()
{
    // huggingface_hub's constants.py: HF_HUB_CACHE (HUGGINGFACE_HUB_CACHE, its old name), else
    // HF_HOME/hub, HF_HOME defaulting to $XDG_CACHE_HOME/huggingface, then ~/.cache/huggingface.
    for (const char* variable : {"HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"}) {
        const QString value = qEnvironmentVariable(variable);
        if (!value.isEmpty())
            return value;
    }
    return QDir(huggingFaceHomeFolder()).filePath("hub");
}

QString huggingFaceHomeFolder()
{
    const QString home = qEnvironmentVariable("HF_HOME");
    if (!home.isEmpty())
        return home;
    const QString xdg = qEnvironmentVariable("XDG_CACHE_HOME");
    if (!xdg.isEmpty())
        return QDir(xdg).filePath("huggingface");
    return QDir::home().filePath(".cache/huggingface");
}

QString resolveModelFolder(const QString& folderOrId)
{
    if (folderOrId.trimmed().isEmpty())
        throw Error("no model given: name a model folder or a model id such as gpt2");
    const QFileInfo given(folderOrId);
    if (given.isDir())
        return QDir::cleanPath(
            given.absoluteFilePath()); // no trailing "/": the name is its last part
    if (!looksLikeModelId(folderOrId))
        throw Error(folderOrId.toStdString() + ": no such folder");

    const QString hub = huggingFaceHubFolder();
    const QDir hubDir(hub);
    // ORG/NAME is one cache folder; a bare NAME is also found under an organisation, as the
    // hub's own old ids moved there ("gpt2" is now "openai-community/gpt2").
    QStringList candidates;
    const QString exact = kModelsPrefix + QString(folderOrId).replace('/', QLatin1String("--"));
    const QStringList repos =
        hubDir.entryList({kModelsPrefix + "*"}, QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    for (const QString& repo : repos)
        if (repo.compare(exact, Qt::CaseInsensitive) == 0)
            candidates << repo;
    if (candidates.isEmpty() && !folderOrId.contains('/')) {
        for (const QString& repo : repos)
            if (repo.endsWith("--" + folderOrId, Qt::CaseInsensitive) &&
                idOfCacheFolder(repo).count('/') == 1)
                candidates << repo;
    }
    if (candidates.size() > 1) {
        QStringList ids;
        for (const QString& repo : candidates)
            ids << idOfCacheFolder(repo);
        throw Error(folderOrId.toStdString() + ": several cached models have this name (" +
                    ids.join(", ").toStdString() + "); give the full id");
    }
    if (candidates.isEmpty())
        throw Error(folderOrId.toStdString() +
                    ": neither a folder nor a model in the Hugging Face cache (" +
                    hub.toStdString() + " has no " + exact.toStdString() +
                    (folderOrId.contains('/') ? "" : " or models--*--" + folderOrId.toStdString()) +
                    "). Nothing is downloaded here; fetch it first, for example with "
                    "huggingface-cli download " +
                    folderOrId.toStdString());
    const QString snapshot = snapshotOf(QDir(hubDir.filePath(candidates.front())));
    if (snapshot.isEmpty())
        throw Error(hubDir.filePath(candidates.front()).toStdString() +
                    ": no snapshot in the cache (a download cut short?)");
    return snapshot;
}

std::vector<CachedModel> listCachedModels()
{
    std::vector<CachedModel> models;
    const QDir hub(huggingFaceHubFolder());
    for (const QString& repo :
         hub.entryList({kModelsPrefix + "*"}, QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        const QDir snapshots(hub.filePath(repo + "/snapshots"));
        for (const QFileInfo& snapshot :
             snapshots.entryInfoList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
            if (QFileInfo::exists(QDir(snapshot.absoluteFilePath()).filePath("config.json")))
                models.push_back({idOfCacheFolder(repo), snapshot.absoluteFilePath()});
        }
    }
    return models;
}

// ---- Loading --------------------------------------------------------------------------------

TransformerWeights readTransformerWeights(const Checkpoint& checkpoint, const ModelConfig& config,
                                          const LoadOptions& options)
{
    const families::TensorReader reader(checkpoint, options);
    TransformerWeights weights = config.family->readWeights(reader, config);
    weights.config.dtype = QString::fromStdString(checkpoint.mainDtype());
    return weights;
}

QString modelDisplayName(const QString& folderOrId)
{
    return displayName(folderOrId, QDir::cleanPath(folderOrId));
}

namespace {

// What readModelInfo gives, and the checkpoint whose headers it read, for loadModel.
struct OpenedModel
{
    ModelInfo info;
    std::unique_ptr<Checkpoint> checkpoint;
};

OpenedModel openModel(const QString& folderOrId)
{
    OpenedModel opened;
    ModelInfo& info = opened.info;
    info.folder = resolveModelFolder(folderOrId);
    info.name = displayName(folderOrId, info.folder);
    const QDir dir(info.folder);

    // The cheap checks first, so that a folder that cannot work fails before gigabytes are read.
    info.config = readModelConfig(info.folder);
    if (!hasTokenizerFiles(dir))
        throw Error(info.folder.toStdString() +
                    ": no tokenizer (tokenizer.json, vocab.json with "
                    "merges.txt, or vocab.txt)" +
                    (dir.exists("tokenizer.model")
                         ? "; tokenizer.model alone (SentencePiece) is not read"
                         : ""));
    opened.checkpoint = Checkpoint::open(info.folder);
    info.config.dtype = QString::fromStdString(opened.checkpoint->mainDtype());
    info.float32Bytes = opened.checkpoint->float32Bytes();
    info.tokenizer = HfTokenizer::load(info.folder);
    return opened;
}

} // namespace

ModelInfo readModelInfo(const QString& folderOrId)
{
    return openModel(folderOrId).info;
}

std::shared_ptr<const Model> loadModel(const QString& folderOrId, const LoadOptions& options)
{
    std::int64_t needed = -1;
    AvailableMemory available;
    try {
        OpenedModel opened = openModel(folderOrId);
        needed = memoryToLoad(opened.info.float32Bytes);
        available = availableMemory();
        if (available.bytes >= 0 && needed > available.bytes)
            throw Error("not enough memory: the model needs " + memoryText(needed) + ", " +
                        memoryText(available.bytes) + " are available (" + available.limitedBy +
                        ")");
        auto model = std::make_shared<Model>();
        model->folder = opened.info.folder;
        model->name = opened.info.name;
        model->tokenizer = opened.info.tokenizer;
        model->weights = readTransformerWeights(*opened.checkpoint, opened.info.config, options);
        return model;
    } catch (const std::bad_alloc&) {
        // A limit the check above cannot see (overcommit settings, another process growing).
        if (needed < 0)
            throw Error("not enough memory: it ran out while the model's config, tokenizer and "
                        "headers were read");
        throw Error("not enough memory: the model needs " + memoryText(needed) +
                    (available.bytes >= 0 ? "; " + memoryText(available.bytes) +
                                                " seemed available (" + available.limitedBy + ")"
                                          : std::string()) +
                    ", but it ran out while the weights were read");
    }
}

} // namespace attn::core
