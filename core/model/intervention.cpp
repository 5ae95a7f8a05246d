#include "intervention.h"

namespace attn::core {
namespace {

std::set<int> headsOffIn(const std::set<std::pair<int, int>>& headsOff, int layer)
{
    std::set<int> heads;
    for (const auto& [l, h] : headsOff)
        if (l == layer)
            heads.insert(h);
    return heads;
}

const LayerEdit* editOf(const Interventions& interventions, int layer)
{
    const auto it = interventions.layers.find(layer);
    return it == interventions.layers.end() || it->second.empty() ? nullptr : &it->second;
}

} // namespace

bool LayerEdit::empty() const
{
    return !score && !normalization && !temperature && !mask && !fill && heads.empty();
}

int Interventions::firstDifference(const Interventions& other, int layerCount) const
{
    for (int layer = 0; layer < layerCount; ++layer) {
        if (headsOffIn(headsOff, layer) != headsOffIn(other.headsOff, layer))
            return layer;
        const LayerEdit* a = editOf(*this, layer);
        const LayerEdit* b = editOf(other, layer);
        if (bool(a) != bool(b) || (a && !(*a == *b)))
            return layer;
    }
    return layerCount;
}

} // namespace attn::core
