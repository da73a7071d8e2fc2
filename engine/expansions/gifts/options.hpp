// The Gifts' rule options (rules/gifts.md; shared/rules/README.md, "Rule options") and their
// typed accessors. An option's slot is its place in the table.
#pragma once
#include <array>

#include "carcassonne/engine/options.hpp"
#include "id.hpp"

namespace carcassonne::gifts {

inline constexpr std::array<option_def, 1> options{{
    {"gifts.receipt_owners",
     "Who owns a feature for a gift",
     false,
     {"with_tiebreak", "followers_only"},
     {"majority, ties broken", "followers only"}},
}};
static_assert(options_sound(options), "an option without both values, or too many options");

// Follows the option's values, the default first.
enum class receipt_owners_rule : std::uint8_t { with_tiebreak, followers_only };

inline receipt_owners_rule receipt_owners_option(const rule_options& o) {
  return o.read<receipt_owners_rule>(id, 0);
}

}  // namespace carcassonne::gifts
