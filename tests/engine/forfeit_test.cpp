// Forfeit (forfeit.hpp): a seat that leaves keeps its figures on the board, where they still
// count for majorities, but never scores again; its turns are skipped; its pending decision is
// taken for it; with at most one seat left the game ends at the end of the turn.
#include <algorithm>

#include "carcassonne/engine/forfeit.hpp"
#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::position;

namespace {

// A city of (0,0), (0,-1) BA/Cc+ and (1,-1) BA/CFc+: 3 tiles, 2 pennants, open to the east of
// (1,-1); BA/C at (2,-1) rotated 270 closes it: 4 tiles + 2 pennants = 12 points.
position open_city(int seats, const std::vector<std::string>& deck) {
  position p(seats, deck);
  p.tile(0, -1, "BA/Cc+", 180).tile(1, -1, "BA/CFc+", 0);
  return p;
}

bool points_for(const event_log& events, int seat) {
  return std::any_of(events.begin(), events.end(), [&](const event& e) {
    return e.type == event_type::points && e.seat == seat;
  });
}

}  // namespace

TEST_CASE("forfeit: a shared city completed later scores for the others only") {
  auto p = open_city(3, {"BA/C", "BA/RFr", "BA/RFr"});
  p.follower(1, 1, -1, "city0").follower(2, 0, -1, "city0").score(1, 5);
  REQUIRE(forfeit(p.s, 1 << 1).ok());
  CHECK(has_forfeited(p.s, 1));
  CHECK(seats_in_play(p.s) == 2);
  CHECK(p.s.active == 0);  // not seat 1's turn: nothing decided for it
  p.place(2, -1, 270);
  const auto events = p.pass();
  CHECK(p.score_of(2) == 12);  // tied on followers with the forfeited seat: both own the city
  CHECK(p.score_of(1) == 5);   // frozen at the forfeit
  CHECK_FALSE(points_for(events, 1));
  CHECK(points_for(events, 2));
  CHECK(p.supply_of(1) == 7);  // its follower came back all the same
  CHECK(p.s.active == 2);      // seat 1's turn is skipped
}

TEST_CASE("forfeit: the forfeited seat's followers still hold the majority") {
  auto p = open_city(3, {"BA/C", "BA/RFr", "BA/RFr"});
  p.follower(1, 1, -1, "city0").follower(1, 0, -1, "city0").follower(2, 0, 0, "city0");
  REQUIRE(forfeit(p.s, 1 << 1).ok());
  p.place(2, -1, 270);
  p.pass();
  CHECK(p.score_of(1) == 0);  // 2 followers against 1: the city was seat 1's, worth nothing now
  CHECK(p.score_of(2) == 0);
  CHECK(p.score_of(0) == 0);
}

TEST_CASE("forfeit: no final scoring for a forfeited seat") {
  auto p = open_city(3, {"BA/RFr"});
  p.follower(0, 1, -1, "city0").follower(1, 0, -1, "city0");
  REQUIRE(forfeit(p.s, 1 << 1).ok());
  p.place(1, 0, 0);
  p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 5);  // the open city at the end: 3 tiles + 2 pennants
  CHECK(p.score_of(1) == 0);
}

TEST_CASE("forfeit in one's own turn: the tile is placed for the seat, no figure, turn skipped") {
  position p(3, {"BA/RFr", "BA/RFr", "BA/RFr", "BA/RFr", "BA/RFr"});
  event_log events;
  REQUIRE(forfeit(p.s, 1 << 0, &events).ok());
  CHECK(p.s.board.placed().size() == 2);  // the least legal placement, then pass
  CHECK(p.s.figures.empty());
  CHECK(p.s.active == 1);
  CHECK(p.s.awaiting == decision::place_tile);
  CHECK(p.supply_of(0) == 7);
  // Seat 1 plays, then seat 2, then seat 1 again: seat 0 is skipped.
  for (const int next : {2, 1}) {
    const int before = p.s.active;
    while (p.s.active == before && !p.s.finished) p.play(legal_actions(p.s).front());
    REQUIRE_FALSE(p.s.finished);
    CHECK(p.s.active == next);
  }
}

TEST_CASE("forfeit with two seats: the game ends at the end of the turn") {
  position p(2, {"BA/RFr", "BA/RFr", "BA/RFr"});
  REQUIRE(forfeit(p.s, 1 << 1).ok());
  CHECK_FALSE(p.s.finished);  // seat 0 finishes its turn
  const auto moves = legal_actions(p.s);
  REQUIRE(!moves.empty());
  p.play(moves.front());
  if (!p.s.finished) p.pass();
  CHECK(p.s.finished);
  CHECK(p.s.tiles_left() == 2);
  // Both at once (every human gone): the current turn is played out for them, then the end.
  position q(2, {"BA/RFr", "BA/RFr", "BA/RFr"});
  REQUIRE(forfeit(q.s, 0b11).ok());
  CHECK(q.s.finished);
  CHECK(q.s.forfeited == 0b11);
}

TEST_CASE("forfeit refusals change nothing") {
  position p(2, {"BA/RFr", "BA/RFr"});
  REQUIRE(forfeit(p.s, 1 << 1).ok());
  const game_state before = p.s;
  auto again = forfeit(p.s, 1 << 1);
  REQUIRE_FALSE(again.ok());
  CHECK(again.err().code == error_code::already_forfeited);
  auto absent = forfeit(p.s, 1 << 4);
  REQUIRE_FALSE(absent.ok());
  CHECK(absent.err().code == error_code::already_forfeited);
  CHECK(p.s == before);
  position done(2, {"BA/RFr"});
  done.place(1, 0, 0);
  done.pass();
  REQUIRE(done.s.finished);
  auto over = forfeit(done.s, 1);
  REQUIRE_FALSE(over.ok());
  CHECK(over.err().code == error_code::game_over);
}
