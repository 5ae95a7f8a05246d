#pragma once
// The tiny checkpoints of tests/data/models (written by make_tiny_models.py) and the
// expectations an independent float64 NumPy forward wrote beside each (expected.json, its
// schema in that script's header).

#include "core/matrix.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <utility>
#include <vector>

namespace attn::test {

inline QString modelFixturesDir()
{
    return QStringLiteral(ATTN_TEST_DATA_DIR "/models");
}

// Every fixture folder's name ("gpt2", "bert", ...).
inline QStringList modelFixtures()
{
    QStringList names;
    const QDir dir(modelFixturesDir());
    for (const QString& name : dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name))
        if (QFile::exists(dir.filePath(name + QStringLiteral("/expected.json"))))
            names << name;
    return names;
}

inline QJsonObject expectedFor(const QString& fixture)
{
    QFile file(modelFixturesDir() + QLatin1Char('/') + fixture + QStringLiteral("/expected.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

inline core::Matrix matrixOf(const QJsonValue& rows)
{
    const QJsonArray array = rows.toArray();
    const int cols = array.isEmpty() ? 0 : int(array[0].toArray().size());
    core::Matrix m(array.size(), cols);
    for (int i = 0; i < array.size(); ++i) {
        const QJsonArray row = array[i].toArray();
        for (int j = 0; j < cols && j < row.size(); ++j)
            m(i, j) = float(row[j].toDouble());
    }
    return m;
}

inline core::RowVector rowOf(const QJsonValue& values)
{
    const QJsonArray array = values.toArray();
    core::RowVector v(array.size());
    for (int j = 0; j < array.size(); ++j)
        v(j) = float(array[j].toDouble());
    return v;
}

// Largest |a - b| over all cells; infinity when the shapes differ.
inline double maxDifference(const core::Matrix& a, const core::Matrix& b)
{
    if (a.rows() != b.rows() || a.cols() != b.cols())
        return INFINITY;
    return a.size() ? double((a - b).cwiseAbs().maxCoeff()) : 0.0;
}

} // namespace attn::test
