// Long Roads' slot: the registry's first test slot (registry.hpp).
#pragma once
#include "registry.hpp"

namespace carcassonne::long_roads {

inline constexpr expansion id = slot_id<test_slot<0>>;

}  // namespace carcassonne::long_roads
