#include "transport/sse_stream.hpp"

namespace carcassonne::server {

std::optional<std::string> events_room(std::string_view path) {
  constexpr std::string_view head = "/api/rooms/", tail = "/events";
  if (path.size() <= head.size() + tail.size() || !path.starts_with(head) || !path.ends_with(tail))
    return std::nullopt;
  std::string id(path.substr(head.size(), path.size() - head.size() - tail.size()));
  if (id.size() > 64 ||
      id.find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyz") != std::string::npos)
    return std::nullopt;
  return id;
}

std::string_view frame_type(std::string_view frame) {
  constexpr std::string_view key = "\"type\"";
  int depth = 0;
  for (std::size_t i = 0; i < frame.size(); ++i) {
    const char c = frame[i];
    if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      --depth;
    } else if (c == '"') {
      // A string: a key of the top-level object when followed by ':' at depth 1.
      const std::size_t start = i;
      for (++i; i < frame.size() && frame[i] != '"'; ++i)
        if (frame[i] == '\\') ++i;
      if (i >= frame.size()) return {};
      if (depth != 1 || frame.substr(start, i + 1 - start) != key) continue;
      std::size_t j = i + 1;
      while (j < frame.size() && frame[j] == ' ') ++j;
      if (j >= frame.size() || frame[j] != ':') continue;  // a value that reads "type"
      for (++j; j < frame.size() && frame[j] == ' ';) ++j;
      if (j >= frame.size() || frame[j] != '"') return {};
      const std::size_t value = j + 1;
      std::size_t end = value;
      while (end < frame.size() && frame[end] != '"') end += frame[end] == '\\' ? 2 : 1;
      if (end >= frame.size()) return {};
      return frame.substr(value, end - value);
    }
  }
  return {};
}

std::string event_prefix(std::string_view type) {
  std::string out = "event: ";
  // A type is a protocol word; anything that could break the line is left out.
  bool any = false;
  for (const char c : type)
    if (c != '\n' && c != '\r' && c != '\\') out += c, any = true;
  if (!any) out += "message";
  out += "\ndata: ";
  return out;
}

}  // namespace carcassonne::server
