#pragma once

#include <stdexcept>
#include <string>

namespace attn::core {

// An error a user can act on: the message names what is wrong and where
// (for example "heads[2].W_q: expected 64x16, got 64x15").
class Error : public std::runtime_error
{
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// Thrown where a caller's cancel flag was found set (between tensors of a load, layers of a
// forward, blocks of rows of an attention compute): the work was dropped, nothing is wrong.
class Cancelled : public std::runtime_error
{
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

} // namespace attn::core
