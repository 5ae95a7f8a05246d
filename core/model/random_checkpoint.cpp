#include "core/model/random_checkpoint.h"

#include "core/error.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace attn::core {
namespace {

enum class Family {
    Gpt2,
    Bert, // post-norm, token types, masked-LM head
    T5,   // encoder and decoder of `layers` each, relative positions, RMS norms, ReLU
};

struct Shape
{
    const char* name;
    int layers;
    int d;
    int heads;
    int ff;
    int vocab;
    int positions;
    Family family;
    bool bert() const { return family == Family::Bert; }
};

const Shape kShapes[] = {
    {"gpt2", 12, 768, 12, 3072, 50257, 1024, Family::Gpt2},
    {"bert", 12, 768, 12, 3072, 30522, 512, Family::Bert},
    {"t5-small", 6, 512, 8, 2048, 32128, 512, Family::T5},
};
// t5-small's tokenizer has 32100 pieces; its embedding 32128 rows.
constexpr int kT5Pieces = 32100;
constexpr int kT5Buckets = 32;

const Shape& shapeOf(const QString& name)
{
    for (const Shape& s : kShapes)
        if (name == QLatin1String(s.name))
            return s;
    throw Error("unknown model '" + name.toStdString() + "' (gpt2, bert, t5-small)");
}

enum class Fill { Random, Ones };

struct Tensor
{
    std::string name;
    std::vector<std::int64_t> shape;
    Fill fill = Fill::Random;

    std::int64_t size() const
    {
        std::int64_t n = 1;
        for (std::int64_t s : shape)
            n *= s;
        return n;
    }
};

// T5ForConditionalGeneration's names (t5-small: no lm_head, tied to shared.weight); each
// stack's first block holds the relative position buckets, as in the hub's files.
std::vector<Tensor> t5Tensors(const Shape& s)
{
    std::vector<Tensor> t;
    const std::int64_t d = s.d;
    t.push_back({"shared.weight", {s.vocab, d}});
    auto attention = [&](const std::string& base, bool buckets) {
        for (const char* m : {"q", "k", "v", "o"})
            t.push_back({base + m + ".weight", {d, d}});
        if (buckets)
            t.push_back({base + "relative_attention_bias.weight", {kT5Buckets, s.heads}});
    };
    auto feedForward = [&](const std::string& base) {
        t.push_back({base + "DenseReluDense.wi.weight", {s.ff, d}});
        t.push_back({base + "DenseReluDense.wo.weight", {d, s.ff}});
        t.push_back({base + "layer_norm.weight", {d}, Fill::Ones});
    };
    for (int l = 0; l < s.layers; ++l) {
        const std::string b = "encoder.block." + std::to_string(l) + ".layer.";
        attention(b + "0.SelfAttention.", l == 0);
        t.push_back({b + "0.layer_norm.weight", {d}, Fill::Ones});
        feedForward(b + "1.");
    }
    t.push_back({"encoder.final_layer_norm.weight", {d}, Fill::Ones});
    for (int l = 0; l < s.layers; ++l) {
        const std::string b = "decoder.block." + std::to_string(l) + ".layer.";
        attention(b + "0.SelfAttention.", l == 0);
        t.push_back({b + "0.layer_norm.weight", {d}, Fill::Ones});
        attention(b + "1.EncDecAttention.", false);
        t.push_back({b + "1.layer_norm.weight", {d}, Fill::Ones});
        feedForward(b + "2.");
    }
    t.push_back({"decoder.final_layer_norm.weight", {d}, Fill::Ones});
    return t;
}

std::vector<Tensor> tensorsOf(const Shape& s)
{
    if (s.family == Family::T5)
        return t5Tensors(s);
    std::vector<Tensor> t;
    const std::int64_t d = s.d;
    auto layerNorm = [&](const std::string& base) {
        t.push_back({base + ".weight", {d}, Fill::Ones});
        t.push_back({base + ".bias", {d}});
    };
    if (!s.bert()) {
        // GPT2Model's names (the hub's gpt2 repository has no "transformer." prefix); Conv1D
        // weights are d_in x d_out.
        t.push_back({"wte.weight", {s.vocab, d}});
        t.push_back({"wpe.weight", {s.positions, d}});
        for (int l = 0; l < s.layers; ++l) {
            const std::string h = "h." + std::to_string(l) + ".";
            layerNorm(h + "ln_1");
            t.push_back({h + "attn.c_attn.weight", {d, 3 * d}});
            t.push_back({h + "attn.c_attn.bias", {3 * d}});
            t.push_back({h + "attn.c_proj.weight", {d, d}});
            t.push_back({h + "attn.c_proj.bias", {d}});
            layerNorm(h + "ln_2");
            t.push_back({h + "mlp.c_fc.weight", {d, s.ff}});
            t.push_back({h + "mlp.c_fc.bias", {s.ff}});
            t.push_back({h + "mlp.c_proj.weight", {s.ff, d}});
            t.push_back({h + "mlp.c_proj.bias", {d}});
        }
        layerNorm("ln_f");
        return t;
    }
    // BertForMaskedLM's names; nn.Linear weights are d_out x d_in.
    t.push_back({"bert.embeddings.word_embeddings.weight", {s.vocab, d}});
    t.push_back({"bert.embeddings.position_embeddings.weight", {s.positions, d}});
    t.push_back({"bert.embeddings.token_type_embeddings.weight", {2, d}});
    layerNorm("bert.embeddings.LayerNorm");
    auto linear = [&](const std::string& base, std::int64_t out, std::int64_t in) {
        t.push_back({base + ".weight", {out, in}});
        t.push_back({base + ".bias", {out}});
    };
    for (int l = 0; l < s.layers; ++l) {
        const std::string b = "bert.encoder.layer." + std::to_string(l) + ".";
        linear(b + "attention.self.query", d, d);
        linear(b + "attention.self.key", d, d);
        linear(b + "attention.self.value", d, d);
        linear(b + "attention.output.dense", d, d);
        layerNorm(b + "attention.output.LayerNorm");
        linear(b + "intermediate.dense", s.ff, d);
        linear(b + "output.dense", d, s.ff);
        layerNorm(b + "output.LayerNorm");
    }
    t.push_back({"cls.predictions.bias", {s.vocab}});
    linear("cls.predictions.transform.dense", d, d);
    layerNorm("cls.predictions.transform.LayerNorm");
    return t;
}

void writeFile(const QString& path, const QByteArray& bytes)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size())
        throw Error(path.toStdString() + ": cannot write");
}

