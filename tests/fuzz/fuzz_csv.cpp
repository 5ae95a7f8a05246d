// CSV matrices (core/matrix_io).
#include "fuzz_target.h"

#include "core/matrix_io.h"

namespace {

void fuzzCsv(const QByteArray& input)
{
    attn::core::parseCsv(input, QStringLiteral("fuzz.csv"));
}

} // namespace

ATTN_FUZZ_TARGET(fuzzCsv)
