#include "ui/concepts/concept_view.h"

#include <array>
#include <utility>

namespace attn::ui {
namespace {

constexpr std::array<std::pair<ConceptView, const char*>, 5> kNames{{
    {ConceptView::Train, "train"},
    {ConceptView::Gradient, "gradient"},
    {ConceptView::Kernel, "kernel"},
    {ConceptView::Positions, "positions"},
    {ConceptView::EmbeddingSpace, "embedding-space"},
}};

} // namespace

std::optional<ConceptView> parseConceptView(const QString& name)
{
    for (const auto& [view, word] : kNames)
        if (name == QLatin1String(word))
            return view;
    return std::nullopt;
}

QString conceptViewName(ConceptView view)
{
    for (const auto& [each, word] : kNames)
        if (each == view)
            return QString::fromLatin1(word);
    return {};
}

} // namespace attn::ui
