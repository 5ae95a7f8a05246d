#pragma once
// Reading back a JSON file a test or the executable wrote.

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace attn::test {

// A JSON file's top-level object; empty when the file cannot be read or is not an object.
inline QJsonObject readJsonObject(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

} // namespace attn::test
