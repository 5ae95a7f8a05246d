#pragma once
// The message of the core::Error a call throws, or an empty string when it throws none: tests
// assert on what the user is told.

#include "core/error.h"

#include <QString>

#include <functional>

namespace attn::test {

inline QString errorOf(const std::function<void()>& call)
{
    try {
        call();
    } catch (const core::Error& error) {
        return QString::fromUtf8(error.what());
    }
    return QString();
}

} // namespace attn::test
