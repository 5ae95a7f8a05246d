#include "core/seq2seq/seq2seq_model.h"

#include "core/seq2seq/seq2seq_steps.h"

#include "core/error.h"
#include "core/json_duplicate_keys.h"
#include "core/limits.h"
#include "core/model/checkpoint.h"
#include "core/regular_file.h"

#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QJsonValue>
#include <QStringList>

#include <algorithm>
#include <cmath>

namespace attn::core {
namespace {

constexpr qint64 kMaxConfigBytes = qint64(1) << 20;
constexpr qint64 kMaxVocabularyBytes = qint64(64) << 20;
constexpr int kMaxVocabularySize = 1 << 22;
constexpr int kMaxDecodeLength = 4096;

[[noreturn]] void fail(const QString& file, const std::string& what)
{
    throw Error(file.toStdString() + ": " + what);
}

QJsonObject readJsonObject(const QString& folder, const QString& file, qint64 maxBytes)
{
    const QByteArray bytes = readRegularFile(QDir(folder).filePath(file), maxBytes);
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(bytes, &error);
    if (error.error != QJsonParseError::NoError)
        fail(file, "not valid JSON at offset " + std::to_string(error.offset) + ": " +
                       error.errorString().toStdString());
    if (!document.isObject())
        fail(file, "expected a JSON object");
    if (const auto duplicate = findDuplicateJsonKey(bytes))
        fail(file, "the key \"" + duplicate->path + "\" is given twice");
    return document.object();
}

int sizeKey(const QJsonObject& config, const char* key, int lowest, int highest)
{
    const QJsonValue value = config.value(QLatin1String(key));
    if (value.isUndefined())
        fail(QStringLiteral("config.json"), std::string("\"") + key + "\" is missing");
    const double number = value.toDouble(std::nan(""));
    if (!value.isDouble() || number != std::floor(number) || number < lowest || number > highest)
        fail(QStringLiteral("config.json"),
             std::string("\"") + key + "\" must be a whole number from " + std::to_string(lowest) +
                 " to " + std::to_string(highest));
    return int(number);
}

std::string textKey(const QJsonObject& config, const char* key, const char* fallback)
{
    const QJsonValue value = config.value(QLatin1String(key));
    if (value.isUndefined())
        return fallback;
    if (!value.isString())
        fail(QStringLiteral("config.json"), std::string("\"") + key + "\" must be a string");
    return value.toString().toStdString();
}

Seq2SeqVocabulary readVocabulary(const QString& folder, const QString& file)
{
    const QJsonObject object = readJsonObject(folder, file, kMaxVocabularyBytes);
    if (object.size() > kMaxVocabularySize)
        fail(file, std::to_string(object.size()) + " words, more than " +
                       std::to_string(kMaxVocabularySize));
    Seq2SeqVocabulary vocabulary;
    int highest = -1;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const double number = it.value().toDouble(-1.0);
        if (!it.value().isDouble() || number != std::floor(number) || number < 0 ||
            number >= kMaxVocabularySize)
            fail(file, "the index of \"" + it.key().toStdString() +
                           "\" is not a whole number from 0 to " +
                           std::to_string(kMaxVocabularySize - 1));
        vocabulary.index.emplace(it.key().toStdString(), int(number));
        highest = std::max(highest, int(number));
    }
    vocabulary.words.assign(std::size_t(highest + 1), std::string());
    for (const auto& [word, id] : vocabulary.index) {
        if (!vocabulary.words[std::size_t(id)].empty())
            fail(file, "\"" + vocabulary.words[std::size_t(id)] + "\" and \"" + word +
                           "\" have the same index " + std::to_string(id));
        vocabulary.words[std::size_t(id)] = word;
    }
    const auto special = [&](const char* word, int id) {
        const auto it = vocabulary.index.find(word);
        if (it == vocabulary.index.end() || it->second != id)
            fail(file, std::string("\"") + word + "\" must have the index " + std::to_string(id) +
                           " (the tutorial's Lang: SOS 0, EOS 1)");
    };
    special("SOS", Seq2SeqVocabulary::kSos);
    special("EOS", Seq2SeqVocabulary::kEos);
    return vocabulary;
}

GruLayer readGru(const Checkpoint& weights, const std::string& prefix, int inputSize, int hidden)
{
    GruLayer layer;
    layer.inputWeights = weights.transposedMatrix(prefix + ".weight_ih_l0", 3 * hidden, inputSize);
    layer.hiddenWeights = weights.transposedMatrix(prefix + ".weight_hh_l0", 3 * hidden, hidden);
    layer.inputBias = weights.vector(prefix + ".bias_ih_l0", 3 * hidden);
    layer.hiddenBias = weights.vector(prefix + ".bias_hh_l0", 3 * hidden);
    return layer;
}

// The embedding must have a row for every index the vocabulary gives.
Matrix readEmbedding(const Checkpoint& weights, const std::string& name,
                     const Seq2SeqVocabulary& vocabulary, const QString& vocabularyFile, int hidden)
{
    Matrix embedding = weights.matrix(name, -1, hidden);
    if (embedding.rows() < Eigen::Index(vocabulary.words.size()))
        fail(vocabularyFile, "index " + std::to_string(vocabulary.words.size() - 1) + " (\"" +
                                 vocabulary.words.back() + "\") is outside " + name + "'s " +
                                 std::to_string(embedding.rows()) + " rows");
    return embedding;
}

RowVector sigmoid(const RowVector& x)
{
    return (1.0f / (1.0f + (-x.array()).exp())).matrix();
}

int argmax(const RowVector& values)
{
    Eigen::Index best = 0;
    values.maxCoeff(&best);
    return int(best);
}

} // namespace

