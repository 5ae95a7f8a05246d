#pragma once

#include <QString>
#include <functional>

class QMenu;
class QWidget;

namespace attn::ui {

// What both windows ask and list about files, worded once.

// The unsaved-changes question (Save, Discard, Cancel) when `modified`. True when nothing is
// lost: nothing was modified, or the changes were saved (`save` returned true) or discarded;
// false on Cancel or a failed save.
bool askToSaveChanges(QWidget* parent, bool modified, const QString& documentName,
                      const std::function<bool()>& save);

// File > Open Scene's dialog, in the last folder used; the chosen file's folder is remembered
// for the next. Empty when cancelled.
QString askForSceneToOpen(QWidget* parent);

// Open Recent from the preferences: "&1 name" (" (model)" after a model folder), the whole path
// as the tooltip, an entry whose file is gone disabled, and Clear List; `open` gets the path and
// whether it is a model folder.
void fillRecentFilesMenu(QMenu& menu,
                         const std::function<void(const QString& path, bool isModel)>& open);

} // namespace attn::ui
