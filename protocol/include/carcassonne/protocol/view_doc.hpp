// A view kept as pre-serialised JSON text: top-level fields, arrays as their elements' texts.
// The server diffs two of these into RFC 6902 operations without building JSON trees (which
// cost a hundred microseconds per move), and keeps its previous views in a few kilobytes.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace carcassonne::protocol {

struct view_field {
  std::string key;
  bool is_array = false;
  std::string text;                // the value's JSON text (not an array)
  std::vector<std::string> items;  // the elements' JSON texts (an array)
  friend bool operator==(const view_field&, const view_field&) = default;
};

struct view_doc {
  std::vector<view_field> fields;

  view_field& scalar(std::string key, std::string text);
  view_field& array(std::string key);
  const view_field* find(std::string_view key) const;
  // The whole object as JSON text; `more` adds the fields of another document (a private part).
  std::string text(const view_doc* more = nullptr) const;
  std::size_t bytes() const;
  friend bool operator==(const view_doc&, const view_doc&) = default;
};

// Appends to `ops` (a comma-separated list of JSON Patch operation texts, no brackets) the
// operations that turn `from` into `to`, with paths under `prefix` (e.g. "/game"). Fields keep
// their order; arrays are diffed element by element (replace in place, add or remove at the
// end), or replaced whole when most elements changed.
void diff_docs(const view_doc& from, const view_doc& to, std::string_view prefix, std::string& ops);

// JSON text helpers.
void append_quoted(std::string& out, std::string_view s);
std::string json_string(std::string_view s);

}  // namespace carcassonne::protocol
