#pragma once

#include <QByteArray>
#include <QString>

#include <optional>
#include <string>

namespace attn::core {

// A key given twice in one object of a JSON text.
struct DuplicateJsonKey
{
    std::string path;    // of the repeated member, as errors name it: "heads[2].W_q", "model"
    QString key;         // the key itself ("W_q")
    QString topLevelKey; // the root's member that holds it (itself at the top level)
    bool topLevel = false;
};

// The first key given twice in the same object, anywhere in `json`. QJsonDocument keeps only
// the last of two equal keys and says nothing, so a file that means two things would be read
// as one of them; the scene reader and the safetensors header refuse such files with this.
// `json` must already have parsed as JSON (QJsonDocument::fromJson succeeded): the scan then
// only has to find strings, keys and brackets.
std::optional<DuplicateJsonKey> findDuplicateJsonKey(const QByteArray& json);

} // namespace attn::core
