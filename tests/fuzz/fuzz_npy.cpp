// NumPy .npy files (core/matrix_io).
#include "fuzz_target.h"

#include "core/matrix_io.h"

namespace {

void fuzzNpy(const QByteArray& input)
{
    attn::core::parseNpy(input, QStringLiteral("fuzz.npy"));
}

} // namespace

ATTN_FUZZ_TARGET(fuzzNpy)
