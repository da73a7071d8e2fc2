// A move as the server reads it: a JSON object kept as its text and the places of its members
// in it, each member's kind and, for an integer, its value. A move message is scanned into one
// without building a tree (nlohmann's objects cost a map node and a string per member: reading a
// move this way saved 5% of a move's instructions, docs/performance.md); a move that is not of
// the scanned kind (a list or an object in it, a fraction, an escape) and a record's move are
// made one from their tree. Either way the move's codecs read it the same way (codec_parts.hpp).
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace carcassonne::protocol {

class flat_object {
 public:
  // other: a list, an object or a fraction, kept as its tree (nested()).
  enum class kind : std::uint8_t { string, integer, boolean, null, other };
  struct member {
    std::uint32_t key_at = 0, key_size = 0;    // in text_
    std::uint32_t text_at = 0, text_size = 0;  // a string's value (unescaped), an integer's text
    kind type = kind::null;
    bool negative = false;    // an integer written with a minus sign (nlohmann: signed)
    std::int64_t number = 0;  // an integer's value; an other's index in nested_
  };

  // Reads the object at text[at] (spaces after it are not read) and sets `at` past its '}'.
  // False, with the object left empty, unless its values are all strings of printable ASCII
  // without escapes, integers of at most 18 digits, booleans or null: what json::parse reads
  // the same way. A repeated key's last value wins, as in nlohmann.
  bool parse(std::string_view text, std::size_t& at);
  // The object j (an object), whatever its values.
  static flat_object from_json(const nlohmann::json& j);

  const member* find(std::string_view key) const;
  std::span<const member> members() const { return members_; }
  std::string_view key(const member& m) const { return {text_.data() + m.key_at, m.key_size}; }
  std::string_view text(const member& m) const { return {text_.data() + m.text_at, m.text_size}; }
  const nlohmann::json& nested(const member& m) const {
    return nested_[static_cast<std::size_t>(m.number)];
  }
  // Adds the key, or replaces its value, with an integer (the room writes the mover's seat).
  void set_integer(std::string_view key, std::int64_t value);
  // The member as a tree (nlohmann's number types: unsigned without a sign).
  nlohmann::json value(const member& m) const;

 private:
  void add(member m);
  std::size_t index_of(std::string_view key) const;  // members_.size() when absent
  std::string text_;
  std::vector<member> members_;
  std::vector<nlohmann::json> nested_;  // the values of kind other
};

}  // namespace carcassonne::protocol
