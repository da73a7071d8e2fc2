// A JSON object whose values are all strings, integers, booleans or null, kept as its text and
// the places of its members in it. A move message is read into one without building a tree:
// nlohmann's objects cost a map node and a string per member, and reading a move this way saved
// 5% of a move's instructions (docs/performance.md).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace carcassonne::protocol {

class flat_object {
 public:
  enum class kind : std::uint8_t { string, integer, boolean, null };
  struct member {
    std::uint16_t key_at = 0, key_size = 0;    // in text_
    std::uint16_t text_at = 0, text_size = 0;  // the value's text; a string's without quotes
    kind type = kind::null;
    bool negative = false;    // an integer written with a minus sign (nlohmann: signed)
    std::int64_t number = 0;  // an integer's value
  };
  static constexpr std::size_t max_members = 12;

  // Reads the object at text[at] (spaces after it are not read) and sets `at` past its '}'.
  // False, with the object left empty, unless it is of the kind above and json::parse would
  // read it the same way: strings of printable ASCII without escapes, integers of at most 18
  // digits, fewer than max_members distinct keys (a repeated key's last value wins, as in
  // nlohmann; one slot is kept for set_integer).
  bool parse(std::string_view text, std::size_t& at);

  const member* find(std::string_view key) const;
  std::span<const member> members() const { return {members_.data(), count_}; }
  std::string_view key(const member& m) const { return {text_.data() + m.key_at, m.key_size}; }
  std::string_view text(const member& m) const { return {text_.data() + m.text_at, m.text_size}; }
  // Adds the key, or replaces its value, with an integer (the room writes the mover's seat).
  void set_integer(std::string_view key, std::int64_t value);

 private:
  bool add(member m, std::string_view source);
  std::size_t index_of(std::string_view key) const;  // count_ when absent
  std::string text_;
  std::array<member, max_members> members_{};
  std::size_t count_ = 0;
};

}  // namespace carcassonne::protocol
