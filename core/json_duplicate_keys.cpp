#include "json_duplicate_keys.h"

#include <QSet>

#include <algorithm>
#include <vector>

namespace attn::core {
namespace {

struct Frame
{
    bool object = false;
    std::string path; // of this object or array
    QString topLevelKey;
    QSet<QString> keys;  // objects: the keys seen so far
    QString key;         // objects: the member being read
    qsizetype index = 0; // arrays: the element being read
    bool expectKey = false;
};

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// The string starting at json[pos] (a '"'), unescaped; pos ends past its closing quote.
QString readString(const QByteArray& json, qsizetype& pos)
{
    const qsizetype start = ++pos;
    while (pos < json.size() && json[pos] != '"' && json[pos] != '\\')
        ++pos;
    if (pos < json.size() && json[pos] == '"')
        return QString::fromUtf8(json.constData() + start,
                                 pos++ - start); // no escapes: the usual case
    QByteArray utf8(json.constData() + start, pos - start);
    QString text;
    auto flush = [&]() {
        text += QString::fromUtf8(utf8);
        utf8.clear();
    };
    while (pos < json.size() && json[pos] != '"') {
        if (json[pos] != '\\') {
            utf8.append(json[pos++]);
            continue;
        }
        const char escape = pos + 1 < json.size() ? json[pos + 1] : '\0';
        pos += 2;
        switch (escape) {
        case 'b':
            utf8.append('\b');
            break;
        case 'f':
            utf8.append('\f');
            break;
        case 'n':
            utf8.append('\n');
            break;
        case 'r':
            utf8.append('\r');
            break;
        case 't':
            utf8.append('\t');
            break;
        case 'u': {
            int unit = 0;
            for (int k = 0; k < 4 && pos < json.size(); ++k, ++pos)
                unit = unit * 16 + std::max(0, hexValue(json[pos]));
            flush();
            text += QChar(char16_t(unit)); // surrogate halves pair up in the QString
            break;
        }
        default:
            utf8.append(escape);
            break; // \" \\ \/
        }
    }
    ++pos;
    flush();
    return text;
}

} // namespace

std::optional<DuplicateJsonKey> findDuplicateJsonKey(const QByteArray& json)
{
    std::vector<Frame> stack;
    auto childPath = [&stack]() {
        if (stack.empty())
            return std::string();
        const Frame& parent = stack.back();
        if (!parent.object)
            return parent.path + "[" + std::to_string(parent.index) + "]";
        const std::string key = parent.key.toStdString();
        return parent.path.empty() ? key : parent.path + "." + key;
    };
    for (qsizetype pos = 0; pos < json.size();) {
        const char c = json[pos];
        switch (c) {
        case '{':
        case '[': {
            Frame frame;
            frame.object = c == '{';
            frame.expectKey = frame.object;
            frame.path = childPath();
            frame.topLevelKey = stack.size() == 1 && stack.back().object ? stack.back().key
                                : stack.empty()                          ? QString()
                                                                         : stack.back().topLevelKey;
            stack.push_back(std::move(frame));
            ++pos;
            break;
        }
        case '}':
        case ']':
            if (!stack.empty())
                stack.pop_back();
            ++pos;
            break;
        case ',':
            if (!stack.empty()) {
                if (stack.back().object)
                    stack.back().expectKey = true;
                else
                    ++stack.back().index;
            }
            ++pos;
            break;
        case '"': {
            QString text = readString(json, pos);
            if (stack.empty() || !stack.back().object || !stack.back().expectKey)
                break; // a string value
            Frame& frame = stack.back();
            frame.expectKey = false;
            frame.key = std::move(text);
            if (frame.keys.contains(frame.key)) {
                DuplicateJsonKey duplicate;
                duplicate.path = childPath();
                duplicate.key = frame.key;
                duplicate.topLevel = stack.size() == 1;
                duplicate.topLevelKey = duplicate.topLevel ? frame.key : frame.topLevelKey;
                return duplicate;
            }
            frame.keys.insert(frame.key);
            break;
        }
        default:
            ++pos; // whitespace, ':', numbers, true, false, null
            break;
        }
    }
    return std::nullopt;
}

} // namespace attn::core
