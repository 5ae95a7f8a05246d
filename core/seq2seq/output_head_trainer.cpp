#include "core/seq2seq/output_head_trainer.h"

#include "core/enum_names.h"
#include "core/error.h"
#include "core/seq2seq/seq2seq_trainer.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace attn::core {
namespace {

constexpr EnumNames<OutputHeadKind, 2> kTaskNames{
    {{OutputHeadKind::Tagging, "tagging"}, {OutputHeadKind::Classification, "classification"}}};

const char* const kPartsOfSpeech[] = {"DET", "ADJ", "NOUN", "VERB", "CCONJ"};
const char* const kMoods[] = {"happy", "sad", "neither"};

// The sentence's mood, or -1 for one with both "happy" and "sad".
int moodOf(const QStringList& words)
{
    const bool happy = words.contains(QStringLiteral("happy"));
    const bool sad = words.contains(QStringLiteral("sad"));
    return happy && sad ? -1 : happy ? 0 : sad ? 1 : 2;
}

OutputHeadExample exampleOf(const OutputHeadModel& model, const LabelledSentence& sentence)
{
    return {outputHeadIds(model, sentence.text), sentence.labels};
}

} // namespace

std::optional<OutputHeadKind> parseOutputHeadTask(std::string_view name)
{
    return enumFromName(kTaskNames, name);
}

std::string_view outputHeadTaskName(OutputHeadKind kind)
{
    return enumName(kTaskNames, kind);
}

OutputHeadTaskData makeOutputHeadTask(OutputHeadKind kind, int trainingCount, int heldOutCount,
                                      std::uint64_t seed)
{
    OutputHeadTaskData data;
    data.kind = kind;
    // The grammar's English words, as the translation task's vocabulary holds them.
    data.alphabet = makeSeq2SeqTask(Seq2SeqTask::EnglishFrench, 0, 0, seed).sourceAlphabet;
    if (kind == OutputHeadKind::Tagging)
        data.labels.assign(std::begin(kPartsOfSpeech), std::end(kPartsOfSpeech));
    else
        data.labels.assign(std::begin(kMoods), std::end(kMoods));
    Random random(seed);
    std::set<QString> seen;
    const int wanted = trainingCount + heldOutCount;
    for (int draws = 0; int(seen.size()) < wanted && draws < 40 * wanted + 1000; ++draws) {
        const GrammarSentence s = drawGrammarSentence(random);
        if (s.english.size() > 30)
            continue;
        LabelledSentence sentence{s.english.join(QLatin1Char(' ')), {}};
        if (kind == OutputHeadKind::Tagging) {
            for (const QString& tag : s.partsOfSpeech)
                sentence.labels.push_back(
                    int(std::find(std::begin(kPartsOfSpeech), std::end(kPartsOfSpeech),
                                  tag.toStdString()) -
                        std::begin(kPartsOfSpeech)));
        } else {
            // The classes in turn, so that each is a third of the sentences.
            const int mood = moodOf(s.english);
            if (mood != int(seen.size() % 3))
                continue;
            sentence.labels = {mood};
        }
        if (!seen.insert(sentence.text).second)
            continue;
        (int(data.heldOut.size()) < heldOutCount ? data.heldOut : data.training)
            .push_back(std::move(sentence));
    }
    return data;
}

OutputHeadTrainer::OutputHeadTrainer(OutputHeadTaskData data, const OutputHeadSettings& settings)
    : m_data(std::move(data)), m_settings(settings), m_random(settings.seed)
{
    if (m_data.training.empty())
        throw Error("there are no training sentences");
    Seq2SeqModel& e = m_model.encoder;
    e.attention = Seq2SeqAttention::None;
    e.cell = settings.cell;
    e.layers = 1;
    e.bidirectional = settings.bidirectional;
    e.hiddenSize = settings.hiddenSize;
    e.source = seq2seqVocabulary(m_data.alphabet);
    allocateSeq2SeqWeights(e, Eigen::Index(e.source.words.size()), 0);
    e.decoderLayers.clear(); // an encoder alone
    initialiseSeq2SeqWeights(e, m_random);
    m_model.kind = m_data.kind;
    m_model.pooling = settings.pooling;
    m_model.labels = m_data.labels;
    const Eigen::Index classes = Eigen::Index(m_data.labels.size());
    // nn.Linear's initialisation: uniform within 1/sqrt(fan_in).
    const double bound = 1.0 / std::sqrt(double(e.keyWidth()));
    m_model.weights = Matrix(e.keyWidth(), classes);
    m_model.bias = RowVector(classes);
    for (Eigen::Index i = 0; i < m_model.weights.size(); ++i)
        m_model.weights.data()[i] = float(m_random.uniform(-bound, bound));
    for (Eigen::Index i = 0; i < classes; ++i)
        m_model.bias(i) = float(m_random.uniform(-bound, bound));
    for (const LabelledSentence& sentence : m_data.training)
        m_examples.push_back(exampleOf(m_model, sentence));
    for (const LabelledSentence& sentence : m_data.heldOut)
        m_heldOut.push_back(exampleOf(m_model, sentence));
    m_gradients = zeroOutputHeadLike(m_model);
    m_adam = ClippedAdam(outputHeadParameters(m_model));
}

double OutputHeadTrainer::step()
{
    std::vector<std::size_t> batch;
    int labels = 0;
    for (int i = 0; i < m_settings.batchSize; ++i) {
        batch.push_back(std::size_t(m_random.nextU64() % m_examples.size()));
        labels += int(m_examples[batch.back()].labels.size());
    }
    const std::vector<Seq2SeqParameter> gradient = outputHeadParameters(m_gradients);
    for (const Seq2SeqParameter& p : gradient)
        std::fill(p.data, p.data + p.size, 0.0f);
    double loss = 0.0;
    for (const std::size_t i : batch)
        loss += accumulateOutputHeadGradients(m_model, m_examples[i], 1.0f / float(labels),
                                              m_gradients);
    m_adam.step(outputHeadParameters(m_model), gradient, m_settings.learningRate,
                m_settings.clipNorm);
    loss /= double(labels);
    m_losses.push_back(loss);
    return loss;
}

double outputHeadAccuracy(const OutputHeadModel& model,
                          const std::vector<OutputHeadExample>& examples)
{
    int labels = 0, right = 0;
    for (const OutputHeadExample& example : examples) {
        const std::vector<int> predicted = runOutputHead(model, example.ids).labels;
        for (std::size_t i = 0; i < example.labels.size(); ++i)
            right += predicted[i] == example.labels[i];
        labels += int(example.labels.size());
    }
    return labels ? double(right) / double(labels) : 0.0;
}

double OutputHeadTrainer::heldOutAccuracy() const
{
    return outputHeadAccuracy(m_model, m_heldOut);
}

} // namespace attn::core
