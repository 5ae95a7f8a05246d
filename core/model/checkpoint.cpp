#include "core/model/checkpoint.h"

#include "core/diagnostics.h"
#include "core/error.h"
#include "core/limits.h"
#include "core/regular_file.h"
#include "core/safetensors_format.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace attn::core {

namespace {

const QString kSingleFile = QStringLiteral("model.safetensors");
const QString kIndexFile = QStringLiteral("model.safetensors.index.json");
// An index lists every tensor name once; a few MB even for the largest models.
constexpr qint64 kMaxIndexBytes = qint64(64) << 20;

[[noreturn]] void fail(const QString& file, const std::string& what)
{
    throw Error(file.toStdString(), what);
}

// A tensor's error: "model.safetensors: h.0.attn.c_attn.weight: expected ...".
[[noreturn]] void fail(const QString& file, const std::string& tensor, const std::string& what)
{
    throw Error(file.toStdString(), Error(tensor, what));
}

std::string dimText(std::int64_t n)
{
    return n < 0 ? std::string("?") : std::to_string(n);
}

// "768x2304", "2304" (rank 1), "a scalar" (rank 0): the shape as the message shows it.
std::string shapeText(const std::vector<std::int64_t>& shape)
{
    if (shape.empty())
        return "a scalar";
    std::string text;
    for (std::size_t k = 0; k < shape.size(); ++k)
        text.append(k ? "x" : "").append(std::to_string(shape[k]));
    return text;
}

// How a pickle-only folder is turned into one we can read, keeping the model class (and so
// its LM head) that config.json names.
std::string conversionAdvice(const QString& folder)
{
    const std::string dir = QDir(folder).absolutePath().toStdString();
    return "convert it once to safetensors with transformers: python -c \"import transformers as "
           "t; "
           "m = getattr(t, t.AutoConfig.from_pretrained('" +
           dir + "').architectures[0]).from_pretrained('" + dir + "'); m.save_pretrained('" + dir +
           "', safe_serialization=True)\" (or download the "
           "model's .safetensors files, which the hub has for most models)";
}

// A Hugging Face cache snapshot holds links into its blobs/ folder; a download cut short can
// leave a link whose blob is missing, which QDir::exists reports as no file at all.
void refuseDanglingLink(const QDir& dir, const QString& fileName)
{
    const QFileInfo link(dir.filePath(fileName));
    if (link.isSymLink() && !link.exists())
        fail(fileName, "the link points to " + link.symLinkTarget().toStdString() +
                           ", which is missing (a download cut short?)");
}

} // namespace

struct Checkpoint::Impl
{
    struct Shard
    {
        QString fileName; // for messages
        std::unique_ptr<QFile> file;
        uchar* map = nullptr;
        qint64 size = 0;
    };

    struct Entry
    {
        Tensor tensor;
        int shard = 0;
        std::int64_t begin = 0; // in the file, header included
        std::int64_t end = 0;

        std::int64_t elements(ElementType type) const { return (end - begin) / itemSize(type); }
    };

    QString folder;
    QString sourceName; // model.safetensors, or the index for a sharded checkpoint
    std::vector<Shard> shards;
    std::map<std::string, Entry> tensors;

    ~Impl()
    {
        for (Shard& shard : shards)
            if (shard.map)
                shard.file->unmap(shard.map);
    }

    void addShard(const QString& fileName);
    const Entry& require(const std::string& name) const;
    // The tensor as rows x cols float32, or its transpose.
    Matrix read(const Entry& entry, std::int64_t rows, std::int64_t cols,
                bool transpose = false) const;
};

