#include "ui/document/file_names.h"

#include <QObject>

namespace attn::ui {

QString fileNameFromTitle(const QString& title, const QString& fallback)
{
    QString name;
    bool gap = false;
    for (const QChar c : title.toLower()) {
        // Combining marks belong to the letter before them (Devanagari vowel signs).
        if (c.isLetterOrNumber() || c.isSurrogate() || (c.isMark() && !name.isEmpty() && !gap)) {
            if (gap && !name.isEmpty())
                name += QLatin1Char('-');
            name += c;
            gap = false;
        } else {
            gap = true;
        }
    }
    return name.isEmpty() ? fallback : name;
}

QString sceneFileFilter()
{
    return QObject::tr("Attention scenes (*.attention.json *.json)");
}

} // namespace attn::ui
