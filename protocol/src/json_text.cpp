#include "carcassonne/protocol/json_text.hpp"

#include <charconv>
#include <cstdio>

namespace carcassonne::protocol {

void append_quoted(std::string& out, std::string_view s) {
  out.push_back('"');
  std::size_t plain = 0;  // start of the run of characters copied as they are
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;  // UTF-8 passes through
    out.append(s.data() + plain, i - plain);
    plain = i + 1;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default: {
        char buf[8];
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      }
    }
  }
  out.append(s.data() + plain, s.size() - plain);
  out.push_back('"');
}

void append_number(std::string& out, long long v) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  // By length: append(first, last) is a replace at the end, about twice the instructions.
  out.append(buf, static_cast<std::size_t>(r.ptr - buf));
}

std::string json_string(std::string_view s) {
  std::string out;
  append_quoted(out, s);
  return out;
}

std::string& object_writer::key(std::string_view key) {
  if (!first_) out_.push_back(',');
  first_ = false;
  out_.push_back('"');
  out_ += key;
  out_ += "\":";
  return out_;
}

object_writer& object_writer::string(std::string_view k, std::string_view value) {
  append_quoted(key(k), value);
  return *this;
}

object_writer& object_writer::number(std::string_view k, long long value) {
  append_number(key(k), value);
  return *this;
}

object_writer& object_writer::text(std::string_view k, std::string_view json_text) {
  key(k) += json_text;
  return *this;
}

object_writer& object_writer::dumped(std::string_view k, const nlohmann::json& value) {
  key(k) += value.dump();
  return *this;
}

}  // namespace carcassonne::protocol
