// A move sent with `seq` is refused when anything changed in the room since the view it was decided
// on (docs/protocol.md §11, "Stale views"), and a seat's connection going is such a change. This
// is why the load tool closes its clients only once its move in flight is answered
// (app/src/loadtest_command.cpp): a seat closing first made the other seat's move stale.
#include <doctest/doctest.h>

#include "room_support.hpp"

using namespace carcassonne;
using namespace carcassonne::server;
using carcassonne::testing::make_client;
using carcassonne::testing::test_room_settings;
using namespace carcassonne::testing::messages;

TEST_CASE("a move decided before another seat disconnected is refused with stale_sequence") {
  metrics stats;
  auto a = make_client(), b = make_client();
  room r(test_room_settings("r1", 2, "room-test-seed", nlohmann::json::object(), 0, "test"), &stats,
         a);
  r.join(a, join_as("Ann"), nullptr);
  r.join(b, join_as("Bob"), nullptr);
  r.start(a, "s");
  REQUIRE(r.game() != nullptr);
  REQUIRE(a->view["game"].contains("legal_moves"));  // seat 0 acts first
  REQUIRE(a->seq == r.seq());

  // Ann decides on her up-to-date view; Bob's connection goes before her move arrives.
  protocol::move_msg mv = move_of(a->view["game"]["legal_moves"][0]);
  mv.seq = a->seq;
  r.disconnected(b);
  CHECK(r.seq() == *mv.seq + 1);
  CHECK(a->view["room"]["seats"][1]["connected"] == false);
  const game_state before = *r.game();
  r.move(a, mv, "m1");
  CHECK(a->last_error() == "stale_sequence");
  CHECK(*r.game() == before);
  CHECK(stats.moves_accepted.load() == 0);

  // Decided again on the view that has the change (with a new id), the same move is accepted.
  mv.seq = a->seq;
  r.move(a, mv, "m2");
  CHECK(a->last("move_accepted")["id"] == "m2");
  CHECK(stats.moves_accepted.load() == 1);
}
