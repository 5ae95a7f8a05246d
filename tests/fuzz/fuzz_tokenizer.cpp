// Hugging Face tokenizer.json files and encoding with them (core/tokenizers): the input is
// the JSON, a NUL byte, then the text to encode.
#include "fuzz_target.h"

#include "core/tokenizers/hf_tokenizer.h"

namespace {

void fuzzTokenizer(const QByteArray& input)
{
    const qsizetype split = input.indexOf('\0');
    const QByteArray json = split < 0 ? input : input.left(split);
    const QString text = split < 0 ? QStringLiteral("The cat sat on the mat.")
                                   : QString::fromUtf8(input.mid(split + 1));
    const auto tokenizer =
        attn::core::HfTokenizer::fromTokenizerJson(json, QStringLiteral("tokenizer.json"));
    tokenizer->encode(text, true, 512);
    tokenizer->encode(text, false, 512);
}

} // namespace

ATTN_FUZZ_TARGET(fuzzTokenizer)