std::vector<std::string> normalizeSeq2SeqSource(const QString& text)
{
    // unicodeToAscii(s.lower().strip()): NFD, then every non-spacing mark dropped.
    QString lowered;
    for (const QChar c : text.toLower().normalized(QString::NormalizationForm_D))
        if (c.category() != QChar::Mark_NonSpacing)
            lowered += c;
    // re.sub(r"([.!?])", r" \1", s), then re.sub(r"[^a-zA-Z.!?]+", r" ", s): a space before each
    // of .!? (not after: "a.b" gives "a" and ".b", as in the tutorial), every other run of
    // characters but ASCII letters a space. The words are then what lies between spaces.
    std::vector<std::string> words;
    std::string word;
    const auto endWord = [&] {
        if (!word.empty())
            words.push_back(word);
        word.clear();
    };
    for (const QChar c : lowered) {
        const char16_t u = c.unicode();
        if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z')) {
            word += char(u);
        } else if (u == '.' || u == '!' || u == '?') {
            endWord();
            word += char(u);
        } else {
            endWord();
        }
    }
    endWord();
    return words;
}

std::vector<std::string> seq2seqTokens(Seq2SeqTokens tokens, const QString& text)
{
    if (tokens == Seq2SeqTokens::Words)
        return normalizeSeq2SeqSource(text);
    std::vector<std::string> characters;
    for (const char32_t c : text.toUcs4())
        characters.push_back(QString::fromUcs4(&c, 1).toStdString());
    return characters;
}

QString seq2seqTargetText(const Seq2SeqModel& model, const std::vector<int>& ids)
{
    QStringList parts;
    for (const int id : ids) {
        if (id == Seq2SeqVocabulary::kEos)
            break;
        if (id >= 0 && std::size_t(id) < model.target.words.size())
            parts << QString::fromStdString(model.target.words[std::size_t(id)]);
    }
    return parts.join(model.tokens == Seq2SeqTokens::Words ? QStringLiteral(" ") : QString());
}

