#include "ui/explorer/window_words.h"

#include <QObject>
#include <QRegularExpression>

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

} // namespace

QString inWindowWords(const QString& message, bool cross)
{
    // "path: rest", the path made of keys, dots and [indices].
    static const QRegularExpression pathPrefix(QStringLiteral(
        "^([A-Za-z_][A-Za-z_0-9]*(?:\\[\\d+\\])?(?:\\.[A-Za-z_]+)?)(\\[[^\\]]*\\])*: "));
    const QRegularExpressionMatch match = pathPrefix.match(message);
    if (!match.hasMatch())
        return message;
    const QString path = match.captured(1);
    const QString rest = message.mid(match.capturedLength(0));
    QString control;
    static const QRegularExpression headMatrix(QStringLiteral("^heads\\[(\\d+)\\]\\.(\\w+)$"));
    if (const QRegularExpressionMatch head = headMatrix.match(path); head.hasMatch()) {
        control = QObject::tr("%1 · head %2")
                      .arg(matrixName(head.captured(2)))
                      .arg(head.captured(1).toInt() + 1);
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
