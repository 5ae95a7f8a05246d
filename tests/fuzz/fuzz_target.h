#pragma once
// What every fuzz target shares. A target feeds bytes to one reader; the errors the reader is
// meant to throw for bad input (attn::core::Error, std::invalid_argument) are the expected
// outcome and are caught; anything else (a crash, a sanitizer report, another exception, a
// hang, an allocation past libFuzzer's -malloc_limit_mb) is a finding. Each target builds two
// ways: with clang's libFuzzer (ATTN_FUZZ=ON, tests/fuzz/CMakeLists.txt) and, in every test
// build, with replay_main.cpp, which runs the committed seeds and regressions through it.

#include "core/error.h"

#include <QByteArray>

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#define ATTN_FUZZ_TARGET(body)                                                                     \
    extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)              \
    {                                                                                              \
        const QByteArray input =                                                                   \
            QByteArray::fromRawData(reinterpret_cast<const char*>(data), qsizetype(size));         \
        try {                                                                                      \
            body(input);                                                                           \
        } catch (const attn::core::Error&) {                                                       \
        } catch (const std::invalid_argument&) {                                                   \
        }                                                                                          \
        return 0;                                                                                  \
    }
