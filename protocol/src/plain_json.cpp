#include "plain_json.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace carcassonne::protocol {

namespace {

using json = nlohmann::json;

// Deeper documents go to nlohmann (no client message is this deep).
constexpr int max_depth = 32;
// Up to 18 digits an integer is exact in 64 bits whatever its sign; longer ones go to nlohmann.
constexpr std::size_t max_digits = 18;

struct plain_parser {
  std::string_view t;
  std::size_t i = 0;

  bool more() const { return i < t.size(); }
  void space() {
    while (more() && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n' || t[i] == '\r')) ++i;
  }
  bool literal(std::string_view word) {
    if (t.substr(i, word.size()) != word) return false;
    i += word.size();
    return true;
  }

  // At the opening quote: printable ASCII up to the closing one.
  bool string(std::string& out) {
    const std::size_t start = ++i;
    for (; more(); ++i) {
      const auto c = static_cast<unsigned char>(t[i]);
      if (c == '"') {
        out.assign(t.data() + start, i - start);
        ++i;
        return true;
      }
      if (c < 0x20 || c >= 0x80 || c == '\\') return false;
    }
    return false;
  }

  // An integer as nlohmann keeps it: unsigned without a sign, signed with one.
  bool number(json& out) {
    const bool negative = t[i] == '-';
    if (negative) ++i;
    const std::size_t start = i;
    std::uint64_t v = 0;
    for (; more() && t[i] >= '0' && t[i] <= '9'; ++i)
      v = v * 10 + static_cast<unsigned>(t[i] - '0');
    const std::size_t digits = i - start;
    if (digits == 0 || digits > max_digits || (digits > 1 && t[start] == '0')) return false;
    if (more() && (t[i] == '.' || t[i] == 'e' || t[i] == 'E')) return false;
    if (negative)
      out = -static_cast<std::int64_t>(v);
    else
      out = v;
    return true;
  }

  bool value(json& out, int depth) {
    if (!more()) return false;
    switch (t[i]) {
      case '{':
        return object(out, depth + 1);
      case '[':
        return array(out, depth + 1);
      case '"': {
        std::string s;
        if (!string(s)) return false;
        out = std::move(s);
        return true;
      }
      case 't':
        out = true;
        return literal("true");
      case 'f':
        out = false;
        return literal("false");
      case 'n':
        out = nullptr;
        return literal("null");
      default:
        return (t[i] == '-' || (t[i] >= '0' && t[i] <= '9')) && number(out);
    }
  }

  // After an object's member or an array's element: its end (`done`) or a comma; false on
  // anything else.
  bool after_item(char close, bool& done) {
    space();
    if (!more() || (t[i] != close && t[i] != ',')) return false;
    done = t[i++] == close;
    space();
    return true;
  }

  bool object(json& out, int depth) {
    if (depth > max_depth) return false;
    out = json::object();
    ++i;
    space();
    if (more() && t[i] == '}') return ++i, true;
    bool done = false;
    for (std::string key;;) {
      if (!more() || t[i] != '"' || !string(key)) return false;
      space();
      if (!more() || t[i] != ':') return false;
      ++i;
      space();
      // A repeated key: the last value wins, as in nlohmann.
      if (!value(out[key], depth)) return false;
      if (!after_item('}', done)) return false;
      if (done) return true;
    }
  }

  bool array(json& out, int depth) {
    if (depth > max_depth) return false;
    out = json::array();
    auto& items = out.get_ref<json::array_t&>();
    ++i;
    space();
    if (more() && t[i] == ']') return ++i, true;
    for (bool done = false;;) {
      if (!value(items.emplace_back(), depth)) return false;
      if (!after_item(']', done)) return false;
      if (done) return true;
    }
  }
};

}  // namespace

std::optional<nlohmann::json> parse_plain_json(std::string_view text) {
  plain_parser p{text};
  json out;
  p.space();
  if (!p.value(out, 0)) return std::nullopt;
  p.space();
  if (p.more()) return std::nullopt;
  return out;
}

nlohmann::json parse_json(std::string_view text) {
  if (auto plain = parse_plain_json(text)) return std::move(*plain);
  return nlohmann::json::parse(text, nullptr, false);
}

}  // namespace carcassonne::protocol
