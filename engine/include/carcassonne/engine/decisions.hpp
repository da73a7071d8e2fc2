// What the game waits for (game_state::awaiting). The base game's decisions; each expansion's are
// constants in its folder (engine/expansions/<name>/vocabulary.hpp) with values the registry gives
// its slot.
#pragma once
#include <array>
#include <cstdint>
#include <string_view>

namespace carcassonne {

enum class decision : std::uint8_t { none, place_tile, figure };
inline constexpr std::array<std::string_view, 3> base_decision_names{"none", "place_tile",
                                                                     "figure"};
// The decision's name in views (assembled from the modules); "unknown" for a value nobody owns.
std::string_view decision_name(decision d);

}  // namespace carcassonne
