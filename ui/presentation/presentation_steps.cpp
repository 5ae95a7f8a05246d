#include "ui/presentation/presentation_steps.h"

#include "ui/presentation/presentation_steps_p.h"

#include "core/attention_result.h"

#include <algorithm>
#include <array>

namespace attn::ui {

using steps_detail::Words;

QString presentationStepName(int step)
{
    static const std::array<const char*, kPresentationSteps> names{
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
        QT_TRANSLATE_NOOP("PresentationSteps", "Output projection")};
    if (step < 1 || step > kPresentationSteps)
        return {};
    return Words::tr(names[std::size_t(step - 1)]);
}

QString presentationCaption(int step, const core::Problem& problem)
{
    if (step < 1 || step > kPresentationSteps)
        return {};
    return steps_detail::caption(PresentationStep(step), problem);
}

QString presentationNumbers(int step, const core::AttentionResult& result, int head, int query,
                            int key)
{
    if (step < 1 || step > kPresentationSteps || result.heads.empty() ||
        !result.intermediatesKept || result.pooling.pooled)
        return {};
    head = std::clamp(head, 0, int(result.heads.size()) - 1);
    query = std::clamp(query, 0, std::max(0, result.problem->queryCount() - 1));
    key = std::clamp(key, 0, std::max(0, result.problem->keyCount() - 1));
    return steps_detail::numbers(PresentationStep(step), result, head, query, key);
}

} // namespace attn::ui