Seq2SeqModel loadSeq2SeqModel(const QString& folder)
{
    const QJsonObject config =
        readJsonObject(folder, QStringLiteral("config.json"), kMaxConfigBytes);
    if (textKey(config, "model_type", "") != "seq2seq-rnn")
        fail(QStringLiteral("config.json"), "\"model_type\" must be \"seq2seq-rnn\"");
    Seq2SeqModel model;
    const std::string cell = textKey(config, "cell", "gru");
    if (cell != "gru")
        fail(QStringLiteral("config.json"),
             "\"cell\": \"" + cell + "\" cannot be read; the cell this version reads is \"gru\"");
    const std::string attention = textKey(config, "attention", "bahdanau");
    if (attention == "bahdanau")
        model.attention = Seq2SeqAttention::Bahdanau;
    else if (attention == "none")
        model.attention = Seq2SeqAttention::None;
    else
        fail(QStringLiteral("config.json"), "\"attention\": \"" + attention +
                                                "\" cannot be read; this version reads "
                                                "\"bahdanau\" and \"none\"");
    if (config.contains(QLatin1String("num_layers")) && sizeKey(config, "num_layers", 1, 1) != 1)
        fail(QStringLiteral("config.json"), "\"num_layers\" must be 1");
    if (config.value(QLatin1String("bidirectional")).toBool(false))
        fail(QStringLiteral("config.json"),
             "\"bidirectional\": true cannot be read; this version reads one-way encoders");
    const std::string tokens = textKey(config, "tokens", "words");
    if (tokens == "words")
        model.tokens = Seq2SeqTokens::Words;
    else if (tokens == "characters")
        model.tokens = Seq2SeqTokens::Characters;
    else
        fail(QStringLiteral("config.json"),
             "\"tokens\": \"" + tokens + "\" cannot be read; it is \"words\" or \"characters\"");
    model.hiddenSize = sizeKey(config, "hidden_size", 1, kMaxModelWidth);
    model.maxLength = sizeKey(config, "max_length", 1, kMaxDecodeLength);
    model.source = readVocabulary(folder, QStringLiteral("source_vocab.json"));
    model.target = readVocabulary(folder, QStringLiteral("target_vocab.json"));

    const int h = model.hiddenSize;
    const std::unique_ptr<Checkpoint> weights = Checkpoint::open(folder);
    model.encoderEmbedding = readEmbedding(*weights, "encoder.embedding.weight", model.source,
                                           QStringLiteral("source_vocab.json"), h);
    model.encoderGru = readGru(*weights, "encoder.gru", h, h);
    model.decoderEmbedding = readEmbedding(*weights, "decoder.embedding.weight", model.target,
                                           QStringLiteral("target_vocab.json"), h);
    if (model.attention == Seq2SeqAttention::Bahdanau) {
        model.wa = weights->transposedMatrix("decoder.attention.Wa.weight", h, h);
        model.waBias = weights->vector("decoder.attention.Wa.bias", h);
        model.ua = weights->transposedMatrix("decoder.attention.Ua.weight", h, h);
        model.uaBias = weights->vector("decoder.attention.Ua.bias", h);
        model.va = weights->transposedMatrix("decoder.attention.Va.weight", 1, h);
        model.vaBias = weights->vector("decoder.attention.Va.bias", 1)(0);
    }
    const int decoderInput = model.attention == Seq2SeqAttention::Bahdanau ? 2 * h : h;
    model.decoderGru = readGru(*weights, "decoder.gru", decoderInput, h);
    const Eigen::Index targetSize = model.decoderEmbedding.rows();
    model.out = weights->transposedMatrix("decoder.out.weight", targetSize, h);
    model.outBias = weights->vector("decoder.out.bias", targetSize);
    return model;
}

RowVector logSoftmax(const RowVector& logits)
{
    const float top = logits.maxCoeff();
    const float logSum = std::log((logits.array() - top).exp().sum());
    return (logits.array() - top - logSum).matrix();
}

RowVector gruForward(const GruLayer& layer, const RowVector& input, const RowVector& hidden,
                     GruCache* cache)
{
    const Eigen::Index h = hidden.size();
    const RowVector gi = input * layer.inputWeights + layer.inputBias;
    const RowVector gh = hidden * layer.hiddenWeights + layer.hiddenBias;
    const RowVector r = sigmoid(gi.segment(0, h) + gh.segment(0, h));
    const RowVector z = sigmoid(gi.segment(h, h) + gh.segment(h, h));
    const RowVector n =
        (gi.segment(2 * h, h).array() + r.array() * gh.segment(2 * h, h).array()).tanh().matrix();
    if (cache)
        *cache = {input, hidden, r, z, n, gh.segment(2 * h, h)};
    return ((1.0f - z.array()) * n.array() + z.array() * hidden.array()).matrix();
}

RowVector gruStep(const GruLayer& layer, const RowVector& input, const RowVector& hidden)
{
    return gruForward(layer, input, hidden, nullptr);
}

void bahdanauForward(const Seq2SeqModel& model, const Matrix& keys, const Matrix& projectedKeys,
                     const RowVector& query, AttentionCache& cache)
{
    // scores = Va(tanh(Wa(query) + Ua(keys))), weights = softmax(scores), context = weights keys.
    cache.query = query;
    const RowVector projectedQuery = query * model.wa + model.waBias;
    cache.activation = (projectedKeys.rowwise() + projectedQuery).array().tanh();
    cache.scores = (cache.activation * model.va).transpose().array() + model.vaBias;
    const float top = cache.scores.maxCoeff();
    const RowVector exps = (cache.scores.array() - top).exp().matrix();
    cache.weights = exps / exps.sum();
    cache.context = cache.weights * keys;
}

