#pragma once

#include "core/tokenizers/json_reader.h"

#include <QByteArray>
#include <QString>

#include <cstdint>
#include <optional>
#include <vector>

namespace attn::core::hf {

// SentencePiece's compiled normalization rules (NormalizerSpec.precompiled_charsmap; the
// tokenizer.json Precompiled normalizer holds the same bytes in base64): a little-endian
// uint32 with the size in bytes of a darts-clone double-array trie, the trie's 32-bit units,
// then the replacement strings, each ended by a NUL byte. A key's value in the trie is the
// offset of its replacement (sentencepiece/src/normalizer.cc; the spm_precompiled crate).
class PrecompiledCharsmap
{
public:
    // Throws Error naming the file and `path` when the bytes are not in that form.
    PrecompiledCharsmap(const QByteArray& blob, const JsonReader& file, const QString& path);

    bool isEmpty() const { return m_units.empty(); }
    // The replacement of the shortest key that begins `utf8`, as the library's Precompiled
    // normalizer looks up a grapheme or a character (spm_precompiled, transform).
    std::optional<QString> shortestMatch(const QByteArray& utf8) const;

private:
    // The values of the keys that begin `utf8`, shortest key first (darts-clone's
    // commonPrefixSearch); a unit outside the trie ends the search.
    std::vector<std::uint32_t> prefixValues(const QByteArray& utf8) const;
    QString replacementAt(std::uint32_t offset) const;

    std::vector<std::uint32_t> m_units;
    QByteArray m_replacements;
};

} // namespace attn::core::hf
