#include "ui/explorer/window_words.h"

#include "core/error.h"

#include <QObject>

namespace attn::ui {

namespace {

QString matrixName(const QString& key)
{
    if (key == QLatin1String("W_q"))
        return QStringLiteral("W^q");
    if (key == QLatin1String("W_k"))
        return QStringLiteral("W^k");
    if (key == QLatin1String("W_v"))
        return QStringLiteral("W^v");
    if (key == QLatin1String("b_q"))
        return QStringLiteral("b^q");
    if (key == QLatin1String("b_k"))
        return QStringLiteral("b^k");
    if (key == QLatin1String("b_v"))
        return QStringLiteral("b^v");
    if (key == QLatin1String("w_additive"))
        return QObject::tr("additive w");
    if (key == QLatin1String("bilinear"))
        return QObject::tr("bilinear M");
    return key;
}

// The control's part of an error's place: "heads[1].W_q" of "heads[1].W_q[2][3]", a key with
// an index and a member at most; the cells after it are the editor's. Empty where the place is
// not a scene path ("scene.json" is one, and is kept as it is named).
QString controlPath(const QString& where)
{
    const auto letter = [](QChar c) {
        return (c >= QLatin1Char('a') && c <= QLatin1Char('z')) ||
               (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) || c == QLatin1Char('_');
    };
    const auto digit = [](QChar c) { return c >= QLatin1Char('0') && c <= QLatin1Char('9'); };
    const qsizetype n = where.size();
    qsizetype i = 0;
    if (n == 0 || !letter(where[0]))
        return {};
    while (i < n && (letter(where[i]) || digit(where[i])))
        ++i;
    if (i < n && where[i] == QLatin1Char('[')) { // "heads[1]"
        qsizetype j = i + 1;
        while (j < n && digit(where[j]))
            ++j;
        if (j > i + 1 && j < n && where[j] == QLatin1Char(']'))
            i = j + 1;
    }
    if (i < n && where[i] == QLatin1Char('.')) { // ".W_q"
        qsizetype j = i + 1;
        while (j < n && letter(where[j]))
            ++j;
        if (j > i + 1)
            i = j;
    }
    for (qsizetype j = i; j < n;) { // cells: "[2][3]"
        const qsizetype close = where.indexOf(QLatin1Char(']'), j);
        if (where[j] != QLatin1Char('[') || close < 0)
            return {};
        j = close + 1;
    }
    return where.left(i);
}

// "heads[1].W_q" -> head 1, "W_q"; false for any other path.
bool headMatrix(const QString& path, int& head, QString& key)
{
    if (!path.startsWith(QLatin1String("heads[")))
        return false;
    const qsizetype close = path.indexOf(QLatin1String("]."));
    bool ok = false;
    head = close < 0 ? 0 : path.mid(6, close - 6).toInt(&ok);
    key = path.mid(close + 2);
    return ok && !key.isEmpty();
}

} // namespace

QString inWindowWords(const core::Error& error, bool cross)
{
    return inWindowWords(QString::fromStdString(error.where()), QString::fromUtf8(error.what()),
                         cross);
}

QString inWindowWords(const QString& where, const QString& message, bool cross)
{
    // core::Error's what() is "where: rest".
    const QString path = controlPath(where);
    if (path.isEmpty() || !message.startsWith(where + QStringLiteral(": ")))
        return message;
    const QString rest = message.mid(where.size() + 2);
    QString control;
    int head = 0;
    QString key;
    if (headMatrix(path, head, key)) {
        control = QObject::tr("%1 · head %2").arg(matrixName(key)).arg(head + 1);
    } else if (path == QLatin1String("text")) {
        control = cross ? QObject::tr("Target") : QObject::tr("Sentence");
    } else if (path == QLatin1String("source")) {
        control = QObject::tr("Source");
    } else if (path.startsWith(QLatin1String("embedding"))) {
        control = QObject::tr("Embedding");
    } else if (path.startsWith(QLatin1String("positional"))) {
        control = QObject::tr("Positions");
    } else if (path.startsWith(QLatin1String("padding"))) {
        control = QObject::tr("Padding");
    } else if (path == QLatin1String("heads") || path == QLatin1String("model.heads")) {
        control = QObject::tr("Heads h");
    } else if (path == QLatin1String("model.d_model")) {
        control = QStringLiteral("d_model");
    } else if (path == QLatin1String("model.d_k")) {
        control = QStringLiteral("d_k");
    } else if (path == QLatin1String("model.d_v")) {
        control = QStringLiteral("d_v");
    } else if (path == QLatin1String("model.seed") || path == QLatin1String("seed")) {
        control = QObject::tr("Seed");
    } else if (path == QLatin1String("W_o")) {
        control = QStringLiteral("W^O");
    } else if (path == QLatin1String("b_o")) {
        control = QStringLiteral("b^O");
    } else if (path == QLatin1String("temperature") ||
               path == QLatin1String("attention.temperature")) {
        control = QObject::tr("Temperature");
    } else if (path == QLatin1String("mask.window")) {
        control = QObject::tr("Local window");
    } else if (path.startsWith(QLatin1String("mask.custom"))) {
        control = QObject::tr("Custom cells");
    } else if (path.startsWith(QLatin1String("tokenizer"))) {
        control = QObject::tr("Tokens");
    } else {
        return message; // already the window's words ("d_model: ...", "W^q · head 1: ...")
    }
    return control + QStringLiteral(": ") + rest;
}

} // namespace attn::ui
