#pragma once
// tests/data/tokenizers (or $ATTN_TEST_DATA/tokenizers): the tokenizer files and the
// expectations the reference libraries gave for them.

#include <QByteArray>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <map>
#include <memory>

namespace attn::test {

inline QString tokenizerDataDir()
{
    const QByteArray fromEnv = qgetenv("ATTN_TEST_DATA");
    return (fromEnv.isEmpty() ? QStringLiteral(ATTN_TEST_DATA_DIR)
                              : QString::fromLocal8Bit(fromEnv)) +
           QStringLiteral("/tokenizers");
}

// A JSON file of that folder, read once.
inline const QJsonObject& tokenizerJson(const QString& name)
{
    static std::map<QString, QJsonObject> cache;
    auto it = cache.find(name);
    if (it == cache.end()) {
        QFile file(tokenizerDataDir() + u'/' + name);
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(file.fileName()));
        it = cache.emplace(name, QJsonDocument::fromJson(file.readAll()).object()).first;
    }
    return it->second;
}

// `load` of a path in that folder, called once per name.
template <typename T>
std::shared_ptr<const T>
loadTokenizerOnce(const QString& name,
                  const std::function<std::shared_ptr<const T>(const QString&)>& load)
{
    static std::map<QString, std::shared_ptr<const T>> cache;
    auto& entry = cache[name];
    if (!entry)
        entry = load(tokenizerDataDir() + u'/' + name);
    return entry;
}

} // namespace attn::test
