// Long Roads' slot: its place in the registry's list (registry.hpp).
#pragma once
#include "registry.hpp"

namespace carcassonne::long_roads {

inline constexpr expansion id = slot_id<slot>;

}  // namespace carcassonne::long_roads
