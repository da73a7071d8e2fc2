// Hills & Sheep's rule options (rules/hills_and_sheep.md; shared/rules/README.md, "Rule
// options") and their typed accessors. An option's slot is its place in the table.
#pragma once
#include <array>

#include "carcassonne/engine/options.hpp"
#include "id.hpp"

namespace carcassonne::hills_and_sheep {

inline constexpr std::array<option_def, 3> options{{
    {"hills.tiebreak",
     "Hill tie-break",
     false,
     {"any_on_hill", "count_on_hill"},
     {"a follower on a hill wins a tie", "most followers on hills win a tie"}},
    {"hills.under_tile",
     "Tile under a hill",
     false,
     {"from_supply", "none"},
     {"one from the supply", "none"}},
    {"sheep.closed_field",
     "Flock on a closed field",
     false,
     {"score_immediately", "wait"},
     {"scores at once", "waits for Gather"}},
}};
static_assert(options_sound(options), "an option without both values, or too many options");

// Each enum follows its option's values, the default first.
enum class hill_tiebreak_rule : std::uint8_t { any_on_hill, count_on_hill };
enum class under_tile_rule : std::uint8_t { from_supply, none };
enum class closed_field_rule : std::uint8_t { score_immediately, wait };

inline hill_tiebreak_rule hill_tiebreak_option(const rule_options& o) {
  return o.read<hill_tiebreak_rule>(id, 0);
}
inline under_tile_rule under_tile_option(const rule_options& o) {
  return o.read<under_tile_rule>(id, 1);
}
inline closed_field_rule closed_field_option(const rule_options& o) {
  return o.read<closed_field_rule>(id, 2);
}

}  // namespace carcassonne::hills_and_sheep
