#pragma once

#include "attention_settings.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace attn::core {

// The combined mask of a problem, evaluated on demand: never a T x T matrix, so a long
// input costs nothing here. A cell is masked when any enabled rule masks it.
class Mask
{
public:
    Mask(const MaskSpec& spec, std::vector<bool> keyIsPadding, int queries, int keys);

    bool isMasked(int query, int key) const;
    // masked[j] = 1 for every masked key j of this query row (keys() entries).
    void fillRow(int query, std::uint8_t* masked) const;
    // [first, last): outside it every key of this row is masked by causal/window rules, so a
    // backend may skip those columns. Custom cells and padding may mask more inside it.
    std::pair<int, int> keyRange(int query) const;
    bool hasCustomCells() const { return !m_custom.empty(); }

    int queries() const { return m_queries; }
    int keys() const { return m_keys; }
    const MaskSpec& spec() const { return m_spec; }

private:
    MaskSpec m_spec;
    std::vector<bool> m_padding;
    std::vector<std::pair<int, int>> m_custom; // sorted, unique
    int m_queries;
    int m_keys;
};

// Which of `spec`'s rules mask cell (query, key), each asked on its own (a cell may be masked
// by several): why a cell is masked, in the views' tooltips and the presentation's numbers.
struct MaskRules
{
    bool causal = false;
    bool window = false;
    bool padding = false;
    bool custom = false;
};
MaskRules maskRulesAt(const MaskSpec& spec, const std::vector<bool>& keyIsPadding, int queries,
                      int keys, int query, int key);

} // namespace attn::core
