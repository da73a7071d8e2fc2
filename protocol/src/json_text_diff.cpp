#include "carcassonne/protocol/json_text_diff.hpp"

#include <utility>
#include <vector>

namespace carcassonne::protocol {

namespace {

constexpr std::size_t bad = std::string_view::npos;

enum class kind { object, array, string, number, boolean, null, invalid };

kind kind_of(std::string_view v) {
  if (v.empty()) return kind::invalid;
  switch (v.front()) {
    case '{':
      return kind::object;
    case '[':
      return kind::array;
    case '"':
      return kind::string;
    case 't':
    case 'f':
      return kind::boolean;
    case 'n':
      return kind::null;
    default:
      return (v.front() == '-' || (v.front() >= '0' && v.front() <= '9')) ? kind::number
                                                                          : kind::invalid;
  }
}

// The end of the value that starts at t[i], or `bad`.
std::size_t value_end(std::string_view t, std::size_t i) {
  if (i >= t.size()) return bad;
  if (t[i] == '"') {
    for (++i; i < t.size(); ++i) {
      if (t[i] == '\\')
        ++i;
      else if (t[i] == '"')
        return i + 1;
    }
    return bad;
  }
  if (t[i] == '{' || t[i] == '[') {
    int depth = 0;
    for (; i < t.size(); ++i) {
      const char c = t[i];
      if (c == '"') {
        i = value_end(t, i);
        if (i == bad) return bad;
        --i;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return i + 1;
      }
    }
    return bad;
  }
  while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']') ++i;
  return i;
}

// An object's members (key text without its quotes, value text) or an array's elements, in
// order; false when the text is not a well-formed container as nlohmann dumps one.
bool members(std::string_view t, std::vector<std::pair<std::string_view, std::string_view>>& out) {
  const bool object = t.front() == '{';
  const char close = object ? '}' : ']';
  if (t.size() < 2 || t.back() != close) return false;
  std::size_t i = 1;
  if (t[i] == close) return i + 1 == t.size();
  for (;;) {
    std::string_view key;
    if (object) {
      const std::size_t key_end = value_end(t, i);
      if (t[i] != '"' || key_end == bad || key_end >= t.size() || t[key_end] != ':') return false;
      key = t.substr(i + 1, key_end - i - 2);
      if (key.find('\\') != std::string_view::npos) return false;  // would need unescaping
      // Sorted as nlohmann keeps them (bytes, since no key is escaped): diff() walks two objects
      // side by side.
      if (!out.empty() && !(out.back().first < key)) return false;
      i = key_end + 1;
    }
    const std::size_t end = value_end(t, i);
    if (end == bad || end == i || end >= t.size()) return false;
    out.emplace_back(key, t.substr(i, end - i));
    i = end;
    if (t[i] == close) return i + 1 == t.size();
    if (t[i] != ',') return false;
    ++i;
  }
}

// A key in a JSON Pointer (RFC 6901): '~' and '/' escaped.
void append_pointer_key(std::string& path, std::string_view key) {
  for (const char c : key) {
    if (c == '~')
      path += "~0";
    else if (c == '/')
      path += "~1";
    else
      path.push_back(c);
  }
}

struct differ {
  std::string& ops;

  void op(std::string_view name, std::string_view path, std::string_view value = {}) {
    if (!ops.empty()) ops.push_back(',');
    ops += R"({"op":")";
    ops += name;
    ops += R"(","path":")";
    ops += path;  // keys without escapes are JSON-safe as they are
    ops.push_back('"');
    if (!value.empty()) {
      ops += R"(,"value":)";
      ops += value;
    }
    ops.push_back('}');
  }

  // json::diff's cases, in its order: equal, different types, object, array, other.
  bool diff(std::string_view from, std::string_view to, std::string& path) {
    if (from == to) return true;
    const kind k = kind_of(from);
    if (k == kind::invalid || kind_of(to) == kind::invalid) return false;
    if (k != kind_of(to)) return op("replace", path, to), true;
    if (k == kind::number) {
      // nlohmann compares 1 and 1.0 equal; plain integers of different texts differ.
      const auto integral = [](std::string_view n) {
        return n.find_first_of(".eE") == std::string_view::npos;
      };
      if (!integral(from) || !integral(to)) return false;
      return op("replace", path, to), true;
    }
    if (k != kind::object && k != kind::array) return op("replace", path, to), true;
    std::vector<std::pair<std::string_view, std::string_view>> a, b;
    if (!members(from, a) || !members(to, b)) return false;
    const std::size_t base = path.size();
    if (k == kind::object) {
      std::size_t j = 0;  // both are sorted by key: walk them together
      for (const auto& [key, value] : a) {
        while (j < b.size() && b[j].first < key) ++j;
        path.push_back('/');
        append_pointer_key(path, key);
        if (j < b.size() && b[j].first == key) {
          if (!diff(value, b[j].second, path)) return false;
        } else {
          op("remove", path);
        }
        path.resize(base);
      }
      std::size_t i = 0;
      for (const auto& [key, value] : b) {
        while (i < a.size() && a[i].first < key) ++i;
        if (i < a.size() && a[i].first == key) continue;
        path.push_back('/');
        append_pointer_key(path, key);
        op("add", path, value);
        path.resize(base);
      }
      return true;
    }
    const std::size_t common = std::min(a.size(), b.size());
    for (std::size_t i = 0; i < common; ++i) {
      path += '/' + std::to_string(i);
      if (!diff(a[i].second, b[i].second, path)) return false;
      path.resize(base);
    }
    for (std::size_t i = a.size(); i > common; --i) {  // removed from the end backwards
      path += '/' + std::to_string(i - 1);
      op("remove", path);
      path.resize(base);
    }
    for (std::size_t i = common; i < b.size(); ++i) {
      path += "/-";
      op("add", path, b[i].second);
      path.resize(base);
    }
    return true;
  }
};

}  // namespace

bool diff_json_text(std::string_view from, std::string_view to, std::string_view prefix,
                    std::string& ops) {
  const std::size_t before = ops.size();
  std::string path(prefix);
  differ d{ops};
  if (d.diff(from, to, path)) return true;
  ops.resize(before);
  return false;
}

}  // namespace carcassonne::protocol
