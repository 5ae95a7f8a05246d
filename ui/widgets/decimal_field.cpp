#include "ui/widgets/decimal_field.h"

#include "ui/widgets/integer_field.h"

#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>
#include <cmath>

namespace attn::ui {

DecimalField::DecimalField(const QString& name, int significantDigits, QWidget* parent)
    : QDoubleSpinBox(parent), m_name(name), m_digits(significantDigits)
{
    setAccessibleName(name);
    setDecimals(12); // QDoubleSpinBox rounds the value itself to this many decimals
    connect(lineEdit(), &QLineEdit::textEdited, this,
            [this](const QString& text) { m_typed = text; });
    connect(this, &QDoubleSpinBox::editingFinished, this, &DecimalField::checkTyped);
}

QString DecimalField::textFromValue(double value) const
{
    QString text = locale().toString(value, 'g', m_digits);
    text.remove(locale().groupSeparator());
    return text;
}

std::optional<double> DecimalField::parse(const QString& text) const
{
    const QString trimmed = text.trimmed();
    bool ok = false;
    double value = locale().toDouble(trimmed, &ok);
    if (!ok)
        value = QLocale::c().toDouble(trimmed, &ok); // "0.5" typed under a decimal-comma locale
    if (!ok || !std::isfinite(value))
        return std::nullopt;
    return value;
}

double DecimalField::valueFromText(const QString& text) const
{
    return parse(text).value_or(value());
}

QValidator::State DecimalField::validate(QString& text, int&) const
{
    const QString trimmed = text.trimmed();
    if (const auto value = parse(trimmed))
        return *value >= minimum() && *value <= maximum() ? QValidator::Acceptable
                                                          : QValidator::Intermediate;
    // On the way to a number: "", "0.", "1e", "-".
    static const QRegularExpression partial(
        QStringLiteral("^[-+]?[0-9]*([.,][0-9]*)?([eE][-+]?[0-9]*)?$"));
    return partial.match(trimmed).hasMatch() ? QValidator::Intermediate : QValidator::Invalid;
}

void DecimalField::checkTyped()
{
    const QString typed = m_typed.trimmed();
    m_typed.clear();
    const auto number = parse(typed);
    if (!number || *number == value())
        return;
    if (*number > maximum() || *number < minimum())
        emit refused(outOfRangeMessage(m_name, typed, *number > maximum(),
                                       textFromValue(*number > maximum() ? maximum() : minimum()),
                                       textFromValue(value())));
}

} // namespace attn::ui
