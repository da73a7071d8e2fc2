// The test slots' modules (registry.hpp, test_slot_modules) of a binary without the tests'
// expansions, such as build/carcassonne: none, so that a test's expansion is unknown there.
// Binaries that link carcassonne_test_expansions (tests/CMakeLists.txt) get its definition
// instead (tests/expansions/test_slots.cpp): its objects come before the engine's library, so the
// linker never takes this file, which defines nothing else; weak, so that the test's would win
// even if both were linked.
#include "registry.hpp"

namespace carcassonne {

[[gnu::weak]] extern const test_slot_table test_slot_modules;
constinit const test_slot_table test_slot_modules{};

}  // namespace carcassonne
