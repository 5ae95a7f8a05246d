#pragma once
// What lens_reference.py (tests/data/models) wrote for the tiny GPT-2: the logit lens, activation
// patching and direct logit attribution computed in float64 NumPy, and the token ids it used.

#include "core/model/model_loader.h"
#include "core/tokenizer.h"
#include "support/model_fixtures.h"

#include <QTest>

#include <memory>
#include <vector>

namespace attn::test {

inline std::shared_ptr<const core::Model> loadFixture(const QString& name)
{
    return core::loadModel(modelFixturesDir() + QLatin1Char('/') + name);
}

// Data rows "name" and "text": these fixtures with a sentence each, a [MASK] in the masked ones.
inline void addSentenceRows(const QStringList& names)
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("text");
    for (const QString& name : names) {
        const bool masked = name == QLatin1String("bert") || name == QLatin1String("distilbert");
        QTest::newRow(qPrintable(name)) << name
                                        << (masked ? QStringLiteral("the cat sat on the [MASK].")
                                                   : QStringLiteral("The cat sat on the"));
    }
}

inline QJsonObject lensExpected()
{
    QFile file(modelFixturesDir() + QStringLiteral("/lens_expected.json"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(file.readAll()).object();
}

// Tokens made from vocabulary ids alone (what the model reads).
inline std::vector<core::Token> tokensOf(const QJsonValue& ids)
{
    std::vector<core::Token> tokens;
    for (const QJsonValue id : ids.toArray()) {
        core::Token token(QStringLiteral("t%1").arg(id.toInt()), -1, 0, false);
        token.id = id.toInt();
        tokens.push_back(std::move(token));
    }
    return tokens;
}

} // namespace attn::test
