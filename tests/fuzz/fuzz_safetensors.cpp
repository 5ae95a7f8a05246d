// safetensors files, both readers: the single matrix of core/matrix_io (whole file in memory)
// and a model checkpoint (core/model/checkpoint: the file mapped, every tensor read as the
// shape its header gives).
#include "fuzz_target.h"

#include "core/matrix_io.h"
#include "core/model/checkpoint.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

namespace {

void fuzzSafetensors(const QByteArray& input)
{
    try {
        attn::core::parseSafetensors(input, std::string(), QStringLiteral("fuzz.safetensors"));
    } catch (const attn::core::Error&) {
    }

    static QTemporaryDir folder; // one per process; the file is rewritten for each input
    {
        QFile file(QDir(folder.path()).filePath(QStringLiteral("model.safetensors")));
        if (!file.open(QIODevice::WriteOnly) || file.write(input) != input.size())
            return;
    }
    const auto checkpoint = attn::core::Checkpoint::open(folder.path());
    for (const std::string& name : checkpoint->names()) {
        try {
            checkpoint->matrix(name, -1, -1); // any shape: every tensor's data is decoded
            checkpoint->transposedMatrix(name, -1, -1);
        } catch (const attn::core::Error&) {
        }
    }
}

} // namespace

ATTN_FUZZ_TARGET(fuzzSafetensors)
