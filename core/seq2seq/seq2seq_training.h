#pragma once

#include "core/random.h"
#include "core/seq2seq/seq2seq_model.h"

#include <cstdint>
#include <string>
#include <vector>

namespace attn::core {

// One trainable tensor of a Seq2SeqModel, flattened (row-major, as the model holds it), with
// its name in the folder format.
struct Seq2SeqParameter
{
    std::string name;
    float* data = nullptr;
    Eigen::Index size = 0;
    Eigen::Index rows = 1, cols = 0; // as the model holds it
    bool transposedInFile = false;   // nn.Linear and nn.GRU weights: stored out x in
    int fileRank = 2;                // 1 for biases
};

// Every trainable tensor of `model`, in a fixed order: those its variant has, named as in
// docs/SEQ2SEQ_FORMAT.md.
std::vector<Seq2SeqParameter> seq2seqParameters(Seq2SeqModel& model);

// Every tensor of the variant `model` names (cell, layers, bidirectional, attention,
// hidden_size) made in its shape, zero, the embeddings with these rows.
void allocateSeq2SeqWeights(Seq2SeqModel& model, Eigen::Index sourceRows, Eigen::Index targetRows);

// A model of the same shapes, every weight zero: where gradients are summed.
Seq2SeqModel zeroSeq2SeqLike(const Seq2SeqModel& model);

// A source and its target as ids, each ending in EOS.
struct Seq2SeqExample
{
    std::vector<int> source;
    std::vector<int> target;
};

// The tutorial's training step for one pair: the decoder run over the target's length, fed at
// each step the target's previous word (teacher forcing) with probability `teacherForcing`,
// otherwise its own previous argmax; the loss is the summed negative log-likelihood of the
// target's words (NLLLoss with reduction "sum"). Adds d loss / d weights, scaled by `scale`,
// into `gradients` (backpropagation through time) and returns the loss.
double accumulateSeq2SeqGradients(const Seq2SeqModel& model, const Seq2SeqExample& example,
                                  double teacherForcing, Random& random, float scale,
                                  Seq2SeqModel& gradients);

struct Seq2SeqEncoderCache;

// Backpropagation through time over the encoder alone: from d loss / d (every position's top
// state) in `dKeys` (source length x K) and d loss / d (each layer and direction's final state)
// in `dFinal`, adds the encoder's weights' and embeddings' gradients into `gradients`. `encoder`
// is what encodeSeq2Seq kept for `source`.
void seq2seqEncoderBackward(const Seq2SeqModel& model, const std::vector<int>& source,
                            const Seq2SeqEncoderCache& encoder, Matrix dKeys,
                            std::vector<RnnState> dFinal, Seq2SeqModel& gradients);

// Adam (Kingma & Ba 2015, Algorithm 1) over a list of tensors, the gradient's global norm first
// cut to a bound as torch.nn.utils.clip_grad_norm_ does.
class ClippedAdam
{
public:
    ClippedAdam() = default;
    explicit ClippedAdam(const std::vector<Seq2SeqParameter>& weights);

    // `gradient` lines up with `weights` tensor for tensor; clipNorm 0 never clips.
    void step(const std::vector<Seq2SeqParameter>& weights,
              const std::vector<Seq2SeqParameter>& gradient, double learningRate, double clipNorm);
    int stepCount() const { return m_steps; }

private:
    std::vector<std::vector<float>> m_firstMoments, m_secondMoments;
    int m_steps = 0;
};

} // namespace attn::core