// model.safetensors: an 8-byte little-endian header size, the JSON header (padded with spaces
// to a multiple of 8), then every tensor's F32 data in order. Values uniform with the standard
// deviation 0.02 of the Hugging Face initialisers; LayerNorm gains 1.
void writeSafetensors(const QString& path, const std::vector<Tensor>& tensors)
{
    QJsonObject header;
    std::int64_t offset = 0;
    for (const Tensor& t : tensors) {
        QJsonArray shape;
        for (std::int64_t s : t.shape)
            shape.append(qint64(s));
        const std::int64_t bytes = t.size() * 4;
        header[QString::fromStdString(t.name)] =
            QJsonObject{{"dtype", "F32"},
                        {"shape", shape},
                        {"data_offsets", QJsonArray{qint64(offset), qint64(offset + bytes)}}};
        offset += bytes;
    }
    QByteArray json = QJsonDocument(header).toJson(QJsonDocument::Compact);
    while (json.size() % 8)
        json.append(' ');
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        throw Error(path.toStdString() + ": cannot write");
    const std::uint64_t size = std::uint64_t(json.size());
    char prefix[8];
    for (int i = 0; i < 8; ++i)
        prefix[i] = char((size >> (8 * i)) & 0xff);
    bool ok = file.write(prefix, 8) == 8 && file.write(json) == json.size();
    std::uint64_t state = 0x9e3779b97f4a7c15ull;
    const float scale =
        0.02f * std::sqrt(3.0f) / float(1u << 23); // uniform(-a, a), a = 0.02 sqrt 3
    std::vector<float> values;
    for (const Tensor& t : tensors) {
        values.resize(std::size_t(t.size()));
        for (float& v : values) {
            if (t.fill == Fill::Ones) {
                v = 1.0f;
                continue;
            }
            state ^= state << 13; // xorshift64
            state ^= state >> 7;
            state ^= state << 17;
            v = float(std::int32_t(state >> 40) - (1 << 23)) * scale;
        }
        const qint64 bytes = qint64(values.size() * sizeof(float));
        ok = ok && file.write(reinterpret_cast<const char*>(values.data()), bytes) == bytes;
    }
    if (!ok)
        throw Error(path.toStdString() + ": cannot write (disk full?)");
}

