#include "ui/widgets/standard_keys.h"

namespace attn::ui {

QList<QKeySequence> standardKeys(QKeySequence::StandardKey standard, const QKeySequence& advertised)
{
    QList<QKeySequence> keys{advertised};
    for (const QKeySequence& key : QKeySequence::keyBindings(standard))
        if (!keys.contains(key))
            keys.append(key);
    return keys;
}

} // namespace attn::ui
