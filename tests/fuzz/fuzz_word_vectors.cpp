// GloVe and word2vec text files (core/word_vectors).
#include "fuzz_target.h"

#include "core/word_vectors.h"

namespace {

void fuzzWordVectors(const QByteArray& input)
{
    const attn::core::WordVectors vectors =
        attn::core::WordVectors::parse(input, QStringLiteral("fuzz.txt"));
    vectors.find(QStringLiteral("the"));
}

} // namespace

ATTN_FUZZ_TARGET(fuzzWordVectors)
