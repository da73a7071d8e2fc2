// A broken invariant has its own error code: never game_over, which clients see for a finished
// game.
#include <doctest/doctest.h>

#include "carcassonne/engine/game.hpp"

using namespace carcassonne;

TEST_CASE("check_invariants reports a broken state with broken_invariant") {
  auto s = new_game(game_setup{.seats = 2, .seed = "invariant"});
  REQUIRE(s.ok());
  CHECK(check_invariants(s.value()).ok());
  auto broken = s.value();
  broken.players[0].followers = 3;  // four followers of seat 0 vanished
  const auto st = check_invariants(broken);
  REQUIRE_FALSE(st.ok());
  CHECK(st.err().code == error_code::broken_invariant);
  CHECK(code_name(st.err().code) == "broken_invariant");
}
