#include "core/seq2seq/seq2seq_model.h"

#include "core/seq2seq/seq2seq_steps.h"
#include "core/seq2seq/seq2seq_training.h"

#include "core/enum_names.h"
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

namespace {

constexpr EnumNames<Seq2SeqAttention, 6> kAttentionNames{{{Seq2SeqAttention::None, "none"},
                                                          {Seq2SeqAttention::Bahdanau, "bahdanau"},
                                                          {Seq2SeqAttention::Dot, "dot"},
                                                          {Seq2SeqAttention::General, "general"},
                                                          {Seq2SeqAttention::Concat, "concat"},
                                                          {Seq2SeqAttention::Hard, "hard"}}};

} // namespace

std::optional<Seq2SeqAttention> parseSeq2SeqAttention(std::string_view name)
{
    return enumFromName(kAttentionNames, name);
}

std::string_view seq2seqAttentionName(Seq2SeqAttention attention)
{
    return enumName(kAttentionNames, attention);
}

bool isLuongAttention(Seq2SeqAttention attention)
{
    return attention == Seq2SeqAttention::Dot || attention == Seq2SeqAttention::General ||
           attention == Seq2SeqAttention::Concat;
}

Seq2SeqModel loadSeq2SeqModel(const QString& folder)
{
    const QJsonObject config =
        readJsonObject(folder, QStringLiteral("config.json"), kMaxConfigBytes);
    if (textKey(config, "model_type", "") != "seq2seq-rnn")
        fail(QStringLiteral("config.json"), "\"model_type\" must be \"seq2seq-rnn\"");
    Seq2SeqModel model;
    const std::string cell = textKey(config, "cell", "gru");
    if (cell == "gru")
        model.cell = Seq2SeqCell::Gru;
    else if (cell == "lstm")
        model.cell = Seq2SeqCell::Lstm;
    else
        fail(QStringLiteral("config.json"),
             "\"cell\": \"" + cell + "\" cannot be read; it is \"gru\" or \"lstm\"");
    const std::string attention = textKey(config, "attention", "bahdanau");
    const auto parsed = parseSeq2SeqAttention(attention);
    if (!parsed)
        fail(QStringLiteral("config.json"),
             "\"attention\": \"" + attention +
                 "\" cannot be read; it is \"none\", \"bahdanau\", \"dot\", \"general\", "
                 "\"concat\" or \"hard\"");
    model.attention = *parsed;
    model.layers =
        config.contains(QLatin1String("num_layers")) ? sizeKey(config, "num_layers", 1, 2) : 1;
    const QJsonValue bidirectional = config.value(QLatin1String("bidirectional"));
    if (!bidirectional.isUndefined() && !bidirectional.isBool())
        fail(QStringLiteral("config.json"), "\"bidirectional\" must be true or false");
    model.bidirectional = bidirectional.toBool(false);
    if (model.bidirectional && model.attention == Seq2SeqAttention::Dot)
        fail(QStringLiteral("config.json"),
             "\"attention\": \"dot\" needs the encoder's states as wide as the decoder's; with "
             "\"bidirectional\": true they are twice as wide (use \"general\")");
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
    const Matrix sourceEmbedding = readEmbedding(*weights, "encoder.embedding.weight", model.source,
                                                 QStringLiteral("source_vocab.json"), h);
    const Matrix targetEmbedding = readEmbedding(*weights, "decoder.embedding.weight", model.target,
                                                 QStringLiteral("target_vocab.json"), h);
    allocateSeq2SeqWeights(model, sourceEmbedding.rows(), targetEmbedding.rows());
    for (const Seq2SeqParameter& p : seq2seqParameters(model)) {
        Matrix value;
        if (p.name == "encoder.embedding.weight")
            value = sourceEmbedding;
        else if (p.name == "decoder.embedding.weight")
            value = targetEmbedding;
        else if (p.fileRank == 1)
            value = weights->vector(p.name, p.size);
        else if (p.transposedInFile)
            value = weights->transposedMatrix(p.name, p.cols, p.rows);
        else
            value = weights->matrix(p.name, p.rows, p.cols);
        std::copy(value.data(), value.data() + p.size, p.data);
    }
    return model;
}

RowVector logSoftmax(const RowVector& logits)
{
    const float top = logits.maxCoeff();
    const float logSum = std::log((logits.array() - top).exp().sum());
    return (logits.array() - top - logSum).matrix();
}

