#pragma once

#include "scene.h"

#include <QByteArray>
#include <QString>

namespace attn::core {

// Parses and validates a scene. Throws Error naming the first problem with its JSON path,
// for example "heads[2].W_q: expected 64x16, got 64x15". A newer format version is
// refused. `baseDir` resolves relative file references (word vectors).
Scene sceneFromJson(const QByteArray& json, const QString& baseDir = QString());
QByteArray sceneToJson(const Scene& scene);

// Throws Error on a missing, unreadable or invalid file. Relative file references resolve
// against `baseDir`, by default the file's own folder (a recovery copy passes the folder of
// the file its work came from).
Scene loadScene(const QString& path, const QString& baseDir = QString());
// Atomic: writes to a temporary file and renames it over `path` only when every byte is
// written, so a failed save (full disk, no permission) leaves the old file intact.
void saveScene(const Scene& scene, const QString& path);

} // namespace attn::core
