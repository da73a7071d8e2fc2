// Internal: the scan behind flat_object (carcassonne/protocol/flat_object.hpp), also used on a
// request's envelope, whose members are views into the frame and never copied. It accepts only
// what json::parse reads the same way (ASCII strings without escapes, integers, true, false,
// null); anything else makes it fail, and the caller leaves the text to nlohmann.
#pragma once
#include <cstdint>
#include <string_view>

#include "carcassonne/protocol/flat_object.hpp"

namespace carcassonne::protocol::flat_scan {

struct scanned {
  std::string_view key, text;  // into the scanned text; a string's without its quotes
  flat_object::kind type = flat_object::kind::null;
  bool negative = false;
  std::int64_t number = 0;
};

inline bool space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}
inline void skip_space(std::string_view t, std::size_t& i) {
  while (i < t.size() && space(t[i])) ++i;
}

// At the opening quote: printable ASCII up to the closing one.
inline bool string(std::string_view t, std::size_t& i, std::string_view& out) {
  const std::size_t start = ++i;
  for (; i < t.size(); ++i) {
    const auto c = static_cast<unsigned char>(t[i]);
    if (c == '"') {
      out = t.substr(start, i - start);
      ++i;
      return true;
    }
    if (c < 0x20 || c >= 0x80 || c == '\\') return false;
  }
  return false;
}

// A scalar value at t[i]; an object is the caller's (nested).
inline bool scalar(std::string_view t, std::size_t& i, scanned& v) {
  using kind = flat_object::kind;
  const auto word = [&](std::string_view w, kind k) {
    if (t.substr(i, w.size()) != w) return false;
    v.text = t.substr(i, w.size());
    v.type = k;
    i += w.size();
    return true;
  };
  switch (t[i]) {
    case '"':
      v.type = kind::string;
      return string(t, i, v.text);
    case 't':
      return word("true", kind::boolean);
    case 'f':
      return word("false", kind::boolean);
    case 'n':
      return word("null", kind::null);
    default: {
      // An integer of at most 18 digits (exact in 64 bits whatever its sign), no leading zero.
      const std::size_t begin = i;
      v.negative = t[i] == '-';
      if (v.negative) ++i;
      const std::size_t start = i;
      std::uint64_t n = 0;
      for (; i < t.size() && t[i] >= '0' && t[i] <= '9'; ++i)
        n = n * 10 + static_cast<unsigned>(t[i] - '0');
      const std::size_t digits = i - start;
      if (digits == 0 || digits > 18 || (digits > 1 && t[start] == '0')) return false;
      if (i < t.size() && (t[i] == '.' || t[i] == 'e' || t[i] == 'E')) return false;
      v.type = kind::integer;
      v.number = v.negative ? -static_cast<std::int64_t>(n) : static_cast<std::int64_t>(n);
      v.text = t.substr(begin, i - begin);
      return true;
    }
  }
}

// The object at t[i] (after spaces), member by member: on_member(scanned&) for scalars, and
// on_object(key, i) for an object value, which must read it and leave i past its '}'. Either
// returns false to give up. Leaves i past the object's '}'.
template <class OnMember, class OnObject>
bool object(std::string_view t, std::size_t& i, OnMember on_member, OnObject on_object) {
  skip_space(t, i);
  if (i >= t.size() || t[i] != '{') return false;
  ++i;
  skip_space(t, i);
  if (i < t.size() && t[i] == '}') return ++i, true;
  for (;;) {
    scanned m;
    if (i >= t.size() || t[i] != '"' || !string(t, i, m.key)) return false;
    skip_space(t, i);
    if (i >= t.size() || t[i] != ':') return false;
    ++i;
    skip_space(t, i);
    if (i >= t.size()) return false;
    if (t[i] == '{') {
      if (!on_object(m.key, i)) return false;
    } else if (!scalar(t, i, m) || !on_member(m)) {
      return false;
    }
    skip_space(t, i);
    if (i >= t.size() || (t[i] != '}' && t[i] != ',')) return false;
    if (t[i++] == '}') return true;
    skip_space(t, i);
  }
}

}  // namespace carcassonne::protocol::flat_scan
