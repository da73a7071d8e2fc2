// Long Roads, a test-only expansion (proof that an expansion lives in its own folder): two tile
// types of its own, one option, one rule. A completed road of five segments or more scores a
// bonus (long_roads.bonus: 5 by default, or 10). It takes the registry's first test slot (id.hpp)
// through tests/expansions/test_slots.cpp, so only binaries that link carcassonne_test_expansions
// have it (build/carcassonne does not), and it is hidden from clients' vocabulary (/api/options)
// as a test's expansion.
#pragma once
#include <array>

#include "carcassonne/engine/expansion.hpp"

namespace carcassonne::long_roads {

extern const expansion_module module;

inline constexpr int long_road_segments = 5;

inline constexpr std::array<option_def, 1> options{{
    {"long_roads.bonus", "Bonus for a long road", false, {"5", "10"}, {"5 points", "10 points"}},
}};
static_assert(options_sound(options), "an option without both values, or too many options");
enum class bonus_rule : std::uint8_t { five, ten };  // follows the option's values
inline int bonus_points(const rule_options& o) {
  return o.read<bonus_rule>(module.id, 0) == bonus_rule::ten ? 10 : 5;
}

}  // namespace carcassonne::long_roads
