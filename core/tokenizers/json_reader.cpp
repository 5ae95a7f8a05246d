#include "core/tokenizers/json_reader.h"

#include "core/error.h"

#include <QLocale>
#include <cmath>

namespace attn::core::hf {

void JsonReader::fail(const QString& path, const QString& problem) const
{
    // The file, then the JSON path within it: both are places (Error::places).
    if (path.isEmpty())
        throw Error(m_fileName.toStdString(), problem.toStdString());
    throw Error(m_fileName.toStdString(), Error(path.toStdString(), problem.toStdString()));
}

QString JsonReader::where(const QString& path) const
{
    return path.isEmpty() ? m_fileName : m_fileName + QStringLiteral(": ") + path;
}

QString JsonReader::child(const QString& path, const QString& key)
{
    return path.isEmpty() ? key : path + u'.' + key;
}

QString JsonReader::index(const QString& path, qsizetype i)
{
    return path + u'[' + QString::number(i) + u']';
}

namespace {

QString typeName(const QJsonValue& value)
{
    switch (value.type()) {
    case QJsonValue::Null:
        return QStringLiteral("null");
    case QJsonValue::Bool:
        return QStringLiteral("a boolean");
    case QJsonValue::Double:
        return QStringLiteral("a number");
    case QJsonValue::String:
        return QStringLiteral("a string");
    case QJsonValue::Array:
        return QStringLiteral("an array");
    case QJsonValue::Object:
        return QStringLiteral("an object");
    case QJsonValue::Undefined:
        break;
    }
    return QStringLiteral("missing");
}

} // namespace

QJsonObject JsonReader::object(const QJsonValue& value, const QString& path) const
{
    if (!value.isObject())
        fail(path, QStringLiteral("expected an object, found ") + typeName(value));
    return value.toObject();
}

QJsonArray JsonReader::array(const QJsonValue& value, const QString& path) const
{
    if (!value.isArray())
        fail(path, QStringLiteral("expected an array, found ") + typeName(value));
    return value.toArray();
}

QString JsonReader::string(const QJsonValue& value, const QString& path) const
{
    if (!value.isString())
        fail(path, QStringLiteral("expected a string, found ") + typeName(value));
    return value.toString();
}

QJsonValue JsonReader::member(const QJsonObject& object, const QString& key,
                              const QString& path) const
{
    const auto it = object.constFind(key);
    if (it == object.constEnd())
        fail(child(path, key), QStringLiteral("missing"));
    return *it;
}

QString JsonReader::string(const QJsonObject& object, const QString& key, const QString& path) const
{
    return string(member(object, key, path), child(path, key));
}

std::optional<QString> JsonReader::optionalString(const QJsonObject& object, const QString& key,
                                                  const QString& path) const
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        return std::nullopt;
    return string(value, child(path, key));
}

bool JsonReader::boolean(const QJsonObject& object, const QString& key, const QString& path,
                         bool fallback) const
{
    const QJsonValue value = object.value(key);
    if (value.isUndefined() || value.isNull())
        return fallback;
    if (!value.isBool())
        fail(child(path, key), QStringLiteral("expected true or false, found ") + typeName(value));
    return value.toBool();
}

qint64 JsonReader::integer(const QJsonValue& value, const QString& path) const
{
    // The largest int is refused too, so that an id's "largest + 1" (a vocabulary's size)
    // always fits in an int.
    const double number = value.toDouble(std::nan(""));
    if (!value.isDouble() || number != std::floor(number) || number < 0 || number > 2147483646.0)
        fail(path,
             QStringLiteral("expected a non-negative integer below 2147483647, found ") +
                 (value.isDouble() ? QString::number(number, 'g', QLocale::FloatingPointShortest)
                                   : typeName(value)));
    return qint64(number);
}

qint64 JsonReader::integer(const QJsonObject& object, const QString& key, const QString& path,
                           std::optional<qint64> fallback) const
{
    const QJsonValue value = object.value(key);
    if ((value.isUndefined() || value.isNull()) && fallback)
        return *fallback;
    return integer(value, child(path, key));
}

} // namespace attn::core::hf
