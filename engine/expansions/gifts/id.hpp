// Gifts's slot: its place in the registry's list (registry.hpp).
#pragma once
#include "registry.hpp"

namespace carcassonne::gifts {

inline constexpr expansion id = slot_id<slot>;

}  // namespace carcassonne::gifts
