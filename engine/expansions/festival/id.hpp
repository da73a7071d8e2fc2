// Festival's slot: its place in the registry's list and the values it owns there.
#pragma once
#include "registry.hpp"

namespace carcassonne::festival {

inline constexpr expansion id = slot_id<slot>;
inline constexpr vocabulary_ranges ranges = slot_ranges[static_cast<int>(id)];

}  // namespace carcassonne::festival

// What every user of the slot sees: the names of its values.
#include "vocabulary.hpp"  // IWYU pragma: export
