#pragma once

#include <QString>

namespace attn::ui {

// A file name (without a suffix) from a scene's title, as Save As and the figure export
// offer it: lowercase letters and digits of any script, every run of anything else one
// hyphen, none at either end. "This is a cat." -> "this-is-a-cat" (not "this-is-a-cat."),
// "黒い猫" stays. Empty (a title of punctuation only): `fallback`.
QString fileNameFromTitle(const QString& title, const QString& fallback);

// What Save As adds to a name typed without a suffix (the desktop's MIME type matches it).
inline const QString kSceneSuffix = QStringLiteral(".attention.json");
// The file dialogs' filter for scenes, translated when called (never at static
// initialisation, before the translator is installed).
QString sceneFileFilter();

} // namespace attn::ui
