// The one place that lists expansion modules and their order. Interactions between expansions
// are documented here as modules are added (house-style.md, "Engine").
//
// Order of hooks within a step follows this list: hills_and_sheep, gifts, peasant_revolts,
// easter, festival. No module is implemented yet: a setup naming an expansion is refused with
// unsupported_expansion until its module is listed here.
#include "carcassonne/engine/expansion.hpp"

namespace carcassonne {

namespace {
constexpr std::array<const expansion_module*, expansion_count> modules{};
}  // namespace

const expansion_module* find_module(expansion e) { return modules[static_cast<int>(e)]; }

module_list active_modules(const game_state& s) {
  module_list list;
  for (int e = 0; e < expansion_count; ++e)
    if (modules[e] && s.expansions.has(static_cast<expansion>(e))) list.items[list.size++] = modules[e];
  return list;
}

}  // namespace carcassonne
