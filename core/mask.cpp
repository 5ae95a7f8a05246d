#include "mask.h"

#include <algorithm>

namespace attn::core {

Mask::Mask(const MaskSpec& spec, std::vector<bool> keyIsPadding, int queries, int keys)
    : m_spec(spec), m_padding(std::move(keyIsPadding)), m_custom(spec.customCells),
      m_queries(queries), m_keys(keys)
{
    m_padding.resize(std::size_t(keys), false);
    std::sort(m_custom.begin(), m_custom.end());
    m_custom.erase(std::unique(m_custom.begin(), m_custom.end()), m_custom.end());
}

std::pair<int, int> Mask::keyRange(int query) const
{
    int first = 0;
    int last = m_keys;
    if (m_spec.causal)
        last = std::min(last, query + 1);
    if (m_spec.window >= 0) {
        // Seed 001: "N < T" restricts each query to keys within N positions.
        first = std::max(first, query - m_spec.window);
        last = std::min(last, m_spec.windowCausal ? query + 1 : query + m_spec.window + 1);
    }
    first = std::clamp(first, 0, m_keys);
    last = std::clamp(last, first, m_keys);
    return {first, last};
}

bool Mask::isMasked(int query, int key) const
{
    const auto [first, last] = keyRange(query);
    if (key < first || key >= last)
        return true;
    if (m_spec.padding && m_padding[std::size_t(key)])
        return true;
    return std::binary_search(m_custom.begin(), m_custom.end(), std::pair{query, key});
}

void Mask::fillRow(int query, std::uint8_t* masked) const
{
    const auto [first, last] = keyRange(query);
    for (int j = 0; j < m_keys; ++j)
        masked[j] =
            (j < first || j >= last || (m_spec.padding && m_padding[std::size_t(j)])) ? 1 : 0;
    auto cell = std::lower_bound(m_custom.begin(), m_custom.end(), std::pair{query, 0});
    for (; cell != m_custom.end() && cell->first == query; ++cell)
        if (cell->second >= 0 && cell->second < m_keys)
            masked[cell->second] = 1;
}

MaskRules maskRulesAt(const MaskSpec& spec, const std::vector<bool>& keyIsPadding, int queries,
                      int keys, int query, int key)
{
    auto alone = [&](auto enable) {
        MaskSpec only;
        only.padding = false;
        enable(only);
        return Mask(only, keyIsPadding, queries, keys).isMasked(query, key);
    };
    MaskRules rules;
    rules.causal = alone([&](MaskSpec& s) { s.causal = spec.causal; });
    rules.window = alone([&](MaskSpec& s) {
        s.window = spec.window;
        s.windowCausal = spec.windowCausal;
    });
    rules.padding = alone([&](MaskSpec& s) { s.padding = spec.padding; });
    rules.custom = alone([&](MaskSpec& s) { s.customCells = spec.customCells; });
    return rules;
}

} // namespace attn::core
