// The Festival's rule options (rules/festival.md; shared/rules/README.md, "Rule options") and
// their typed accessors. An option's slot is its place in the table.
#pragma once
#include <array>

#include "carcassonne/engine/options.hpp"
#include "id.hpp"

namespace carcassonne::festival {

inline constexpr std::array<option_def, 2> options{{
    {"festival.return_scope",
     "Figures taken back",
     false,
     {"any_figure", "followers_only"},
     {"any figure", "followers only"}},
    {"festival.shepherd_flock",
     "A returned shepherd's flock",
     false,
     {"return_to_bag", "stays"},
     {"goes back to the bag", "stays on the field"}},
}};
static_assert(options_sound(options), "an option without both values, or too many options");

// Each enum follows its option's values, the default first.
enum class return_scope_rule : std::uint8_t { any_figure, followers_only };
enum class shepherd_flock_rule : std::uint8_t { return_to_bag, stays };

inline return_scope_rule return_scope_option(const rule_options& o) {
  return o.read<return_scope_rule>(id, 0);
}
// What a figure taken back leaves on the board (expansion_module::take_back_figure).
inline shepherd_flock_rule shepherd_flock_option(const rule_options& o) {
  return o.read<shepherd_flock_rule>(id, 1);
}

}  // namespace carcassonne::festival
