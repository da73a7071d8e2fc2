// A parser for the JSON a client usually sends: ASCII strings without escapes, integers,
// objects, arrays, true, false, null. nlohmann's lexer spent about 10,000 instructions on each
// move message (it keeps every character for its error messages); this one builds the same tree
// for a fraction of that. Anything else is left to nlohmann, which gives the answer or the error.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string_view>

namespace carcassonne::protocol {

// The tree json::parse(text) gives, or nullopt when the text is not of the plain kind above
// (then json::parse decides: it may still be valid JSON). Never throws.
std::optional<nlohmann::json> parse_plain_json(std::string_view text);

// json::parse(text, nullptr, false) (a discarded value when the text is not JSON), by the plain
// parser when it can.
nlohmann::json parse_json(std::string_view text);

}  // namespace carcassonne::protocol
