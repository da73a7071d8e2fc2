// Easter's rule options (rules/easter.md; shared/rules/README.md, "Rule options") and their typed
// accessors. An option's slot is its place in the table.
#pragma once
#include <array>

#include "carcassonne/engine/options.hpp"
#include "id.hpp"

namespace carcassonne::easter {

inline constexpr std::array<option_def, 5> options{{
    {"easter.variant", "Rules", false, {"hig", "original"}, {"HiG edition", "original"}},
    {"easter.nest_timing",
     "Nest scoring",
     false,
     {"after_scoring", "during_scoring"},
     {"after the other scoring", "with the other scoring"}},
    {"easter.hops", "Bunny hops", false, {"die", "fixed_2"}, {"roll a die", "always 2"}},
    {"easter.second_place",
     "Second place for eggs",
     false,
     {"dense", "competition"},
     {"next best count", "after the tied first"}},
    {"easter.shepherd_eggs", "Shepherds collect eggs", true, {"true", "false"}, {"yes", "no"}},
}};
static_assert(options_sound(options), "an option without both values, or too many options");

// Each enum follows its option's values, the default first.
enum class variant_rule : std::uint8_t { hig, original };
enum class nest_timing_rule : std::uint8_t { after_scoring, during_scoring };
enum class hops_rule : std::uint8_t { die, fixed_2 };
enum class second_place_rule : std::uint8_t { dense, competition };
enum class shepherd_eggs_rule : std::uint8_t { collect, none };  // true, false

inline variant_rule variant_option(const rule_options& o) {
  return o.read<variant_rule>(id, 0);
}
inline nest_timing_rule nest_timing_option(const rule_options& o) {
  return o.read<nest_timing_rule>(id, 1);
}
inline hops_rule hops_option(const rule_options& o) {
  return o.read<hops_rule>(id, 2);
}
inline second_place_rule second_place_option(const rule_options& o) {
  return o.read<second_place_rule>(id, 3);
}
// easter.shepherd_eggs: shepherds collect eggs like followers.
inline bool shepherds_collect_eggs(const rule_options& o) {
  return o.read<shepherd_eggs_rule>(id, 4) == shepherd_eggs_rule::collect;
}

}  // namespace carcassonne::easter