RnnState rnnForward(Seq2SeqCell cell, const RnnLayer& layer, const RowVector& input,
                    const RnnState& state, RnnCache* cache)
{
    const Eigen::Index h = state.h.size();
    const RowVector gi = input * layer.inputWeights + layer.inputBias;
    const RowVector gh = state.h * layer.hiddenWeights + layer.hiddenBias;
    RnnState next;
    RowVector gates(gi.size());
    if (cell == Seq2SeqCell::Gru) {
        gates.head(2 * h) = sigmoid(gi.head(2 * h) + gh.head(2 * h));
        const auto r = gates.segment(0, h).array();
        const auto z = gates.segment(h, h).array();
        gates.segment(2 * h, h) =
            (gi.segment(2 * h, h).array() + r * gh.segment(2 * h, h).array()).tanh().matrix();
        next.h = ((1.0f - z) * gates.segment(2 * h, h).array() + z * state.h.array()).matrix();
    } else {
        const RowVector pre = gi + gh;
        gates.head(2 * h) = sigmoid(pre.head(2 * h));
        gates.segment(2 * h, h) = pre.segment(2 * h, h).array().tanh().matrix();
        gates.segment(3 * h, h) = sigmoid(pre.segment(3 * h, h));
        next.c = (gates.segment(h, h).array() * state.c.array() +
                  gates.segment(0, h).array() * gates.segment(2 * h, h).array())
                     .matrix();
        next.h = (gates.segment(3 * h, h).array() * next.c.array().tanh()).matrix();
    }
    if (cache) {
        cache->input = input;
        cache->state = state;
        cache->gates = std::move(gates);
        if (cell == Seq2SeqCell::Gru)
            cache->hiddenCandidate = gh.segment(2 * h, h);
        else
            cache->cell = next.c;
    }
    return next;
}

RowVector gruStep(const RnnLayer& layer, const RowVector& input, const RowVector& hidden)
{
    return rnnForward(Seq2SeqCell::Gru, layer, input, {hidden, RowVector()}, nullptr).h;
}

Seq2SeqEncoding encodeSeq2Seq(const Seq2SeqModel& model, const std::vector<int>& sourceIds,
                              Seq2SeqEncoderCache* cache)
{
    const int h = model.hiddenSize;
    const int directions = model.bidirectional ? 2 : 1;
    const Eigen::Index length = Eigen::Index(sourceIds.size());
    const RnnState zero{RowVector::Zero(h),
                        model.cell == Seq2SeqCell::Lstm ? RowVector::Zero(h) : RowVector()};
    Matrix input(length, h);
    for (Eigen::Index t = 0; t < length; ++t)
        input.row(t) = model.encoderEmbedding.row(sourceIds[std::size_t(t)]);
    if (cache) {
        cache->steps.assign(std::size_t(model.layers * directions), {});
        cache->inputs.clear();
    }
    Seq2SeqEncoding encoding;
    for (int l = 0; l < model.layers; ++l) {
        Matrix output(length, directions * h);
        for (int d = 0; d < directions; ++d) {
            const int index = l * directions + d;
            std::vector<RnnCache>* steps = cache ? &cache->steps[std::size_t(index)] : nullptr;
            if (steps)
                steps->resize(std::size_t(length));
            RnnState state = zero;
            for (Eigen::Index k = 0; k < length; ++k) {
                const Eigen::Index t = d == 0 ? k : length - 1 - k;
                state =
                    rnnForward(model.cell, model.encoderLayers[std::size_t(index)], input.row(t),
                               state, steps ? &(*steps)[std::size_t(t)] : nullptr);
                output.row(t).segment(d * h, h) = state.h;
            }
            // The decoder starts from the encoder's last state, layer by layer; a bidirectional
            // encoder's backward state (the one that read the whole source back to its first
            // word) goes through the bridge, its LSTM cell starting empty.
            if (!model.bidirectional)
                encoding.initial.push_back(state);
            else if (d == 1)
                encoding.initial.push_back(
                    {(state.h * model.bridge + model.bridgeBias).array().tanh().matrix(), zero.c});
        }
        if (cache)
            cache->inputs.push_back(std::move(input));
        input = std::move(output);
    }
    encoding.keys = std::move(input);
    switch (model.attention) {
    case Seq2SeqAttention::Bahdanau:
    case Seq2SeqAttention::Hard:
        encoding.projectedKeys = (encoding.keys * model.ua).rowwise() + model.uaBias;
        break;
    case Seq2SeqAttention::General:
        encoding.projectedKeys = encoding.keys * model.wa;
        break;
    case Seq2SeqAttention::Concat:
        encoding.projectedKeys = encoding.keys * model.wa.bottomRows(model.keyWidth());
        break;
    case Seq2SeqAttention::None:
    case Seq2SeqAttention::Dot:
        break;
    }
    return encoding;
}

