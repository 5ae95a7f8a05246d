#include "ui/presentation/presentation_steps.h"

#include "ui/presentation/presentation_extras.h"
#include "ui/presentation/presentation_steps_p.h"

#include "core/attention_result.h"

#include <algorithm>
#include <array>

namespace attn::ui {

using steps_detail::Words;

QString presentationStepName(int step)
{
    static const std::array<const char*, kLastPresentationStep> names{
        QT_TRANSLATE_NOOP("PresentationSteps", "Tokens"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Embeddings + positions"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Queries, keys, values"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Scores"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Scaling"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Masking"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Normalization"),
        QT_TRANSLATE_NOOP("PresentationSteps", "One query"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Weighted sum"),
        QT_TRANSLATE_NOOP("PresentationSteps", "All heads"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Concatenation"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Output projection"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Add & Norm"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Feed-forward"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Add & Norm, again"),
        QT_TRANSLATE_NOOP("PresentationSteps", "The block's output"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Fixed weights: fully connected"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Fixed window: convolution"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Weights from the words: attention"),
        QT_TRANSLATE_NOOP("PresentationSteps", "What moves when a word changes"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Fixed kernel: one width"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Learned maps: a width for each place"),
        QT_TRANSLATE_NOOP("PresentationSteps", "The fitted curves"),
        QT_TRANSLATE_NOOP("PresentationSteps", "Learn the kernel or the embedding")};
    if (step < 1 || step > kLastPresentationStep)
        return {};
    return Words::tr(names[std::size_t(step - 1)]);
}

std::vector<PresentationStep> presentationSteps(const PresentationExtras* extras)
{
    std::vector<PresentationStep> steps;
    for (int step = 1; step <= kPresentationSteps; ++step)
        steps.push_back(PresentationStep(step));
    if (extras && extras->stacked())
        steps.insert(steps.end(), {PresentationStep::AddNorm, PresentationStep::FeedForward,
                                   PresentationStep::AddNormOutput, PresentationStep::NextBlock});
    if (extras && extras->mixes())
        steps.insert(steps.end(),
                     {PresentationStep::MixingFullyConnected, PresentationStep::MixingConvolution,
                      PresentationStep::MixingAttention, PresentationStep::MixingChanges});
    if (extras && extras->kernels())
        steps.insert(steps.end(), {PresentationStep::KernelFixed, PresentationStep::KernelLearned,
                                   PresentationStep::KernelFits, PresentationStep::KernelContrast});
    return steps;
}

namespace {

bool isBlockStep(int step)
{
    return step >= int(PresentationStep::AddNorm) && step <= int(PresentationStep::NextBlock);
}

bool isMixingStep(int step)
{
    return step >= int(PresentationStep::MixingFullyConnected) &&
           step <= int(PresentationStep::MixingChanges);
}

bool isKernelStep(int step)
{
    return step >= int(PresentationStep::KernelFixed) && step <= kLastPresentationStep;
}

} // namespace

QString presentationCaption(int step, const core::Problem& problem,
                            const PresentationExtras* extras)
{
    if (isBlockStep(step) && extras && extras->stacked())
        return steps_detail::blockCaption(PresentationStep(step), *extras);
    if (isMixingStep(step) && extras && extras->mixes())
        return steps_detail::mixingCaption(PresentationStep(step), problem, *extras);
    if (isKernelStep(step) && extras && extras->kernels())
        return steps_detail::kernelCaption(PresentationStep(step), *extras->kernel);
    if (step < 1 || step > kPresentationSteps)
        return {};
    return steps_detail::caption(PresentationStep(step), problem);
}

QString presentationNumbers(int step, const core::AttentionResult& result, int head, int query,
                            int key, const PresentationExtras* extras)
{
    if (isBlockStep(step) && extras && extras->stacked()) {
        const int rows = int(extras->blocks[std::size_t(extras->layer)].output.rows());
        return query >= 0 && query < rows
                   ? steps_detail::blockNumbers(PresentationStep(step), *extras, query)
                   : QString();
    }
    if (isMixingStep(step) && extras && extras->mixes()) {
        const int n = int(extras->before.size());
        return query >= 0 && query < n && key >= 0 && key < n
                   ? steps_detail::mixingNumbers(PresentationStep(step), *extras, head, query, key)
                   : QString();
    }
    if (isKernelStep(step) && extras && extras->kernels())
        return steps_detail::kernelNumbers(PresentationStep(step), *extras->kernel);
    if (step < 1 || step > kPresentationSteps || result.heads.empty() ||
        !result.intermediatesKept || result.pooling.pooled)
        return {};
    head = std::clamp(head, 0, int(result.heads.size()) - 1);
    query = std::clamp(query, 0, std::max(0, result.problem->queryCount() - 1));
    key = std::clamp(key, 0, std::max(0, result.problem->keyCount() - 1));
    return steps_detail::numbers(PresentationStep(step), result, head, query, key);
}

} // namespace attn::ui
