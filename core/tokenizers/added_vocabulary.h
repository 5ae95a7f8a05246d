#pragma once

#include "core/tokenizers/pipeline.h"

#include <QHash>
#include <QSet>

namespace attn::core::hf {

struct AddedToken
{
    QString content;
    int id = 0;
    bool singleWord = false;
    bool lstrip = false;
    bool rstrip = false;
    bool normalized = true;
    bool special = false;
};

// Tokens matched as a whole before the model sees the text (tokenizers/src/tokenizer/
// added_vocabulary.rs): those with normalized = false are found in the raw text, the others
// in each remaining piece after normalization. At each position the longest token wins
// (Aho-Corasick leftmost-longest); single_word tokens need non-word characters around them,
// lstrip/rstrip tokens take the white space beside them.
class AddedVocabulary
{
public:
    // Later tokens with the same content replace earlier ones. Empty contents are ignored.
    void add(const AddedToken& token);
    // Builds the matchers; `normalizer` gives the normalized form of normalized tokens.
    void finish(const Normalizer* normalizer);

    void extractAndNormalize(PreTokenizedString& text, const Normalizer* normalizer) const;

    const AddedToken* byId(int id) const;
    std::optional<int> idOf(const QString& content) const;
    // The text decode() uses for the token (the normalized content for normalized tokens).
    QString decodedText(int id) const;
    bool isSpecialContent(const QString& content) const
    {
        return m_specialContents.contains(content);
    }
    int largestId() const;
    const std::vector<AddedToken>& tokens() const { return m_tokens; }

private:
    struct Matcher
    {
        // Candidate tokens by their pattern's first UTF-16 unit, longest pattern first.
        QHash<char16_t, std::vector<std::pair<QString, int>>> byFirstUnit;
        bool isEmpty() const { return byFirstUnit.isEmpty(); }
    };
    std::vector<Split> splitWith(NormalizedString&& text, const Matcher& matcher) const;

    std::vector<AddedToken> m_tokens;
    QHash<QString, std::size_t> m_byContent;
    QHash<int, std::size_t> m_byId;
    QHash<int, QString> m_normalizedContent;
    QSet<QString> m_specialContents;
    Matcher m_raw;
    Matcher m_normalized;
};

} // namespace attn::core::hf
