// Expansions in play and rule options (shared/rules/README.md, "Rule options"). Each expansion
// declares its own options (engine/expansions/<name>/options.hpp) and reads them through its own
// typed accessors; the base keeps only the index of each chosen value and names none of them.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>

#include "carcassonne/engine/errors.hpp"
#include "carcassonne/engine/expansion_count.hpp"  // generated: the build's list

namespace carcassonne {

// An expansion by its slot in the registry (engine/expansions/registry.hpp names them).
enum class expansion : std::uint8_t;
inline constexpr int max_expansions = 8;  // expansion_set's bits
// The expansion of a name as in setup.expansions, and back (the registry's modules).
std::optional<expansion> find_expansion(std::string_view name);
std::string_view expansion_name(expansion e);

class expansion_set {
 public:
  bool has(expansion e) const { return bits_ >> static_cast<int>(e) & 1; }
  void add(expansion e) { bits_ = static_cast<std::uint8_t>(bits_ | 1 << static_cast<int>(e)); }
  bool empty() const { return bits_ == 0; }
  std::uint8_t bits() const { return bits_; }  // bit per expansion
  friend bool operator==(expansion_set, expansion_set) = default;

 private:
  std::uint8_t bits_ = 0;
};

// One rule option as its expansion declares it.
struct option_def {
  std::string_view name;                   // as in setup.options ("easter.hops")
  std::string_view label;                  // for people ("Bunny hops")
  bool boolean;                            // JSON true/false instead of strings
  std::array<std::string_view, 2> values;  // default first
  std::array<std::string_view, 2> words;   // each value for people
};
inline constexpr int max_options_per_expansion = 8;

// An expansion's option table fits what rule_options keeps: at most max_options_per_expansion
// options, each with both of its values and their words (a third value does not compile; a
// missing one would read as an empty name). Each options.hpp checks its table with it.
template <std::size_t N>
constexpr bool options_sound(const std::array<option_def, N>& table) {
  if (N > max_options_per_expansion) return false;
  for (const auto& o : table)
    for (int v = 0; v < 2; ++v)
      if (o.values[v].empty() || o.words[v].empty() || o.name.empty()) return false;
  return true;
}

// An option found by name: its expansion, its place in that expansion's table, its definition.
struct option_ref {
  expansion owner;
  int slot = 0;
  const option_def* def = nullptr;
};
std::optional<option_ref> find_option(std::string_view name);  // the registry's

using option_value = std::variant<bool, std::string_view>;

class rule_options {
 public:
  // The chosen value of an expansion's option as the enum whose enumerators follow the option's
  // values (default first). Expansions wrap this in named accessors; nothing else calls it.
  template <class Value>
  Value read(expansion owner, int slot) const {
    return static_cast<Value>(values_[static_cast<int>(owner)][slot]);
  }
  // Sets an option by name and value; unknown_option / bad_option_value otherwise.
  status set(std::string_view name, option_value value);
  friend bool operator==(const rule_options&, const rule_options&) = default;

 private:
  std::array<std::array<std::uint8_t, max_options_per_expansion>, max_expansions> values_{};
};

}  // namespace carcassonne