// Maps one file and checks its header before anything is allocated for the tensors: the
// header length against the cap and the file, the JSON, each tensor's offsets inside the data
// and their sizes against shape and dtype, no overlaps, no name given twice in this header or
// in another shard.
void Checkpoint::Impl::addShard(const QString& fileName)
{
    Shard shard;
    shard.fileName = fileName;
    // Any size: the header below is checked against it before anything is read.
    shard.file = openRegularFile(QDir(folder).filePath(fileName), kAnySize);
    shard.size = shard.file->size();
    if (shard.size < 8)
        fail(fileName,
             "too short for a safetensors file (" + std::to_string(shard.size) + " bytes)");
    shard.map = shard.file->map(0, shard.size);
    if (!shard.map)
        fail(fileName,
             "cannot map the file into memory: " + shard.file->errorString().toStdString());
    const int index = int(shards.size());
    shards.push_back(std::move(shard));
    const Shard& mapped = shards.back();

    const char* bytes = reinterpret_cast<const char*>(mapped.map);
    const std::int64_t headerLength = safetensorsHeaderLength(bytes, mapped.size, fileName);
    const std::int64_t dataStart = 8 + headerLength;
    const std::vector<SafetensorsEntry> entries =
        parseSafetensorsHeader(QByteArray::fromRawData(bytes + 8, qsizetype(headerLength)),
                               mapped.size - dataStart, fileName);

    for (const SafetensorsEntry& e : entries) {
        const std::string what = e.name + ": ";
        // The reference implementation refuses a size that disagrees with shape and dtype
        // for every tensor, read or not; so do we (dtypes it does not know are left alone).
        if (const int itemBytes = safetensorsDtypeSize(e.dtype)) {
            std::int64_t bytesNeeded = itemBytes;
            bool overflow = false;
            for (std::int64_t dim : e.shape)
                overflow = overflow || __builtin_mul_overflow(bytesNeeded, dim, &bytesNeeded);
            if (overflow || bytesNeeded != e.end - e.begin)
                fail(fileName,
                     what + "shape " + shapeText(e.shape) + " of " + e.dtype + " needs " +
                         (overflow ? std::string("more than 2^63") : std::to_string(bytesNeeded)) +
                         " bytes, its data_offsets give " + std::to_string(e.end - e.begin));
        }
        const auto existing = tensors.find(e.name);
        if (existing != tensors.end())
            fail(fileName, what + "given twice, here and in " +
                               shards[std::size_t(existing->second.shard)].fileName.toStdString());
        Entry entry;
        entry.tensor = Tensor{e.name, e.dtype, e.shape, fileName};
        entry.shard = index;
        entry.begin = dataStart + e.begin;
        entry.end = dataStart + e.end;
        tensors.emplace(e.name, std::move(entry));
    }
}

const Checkpoint::Impl::Entry& Checkpoint::Impl::require(const std::string& name) const
{
    const auto it = tensors.find(name);
    if (it == tensors.end())
        fail(sourceName, name, "missing (the checkpoint has no tensor of this name)");
    return it->second;
}

Matrix Checkpoint::Impl::read(const Entry& entry, std::int64_t rows, std::int64_t cols,
                              bool transpose) const
{
    const Tensor& t = entry.tensor;
    const std::optional<ElementType> type = floatElementType(t.dtype);
    if (!type || *type == ElementType::F64)
        fail(t.file, t.name, "dtype " + t.dtype + " cannot be read as weights (F32, F16 or BF16)");
    const std::int64_t count = entry.elements(*type);
    if (count > kMaxMatrixElements)
        fail(t.file, t.name,
             shapeText(t.shape) + " is more than the " + std::to_string(kMaxMatrixElements) +
                 " elements one tensor may have");

    const Shard& shard = shards[std::size_t(entry.shard)];
    const uchar* begin = shard.map + entry.begin;
    const uchar* end = shard.map + entry.end;
    // Whole pages around the tensor; a neighbour sharing the edge pages just reads them again.
    static const std::uintptr_t pageSize = std::uintptr_t(sysconf(_SC_PAGESIZE));
    const std::uintptr_t first = std::uintptr_t(begin) & ~(pageSize - 1);
    const std::uintptr_t last = (std::uintptr_t(end) + pageSize - 1) & ~(pageSize - 1);
    void* const pages = reinterpret_cast<void*>(first);
    if (count > 0)
        madvise(pages, last - first, MADV_WILLNEED); // start reading ahead of the conversion

    const char* const source = reinterpret_cast<const char*>(begin);
    const int size = itemSize(*type);
    bool finite = true;
    Matrix matrix;
    if (!transpose) {
        // Decoded and checked in blocks that stay in the cache between the two steps, in
        // parallel for large tensors (page faults on the mapping dominate; they scale).
        matrix.resize(rows, cols);
        constexpr std::int64_t kBlock = std::int64_t(1) << 15;
        const std::int64_t blocks = (count + kBlock - 1) / kBlock;
        float* const target = matrix.data();
#pragma omp parallel for schedule(static) reduction(&& : finite) if (blocks > 16)
        for (std::int64_t b = 0; b < blocks; ++b) {
            const std::int64_t at = b * kBlock;
            const std::int64_t n = std::min(kBlock, count - at);
            decodeLittleEndian(source + at * size, *type, n, target + at);
            finite = finite && allFinite(Eigen::Map<const Matrix>(target + at, 1, n));
        }
    } else {
        // 64 x 64 tiles decoded into a buffer and written transposed: one pass over the output
        // instead of a decode and a transposing copy (Eigen's walks one side by columns).
        matrix.resize(cols, rows);
        constexpr std::int64_t kTile = 64;
        const std::int64_t strips = (rows + kTile - 1) / kTile;
#pragma omp parallel for schedule(static) reduction(&& : finite) if (count > (std::int64_t(1) << 19))
        for (std::int64_t strip = 0; strip < strips; ++strip) {
            float tile[kTile * kTile];
            const std::int64_t i = strip * kTile;
            const std::int64_t tileRows = std::min(kTile, rows - i);
            for (std::int64_t j = 0; j < cols; j += kTile) {
                const std::int64_t tileCols = std::min(kTile, cols - j);
                for (std::int64_t r = 0; r < tileRows; ++r)
                    decodeLittleEndian(source + ((i + r) * cols + j) * size, *type, tileCols,
                                       tile + r * kTile);
                const Eigen::Map<const Matrix, 0, Eigen::OuterStride<>> block(
                    tile, tileRows, tileCols, Eigen::OuterStride<>(kTile));
                finite = finite && allFinite(block);
                matrix.block(j, i, tileCols, tileRows) = block.transpose();
            }
        }
    }
    // The float32 copy is what the model keeps; the file's pages go back to the kernel (it
    // keeps them in its page cache), so resident memory stays near the float32 size.
    if (count > 0)
        madvise(pages, last - first, MADV_DONTNEED);

    if (!finite) { // name the first bad value in the file's own (row, column)
        for (Eigen::Index i = 0; i < rows; ++i) {
            for (Eigen::Index j = 0; j < cols; ++j) {
                const float value = transpose ? matrix(j, i) : matrix(i, j);
                if (std::isfinite(value))
                    continue;
                std::string where = t.name; // "wte.weight[0][3]", or "[3]" for a rank-1 tensor
                if (t.shape.size() == 2)
                    where.append("[").append(std::to_string(i)).append("]");
                where.append("[").append(std::to_string(j)).append("]");
                fail(t.file, where,
                     std::string(std::isnan(value) ? "NaN" : "infinite") +
                         "; weights must be finite numbers");
            }
        }
    }
    return matrix;
}

