// Pieces of JSON text as nlohmann dumps them, for the parts of a view the room writes as text.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace carcassonne::server {

// A JSON string as nlohmann dumps it: printable ASCII without '"' and '\' is written as is,
// anything else through nlohmann itself.
inline void append_dumped(std::string& out, std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 || c >= 0x7f || c == '"' || c == '\\')
      return void(out += nlohmann::json(s).dump());
  out.push_back('"');
  out += s;
  out.push_back('"');
}

inline void append_bool(std::string& out, bool b) {
  out += b ? "true" : "false";
}

}  // namespace carcassonne::server
