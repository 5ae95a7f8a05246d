#pragma once

#include <QString>

namespace attn::core {
class Error;
}

namespace attn::ui {

// Scene files name what is wrong by its JSON path ("embedding.table: ...", "heads[1].W_q:
// ..."), and so do the core's errors (core::Error::where()). The window speaks of its own
// controls instead: this replaces the path an error names first with the name of the control
// that edits it ("Embedding: ...", "W^q · head 2: ..."). Messages about a scene file keep their
// paths (the file is what the user edits then). `cross`: the sentence is called the target.
QString inWindowWords(const core::Error& error, bool cross = false);
// The same for an error as it comes from a worker: its where() and its what().
QString inWindowWords(const QString& where, const QString& message, bool cross = false);

} // namespace attn::ui