Checkpoint::Checkpoint(std::unique_ptr<Impl> impl) : m(std::move(impl)) {}
Checkpoint::~Checkpoint() = default;

std::unique_ptr<Checkpoint> Checkpoint::open(const QString& folder)
{
    const QDir dir(folder);
    if (!QFileInfo(folder).isDir())
        throw Error(folder.toStdString() + ": no such folder");
    auto impl = std::make_unique<Impl>();
    impl->folder = folder;

    // transformers looks for the single file first, then the index (modeling_utils.py).
    refuseDanglingLink(dir, kSingleFile);
    if (dir.exists(kSingleFile)) {
        impl->sourceName = kSingleFile;
        impl->addShard(kSingleFile);
        return std::unique_ptr<Checkpoint>(new Checkpoint(std::move(impl)));
    }

    refuseDanglingLink(dir, kIndexFile);
    if (dir.exists(kIndexFile)) {
        impl->sourceName = kIndexFile;
        QJsonParseError error{};
        const QJsonDocument document = QJsonDocument::fromJson(
            readRegularFile(dir.filePath(kIndexFile), kMaxIndexBytes), &error);
        if (error.error != QJsonParseError::NoError)
            fail(kIndexFile, "not valid JSON: " + error.errorString().toStdString() +
                                 " at offset " + std::to_string(error.offset));
        const QJsonValue weightMap = document.object().value(QLatin1String("weight_map"));
        if (!weightMap.isObject())
            fail(kIndexFile, "weight_map: missing or not an object");

        std::map<std::string, QString> shardOf;
        std::set<QString> shardNames;
        const QJsonObject map = weightMap.toObject();
        for (auto it = map.begin(); it != map.end(); ++it) {
            const QString shard = it.value().toString();
            // A shard is a file beside the index, never a path elsewhere.
            if (!it.value().isString() || shard.isEmpty() || shard.contains('/') ||
                shard.contains('\\') || shard == QLatin1String("..") || shard == QLatin1String("."))
                fail(kIndexFile, "weight_map: " + it.key().toStdString() +
                                     ": expected the file name of a shard beside the index");
            shardOf.emplace(it.key().toStdString(), shard);
            shardNames.insert(shard);
        }
        if (shardNames.empty())
            fail(kIndexFile, "weight_map names no tensors");
        for (const QString& shard : shardNames) {
            refuseDanglingLink(dir, shard);
            if (!dir.exists(shard))
                fail(kIndexFile, "shard " + shard.toStdString() + " is missing from " +
                                     dir.absolutePath().toStdString() + " (a download cut short?)");
        }
        for (const QString& shard : shardNames)
            impl->addShard(shard);
        for (const auto& [name, shard] : shardOf) {
            const auto it = impl->tensors.find(name);
            if (it == impl->tensors.end() || it->second.tensor.file != shard)
                fail(kIndexFile,
                     name + ": weight_map places it in " + shard.toStdString() +
                         (it == impl->tensors.end()
                              ? std::string(", which has no such tensor")
                              : ", but it is in " + it->second.tensor.file.toStdString()));
        }
        return std::unique_ptr<Checkpoint>(new Checkpoint(std::move(impl)));
    }

    for (const char* pickle : {"pytorch_model.bin", "pytorch_model.bin.index.json"}) {
        if (dir.exists(pickle))
            throw Error(dir.filePath(pickle).toStdString() +
                        ": PyTorch pickle weights are not read: a pickle can run arbitrary code "
                        "when it is loaded, and it cannot be read safely without Python. " +
                        conversionAdvice(folder));
    }
    const QStringList others = dir.entryList({"*.safetensors"}, QDir::Files, QDir::Name);
    throw Error(
        dir.absolutePath().toStdString() + ": no model.safetensors or " + kIndexFile.toStdString() +
        (others.isEmpty() ? std::string(" (nor any other weights this explorer reads)")
                          : " (found " + others.join(", ").toStdString() +
                                ", which is not the Hugging Face layout save_pretrained writes)"));
}

