// The server's JSON writer: values and objects written straight as text, in the order given.
// Frames, views, events and moves are written with it; nlohmann writes only what is not on a
// move's path (setup, records, the answers of rare requests).
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace carcassonne::protocol {

void append_quoted(std::string& out, std::string_view s);  // a JSON string: quoted, escaped
void append_number(std::string& out, long long v);
std::string json_string(std::string_view s);

// One object, member after member in the order given; keys are plain identifiers (written as
// they are). The object is closed by close(), or left open for the caller to finish.
class object_writer {
 public:
  explicit object_writer(std::string& out) : out_(out) { out_.push_back('{'); }
  object_writer& string(std::string_view key, std::string_view value);  // quoted, escaped
  object_writer& number(std::string_view key, long long value);
  object_writer& text(std::string_view key, std::string_view json_text);     // a value as JSON text
  object_writer& dumped(std::string_view key, const nlohmann::json& value);  // nlohmann's dump
  // `"key":` and the buffer, for a value the caller appends itself.
  std::string& key(std::string_view key);
  void close() { out_.push_back('}'); }

 private:
  std::string& out_;
  bool first_ = true;
};

}  // namespace carcassonne::protocol
