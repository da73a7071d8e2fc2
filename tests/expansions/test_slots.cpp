// The tests' expansions in the registry's test slots (registry.hpp, test_slot_modules): this
// definition, in the test-only library carcassonne_test_expansions, replaces the engine's empty
// one in the binaries that link it. Adding a test's expansion: its folder here (with module.cpp),
// a test_slot<N> in registry.hpp's list for it, and a line below.
#include "long_roads/id.hpp"
#include "long_roads/long_roads.hpp"

namespace carcassonne {

constinit const test_slot_table test_slot_modules = [] {
  test_slot_table t{};
  t[test_slot_index(long_roads::id)] = &long_roads::module;
  return t;
}();

}  // namespace carcassonne
