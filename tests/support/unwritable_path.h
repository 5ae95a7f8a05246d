#pragma once

#include <QFile>
#include <QString>
#include <QTemporaryDir>

namespace attn::test {

// A path in `dir` that no user can write, root included (unlike a read-only folder): `name`
// inside a regular file, as if that file were a folder ("Not a directory"). Empty when the
// file cannot be made.
inline QString unwritablePath(const QTemporaryDir& dir, const QString& name)
{
    QFile plain(dir.filePath(QStringLiteral("plain")));
    if (!plain.open(QIODevice::WriteOnly))
        return {};
    return dir.filePath(QStringLiteral("plain/") + name);
}

} // namespace attn::test
