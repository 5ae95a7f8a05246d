#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace attn::core {

// An error a user can act on: the message names what is wrong and where
// (for example "heads[2].W_q: expected 64x16, got 64x15"). The places it names are kept apart
// as well, outermost first (a file, a JSON path, a tensor or matrix name), so that a caller
// can speak of its own controls without reading the text back; what() is always the places
// and the message joined by ": ".
class Error : public std::runtime_error
{
public:
    // An error that names no place.
    explicit Error(const std::string& message) : std::runtime_error(message) {}
    // "where: message".
    Error(const std::string& where, const std::string& message)
        : std::runtime_error(where + ": " + message),
          m_fields(std::make_shared<const Fields>(Fields{{where}, message}))
    {
    }
    // `inner` seen from outside: "where: " + inner.what(), its places after `where`.
    Error(const std::string& where, const Error& inner)
        : std::runtime_error(where + ": " + inner.what()),
          m_fields(std::make_shared<const Fields>(Fields{withOuter(where, inner), inner.message()}))
    {
    }

    // The outermost place ("embedding.table", "scene.json"), empty where none is named.
    const std::string& where() const noexcept
    {
        static const std::string none;
        return m_fields ? m_fields->places.front() : none;
    }
    // Every place, outermost first: {"model.safetensors", "h.0.attn.c_attn.weight"}.
    std::vector<std::string> places() const { return m_fields ? m_fields->places : Places(); }
    // What is wrong, without the places: what() is "place: place: message".
    std::string message() const { return m_fields ? m_fields->message : std::string(what()); }

private:
    using Places = std::vector<std::string>;
    struct Fields
    {
        Places places; // never empty
        std::string message;
    };

    static Places withOuter(const std::string& where, const Error& inner)
    {
        Places places{where};
        const Places rest = inner.places();
        places.insert(places.end(), rest.begin(), rest.end());
        return places;
    }

    // Shared, so that copying an exception cannot throw.
    std::shared_ptr<const Fields> m_fields;
};

// Thrown where a caller's cancel flag was found set (between tensors of a load, layers of a
// forward, blocks of rows of an attention compute): the work was dropped, nothing is wrong.
class Cancelled : public std::runtime_error
{
public:
    Cancelled() : std::runtime_error("cancelled") {}
};

} // namespace attn::core
