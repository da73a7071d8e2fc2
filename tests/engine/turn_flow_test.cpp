// Turn flow (README "Turn structure", base.md §4, game-record.md "Moves"): unplaceable tiles,
// skipped figure steps, and the errors of moves out of turn or out of place.
#include <algorithm>

#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::position;
using carcassonne::testing::tile_id;

namespace {

// With the start city closed by (0,-1) BA/C, no open square asks for a city side, so the
// all-city BA/Cccc+ fits nowhere.
void no_city_side(position& p) {
  p.tile(0, -1, "BA/C", 180);
}

int count(const event_log& events, event_type type) {
  return static_cast<int>(
      std::count_if(events.begin(), events.end(), [&](const event& e) { return e.type == type; }));
}

}  // namespace

TEST_CASE("an unplaceable tile is discarded and the same seat draws again") {
  position p(2, {"BA/RFr", "BA/Cccc+", "BA/L", "BA/RFr"});
  no_city_side(p);
  p.place(1, 0, 0);
  const auto events = p.pass();
  // Blue drew BA/Cccc+, could not place it, discarded it and drew BA/L.
  REQUIRE(p.s.discarded.size() == 1);
  CHECK(p.s.discarded[0] == tile_id("BA/Cccc+"));
  CHECK(p.s.active == 1);
  CHECK(p.s.awaiting == decision::place_tile);
  CHECK(p.s.drawn == tile_id("BA/L"));
  CHECK(p.s.tiles_left() == 1);
  CHECK(count(events, event_type::turn_started) == 1);
  CHECK(count(events, event_type::tile_drawn) == 2);
  REQUIRE(count(events, event_type::tile_discarded) == 1);
  const auto d = std::find_if(events.begin(), events.end(),
                              [](const event& e) { return e.type == event_type::tile_discarded; });
  CHECK(d->seat == 1);
  CHECK(d->tile == tile_id("BA/Cccc+"));
  // Every placement offered is one of BA/L.
  for (const auto& m : legal_actions(p.s)) CHECK(m.type == move_type::place_tile);
  p.place(1, -1, 0);
  CHECK(p.s.board.placed().back().type == tile_id("BA/L"));
}

TEST_CASE("an unplaceable last tile is discarded and the game ends without a tile") {
  position p(2, {"BA/RFr", "BA/Cccc+"});
  no_city_side(p);
  p.place(1, 0, 0);
  p.pass();
  CHECK(p.s.finished);
  CHECK(p.s.discarded.size() == 1);
  CHECK(p.s.awaiting == decision::none);
  CHECK(legal_actions(p.s).empty());
}

TEST_CASE("a seat with no follower in supply skips the figure step") {
  position p(2, {"BA/RFr", "BA/RFr"});
  p.tile(-1, 0, "BA/RFr", 0).tile(0, 1, "BA/L", 0);
  // Red's 7 followers are on the board already.
  p.follower(0, 0, 0, "city0").follower(0, 0, 0, "road0").follower(0, 0, 0, "field0");
  p.follower(0, 0, 0, "field1").follower(0, 0, 1, "monastery0").follower(0, -1, 0, "field0");
  p.follower(0, -1, 0, "road0");
  REQUIRE(p.supply_of(0) == 0);
  const int turn = p.s.turn;
  p.place(1, 0, 0);  // no pass: the turn is over
  CHECK(p.s.active == 1);
  CHECK(p.s.awaiting == decision::place_tile);
  CHECK(p.s.turn == turn + 1);
  CHECK(p.s.board.tile_at({1, 0}) >= 0);
}

TEST_CASE("a tile with no free feature skips the figure step") {
  position p(2, {"BA/Cccc+", "BA/RFr"});
  p.follower(1, 0, 0, "city0");
  p.place(0, -1, 0);  // its only segment joins Blue's city (still open N, E, W)
  CHECK(p.s.active == 1);
  CHECK(p.s.awaiting == decision::place_tile);
  CHECK(p.supply_of(0) == 7);
  CHECK(p.score_of(1) == 0);
}

TEST_CASE("moves out of turn or out of place are refused with their code") {
  position p(2, {"BA/RFr", "BA/RFr", "BA/RFr"});
  // Waiting for Red's placement.
  CHECK(p.refused(p.pass_move()) == error_code::unexpected_move);
  CHECK(p.refused(move{.type = move_type::deploy, .seat = 0, .at = {0, 0}}) ==
        error_code::unexpected_move);
  CHECK(p.refused(move{.type = move_type::place_tile, .seat = 1, .at = {1, 0}}) ==
        error_code::not_your_turn);
  p.place(1, 0, 0);
  // Waiting for Red's figure.
  CHECK(p.refused(p.place_move(2, 0, 0)) == error_code::unexpected_move);
  CHECK(p.refused(move{.type = move_type::pass, .seat = 1}) == error_code::not_your_turn);
  CHECK(p.refused(move{.type = move_type::deploy, .seat = 1, .at = {1, 0}}) ==
        error_code::not_your_turn);
  CHECK(p.refused(move{.type = move_type::deploy, .seat = 0, .at = {0, 0}}) ==
        error_code::wrong_tile);
  CHECK(p.refused(move{.type = move_type::deploy, .seat = 0, .at = {1, 0}, .feature = 3}) ==
        error_code::unknown_feature);  // BA/RFr has road0, field0, field1
  CHECK(p.refused(move{.type = move_type::deploy, .seat = 0, .at = {1, 0}, .feature = 200}) ==
        error_code::unknown_feature);
  // No follower in supply: the step would have been skipped, so check the predicate directly.
  game_state forced = p.s;
  forced.players[0].followers = 0;
  const auto st = detail::check_move(forced, p.deploy_move(1, 0, "road0"));
  REQUIRE_FALSE(st.ok());
  CHECK(st.err().code == error_code::no_figure_available);
  p.pass();
  // Blue's turn now: Red may not pass or place.
  CHECK(p.refused(move{.type = move_type::place_tile, .seat = 0, .at = {2, 0}}) ==
        error_code::not_your_turn);
}

TEST_CASE("after the last tile the game is over and every move is refused with game_over") {
  position p(2, {"BA/RFr"});
  p.place(1, 0, 0);
  p.pass();
  REQUIRE(p.s.finished);
  CHECK(to_act(p.s) == no_seat);
  CHECK(legal_actions(p.s).empty());
  CHECK(p.refused(move{.type = move_type::place_tile, .seat = 1, .at = {2, 0}}) ==
        error_code::game_over);
  CHECK(p.refused(move{.type = move_type::pass, .seat = 1}) == error_code::game_over);
  CHECK(p.refused(move{.type = move_type::pass, .seat = 0}) == error_code::game_over);
}

TEST_CASE("seats take turns in order and wrap round to seat 0") {
  position p(3, {"BA/RFr", "BA/RFr", "BA/RFr", "BA/RFr"});
  p.place(1, 0, 0);
  p.pass();
  CHECK(p.s.active == 1);
  p.place(2, 0, 0);
  p.pass();
  CHECK(p.s.active == 2);
  p.place(3, 0, 0);
  p.pass();
  CHECK(p.s.active == 0);
  CHECK(p.s.tiles_left() == 0);
  CHECK(p.s.awaiting == decision::place_tile);  // the last tile is drawn and waits
}
