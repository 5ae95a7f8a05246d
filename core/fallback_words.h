#pragma once
// The words an embedding did not know, which got stand-in (hashed) vectors: the window's note
// and the command line's say which, in the same order.

#include "core/tokenizer.h"

#include <QStringList>

#include <vector>

namespace attn::core {

// Appends each distinct word of `tokens` whose `fallback` flag is set, in order, to `words`.
inline void appendFallbackWords(QStringList& words, const std::vector<Token>& tokens,
                                const std::vector<bool>& fallback)
{
    for (std::size_t i = 0; i < tokens.size() && i < fallback.size(); ++i)
        if (fallback[i] && !words.contains(tokens[i].text))
            words.append(tokens[i].text);
}

} // namespace attn::core
