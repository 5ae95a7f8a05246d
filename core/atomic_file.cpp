#include "atomic_file.h"

#include "error.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace attn::core {

void writeFileAtomically(const QString& path, const QByteArray& bytes)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        throw Error("cannot write " + path.toStdString() + ": " + file.errorString().toStdString());
    if (file.write(bytes) != bytes.size()) {
        const std::string reason = file.errorString().toStdString();
        file.cancelWriting();
        throw Error("cannot write " + path.toStdString() + ": " + reason);
    }
    if (!file.commit())
        throw Error("cannot write " + path.toStdString() + ": " + file.errorString().toStdString());
}

QByteArray readFileLimited(const QString& path, qint64 maxBytes)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        throw Error("cannot read " + path.toStdString() + ": " + file.errorString().toStdString());
    if (file.size() > maxBytes)
        throw Error(path.toStdString() + ": file is " + std::to_string(file.size()) +
                    " bytes, more than the " + std::to_string(maxBytes) + " allowed");
    QByteArray bytes = file.readAll();
    if (file.error() != QFileDevice::NoError)
        throw Error("cannot read " + path.toStdString() + ": " + file.errorString().toStdString());
    return bytes;
}

} // namespace attn::core
