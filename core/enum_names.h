#pragma once

#include <QString>

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace attn::core {

// The names an enum has in scene files, settings and on the command line, one table per enum:
//     constexpr EnumNames<PoolMode, 2> kPoolNames{{{PoolMode::Mean, "mean"}, {PoolMode::Max,
//     "max"}}};
// and one pair of lookups for every such table, so that a name and its parser cannot drift apart.
template <typename Enum> struct EnumName
{
    Enum value;
    std::string_view name;
};

template <typename Enum, std::size_t N> using EnumNames = std::array<EnumName<Enum>, N>;

// `value`'s name; `unknown` for a value the table does not list (a cast from a bad integer).
template <typename Enum, std::size_t N>
constexpr std::string_view enumName(const EnumNames<Enum, N>& table, Enum value,
                                    std::string_view unknown = {})
{
    for (const EnumName<Enum>& entry : table)
        if (entry.value == value)
            return entry.name;
    return unknown;
}

template <typename Enum, std::size_t N>
constexpr std::optional<Enum> enumFromName(const EnumNames<Enum, N>& table, std::string_view name)
{
    for (const EnumName<Enum>& entry : table)
        if (entry.name == name)
            return entry.value;
    return std::nullopt;
}

// The names as the UI and the command line hold them (the tables are ASCII).
template <typename Enum, std::size_t N>
QString enumQName(const EnumNames<Enum, N>& table, Enum value)
{
    const std::string_view name = enumName(table, value);
    return QString::fromLatin1(name.data(), qsizetype(name.size()));
}

template <typename Enum, std::size_t N>
std::optional<Enum> enumFromName(const EnumNames<Enum, N>& table, const QString& name,
                                 Qt::CaseSensitivity cs = Qt::CaseSensitive)
{
    for (const EnumName<Enum>& entry : table)
        if (name.compare(QLatin1String(entry.name.data(), qsizetype(entry.name.size())), cs) == 0)
            return entry.value;
    return std::nullopt;
}

// "dot|scaled|additive": every name in the table's order, for usage lines and messages.
template <typename Enum, std::size_t N>
std::string joinedEnumNames(const EnumNames<Enum, N>& table, std::string_view separator = "|")
{
    std::string joined;
    for (const EnumName<Enum>& entry : table) {
        if (!joined.empty())
            joined += separator;
        joined += entry.name;
    }
    return joined;
}

} // namespace attn::core
