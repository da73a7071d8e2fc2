// Every expansion offered to players, in the registry's order: what a test means by "all of
// them", so that a new expansion joins those tests without an edit to them.
#pragma once
#include <nlohmann/json.hpp>

#include "carcassonne/engine/expansion.hpp"

namespace carcassonne::testing {

inline nlohmann::json every_expansion() {
  auto names = nlohmann::json::array();
  for (const auto* m : all_modules())
    if (m && !m->test_only) names.push_back(m->name);
  return names;
}

}  // namespace carcassonne::testing
