#pragma once

#include <QSpinBox>

namespace attn::ui {

// What a number field says when the number typed is past its range, every number written as
// the field writes it: "d_model: 9000 is more than 8192, the largest possible; it stays 16",
// or less than the smallest (`tooLarge` false). DecimalField says the same.
QString outOfRangeMessage(const QString& name, const QString& typed, bool tooLarge,
                          const QString& limit, const QString& value);

// A spin box that never changes a typed number behind the user's back. QSpinBox refuses the
// keystroke that takes a number out of its range, so typing 8192 into a box that stops at
// 2048 leaves 819; this one lets the whole number be typed and, when it cannot be used,
// keeps the old value and says so (refused) instead.
class IntegerField : public QSpinBox
{
    Q_OBJECT

public:
    // `name` is how messages call the field ("d_model").
    explicit IntegerField(const QString& name, QWidget* parent = nullptr);

signals:
    // "d_model: 9000 is more than 8192, the largest possible; it stays 16".
    void refused(const QString& message);

protected:
    QValidator::State validate(QString& text, int& position) const override;

private:
    void checkTyped();

    QString m_name;
    QString m_typed; // the text as typed since the last value was taken
};

} // namespace attn::ui