std::int64_t Checkpoint::float32Bytes() const
{
    std::int64_t bytes = 0;
    for (const auto& [name, entry] : m->tensors)
        if (const std::optional<ElementType> type = floatElementType(entry.tensor.dtype))
            bytes += entry.elements(*type) * std::int64_t(sizeof(float));
    return bytes;
}

bool Checkpoint::contains(const std::string& name) const
{
    return m->tensors.count(name) > 0;
}

const Checkpoint::Tensor* Checkpoint::find(const std::string& name) const
{
    const auto it = m->tensors.find(name);
    return it == m->tensors.end() ? nullptr : &it->second.tensor;
}

std::vector<std::string> Checkpoint::names() const
{
    std::vector<std::string> names;
    names.reserve(m->tensors.size());
    for (const auto& entry : m->tensors)
        names.push_back(entry.first);
    return names;
}

std::string Checkpoint::mainDtype() const
{
    std::map<std::string, std::int64_t> bytes;
    for (const auto& [name, entry] : m->tensors) {
        const std::optional<ElementType> type = floatElementType(entry.tensor.dtype);
        if (type && *type != ElementType::F64)
            bytes[entry.tensor.dtype] += entry.elements(*type);
    }
    std::string main = "F32";
    std::int64_t most = -1;
    for (const auto& [dtype, count] : bytes)
        if (count > most)
            std::tie(main, most) = std::tie(dtype, count);
    return main;
}

namespace {

// The stored extent of a rank-1 or rank-2 tensor against the one asked for (-1: any).
std::pair<std::int64_t, std::int64_t> checkedExtent(const Checkpoint::Tensor& tensor,
                                                    std::int64_t rows, std::int64_t cols)
{
    const std::vector<std::int64_t>& shape = tensor.shape;
    const std::int64_t haveRows = shape.size() == 2 ? shape[0] : 1;
    const std::int64_t haveCols = shape.size() == 2 ? shape[1] : shape.size() == 1 ? shape[0] : -1;
    if (shape.empty() || shape.size() > 2 || (rows >= 0 && haveRows != rows) ||
        (cols >= 0 && haveCols != cols))
        fail(tensor.file, tensor.name,
             "expected " + dimText(rows) + "x" + dimText(cols) + ", got " + shapeText(shape));
    return {haveRows, haveCols};
}

} // namespace

Matrix Checkpoint::matrix(const std::string& name, std::int64_t rows, std::int64_t cols) const
{
    const Impl::Entry& entry = m->require(name);
    const auto [haveRows, haveCols] = checkedExtent(entry.tensor, rows, cols);
    return m->read(entry, haveRows, haveCols);
}

Matrix Checkpoint::transposedMatrix(const std::string& name, std::int64_t rows,
                                    std::int64_t cols) const
{
    const Impl::Entry& entry = m->require(name);
    const auto [haveRows, haveCols] = checkedExtent(entry.tensor, rows, cols);
    return m->read(entry, haveRows, haveCols, true);
}

RowVector Checkpoint::vector(const std::string& name, std::int64_t size) const
{
    const Impl::Entry& entry = m->require(name);
    const std::vector<std::int64_t>& shape = entry.tensor.shape;
    if (shape.size() != 1 || (size >= 0 && shape[0] != size))
        fail(entry.tensor.file, name, "expected " + dimText(size) + ", got " + shapeText(shape));
    return m->read(entry, 1, shape[0]);
}

} // namespace attn::core
