// Checkpoint: the model fixtures (tests/data/models, written by make_tiny_models.py) opened by
// memory map, every value compared with a second reading of the raw bytes (raw_safetensors.h),
// and every kind of malformed file (a tensor missing, misshapen, of the wrong dtype or outside the
// file), built by patching a copy of a fixture.
#include "core/error.h"
#include "core/model/checkpoint.h"
#include "support/raw_safetensors.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <functional>
#include <limits>

using attn::core::Checkpoint;
using attn::core::Matrix;
using Mutation = std::function<void(const QString& folder)>;

Q_DECLARE_METATYPE(Mutation)

namespace {

void expectError(const std::function<void()>& action, const QString& fragment)
{
    try {
        action();
    } catch (const attn::core::Error& e) {
        const QString message = QString::fromStdString(e.what());
        QVERIFY2(message.contains(fragment),
                 qPrintable("message: " + message + "\nexpected: " + fragment));
        return;
    }
    QFAIL(qPrintable("no error; expected: " + fragment));
}

// Applies `edit` to one safetensors file of a copied fixture and writes it back.
Mutation patchFile(const QString& file, std::function<void(rawst::File&)> edit)
{
    return [file, edit](const QString& folder) {
        rawst::File st = rawst::File::read(QDir(folder).filePath(file));
        edit(st);
        st.write(QDir(folder).filePath(file));
    };
}

// Replaces one key of one tensor's header entry.
Mutation patchEntry(const QString& file, const QString& tensor, const QString& key,
                    const QJsonValue& value)
{
    return patchFile(file, [=](rawst::File& st) {
        QJsonObject header = st.header();
        QJsonObject entry = header[tensor].toObject();
        entry[key] = value;
        header[tensor] = entry;
        st.setHeader(header);
    });
}

qint64 residentFileKiB()
{
    QFile status("/proc/self/status");
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : status.readAll().split('\n'))
        if (line.startsWith("RssFile:"))
            return line.mid(8).trimmed().split(' ').front().toLongLong();
    return -1;
}

const QString kSingle = "model.safetensors";
const QString kShard1 = "model-00001-of-00002.safetensors";
const QString kShard2 = "model-00002-of-00002.safetensors";

} // namespace