namespace {

// The encoder's outputs and what every decoder step reuses of them.
class Decoder
{
public:
    Decoder(const Seq2SeqModel& model, const std::vector<int>& sourceIds) : m_model(model)
    {
        const Eigen::Index length = Eigen::Index(sourceIds.size());
        if (length == 0)
            throw Error("the source has no words");
        for (const int id : sourceIds)
            if (id < 0 || id >= model.encoderEmbedding.rows())
                throw Error("source id " + std::to_string(id) + " is outside the encoder's " +
                            std::to_string(model.encoderEmbedding.rows()) + "-row embedding");
        // EncoderRNN: embedding, then the GRU from a zero state; its outputs are the keys.
        m_keys.resize(length, model.hiddenSize);
        RowVector state = RowVector::Zero(model.hiddenSize);
        for (Eigen::Index t = 0; t < length; ++t) {
            state = gruStep(model.encoderGru, model.encoderEmbedding.row(sourceIds[std::size_t(t)]),
                            state);
            m_keys.row(t) = state;
        }
        // U_a h_j + b: the same at every step.
        if (model.attention == Seq2SeqAttention::Bahdanau)
            m_projectedKeys = (m_keys * model.ua).rowwise() + model.uaBias;
    }

    const Matrix& keys() const { return m_keys; }
    RowVector finalState() const { return m_keys.bottomRows(1); }

    // AttnDecoderRNN.forward_step (or DecoderRNN's): all but the choice of the next word.
    Seq2SeqStep step(int token, const RowVector& state) const
    {
        Seq2SeqStep s;
        s.inputId = token;
        s.query = state;
        const RowVector embedded = m_model.decoderEmbedding.row(token);
        RowVector input;
        if (m_model.attention == Seq2SeqAttention::Bahdanau) {
            AttentionCache attention;
            bahdanauForward(m_model, m_keys, m_projectedKeys, state, attention);
            s.scores = std::move(attention.scores);
            s.attention = std::move(attention.weights);
            s.context = std::move(attention.context);
            input.resize(2 * m_model.hiddenSize);
            input << embedded, s.context;
        } else {
            // DecoderRNN.forward_step: relu of the embedding into the GRU.
            input = embedded.cwiseMax(0.0f);
        }
        s.hidden = gruStep(m_model.decoderGru, input, state);
        s.logProbs = logSoftmax(s.hidden * m_model.out + m_model.outBias);
        return s;
    }

private:
    const Seq2SeqModel& m_model;
    Matrix m_keys;
    Matrix m_projectedKeys;
};

struct Hypothesis
{
    std::vector<Seq2SeqStep> steps;
    std::vector<int> outputIds;
    double logProbability = 0.0;
    bool finished() const
    {
        return !outputIds.empty() && outputIds.back() == Seq2SeqVocabulary::kEos;
    }
    // Length normalisation: the mean log-probability per token, so that a longer translation is
    // not beaten by a short one only for having fewer factors below 1 (Wu et al. 2016, sec. 7,
    // with alpha = 1 and no offset).
    double normalisedScore() const { return logProbability / double(outputIds.size()); }
};

std::vector<int> sourceIdsOf(const Seq2SeqModel& model, const QString& text,
                             std::vector<std::string>& words)
{
    words = seq2seqTokens(model.tokens, text);
    if (words.empty())
        throw Error(model.tokens == Seq2SeqTokens::Words
                        ? "the source has no words after normalising (letters a-z and . ! ? count)"
                        : "the source is empty");
    if (words.size() >= std::size_t(kMaxTokens))
        throw Error("the source has " + std::to_string(words.size() + 1) +
                    " tokens with EOS, more than " + std::to_string(kMaxTokens));
    std::vector<int> ids;
    for (const std::string& word : words) {
        const auto it = model.source.index.find(word);
        if (it == model.source.index.end())
            throw Error(
                std::string(model.tokens == Seq2SeqTokens::Words ? "the word" : "the character") +
                " \"" + word + "\" is not in the source vocabulary (source_vocab.json)");
        ids.push_back(it->second);
    }
    ids.push_back(Seq2SeqVocabulary::kEos);
    return ids;
}

} // namespace

