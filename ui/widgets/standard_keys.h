#pragma once

#include <QKeySequence>
#include <QList>

namespace attn::ui {

// The keys of a standard command: `advertised` (what the menus and the README name) first,
// then whatever else the platform binds to `standard`, each key once. Qt's bindings differ
// by desktop (its plain X11 scheme has no Save As key) and a key registered twice on one
// window is ambiguous, so that neither registration fires.
QList<QKeySequence> standardKeys(QKeySequence::StandardKey standard,
                                 const QKeySequence& advertised);

} // namespace attn::ui
