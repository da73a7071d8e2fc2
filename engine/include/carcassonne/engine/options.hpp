// Expansions in play and rule options (shared/rules/README.md, "Rule options"). Options are kept
// generically as the index of their chosen value, so each expansion reads its own and the base
// game needs to know none of them.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>

#include "carcassonne/engine/errors.hpp"

namespace carcassonne {

enum class expansion : std::uint8_t { hills_and_sheep, gifts, peasant_revolts, easter, festival };
inline constexpr int expansion_count = 5;
inline constexpr std::array<std::string_view, expansion_count> expansion_names{
    "hills_and_sheep", "gifts", "peasant_revolts", "easter", "festival"};
std::optional<expansion> find_expansion(std::string_view name);

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

// Every rule option, in the order of the rules README table.
enum class option : std::uint8_t {
  hills_tiebreak,
  hills_under_tile,
  sheep_closed_field,
  gifts_receipt_owners,
  revolts_protect_for_2,
  revolts_extra_draws_trigger,
  easter_variant,
  easter_nest_timing,
  easter_hops,
  easter_second_place,
  easter_shepherd_eggs,
  festival_return_scope,
  festival_shepherd_flock,
};
inline constexpr int option_count = 13;

struct option_info {
  std::string_view name;                   // as in setup.options
  bool boolean;                            // JSON true/false instead of strings
  std::array<std::string_view, 2> values;  // default first
};
const option_info& info(option o);
std::optional<option> find_option(std::string_view name);

using option_value = std::variant<bool, std::string_view>;

class rule_options {
 public:
  // Index of the chosen value in info(o).values; 0 is the default.
  int get(option o) const { return values_[static_cast<int>(o)]; }
  // Sets an option by name and value; unknown_option / bad_option_value otherwise.
  status set(std::string_view name, option_value value);
  friend bool operator==(const rule_options&, const rule_options&) = default;

 private:
  std::array<std::uint8_t, option_count> values_{};
};

}  // namespace carcassonne
