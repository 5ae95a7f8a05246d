#pragma once

#include <QDoubleSpinBox>
#include <optional>

namespace attn::ui {

// A number box that shows the value it holds: significant digits instead of a fixed number
// of decimals (0.0675 stays 0.0675, where two decimals would show 0.07), and, like
// IntegerField, a typed number it cannot take is refused with a message, never silently
// clamped or reverted.
class DecimalField : public QDoubleSpinBox
{
    Q_OBJECT

public:
    // `name` is how messages call the field ("Temperature").
    explicit DecimalField(const QString& name, int significantDigits = 4,
                          QWidget* parent = nullptr);

    QString textFromValue(double value) const override;
    double valueFromText(const QString& text) const override;

signals:
    void refused(const QString& message);

protected:
    QValidator::State validate(QString& text, int& position) const override;

private:
    void checkTyped();
    std::optional<double> parse(const QString& text) const;

    QString m_name;
    int m_digits;
    QString m_typed;
};

} // namespace attn::ui
