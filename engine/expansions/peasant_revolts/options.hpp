// The Peasant Revolts' rule options (rules/peasant_revolts.md; shared/rules/README.md, "Rule
// options") and their typed accessors. An option's slot is its place in the table.
#pragma once
#include <array>

#include "carcassonne/engine/options.hpp"
#include "id.hpp"

namespace carcassonne::peasant_revolts {

inline constexpr std::array<option_def, 2> options{{
    {"revolts.protect_for_2",
     "Protection for 2 blocked by",
     false,
     {"no_figure_deployed", "no_follower_deployed"},
     {"any figure placed", "a follower placed"}},
    {"revolts.extra_draws_trigger",
     "Take 2 extra draws revolt",
     true,
     {"true", "false"},
     {"yes", "no"}},
}};
static_assert(options_sound(options), "an option without both values, or too many options");

// Each enum follows its option's values, the default first.
enum class protect_for_2_rule : std::uint8_t { no_figure_deployed, no_follower_deployed };
enum class extra_draws_rule : std::uint8_t { revolt, no_revolt };  // true, false

inline protect_for_2_rule protect_for_2_option(const rule_options& o) {
  return o.read<protect_for_2_rule>(id, 0);
}
// revolts.extra_draws_trigger: Take 2's extra draws revolt.
inline bool extra_draws_revolt(const rule_options& o) {
  return o.read<extra_draws_rule>(id, 1) == extra_draws_rule::revolt;
}

}  // namespace carcassonne::peasant_revolts