class TestCheckpoint : public QObject
{
    Q_OBJECT

private slots:
    void opensEveryFixture_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<int>("tensorCount");
        QTest::addColumn<QString>("mainDtype");
        QTest::addColumn<QString>("probe");
        QTest::addColumn<QString>("probeDtype");
        QTest::addColumn<QString>("probeShape");
        // Counts and probes read off the files' headers (make_tiny_models.py's table).
        QTest::newRow("gpt2") << "gpt2" << 32 << "F32"
                              << "transformer.h.0.attn.bias"
                              << "F32"
                              << "1,1,32,32";
        QTest::newRow("gpt2 masked_bias") << "gpt2" << 32 << "F32"
                                          << "transformer.h.1.attn.masked_bias"
                                          << "F32"
                                          << "";
        QTest::newRow("gpt2-noprefix-f16") << "gpt2-noprefix-f16" << 28 << "F16"
                                           << "h.1.attn.c_attn.weight"
                                           << "F16"
                                           << "24,72";
        QTest::newRow("bert") << "bert" << 47 << "F32"
                              << "bert.embeddings.position_ids"
                              << "I64"
                              << "1,32";
        QTest::newRow("distilbert") << "distilbert" << 57 << "F16"
                                    << "vocab_projector.bias"
                                    << "F16"
                                    << "204";
        QTest::newRow("llama") << "llama" << 21 << "BF16"
                               << "model.layers.1.self_attn.k_proj.weight"
                               << "BF16"
                               << "16,32";
        QTest::newRow("smollm") << "smollm" << 20 << "F32"
                                << "model.norm.weight"
                                << "F32"
                                << "24";
        QTest::newRow("qwen2") << "qwen2" << 26 << "F32"
                               << "model.layers.0.self_attn.q_proj.bias"
                               << "F32"
                               << "24";
        QTest::newRow("mistral") << "mistral" << 21 << "F16"
                                 << "lm_head.weight"
                                 << "F16"
                                 << "407,16";
    }
    void opensEveryFixture()
    {
        QFETCH(QString, fixture);
        QFETCH(int, tensorCount);
        QFETCH(QString, mainDtype);
        QFETCH(QString, probe);
        QFETCH(QString, probeDtype);
        QFETCH(QString, probeShape);
        const auto checkpoint = Checkpoint::open(rawst::fixture(fixture));
        const std::vector<std::string> names = checkpoint->names();
        QCOMPARE(int(names.size()), tensorCount);
        QVERIFY(std::is_sorted(names.begin(), names.end()));
        QCOMPARE(QString::fromStdString(checkpoint->mainDtype()), mainDtype);
        QVERIFY(checkpoint->contains(probe.toStdString()));
        const Checkpoint::Tensor* tensor = checkpoint->find(probe.toStdString());
        QVERIFY(tensor);
        QCOMPARE(QString::fromStdString(tensor->dtype), probeDtype);
        QStringList dims;
        for (std::int64_t dim : tensor->shape)
            dims << QString::number(dim);
        QCOMPARE(dims.join(','), probeShape);
        QVERIFY(!checkpoint->find("no.such.tensor"));
        QVERIFY(!checkpoint->contains("no.such.tensor"));
    }

    // Every float tensor of every fixture, element for element, against the raw bytes decoded
    // by the test's own code (qfloat16 for F16, the top half of a float for BF16).
    void valuesEqualTheRawBytes_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("file");
        for (const char* name :
             {"gpt2", "bert", "distilbert", "llama", "smollm", "qwen2", "mistral"})
            QTest::newRow(name) << QString(name) << kSingle;
        QTest::newRow("gpt2-noprefix-f16 shard 1") << "gpt2-noprefix-f16" << kShard1;
        QTest::newRow("gpt2-noprefix-f16 shard 2") << "gpt2-noprefix-f16" << kShard2;
    }
    void valuesEqualTheRawBytes()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, file);
        const auto checkpoint = Checkpoint::open(rawst::fixture(fixture));
        const rawst::File raw = rawst::File::read(QDir(rawst::fixture(fixture)).filePath(file));
        int compared = 0;
        for (const QString& name : raw.header().keys()) {
            if (name == "__metadata__" || raw.dtype(name).startsWith('I') ||
                raw.shape(name).size() > 2 || raw.shape(name).empty())
                continue;
            const Checkpoint::Tensor* tensor = checkpoint->find(name.toStdString());
            QVERIFY(tensor);
            QCOMPARE(tensor->file, file);
            const auto expected = raw.matrix(name);
            const Matrix got =
                raw.shape(name).size() == 1
                    ? Matrix(checkpoint->vector(name.toStdString(), expected.cols()))
                    : checkpoint->matrix(name.toStdString(), expected.rows(), expected.cols());
            QCOMPARE(got.rows(), expected.rows());
            QCOMPARE(got.cols(), expected.cols());
            QVERIFY2(got == expected, qPrintable(name));
            if (raw.shape(name).size() == 2) // nn.Linear's read: the transpose in one pass
                QVERIFY2(checkpoint->transposedMatrix(name.toStdString(), expected.rows(),
                                                      expected.cols()) == expected.transpose(),
                         qPrintable(name));
            ++compared;
        }
        QVERIFY(compared >= 14);
    }

    // One BF16 value decoded by its definition: sign, 8 exponent bits, 7 mantissa bits.
    void bfloat16DecodesExactly()
    {
        const rawst::File raw = rawst::File::read(rawst::fixture("llama/model.safetensors"));
        const qint64 at = raw.begin("model.layers.0.self_attn.q_proj.weight");
        for (qint64 k : {0, 1, 7, 100, 1023}) {
            const auto lo = static_cast<unsigned char>(raw.data[at + 2 * k]);
            const auto hi = static_cast<unsigned char>(raw.data[at + 2 * k + 1]);
            const int bits = lo | (hi << 8);
            const int exponent = (bits >> 7) & 0xff;
            QVERIFY(exponent > 0 && exponent < 0xff); // a normal number, as N(0, 1/d) weights are
            const double value = ((bits & 0x8000) ? -1.0 : 1.0) *
                                 std::ldexp(1.0 + (bits & 0x7f) / 128.0, exponent - 127);
            const auto checkpoint = Checkpoint::open(rawst::fixture("llama"));
            const Matrix q = checkpoint->matrix("model.layers.0.self_attn.q_proj.weight", 32, 32);
            QCOMPARE(double(q.data()[k]), value);
        }
    }

    void rankOneIsOneRow()
    {
        const auto checkpoint = Checkpoint::open(rawst::fixture("gpt2"));
        const Matrix row = checkpoint->matrix("transformer.ln_f.weight", 1, 16);
        QCOMPARE(row.rows(), 1);
        QCOMPARE(row.cols(), 16);
        QVERIFY(row == Matrix(checkpoint->vector("transformer.ln_f.weight", 16)));
        // -1 accepts any size in that dimension.
        QCOMPARE(checkpoint->matrix("transformer.wte.weight", -1, 16).rows(), 413);
        QCOMPARE(checkpoint->vector("transformer.ln_f.bias", -1).size(), 16);
        expectError([&] { checkpoint->vector("transformer.wte.weight", 16); },
                    "model.safetensors: transformer.wte.weight: expected 16, got 413x16");
        expectError([&] { checkpoint->matrix("transformer.h.0.attn.masked_bias", 1, 1); },
                    "transformer.h.0.attn.masked_bias: expected 1x1, got a scalar");
        expectError([&] { checkpoint->matrix("transformer.h.0.attn.bias", -1, -1); },
                    "transformer.h.0.attn.bias: expected ?x?, got 1x1x32x32");
    }

    // A tensor's error names its file and the tensor apart from the message, so that a window
    // can point at the tensor without reading the text back.
    void tensorErrorNamesItsPlaces()
    {
        const auto checkpoint = Checkpoint::open(rawst::fixture("gpt2"));
        try {
            checkpoint->vector("transformer.wte.weight", 16);
            QFAIL("no error");
        } catch (const attn::core::Error& e) {
            QCOMPARE(e.where(), std::string("model.safetensors"));
            QCOMPARE(e.places(),
                     (std::vector<std::string>{"model.safetensors", "transformer.wte.weight"}));
            QCOMPARE(e.message(), std::string("expected 16, got 413x16"));
            QCOMPARE(
                std::string(e.what()),
                std::string("model.safetensors: transformer.wte.weight: expected 16, got 413x16"));
        }
    }

    void refuses_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<Mutation>("mutation");
        QTest::addColumn<QString>("tensor"); // read after opening; "" = opening must fail
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("cols");
        QTest::addColumn<QString>("fragment");
        const Mutation none = [](const QString&) {};
        const QString cAttn = "transformer.h.0.attn.c_attn.weight";

        QTest::newRow("missing tensor")
            << "gpt2" << none << "transformer.h.9.ln_1.weight" << 1 << 16
            << "model.safetensors: transformer.h.9.ln_1.weight: missing";
        QTest::newRow("missing tensor, sharded")
            << "gpt2-noprefix-f16" << none << "lm_head.weight" << 413 << 24
            << "model.safetensors.index.json: lm_head.weight: missing";
        QTest::newRow("wrong shape asked")
            << "gpt2" << none << cAttn << 16 << 47
            << "model.safetensors: " + cAttn + ": expected 16x47, got 16x48";
        // The message names file, tensor and both shapes, with the stored shape one column short
        // (and its data 16 floats shorter, so that the header is consistent).
        QTest::newRow("wrong shape stored") << "gpt2" << patchFile(kSingle, [=](rawst::File& st) {
            QJsonObject header = st.header();
            QJsonObject entry = header[cAttn].toObject();
            entry["shape"] = QJsonArray{16, 47};
            const QJsonArray offsets = entry["data_offsets"].toArray();
            entry["data_offsets"] = QJsonArray{offsets[0], offsets[1].toInteger() - 16 * 4};
            header[cAttn] = entry;
            st.setHeader(header);
        }) << cAttn << 16 << 48 << "model.safetensors: " + cAttn + ": expected 16x48, got 16x47";
        QTest::newRow("wrong dtype")
            << "gpt2" << patchEntry(kSingle, cAttn, "dtype", "I32") << cAttn << 16 << 48
            << cAttn + ": dtype I32 cannot be read as weights (F32, F16 or BF16)";
        QTest::newRow("integer buffer asked as weights")
            << "bert" << none << "bert.embeddings.position_ids" << 1 << 32
            << "bert.embeddings.position_ids: dtype I64 cannot be read as weights";
        QTest::newRow("F64 weights")
            << "gpt2" << patchEntry(kSingle, "transformer.h.0.ln_1.weight", "dtype", "F64") << ""
            << 0 << 0 << "shape 16 of F64 needs 128 bytes, its data_offsets give 64";
        QTest::newRow("tensor outside the file")
            << "gpt2"
            << patchFile(kSingle,
                         [](rawst::File& st) {
                             QJsonObject header = st.header();
                             QJsonObject entry = header["transformer.wte.weight"].toObject();
                             const qint64 begin = entry["data_offsets"].toArray()[0].toInteger();
                             entry["data_offsets"] = QJsonArray{begin, st.data.size() + 64};
                             header["transformer.wte.weight"] = entry;
                             st.setHeader(header);
                         })
            << "" << 0 << 0 << "tensor 'transformer.wte.weight': data_offsets [";
        QTest::newRow("file cut short") // the last tensor's data is no longer all there
            << "gpt2" << patchFile(kSingle, [](rawst::File& st) { st.data.chop(4); }) << "" << 0
            << 0 << "are not a range within the";
        QTest::newRow("shape and size disagree")
            << "gpt2" << patchEntry(kSingle, cAttn, "shape", QJsonArray{16, 49}) << "" << 0 << 0
            << cAttn + ": shape 16x49 of F32 needs 3136 bytes, its data_offsets give 3072";
        QTest::newRow("overlapping tensors")
            << "gpt2"
            << patchEntry(kSingle, "transformer.ln_f.bias", "data_offsets",
                          rawst::File::read(rawst::fixture("gpt2/model.safetensors"))
                              .tensor("transformer.ln_f.weight")["data_offsets"])
            << "" << 0 << 0 << "overlap in the data section";
        QTest::newRow("header length past the file")
            << "gpt2" << Mutation([](const QString& folder) {
                   const QString path = QDir(folder).filePath(kSingle);
                   QByteArray bytes = rawst::readAll(path);
                   bytes.replace(0, 8, rawst::u64Bytes(std::uint64_t(bytes.size())));
                   rawst::writeAll(path, bytes);
               })
            << "" << 0 << 0
            << "model.safetensors: safetensors header length 65984 is larger than the 65976 bytes "
               "after it";
        QTest::newRow("header length over the cap")
            << "gpt2" << Mutation([](const QString& folder) {
                   const QString path = QDir(folder).filePath(kSingle);
                   QByteArray bytes = rawst::readAll(path);
                   bytes.replace(0, 8, rawst::u64Bytes(std::uint64_t(1) << 40));
                   rawst::writeAll(path, bytes);
               })
            << "" << 0 << 0 << "is more than the 100000000 bytes allowed";
        QTest::newRow("header not JSON")
            << "gpt2" << patchFile(kSingle, [](rawst::File& st) { st.headerText[0] = 'x'; }) << ""
            << 0 << 0 << "model.safetensors: safetensors header is not valid JSON";
        QTest::newRow("too short") << "gpt2" << Mutation([](const QString& folder) {
            rawst::writeAll(QDir(folder).filePath(kSingle), "abc");
        }) << "" << 0 << 0 << "model.safetensors: too short for a safetensors file (3 bytes)";
        // QJsonDocument would keep only the second of two equal keys.
        QTest::newRow("name twice in one header")
            << "gpt2"
            << patchFile(kSingle,
                         [](rawst::File& st) {
                             const QJsonObject entry = st.tensor("transformer.ln_f.bias");
                             const QByteArray twice =
                                 ",\"transformer.ln_f.bias\":" +
                                 QJsonDocument(entry).toJson(QJsonDocument::Compact);
                             st.headerText = st.headerText.trimmed();
                             st.headerText.insert(st.headerText.size() - 1, twice);
                         })
            << "" << 0 << 0
            << "model.safetensors: tensor 'transformer.ln_f.bias' is given twice in the "
               "safetensors header";
        QTest::newRow("name twice, escaped") << "gpt2" << patchFile(kSingle, [](rawst::File& st) {
            const QJsonObject entry = st.tensor("transformer.ln_f.bias");
            const QByteArray twice = ",\"transformer.ln_f.b\\u0069as\":" +
                                     QJsonDocument(entry).toJson(QJsonDocument::Compact);
            st.headerText = st.headerText.trimmed();
            st.headerText.insert(st.headerText.size() - 1, twice);
        }) << "" << 0 << 0 << "tensor 'transformer.ln_f.bias' is given twice";
        QTest::newRow("name in two shards")
            << "gpt2-noprefix-f16"
            << patchFile(kShard2,
                         [](rawst::File& st) {
                             QJsonObject header = st.header();
                             header["h.0.ln_1.bias"] = header.take("h.1.ln_1.bias");
                             st.setHeader(header);
                         })
            << "" << 0 << 0 << kShard2 + ": h.0.ln_1.bias: given twice, here and in " + kShard1;
        QTest::newRow("shard missing")
            << "gpt2-noprefix-f16" << Mutation([](const QString& folder) {
                   QFile::remove(QDir(folder).filePath(kShard2));
               })
            << "" << 0 << 0
            << "model.safetensors.index.json: shard " + kShard2 + " is missing from";
        QTest::newRow("index places a tensor wrongly")
            << "gpt2-noprefix-f16" << Mutation([](const QString& folder) {
                   const QString path = QDir(folder).filePath("model.safetensors.index.json");
                   QJsonObject index = QJsonDocument::fromJson(rawst::readAll(path)).object();
                   QJsonObject map = index["weight_map"].toObject();
                   map["h.0.ln_1.bias"] = kShard2;
                   index["weight_map"] = map;
                   rawst::writeAll(path, QJsonDocument(index).toJson());
               })
            << "" << 0 << 0
            << "model.safetensors.index.json: h.0.ln_1.bias: weight_map places it in " + kShard2 +
                   ", but it is in " + kShard1;
        QTest::newRow("index names a path, not a shard")
            << "gpt2-noprefix-f16" << Mutation([](const QString& folder) {
                   const QString path = QDir(folder).filePath("model.safetensors.index.json");
                   QJsonObject index = QJsonDocument::fromJson(rawst::readAll(path)).object();
                   QJsonObject map = index["weight_map"].toObject();
                   map["h.0.ln_1.bias"] = "../elsewhere.safetensors";
                   index["weight_map"] = map;
                   rawst::writeAll(path, QJsonDocument(index).toJson());
               })
            << "" << 0 << 0 << "h.0.ln_1.bias: expected the file name of a shard beside the index";
        QTest::newRow("NaN (F32)")
            << "gpt2"
            << patchFile(
                   kSingle,
                   [](rawst::File& st) { st.poke32("transformer.wte.weight", 3, 0x7fc00000u); })
            << "transformer.wte.weight" << 413 << 16
            << "model.safetensors: transformer.wte.weight[0][3]: NaN; weights must be finite "
               "numbers";
        QTest::newRow("infinity (F16)")
            << "distilbert"
            << patchFile(kSingle,
                         [](rawst::File& st) { st.poke16("vocab_projector.bias", 5, 0x7c00); })
            << "vocab_projector.bias" << 1 << 204
            << "vocab_projector.bias[5]: infinite; weights must be finite numbers";
        QTest::newRow("NaN (BF16)")
            << "llama"
            << patchFile(kSingle,
                         [](rawst::File& st) { st.poke16("lm_head.weight", 2 * 32 + 9, 0xffc1); })
            << "lm_head.weight" << 447 << 32 << "lm_head.weight[2][9]: NaN";
        QTest::newRow("NaN (F16, shard 2)")
            << "gpt2-noprefix-f16"
            << patchFile(kShard2, [](rawst::File& st) { st.poke16("ln_f.weight", 23, 0x7e00); })
            << "ln_f.weight" << 1 << 24 << kShard2 + ": ln_f.weight[23]: NaN";
    }
    void refuses()
    {
        QFETCH(QString, fixture);
        QFETCH(Mutation, mutation);
        QFETCH(QString, tensor);
        QFETCH(int, rows);
        QFETCH(int, cols);
        QFETCH(QString, fragment);
        QTemporaryDir dir;
        const QString folder = rawst::copyFixture(fixture, dir.filePath("model"));
        mutation(folder);
        expectError(
            [&] {
                const auto checkpoint = Checkpoint::open(folder);
                if (!tensor.isEmpty())
                    checkpoint->matrix(tensor.toStdString(), rows, cols);
            },
            fragment);
    }

    void refusesPickles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::newRow("pytorch_model.bin") << "pytorch_model.bin";
        QTest::newRow("sharded pickles") << "pytorch_model.bin.index.json";
    }
    void refusesPickles()
    {
        QFETCH(QString, file);
        QTemporaryDir dir;
        QFile::copy(rawst::fixture("gpt2/config.json"), dir.filePath("config.json"));
        rawst::writeAll(dir.filePath(file), "\x80\x02}q\x00.");
        expectError([&] { Checkpoint::open(dir.path()); },
                    file + ": PyTorch pickle weights are not read: "
                           "a pickle can run arbitrary code");
        expectError([&] { Checkpoint::open(dir.path()); }, "cannot be read safely without Python");
        expectError([&] { Checkpoint::open(dir.path()); }, "save_pretrained('" +
                                                               QDir(dir.path()).absolutePath() +
                                                               "', safe_serialization=True)");
    }

    // What loading allocates, from the headers alone: every F32/F16/BF16 element as 4 bytes,
    // integer buffers (BERT's position_ids) left out. Sums of the fixtures' header shapes.
    void float32BytesFromTheHeaders_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<qint64>("bytes");
        QTest::newRow("gpt2") << "gpt2" << qint64(63048);
        QTest::newRow("gpt2-noprefix-f16 (two shards)") << "gpt2-noprefix-f16" << qint64(94368);
        QTest::newRow("bert") << "bert" << qint64(68024);
        QTest::newRow("distilbert") << "distilbert" << qint64(50288);
        QTest::newRow("llama (BF16)") << "llama" << qint64(201088);
        QTest::newRow("mistral (F16)") << "mistral" << qint64(76992);
    }
    void float32BytesFromTheHeaders()
    {
        QFETCH(QString, fixture);
        QFETCH(qint64, bytes);
        QCOMPARE(qint64(Checkpoint::open(rawst::fixture(fixture))->float32Bytes()), bytes);
    }

    // A Hugging Face cache snapshot links each file to a blob; a download cut short leaves a
    // link to a missing blob, which is not the same as no file.
    void refusesDanglingLinks_data()
    {
        QTest::addColumn<QString>("fixture");
        QTest::addColumn<QString>("file");
        QTest::newRow("model.safetensors") << "gpt2"
                                           << "model.safetensors";
        QTest::newRow("the index") << "gpt2-noprefix-f16"
                                   << "model.safetensors.index.json";
        QTest::newRow("a shard") << "gpt2-noprefix-f16"
                                 << "model-00002-of-00002.safetensors";
    }
    void refusesDanglingLinks()
    {
        QFETCH(QString, fixture);
        QFETCH(QString, file);
        QTemporaryDir dir;
        const QString folder = rawst::copyFixture(fixture, dir.filePath("snapshots/0123abc"));
        QVERIFY(QFile::remove(QDir(folder).filePath(file)));
        QVERIFY(QFile::link("../../blobs/9f86d0", QDir(folder).filePath(file)));
        expectError([&] { Checkpoint::open(folder); },
                    file + ": the link points to " +
                        QDir(dir.path()).absoluteFilePath("blobs/9f86d0") +
                        ", which is missing (a download cut short?)");
    }

    void refusesFoldersWithoutWeights()
    {
        QTemporaryDir dir;
        expectError([&] { Checkpoint::open(dir.path()); },
                    "no model.safetensors or model.safetensors.index.json");
        rawst::writeAll(dir.filePath("consolidated.safetensors"), "");
        expectError([&] { Checkpoint::open(dir.path()); }, "found consolidated.safetensors");
        expectError([&] { Checkpoint::open(dir.filePath("nothing-here")); },
                    "nothing-here: no such folder");
    }

    // Finite values however large are weights like any other; the forward reports what they do.
    void acceptsHugeFiniteValues()
    {
        QTemporaryDir dir;
        const QString folder = rawst::copyFixture("gpt2", dir.filePath("model"));
        patchFile(kSingle, [](rawst::File& st) {
            st.poke32("transformer.wte.weight", 5, std::bit_cast<std::uint32_t>(1e30f));
            st.poke32("transformer.wte.weight", 6,
                      std::bit_cast<std::uint32_t>(-std::numeric_limits<float>::max()));
        })(folder);
        const Matrix wte = Checkpoint::open(folder)->matrix("transformer.wte.weight", 413, 16);
        QCOMPARE(wte(0, 5), 1e30f);
        QCOMPARE(wte(0, 6), -std::numeric_limits<float>::max());
    }

    // Tiles at the edges (sizes not multiples of 64) and the parallel path of the transposed
    // read; a bad value is reported where it is in the file.
    void transposedRead()
    {
        const qint64 rows = 1000, cols = 700;
        QByteArray data(rows * cols * 2, Qt::Uninitialized);
        for (qint64 k = 0; k < rows * cols; ++k) {
            const std::uint16_t bits =
                std::bit_cast<std::uint16_t>(qfloat16(float(k % 1013) / 128.0f - 4.0f));
            std::memcpy(data.data() + 2 * k, &bits, 2);
        }
        rawst::File st;
        st.setHeader(QJsonObject{{"w", QJsonObject{{"dtype", "F16"},
                                                   {"shape", QJsonArray{rows, cols}},
                                                   {"data_offsets", QJsonArray{0, data.size()}}}}});
        st.data = data;
        QTemporaryDir dir;
        st.write(dir.filePath(kSingle));
        {
            const auto checkpoint = Checkpoint::open(dir.path());
            const Matrix plain = checkpoint->matrix("w", rows, cols);
            const Matrix transposed = checkpoint->transposedMatrix("w", rows, cols);
            QCOMPARE(transposed.rows(), cols);
            QVERIFY(transposed == plain.transpose());
            QCOMPARE(plain(999, 699), float((999 * 700 + 699) % 1013) / 128.0f - 4.0f);
            expectError([&] { checkpoint->transposedMatrix("w", cols, rows); },
                        "w: expected 700x1000, got 1000x700");
        }
        st.poke16("w", 876 * cols + 543, 0x7e00);
        st.write(dir.filePath(kSingle));
        const auto checkpoint = Checkpoint::open(dir.path());
        expectError([&] { checkpoint->transposedMatrix("w", rows, cols); },
                    "model.safetensors: w[876][543]: NaN");
    }

    // After a tensor is converted its mapped pages are handed back, so the process does not
    // hold the file and its float32 copy at once (the memory goal: 1.25 x the float32 size).
    void givesMappedPagesBack_data()
    {
        QTest::addColumn<QString>("dtype");
        QTest::newRow("F16") << "F16";
        QTest::newRow("BF16") << "BF16";
        QTest::newRow("F32") << "F32";
    }
    void givesMappedPagesBack()
    {
        QFETCH(QString, dtype);
        const qint64 rows = 4096, cols = 4096; // 32 MiB of F16, 64 MiB of float32
        const int itemSize = dtype == "F32" ? 4 : 2;
        QByteArray data(rows * cols * itemSize, Qt::Uninitialized);
        for (qint64 k = 0; k < rows * cols; ++k) { // small exact values: (k % 251) / 64
            const float value = float(k % 251) / 64.0f;
            if (dtype == "F32") {
                std::memcpy(data.data() + 4 * k, &value, 4);
            } else {
                const qfloat16 half(value);
                const std::uint16_t bits =
                    dtype == "F16" ? std::bit_cast<std::uint16_t>(half)
                                   : std::uint16_t(std::bit_cast<std::uint32_t>(value) >> 16);
                std::memcpy(data.data() + 2 * k, &bits, 2);
            }
        }
        rawst::File st;
        st.setHeader(
            QJsonObject{{"big", QJsonObject{{"dtype", dtype},
                                            {"shape", QJsonArray{rows, cols}},
                                            {"data_offsets", QJsonArray{0, data.size()}}}}});
        st.data = data;
        QTemporaryDir dir;
        st.write(dir.filePath(kSingle));
        data.clear();
        st.data.clear();

        const auto checkpoint = Checkpoint::open(dir.path());
        const qint64 before = residentFileKiB();
        QElapsedTimer timer;
        timer.start();
        const Matrix big = checkpoint->matrix("big", rows, cols);
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        const qint64 after = residentFileKiB();
        qInfo("%s -> float32: %lld x %lld in %.1f ms (%.2f GB/s of output)", qPrintable(dtype),
              rows, cols, ms, double(big.size()) * 4 / (ms * 1e6));
        for (qint64 k : {qint64(0), qint64(1), qint64(250), qint64(251), rows * cols - 1})
            QCOMPARE(big.data()[k], float(k % 251) / 64.0f);
        if (before < 0)
            QSKIP("no /proc/self/status RssFile on this system");
        // The file is 32 or 64 MiB; what stays mapped in is a few pages at most.
        QVERIFY2(after - before < 4096,
                 qPrintable(QString("RssFile grew by %1 KiB").arg(after - before)));
    }
};

QTEST_GUILESS_MAIN(TestCheckpoint)
#include "tst_checkpoint.moc"