Seq2SeqDecoding decodeGreedyIds(const Seq2SeqModel& model, const std::vector<int>& sourceIds)
{
    const Decoder decoder(model, sourceIds);
    Seq2SeqDecoding decoding;
    decoding.sourceIds = sourceIds;
    decoding.encoderStates = decoder.keys();
    RowVector state = decoder.finalState();
    int token = Seq2SeqVocabulary::kSos;
    for (int step = 0; step < model.maxLength && token != Seq2SeqVocabulary::kEos; ++step) {
        Seq2SeqStep s = decoder.step(token, state);
        s.outputId = argmax(s.logProbs);
        token = s.outputId;
        state = s.hidden;
        decoding.logProbability += double(s.logProbs(token));
        decoding.outputIds.push_back(token);
        decoding.steps.push_back(std::move(s));
    }
    return decoding;
}

Seq2SeqDecoding decodeBeamIds(const Seq2SeqModel& model, const std::vector<int>& sourceIds,
                              int width)
{
    if (width < 1)
        throw Error("the beam width must be at least 1, not " + std::to_string(width));
    const Decoder decoder(model, sourceIds);
    std::vector<Hypothesis> live(1);
    std::vector<Hypothesis> finished;
    for (int step = 0; step < model.maxLength && !live.empty(); ++step) {
        // Every live hypothesis extended by each of its `width` likeliest words; the `width`
        // likeliest extensions overall go on.
        std::vector<Hypothesis> extensions;
        for (const Hypothesis& hypothesis : live) {
            const int token = hypothesis.outputIds.empty() ? Seq2SeqVocabulary::kSos
                                                           : hypothesis.outputIds.back();
            const RowVector state =
                hypothesis.steps.empty() ? decoder.finalState() : hypothesis.steps.back().hidden;
            const Seq2SeqStep s = decoder.step(token, state);
            std::vector<int> order(std::size_t(s.logProbs.size()));
            for (std::size_t v = 0; v < order.size(); ++v)
                order[v] = int(v);
            const std::size_t keep = std::min(order.size(), std::size_t(width));
            // Ties go to the lower id, as the argmax of greedy decoding does.
            std::partial_sort(order.begin(), order.begin() + std::ptrdiff_t(keep), order.end(),
                              [&](int a, int b) {
                                  return s.logProbs(a) > s.logProbs(b) ||
                                         (s.logProbs(a) == s.logProbs(b) && a < b);
                              });
            for (std::size_t k = 0; k < keep; ++k) {
                Hypothesis next = hypothesis;
                Seq2SeqStep chosen = s;
                chosen.outputId = order[k];
                next.logProbability += double(s.logProbs(order[k]));
                next.outputIds.push_back(order[k]);
                next.steps.push_back(std::move(chosen));
                extensions.push_back(std::move(next));
            }
        }
        std::stable_sort(extensions.begin(), extensions.end(),
                         [](const Hypothesis& a, const Hypothesis& b) {
                             return a.logProbability > b.logProbability;
                         });
        live.clear();
        for (std::size_t k = 0; k < extensions.size() && k < std::size_t(width); ++k)
            (extensions[k].finished() ? finished : live).push_back(std::move(extensions[k]));
        if (int(finished.size()) >= width)
            break;
    }
    // Hypotheses cut off by max_length compete with the finished ones.
    for (Hypothesis& hypothesis : live)
        finished.push_back(std::move(hypothesis));
    const auto best = std::max_element(finished.begin(), finished.end(),
                                       [](const Hypothesis& a, const Hypothesis& b) {
                                           return a.normalisedScore() < b.normalisedScore();
                                       });
    Seq2SeqDecoding decoding;
    decoding.sourceIds = sourceIds;
    decoding.encoderStates = decoder.keys();
    decoding.steps = std::move(best->steps);
    decoding.outputIds = std::move(best->outputIds);
    decoding.logProbability = best->logProbability;
    return decoding;
}

Seq2SeqDecoding decodeGreedy(const Seq2SeqModel& model, const QString& text)
{
    std::vector<std::string> words;
    Seq2SeqDecoding decoding = decodeGreedyIds(model, sourceIdsOf(model, text, words));
    decoding.sourceWords = std::move(words);
    return decoding;
}

Seq2SeqDecoding decodeBeam(const Seq2SeqModel& model, const QString& text, int width)
{
    std::vector<std::string> words;
    Seq2SeqDecoding decoding = decodeBeamIds(model, sourceIdsOf(model, text, words), width);
    decoding.sourceWords = std::move(words);
    return decoding;
}

} // namespace attn::core
