#include "ui/concepts/concept_view.h"

#include "core/enum_names.h"

namespace attn::ui {
namespace {

constexpr core::EnumNames<ConceptView, 10> kNames{{
    {ConceptView::Train, "train"},
    {ConceptView::Gradient, "gradient"},
    {ConceptView::Kernel, "kernel"},
    {ConceptView::Positions, "positions"},
    {ConceptView::EmbeddingSpace, "embedding-space"},
    {ConceptView::Projections, "projections"},
    {ConceptView::Hard, "hard"},
    {ConceptView::Context, "context"},
    {ConceptView::Layers, "layers"},
    {ConceptView::Mixing, "mixing"},
}};

} // namespace

std::optional<ConceptView> parseConceptView(const QString& name)
{
    return core::enumFromName(kNames, name);
}

QString conceptViewName(ConceptView view)
{
    return core::enumQName(kNames, view);
}

} // namespace attn::ui
