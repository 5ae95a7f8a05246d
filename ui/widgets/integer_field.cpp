#include "ui/widgets/integer_field.h"

#include <QLineEdit>
#include <QLocale>

namespace attn::ui {

QString outOfRangeMessage(const QString& name, const QString& typed, bool tooLarge,
                          const QString& limit, const QString& value)
{
    return (tooLarge
                ? IntegerField::tr("%1: %2 is more than %3, the largest possible; it stays %4")
                : IntegerField::tr("%1: %2 is less than %3, the smallest possible; it stays %4"))
        .arg(name, typed, limit, value);
}

IntegerField::IntegerField(const QString& name, QWidget* parent) : QSpinBox(parent), m_name(name)
{
    setAccessibleName(name);
    connect(lineEdit(), &QLineEdit::textEdited, this,
            [this](const QString& text) { m_typed = text; });
    connect(this, &QSpinBox::editingFinished, this, &IntegerField::checkTyped);
}

QValidator::State IntegerField::validate(QString& text, int& position) const
{
    const QValidator::State state = QSpinBox::validate(text, position);
    if (state != QValidator::Invalid)
        return state;
    // A whole number out of range stays as typed (Intermediate); checkTyped explains it.
    bool ok = false;
    locale().toLongLong(text.trimmed(), &ok);
    return ok ? QValidator::Intermediate : QValidator::Invalid;
}

void IntegerField::checkTyped()
{
    const QString typed = m_typed.trimmed();
    m_typed.clear();
    if (typed.isEmpty())
        return;
    bool ok = false;
    const qlonglong number = locale().toLongLong(typed, &ok);
    if (!ok || number == value())
        return;
    if (number > maximum() || number < minimum())
        emit refused(
            outOfRangeMessage(m_name, typed, number > maximum(),
                              locale().toString(number > maximum() ? maximum() : minimum()),
                              locale().toString(value())));
}

} // namespace attn::ui
