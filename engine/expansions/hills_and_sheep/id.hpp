// Hills & Sheep's slot: its place in the registry's list (registry.hpp).
#pragma once
#include "registry.hpp"

namespace carcassonne::hills_and_sheep {

inline constexpr expansion id = slot_id<slot>;

}  // namespace carcassonne::hills_and_sheep
