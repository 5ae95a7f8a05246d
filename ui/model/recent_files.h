#pragma once

#include <QString>
#include <QStringList>

namespace attn::ui {

// The recent-files list both windows share (QSettings "recentFiles"): scene files and model
// folders, newest first. A model's last sentence is kept beside it, so reopening a model from
// the list brings back what was typed.
namespace recent {

inline constexpr int kMaxFiles = 8;

void addFile(const QString& path);
void addModel(const QString& folder, const QString& text);
QStringList files();
// The sentence last used with a model folder; empty when none was kept.
QString modelText(const QString& folder);
// A folder with a config.json: opened as a model rather than a scene.
bool isModelFolder(const QString& path);

} // namespace recent

} // namespace attn::ui