// GPT-2's byte-to-character map (bytes_to_unicode in its encoder.py): printable bytes stand for
// themselves, the others for the characters from U+0100 on.
QString byteCharacter(int byte)
{
    const bool printable =
        (byte >= 33 && byte <= 126) || (byte >= 161 && byte <= 172) || byte >= 174;
    if (printable)
        return QString(QChar(byte));
    int n = 0;
    for (int b = 0; b < byte; ++b)
        if (!((b >= 33 && b <= 126) || (b >= 161 && b <= 172) || b >= 174))
            ++n;
    return QString(QChar(256 + n));
}

// tokenizer.json of a Unigram model as t5-small's: <pad>, </s>, <unk>, then fillers with
// falling scores; Metaspace pieces, </s> appended.
void writeT5Tokenizer(const Shape& s, const QString& folder)
{
    QJsonArray vocab{QJsonArray{"<pad>", 0.0}, QJsonArray{"</s>", 0.0}, QJsonArray{"<unk>", 0.0}};
    for (int id = 3; id < kT5Pieces; ++id)
        vocab.append(QJsonArray{QStringLiteral("\u2581w%1").arg(id), -1.0 - id * 1e-4});
    QJsonArray added;
    for (int id = 0; id < 3; ++id)
        added.append(QJsonObject{{"id", id},
                                 {"content", vocab[id].toArray()[0]},
                                 {"single_word", false},
                                 {"lstrip", false},
                                 {"rstrip", false},
                                 {"normalized", false},
                                 {"special", true}});
    const QJsonObject metaspace{{"type", "Metaspace"},
                                {"replacement", "\u2581"},
                                {"prepend_scheme", "always"},
                                {"split", true}};
    const QJsonObject eos{{"SpecialToken", QJsonObject{{"id", "</s>"}, {"type_id", 0}}}};
    const QJsonObject a{{"Sequence", QJsonObject{{"id", "A"}, {"type_id", 0}}}};
    const QJsonObject tokenizer{
        {"version", "1.0"},
        {"added_tokens", added},
        {"normalizer", QJsonValue::Null},
        {"pre_tokenizer", metaspace},
        {"post_processor",
         QJsonObject{{"type", "TemplateProcessing"},
                     {"single", QJsonArray{a, eos}},
                     {"pair", QJsonArray{a, eos, a, eos}},
                     {"special_tokens",
                      QJsonObject{{"</s>", QJsonObject{{"id", "</s>"},
                                                       {"ids", QJsonArray{1}},
                                                       {"tokens", QJsonArray{"</s>"}}}}}}}},
        {"decoder", metaspace},
        {"model",
         QJsonObject{
             {"type", "Unigram"}, {"unk_id", 2}, {"vocab", vocab}, {"byte_fallback", false}}}};
    writeFile(folder + "/tokenizer.json", QJsonDocument(tokenizer).toJson(QJsonDocument::Compact));
    writeFile(folder + "/tokenizer_config.json",
              QJsonDocument(QJsonObject{{"model_max_length", s.positions}}).toJson());
}

