// Hills & Sheep's slot: its place in the registry's list and the values it owns there.
#pragma once
#include "registry.hpp"

namespace carcassonne::hills_and_sheep {

inline constexpr expansion id = slot_id<slot>;
inline constexpr vocabulary_ranges ranges = slot_ranges[static_cast<int>(id)];

}  // namespace carcassonne::hills_and_sheep

// What every user of the slot sees: its state and the names of its values.
#include "state.hpp"       // IWYU pragma: export
#include "vocabulary.hpp"  // IWYU pragma: export
