#pragma once

#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QString>

#include <optional>

namespace attn::core::hf {

// Reads the fields of a tokenizer file, throwing attn::core::Error with a message that names
// the file and the JSON path ("tokenizer.json: model.merges[12]: ...").
class JsonReader
{
public:
    explicit JsonReader(QString fileName) : m_fileName(std::move(fileName)) {}

    const QString& fileName() const { return m_fileName; }
    [[noreturn]] void fail(const QString& path, const QString& problem) const;
    // "tokenizer.json: normalizer.normalizers[2]": where a message says the problem is.
    QString where(const QString& path) const;

    QJsonObject object(const QJsonValue& value, const QString& path) const;
    QJsonArray array(const QJsonValue& value, const QString& path) const;
    QString string(const QJsonValue& value, const QString& path) const;
    // Required members.
    QString string(const QJsonObject& object, const QString& key, const QString& path) const;
    QJsonValue member(const QJsonObject& object, const QString& key, const QString& path) const;
    // Optional members: missing or null gives the fallback.
    std::optional<QString> optionalString(const QJsonObject& object, const QString& key,
                                          const QString& path) const;
    bool boolean(const QJsonObject& object, const QString& key, const QString& path,
                 bool fallback) const;
    qint64 integer(const QJsonObject& object, const QString& key, const QString& path,
                   std::optional<qint64> fallback) const;
    qint64 integer(const QJsonValue& value, const QString& path) const;

    static QString child(const QString& path, const QString& key);
    static QString index(const QString& path, qsizetype i);

private:
    QString m_fileName;
};

} // namespace attn::core::hf
