// A view kept as pre-serialised JSON text: top-level fields, arrays as their elements' texts.
// The server diffs two of these into RFC 6902 operations without building JSON trees (which
// cost a hundred microseconds per move), and keeps its previous views in a few kilobytes.
#pragma once
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "carcassonne/protocol/json_text.hpp"

namespace carcassonne::protocol {

// An array's elements as JSON texts in one buffer, comma-separated (the array's text without its
// brackets): a whole board is one allocation, not one per tile.
class item_list {
 public:
  item_list() = default;
  item_list(std::initializer_list<std::string_view> items) {
    for (auto i : items) push_back(i);
  }
  // A copy is not carried (below); a move keeps what it was.
  item_list(const item_list& o) : text_(o.text_), ends_(o.ends_) {}
  item_list& operator=(const item_list& o) {
    text_ = o.text_;
    ends_ = o.ends_;
    carried_ = 0;
    return *this;
  }
  item_list(item_list&&) = default;
  item_list& operator=(item_list&&) = default;
  std::size_t size() const { return ends_.size(); }
  bool empty() const { return ends_.empty(); }
  std::string_view operator[](std::size_t i) const {
    const std::size_t from = i ? ends_[i - 1] + 1 : 0;  // past the comma
    return std::string_view(text_).substr(from, ends_[i] - from);
  }
  void push_back(std::string_view item) {
    open() += item;
    close();
  }
  // Writing an element in place: append its text to open()'s buffer, then close().
  std::string& open() {
    if (!ends_.empty()) text_.push_back(',');
    return text_;
  }
  void close() { ends_.push_back(static_cast<std::uint32_t>(text_.size())); }
  // Keeps the first n elements.
  void keep_first(std::size_t n) {
    carried_ = std::min(carried_, n);
    if (n >= ends_.size()) return;
    ends_.resize(n);
    text_.resize(n ? ends_.back() : 0);
  }
  void reserve(std::size_t n, std::size_t bytes_each = 0) {
    ends_.reserve(n);
    text_.reserve(n * (bytes_each + 1));
  }
  const std::string& joined() const { return text_; }
  // The elements of `a`, then perhaps more.
  bool starts_with(const item_list& a) const {
    return a.size() <= size() && std::equal(a.ends_.begin(), a.ends_.end(), ends_.begin()) &&
           std::string_view(text_).starts_with(a.text_);
  }
  std::size_t bytes() const { return text_.capacity() + ends_.capacity() * sizeof(std::uint32_t); }
  // Takes all of `previous`'s elements (this list must be empty; `previous` is left empty) and
  // remembers how many they were: diff_docs, given the document `previous` belonged to as the
  // one to diff from, knows them equal without a copy and a comparison (a board only grows).
  void carry_from(item_list& previous) {
    text_ = std::move(previous.text_);
    ends_ = std::move(previous.ends_);
    previous.text_.clear();
    previous.ends_.clear();
    carried_ = ends_.size();
  }
  std::size_t carried() const { return carried_; }
  // The same elements (how they came here does not matter).
  friend bool operator==(const item_list& a, const item_list& b) {
    return a.ends_ == b.ends_ && a.text_ == b.text_;
  }

 private:
  std::string text_;
  std::vector<std::uint32_t> ends_;  // each element's end in text_
  std::size_t carried_ = 0;          // the leading elements carried from a previous list
};

struct view_field {
  std::string key;
  bool is_array = false;
  std::string text;  // the value's JSON text (not an array)
  item_list items;   // the elements' JSON texts (an array)
  friend bool operator==(const view_field&, const view_field&) = default;
};

struct view_doc {
  std::vector<view_field> fields;

  view_field& scalar(std::string key, std::string text);
  view_field& array(std::string key);
  const view_field* find(std::string_view key) const;
  view_field* find(std::string_view key);
  // The whole object as JSON text; `more` adds the fields of another document (a private part).
  std::string text(const view_doc* more = nullptr) const;
  std::size_t bytes() const;
  friend bool operator==(const view_doc&, const view_doc&) = default;
};

// Appends to `ops` (a comma-separated list of JSON Patch operation texts, no brackets) the
// operations that turn `from` into `to`, with paths under `prefix` (e.g. "/game"). Fields keep
// their order; arrays are diffed element by element (replace in place, add or remove at the
// end), or replaced whole when most elements changed. An array of `to` that took the elements of
// `from`'s (item_list::carry_from, which left that one empty) starts with as many equal ones.
void diff_docs(const view_doc& from, const view_doc& to, std::string_view prefix, std::string& ops);

}  // namespace carcassonne::protocol