namespace {

void attend(const Seq2SeqModel& model, const Seq2SeqEncoding& encoding, const RowVector& query,
            AttentionCache& cache)
{
    cache.query = query;
    const int h = model.hiddenSize;
    switch (model.attention) {
    case Seq2SeqAttention::Bahdanau:
    case Seq2SeqAttention::Hard: {
        // scores = Va(tanh(Wa(query) + Ua(keys)))
        const RowVector projectedQuery = query * model.wa + model.waBias;
        cache.activation = (encoding.projectedKeys.rowwise() + projectedQuery).array().tanh();
        cache.scores = (cache.activation * model.va).transpose().array() + model.vaBias;
        break;
    }
    case Seq2SeqAttention::Dot:
        cache.scores = query * encoding.keys.transpose();
        break;
    case Seq2SeqAttention::General:
        cache.scores = query * encoding.projectedKeys.transpose();
        break;
    case Seq2SeqAttention::Concat: {
        const RowVector projectedQuery = query * model.wa.topRows(h);
        cache.activation = (encoding.projectedKeys.rowwise() + projectedQuery).array().tanh();
        cache.scores = (cache.activation * model.va).transpose();
        break;
    }
    case Seq2SeqAttention::None:
        break;
    }
    const float top = cache.scores.maxCoeff();
    const RowVector exps = (cache.scores.array() - top).exp().matrix();
    cache.soft = exps / exps.sum();
    if (model.attention == Seq2SeqAttention::Hard) {
        cache.weights = RowVector::Zero(cache.scores.size());
        cache.weights(argmax(cache.scores)) = 1.0f;
    } else {
        cache.weights = cache.soft;
    }
    cache.context = cache.weights * encoding.keys;
}

} // namespace

Seq2SeqStep decoderStep(const Seq2SeqModel& model, const Seq2SeqEncoding& encoding, int token,
                        const std::vector<RnnState>& state, DecoderStepCache* cache)
{
    DecoderStepCache local;
    DecoderStepCache& c = cache ? *cache : local;
    c.inputId = token;
    Seq2SeqStep s;
    s.inputId = token;
    const RowVector embedded = model.decoderEmbedding.row(token);
    const bool luong = isLuongAttention(model.attention);
    RowVector input;
    if (model.attention == Seq2SeqAttention::None) {
        // DecoderRNN.forward_step: relu of the embedding into the RNN.
        input = embedded.cwiseMax(0.0f);
    } else if (luong) {
        input = embedded;
    } else {
        // AttnDecoderRNN.forward_step: the query is the state before the step.
        attend(model, encoding, state.back().h, c.attention);
        input.resize(embedded.size() + c.attention.context.size());
        input << embedded, c.attention.context;
    }
    c.layers.resize(std::size_t(model.layers));
    for (int l = 0; l < model.layers; ++l) {
        s.state.push_back(rnnForward(model.cell, model.decoderLayers[std::size_t(l)],
                                     l == 0 ? input : s.state.back().h, state[std::size_t(l)],
                                     &c.layers[std::size_t(l)]));
    }
    s.hidden = s.state.back().h;
    if (luong) {
        // Luong et al. 2015, eq. (5)-(8): the scores taken with the new state h, the
        // attentional state h~ = tanh(W_c [c; h]).
        attend(model, encoding, s.hidden, c.attention);
        c.combined.resize(c.attention.context.size() + s.hidden.size());
        c.combined << c.attention.context, s.hidden;
        s.attentional = (c.combined * model.wc).array().tanh().matrix();
        c.output = s.attentional;
    } else {
        c.output = s.hidden;
    }
    s.logProbs = logSoftmax(c.output * model.out + model.outBias);
    if (model.attention != Seq2SeqAttention::None) {
        s.query = c.attention.query;
        s.scores = c.attention.scores;
        s.attention = c.attention.weights;
        s.context = c.attention.context;
    } else {
        s.query = state.back().h;
    }
    return s;
}

namespace {

// The encoder's outputs, checked ids, and the decoder's first state.
class Decoder
{
public:
    Decoder(const Seq2SeqModel& model, const std::vector<int>& sourceIds) : m_model(model)
    {
        if (sourceIds.empty())
            throw Error("the source has no words");
        for (const int id : sourceIds)
            if (id < 0 || id >= model.encoderEmbedding.rows())
                throw Error("source id " + std::to_string(id) + " is outside the encoder's " +
                            std::to_string(model.encoderEmbedding.rows()) + "-row embedding");
        m_encoding = encodeSeq2Seq(model, sourceIds, nullptr);
    }

    const Matrix& keys() const { return m_encoding.keys; }
    const std::vector<RnnState>& initialState() const { return m_encoding.initial; }

    Seq2SeqStep step(int token, const std::vector<RnnState>& state) const
    {
        return decoderStep(m_model, m_encoding, token, state, nullptr);
    }

private:
    const Seq2SeqModel& m_model;
    Seq2SeqEncoding m_encoding;
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
    std::vector<RnnState> state = decoder.initialState();
    int token = Seq2SeqVocabulary::kSos;
    for (int step = 0; step < model.maxLength && token != Seq2SeqVocabulary::kEos; ++step) {
        Seq2SeqStep s = decoder.step(token, state);
        s.outputId = argmax(s.logProbs);
        token = s.outputId;
        state = s.state;
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
            const std::vector<RnnState>& state =
                hypothesis.steps.empty() ? decoder.initialState() : hypothesis.steps.back().state;
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
