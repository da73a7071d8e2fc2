// The one place that lists expansion modules and their order. Interactions between expansions
// are documented here as modules are added (house-style.md, "Engine").
//
// Order of hooks within a step follows this list: hills_and_sheep, gifts, peasant_revolts,
// easter, festival. Steps after the figure action are ordered by turn_step (README "Turn
// structure"), so the list order only matters for hooks two expansions share in one step.
// An expansion without a module is refused with unsupported_expansion.
//
// Interactions written down so far:
// - Hills & Sheep alone: shepherds are figures of type shepherd in game_state::figures; they never
//   count in feature_data::followers, so base majorities and occupancy ignore them.
#include "carcassonne/engine/expansion.hpp"
#include "hills_and_sheep/hills_and_sheep.hpp"

namespace carcassonne {

namespace {
constexpr std::array<const expansion_module*, expansion_count> modules{
    &hills_and_sheep::module, nullptr, nullptr, nullptr, nullptr};
}  // namespace

const expansion_module* find_module(expansion e) { return modules[static_cast<int>(e)]; }

module_list active_modules(const game_state& s) {
  module_list list;
  for (int e = 0; e < expansion_count; ++e)
    if (modules[e] && s.expansions.has(static_cast<expansion>(e))) list.items[list.size++] = modules[e];
  return list;
}

}  // namespace carcassonne