void writeTokenizer(const Shape& s, const QString& folder)
{
    if (s.family == Family::T5) {
        writeT5Tokenizer(s, folder);
        return;
    }
    if (!s.bert()) {
        // vocab.json with every id: the 256 byte characters, fillers, <|endoftext|> last; no
        // merges. The benchmark builds ids directly; the tokenizer names the predictions.
        QJsonObject vocab;
        for (int b = 0; b < 256; ++b)
            vocab[byteCharacter(b)] = b;
        for (int id = 256; id < s.vocab - 1; ++id)
            vocab[QStringLiteral("w%1").arg(id)] = id;
        vocab[QStringLiteral("<|endoftext|>")] = s.vocab - 1;
        writeFile(folder + "/vocab.json", QJsonDocument(vocab).toJson(QJsonDocument::Compact));
        writeFile(folder + "/merges.txt", "#version: 0.2\n");
        writeFile(folder + "/tokenizer_config.json",
                  QJsonDocument(QJsonObject{{"model_max_length", s.positions}}).toJson());
        return;
    }
    // vocab.txt as bert-base-uncased numbers its special tokens.
    QByteArray vocab;
    for (int id = 0; id < s.vocab; ++id) {
        switch (id) {
        case 0:
            vocab += "[PAD]\n";
            break;
        case 100:
            vocab += "[UNK]\n";
            break;
        case 101:
            vocab += "[CLS]\n";
            break;
        case 102:
            vocab += "[SEP]\n";
            break;
        case 103:
            vocab += "[MASK]\n";
            break;
        default:
            vocab += "w" + QByteArray::number(id) + "\n";
            break;
        }
    }
    writeFile(folder + "/vocab.txt", vocab);
    writeFile(folder + "/tokenizer_config.json",
              QJsonDocument(QJsonObject{{"do_lower_case", true}, {"model_max_length", s.positions}})
                  .toJson());
}

QJsonObject configOf(const Shape& s)
{
    // The end token is the embedding's last row, past the tokenizer's pieces: random weights
    // rarely choose it, so decoding runs the length the benchmark asks for.
    if (s.family == Family::T5)
        return {{"model_type", "t5"},
                {"architectures", QJsonArray{"T5ForConditionalGeneration"}},
                {"d_model", s.d},
                {"d_kv", s.d / s.heads},
                {"d_ff", s.ff},
                {"num_heads", s.heads},
                {"num_layers", s.layers},
                {"num_decoder_layers", s.layers},
                {"relative_attention_num_buckets", kT5Buckets},
                {"relative_attention_max_distance", 128},
                {"feed_forward_proj", "relu"},
                {"layer_norm_epsilon", 1e-6},
                {"n_positions", s.positions},
                {"vocab_size", s.vocab},
                {"is_encoder_decoder", true},
                {"tie_word_embeddings", true},
                {"decoder_start_token_id", 0},
                {"pad_token_id", 0},
                {"eos_token_id", s.vocab - 1},
                {"torch_dtype", "float32"}};
    if (!s.bert())
        return {{"model_type", "gpt2"},
                {"architectures", QJsonArray{"GPT2LMHeadModel"}},
                {"n_embd", s.d},
                {"n_head", s.heads},
                {"n_layer", s.layers},
                {"n_inner", s.ff},
                {"n_positions", s.positions},
                {"n_ctx", s.positions},
                {"vocab_size", s.vocab},
                {"activation_function", "gelu_new"},
                {"layer_norm_epsilon", 1e-5},
                {"bos_token_id", s.vocab - 1},
                {"eos_token_id", s.vocab - 1},
                {"torch_dtype", "float32"}};
    return {{"model_type", "bert"},
            {"architectures", QJsonArray{"BertForMaskedLM"}},
            {"hidden_size", s.d},
            {"num_attention_heads", s.heads},
            {"num_hidden_layers", s.layers},
            {"intermediate_size", s.ff},
            {"max_position_embeddings", s.positions},
            {"type_vocab_size", 2},
            {"vocab_size", s.vocab},
            {"hidden_act", "gelu"},
            {"layer_norm_eps", 1e-12},
            {"pad_token_id", 0},
            {"position_embedding_type", "absolute"},
            {"torch_dtype", "float32"}};
}

} // namespace

bool isRandomCheckpointShape(const QString& name)
{
    for (const Shape& s : kShapes)
        if (name == QLatin1String(s.name))
            return true;
    return false;
}

int randomCheckpointPositions(const QString& name)
{
    return shapeOf(name).positions;
}

void writeRandomCheckpoint(const QString& name, const QString& folder)
{
    const Shape& s = shapeOf(name);
    if (!QDir().mkpath(folder))
        throw Error(folder.toStdString() + ": cannot create");
    writeFile(folder + "/config.json", QJsonDocument(configOf(s)).toJson());
    writeTokenizer(s, folder);
    writeSafetensors(folder + "/model.safetensors", tensorsOf(s));
}

} // namespace attn::core
