// Hills & Sheep (shared/rules/hills_and_sheep.md) as worked positions with exact points:
// EX-04..EX-07 of examples.md, both tie-break options, the tile under a hill, shepherds and the
// bag (placement draw, Grow, Gather, wolf, shared flocks, closed fields), vineyards.
#include <string>

#include "hills_and_sheep/hills_and_sheep.hpp"
#include "hills_and_sheep/id.hpp"
#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::legal;
using carcassonne::testing::position;
namespace hs = carcassonne::hills_and_sheep;

namespace {

game_setup hills_setup(int seats, std::vector<std::string> sheep = {},
                       std::vector<std::pair<std::string, std::string>> options = {}) {
  game_setup g;
  g.seats = seats;
  g.expansions.add(hills_and_sheep::id);
  if (!sheep.empty()) g.script.draws["sheep"] = std::move(sheep);
  for (const auto& [name, value] : options)
    REQUIRE(g.options.set(name, std::string_view(value)).ok());
  return g;
}

int token_index(const std::string& name) {
  for (int k = 0; k < hs::token_kinds; ++k)
    if (hs::token_names[k] == name) return k;
  FAIL("unknown token " << name);
  return -1;
}

// Puts a seat's shepherd on a field with a flock taken from the bag (as if deployed earlier).
void put_shepherd(position& p, int seat, int x, int y, const std::string& feature,
                  const std::vector<std::string>& tokens) {
  const int t = p.s.board.tile_at({static_cast<std::int16_t>(x), static_cast<std::int16_t>(y)});
  REQUIRE(t >= 0);
  const auto& pt = p.s.board.placed()[t];
  const auto local = tiles()[pt.type].segment_index(feature);
  REQUIRE(local.has_value());
  p.s.figures.push_back(figure_on_board{static_cast<seat_t>(seat), hills_and_sheep::figure_shepherd,
                                        static_cast<segment_t>(pt.first_segment + *local)});
  auto& st = p.s.ext.get<hills_and_sheep::state>();
  st.on_board = static_cast<std::uint8_t>(st.on_board | 1 << seat);
  st.at[seat] = p.s.figures.back().segment;
  ++p.s.features.data(p.s.features.root(st.at[seat])).other_figures;
  for (const auto& name : tokens) {
    const int k = token_index(name);
    REQUIRE(st.bag[k] > 0);
    --st.bag[k];
    ++st.flock[seat][k];
  }
  REQUIRE(check_invariants(p.s).ok());
}

int shepherds_on_board(const game_state& s) {
  int n = 0;
  for (const auto& f : s.figures) n += f.type == hills_and_sheep::figure_shepherd;
  return n;
}

// EX-04's board before Blue's move.
position ex04(const std::string& tiebreak) {
  position p(hills_setup(2, {}, {{"hills.tiebreak", tiebreak}}), {"BA/Cc.1"});
  p.tile(0, -1, "HS/Cc.h.1", 180).tile(1, 0, "BA/RCr", 0);
  p.follower(0, 0, -1, "city0").follower(1, 1, 0, "city0");
  p.to_move(1);
  return p;
}

// A road of five tiles (-1,0)..(2,1) closed by the last one; hills at (-1,0), (1,0), (1,1).
position hill_road(const std::string& tiebreak) {
  position p(hills_setup(2, {}, {{"hills.tiebreak", tiebreak}}), {"BA/LR"});
  p.tile(-1, 0, "HS/RFR.h", 90).tile(1, 0, "HS/RrC.h", 0).tile(1, 1, "HS/CRr.h", 270);
  return p;
}

}  // namespace

// ---- hills: the tie-break --------------------------------------------------------------------

TEST_CASE("EX-04 a follower on a hill breaks a 1-1 tie for a city (both tie-break options)") {
  for (const char* rule : {"any_on_hill", "count_on_hill"}) {
    CAPTURE(rule);
    position p = ex04(rule);
    p.place(1, -1, 270);  // completes the city (0,0),(0,-1),(1,-1),(1,0): 4 tiles, 8 points
    p.pass();
    CHECK(p.score_of(0) == 8);
    CHECK(p.score_of(1) == 0);
    CHECK(p.supply_of(0) == 7);
    CHECK(p.supply_of(1) == 7);
    CHECK(p.s.finished);
  }
}

TEST_CASE(
    "2-2 tie, Red 2 followers on hills and Blue 1: any_on_hill keeps the tie, count_on_hill "
    "gives it to Red") {
  for (const char* rule : {"any_on_hill", "count_on_hill"}) {
    CAPTURE(rule);
    position p = hill_road(rule);
    // Red: (-1,0) and (1,1), both hills. Blue: (0,0) (no hill) and (1,0) (hill).
    p.follower(0, -1, 0, "road0").follower(0, 1, 1, "road0");
    p.follower(1, 0, 0, "road0").follower(1, 1, 0, "road0");
    p.place(2, 1, 90);  // BA/LR: the road ends at the monastery; 5 tiles
    p.pass();
    CHECK(p.score_of(0) == 5);
    CHECK(p.score_of(1) == (std::string(rule) == "any_on_hill" ? 5 : 0));
  }
}

TEST_CASE("hills never matter without a tie: 2 followers off hills beat 1 on a hill") {
  position p = hill_road("any_on_hill");
  p.follower(0, 0, 0, "road0").follower(0, 0, 0, "road0");  // Red: two, none on a hill
  p.follower(1, 1, 1, "road0");                             // Blue: one, on a hill
  p.place(2, 1, 90);
  p.pass();
  CHECK(p.score_of(0) == 5);
  CHECK(p.score_of(1) == 0);
}

TEST_CASE("nobody tied on a hill: the tie stays and both score") {
  position p = hill_road("count_on_hill");
  p.follower(0, 0, 0, "road0").follower(1, 0, 0, "road0");
  p.place(2, 1, 90);
  p.pass();
  CHECK(p.score_of(0) == 5);
  CHECK(p.score_of(1) == 5);
}

TEST_CASE("the hill tie-break holds at the final scoring of a field") {
  // The field north of the road runs from the start tile (bordering its city, closed by (0,-1))
  // into (-1,0), a hill: Red's farmer stands on the hill, Blue's on the start tile.
  position p(hills_setup(2), {"BA/RFr"});
  p.tile(-1, 0, "HS/RFR.h", 90).tile(0, -1, "BA/C", 180);
  p.follower(0, -1, 0, "field0").follower(1, 0, 0, "field0");
  p.place(1, 0, 0);  // extends the road and the field; no value changes
  if (p.s.awaiting == decision::figure) p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 3);  // one completed city
  CHECK(p.score_of(1) == 0);
}

// ---- hills: the tile underneath -------------------------------------------------------------

TEST_CASE(
    "EX-07 the tile under a hill leaves the supply unseen; the last hill has nothing under "
    "it") {
  position p(hills_setup(2), {"HS/Cc.h.1", "BA/L", "BA/RFr", "HS/RR.h"});
  CHECK(p.s.tiles_left() == 3);
  auto events = p.place(0, -1, 180);
  CHECK(p.s.out_of_play.size() == 1);
  CHECK(tiles()[p.s.out_of_play[0]].id == "BA/L");
  int hidden = 0;
  for (const auto& e : events) hidden += e.type == hills_and_sheep::event_tile_hidden;
  CHECK(hidden == 1);
  if (p.s.awaiting == decision::figure) {
    const auto more = p.pass();
    events.insert(events.end(), more.begin(), more.end());
  }
  for (const auto& e : events)
    if (e.type == event_type::tile_drawn || e.type == event_type::tile_placed ||
        e.type == event_type::tile_discarded)
      CHECK(tiles()[e.tile].id != "BA/L");
  CHECK(tiles()[p.s.drawn].id == "BA/RFr");  // Blue draws the tile after the hidden one
  CHECK(p.s.tiles_left() == 1);
  p.place(1, 0, 0);
  if (p.s.awaiting == decision::figure) p.pass();
  CHECK(tiles()[p.s.drawn].id == "HS/RR.h");
  CHECK(p.s.tiles_left() == 0);
  p.place(2, 0, 0);
  if (p.s.awaiting == decision::figure) p.pass();
  CHECK(p.s.finished);
  CHECK(p.s.turn == 3);
  CHECK(p.s.out_of_play.size() == 1);  // nothing under the last hill
  CHECK(check_invariants(p.s).ok());
}

TEST_CASE("hills.under_tile = none: every tile is played") {
  position p(hills_setup(2, {}, {{"hills.under_tile", "none"}}), {"HS/Cc.h.1", "BA/L"});
  p.place(0, -1, 180);
  if (p.s.awaiting == decision::figure) p.pass();
  CHECK(p.s.out_of_play.empty());
  CHECK(tiles()[p.s.drawn].id == "BA/L");
}

// ---- vineyards -------------------------------------------------------------------------------

TEST_CASE("EX-05 a completed monastery scores 3 per vineyard around it") {
  position p(hills_setup(2), {"BA/C"});
  p.tile(-1, 0, "BA/RFr", 0).tile(1, 0, "BA/RFr", 0).tile(-1, 1, "HS/Cc.v", 270);
  p.tile(0, 1, "BA/L", 0).tile(1, 1, "HS/C!.v", 180).tile(-1, 2, "BA/C", 0).tile(0, 2, "BA/C", 180);
  p.follower(0, 0, 1, "monastery0");
  p.to_move(1);
  p.place(1, 2, 0);  // surrounds the monastery and closes the city (1,1),(1,2)
  if (p.s.awaiting == decision::figure) p.pass();
  CHECK(p.score_of(0) == 15);  // 9 + 2 vineyards x 3
  CHECK(p.score_of(1) == 0);
}

TEST_CASE("one vineyard counts for two monasteries completed by the same tile") {
  position p(hills_setup(2), {"HS/C!.v"});
  p.tile(-1, 0, "BA/RFr", 0).tile(1, 0, "BA/RFr", 0).tile(2, 0, "BA/RFr", 0);
  p.tile(-1, 1, "HS/Cc.v", 270)
      .tile(0, 1, "BA/L", 0)
      .tile(1, 1, "BA/L", 0)
      .tile(2, 1, "HS/Cc.v", 180);
  p.tile(-1, 2, "BA/C", 0).tile(0, 2, "BA/C", 180).tile(2, 2, "BA/C", 0);
  p.follower(0, 0, 1, "monastery0").follower(1, 1, 1, "monastery0");
  p.place(1, 2, 180);  // the vineyard HS/C!.v surrounds both monasteries
  if (p.s.awaiting == decision::figure) p.pass();
  CHECK(p.score_of(0) == 15);  // (-1,1) and (1,2)
  CHECK(p.score_of(1) == 15);  // (2,1) and (1,2)
}

TEST_CASE("an incomplete monastery gets no vineyard points at the end") {
  position p(hills_setup(2), {"BA/RFr"});
  p.tile(0, 1, "BA/L", 0).tile(-1, 1, "HS/Cc.v", 270);
  p.follower(0, 0, 1, "monastery0");
  p.place(-1, 0, 0);
  if (p.s.awaiting == decision::figure) p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 4);  // 1 + 3 neighbours (0,0), (-1,1), (-1,0); no vineyard bonus
}

// ---- shepherds and the bag ----------------------------------------------------------------------

TEST_CASE("EX-06 shepherd: deploy, grow, gather") {
  position p(hills_setup(2, {"sheep3", "sheep2"}), {"BA/L", "BA/C", "BA/C", "BA/RFr", "BA/C"});
  p.place(0, 1, 0);
  p.play(p.shepherd_move(0, 1, "field0"));
  CHECK(hs::bag_size(p.s) == 17);
  REQUIRE(hs::flocks(p.s).size() == 1);
  CHECK(hs::flocks(p.s)[0].sheep == 3);
  // Blue extends Red's field: nothing happens to Red's flock.
  p.place(1, 1, 180);
  CHECK(p.s.awaiting == decision::figure);
  CHECK_FALSE(legal(p.s, p.shepherd_move(1, 1, "field0")));  // the field has a shepherd
  CHECK(legal(p.s, p.deploy_move(1, 1, "field0")));          // a farmer may join it
  p.pass();
  CHECK(p.s.active == 0);
  // Red extends it: after the figure action, Grow or Gather is mandatory.
  p.place(-1, 1, 180);
  p.pass();
  REQUIRE(p.s.awaiting == hills_and_sheep::decision_flock);
  CHECK(legal_actions(p.s).size() == 2);
  CHECK(p.refused(p.pass_move()) == error_code::unexpected_move);
  p.play(p.flock_move(false));  // Grow: sheep2
  CHECK(hs::flocks(p.s)[0].sheep == 5);
  CHECK(hs::bag_size(p.s) == 16);
  p.place(1, 0, 0);  // Blue
  p.pass();
  p.place(0, 2, 180);  // Red extends the field again
  p.pass();
  REQUIRE(p.s.awaiting == hills_and_sheep::decision_flock);
  p.play(p.flock_move(true));  // Gather
  CHECK(p.score_of(0) == 5);
  CHECK(p.score_of(1) == 0);
  CHECK(hs::bag_size(p.s) == 18);
  CHECK(hs::shepherd_in_supply(p.s, 0));
  CHECK(p.s.finished);
}

TEST_CASE("a wolf at the placement draw sends the shepherd home") {
  position p(hills_setup(2, {"wolf"}), {"BA/L", "BA/C"});
  p.place(0, 1, 0);
  auto events = p.play(p.shepherd_move(0, 1, "field0"));
  CHECK(shepherds_on_board(p.s) == 0);
  CHECK(hs::bag_size(p.s) == 18);
  CHECK(hs::shepherd_in_supply(p.s, 0));
  int drawn = 0, returned = 0;
  for (const auto& e : events) {
    drawn += e.type == hills_and_sheep::event_token_drawn &&
             e.value == static_cast<int>(hs::token::wolf);
    returned +=
        e.type == event_type::figure_returned && e.figure == hills_and_sheep::figure_shepherd;
  }
  CHECK(drawn == 1);
  CHECK(returned == 1);
}

namespace {
// Red's shepherd north of the road (-1,0)..(1,0), Blue's south of it; a road end at (2,0) will
// join the two fields.
position two_flocks(std::vector<std::string> script) {
  position p(hills_setup(2, std::move(script)), {"BA/LR"});
  p.tile(-1, 0, "BA/RFr", 0).tile(1, 0, "BA/RFr", 0);
  put_shepherd(p, 0, -1, 0, "field0", {"sheep3"});
  put_shepherd(p, 1, -1, 0, "field1", {"sheep1", "sheep4"});
  REQUIRE(hs::flocks(p.s).size() == 2);
  return p;
}
}  // namespace

TEST_CASE("merged fields share one flock: a Gather scores the whole flock for every shepherd") {
  position p = two_flocks({});
  p.place(2, 0, 90);  // BA/LR: the road ends at the monastery, north and south fields join
  REQUIRE(hs::flocks(p.s).size() == 1);
  CHECK(hs::flocks(p.s)[0].sheep == 8);
  p.pass();
  REQUIRE(p.s.awaiting == hills_and_sheep::decision_flock);  // only Red (active) chooses
  p.play(p.flock_move(true));
  CHECK(p.score_of(0) == 8);
  CHECK(p.score_of(1) == 8);
  CHECK(shepherds_on_board(p.s) == 0);
  CHECK(hs::bag_size(p.s) == 18);
}

TEST_CASE("a wolf drawn on a merged field takes the whole shared flock") {
  position p = two_flocks({"wolf"});
  p.place(2, 0, 90);
  p.pass();
  p.play(p.flock_move(false));
  CHECK(p.score_of(0) == 0);
  CHECK(p.score_of(1) == 0);
  CHECK(shepherds_on_board(p.s) == 0);
  CHECK(hs::shepherd_in_supply(p.s, 0));
  CHECK(hs::shepherd_in_supply(p.s, 1));
  CHECK(hs::bag_size(p.s) == 18);
}

TEST_CASE("on Blue's turn only Blue's shepherd chooses for the merged field") {
  position p = two_flocks({});
  p.to_move(1);
  p.place(2, 0, 90);
  p.pass();
  CHECK(p.s.awaiting ==
        hills_and_sheep::decision_flock);  // Blue's own shepherd is on the joined field
  CHECK(p.s.active == 1);
}

namespace {
// A road loop of four curves south of the start tile; its inner field is closed by the last.
position loop(std::vector<std::string> script,
              std::vector<std::pair<std::string, std::string>> options = {}) {
  position p(hills_setup(2, std::move(script), std::move(options)), {"BA/Rr", "BA/RFr"});
  p.tile(0, 1, "BA/Rr", 270).tile(1, 1, "BA/Rr", 0).tile(0, 2, "BA/Rr", 180);
  return p;
}
}  // namespace

TEST_CASE("a flock on a field that another seat closes is scored at once") {
  position p = loop({});
  put_shepherd(p, 1, 0, 1, "field1", {"sheep2", "sheep3"});
  CHECK(p.s.features.data(p.feature(0, 1, "field1")).open > 0);
  p.place(1, 2, 90);  // Red closes the loop and the inner field
  CHECK(p.s.features.data(p.feature(0, 1, "field1")).open == 0);
  p.pass();
  CHECK(p.score_of(1) == 5);
  CHECK(p.score_of(0) == 0);
  CHECK(shepherds_on_board(p.s) == 0);
  CHECK(hs::bag_size(p.s) == 18);
}

TEST_CASE("sheep.closed_field = wait: the flock on a closed field stays and scores nothing") {
  position p = loop({}, {{"sheep.closed_field", "wait"}});
  put_shepherd(p, 1, 0, 1, "field1", {"sheep2"});
  p.place(1, 2, 90);
  p.pass();
  CHECK(p.score_of(1) == 0);
  CHECK(shepherds_on_board(p.s) == 1);
  p.place(-1, 0, 0);  // the last tile: the game ends, the flock is lost
  if (p.s.awaiting == decision::figure) p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(1) == 0);
}

TEST_CASE("H-5: closing your own shepherd's field, Grow comes first, then the flock scores") {
  position p = loop({"sheep1"});
  put_shepherd(p, 0, 0, 1, "field1", {"sheep2"});
  p.place(1, 2, 90);
  p.pass();
  REQUIRE(p.s.awaiting == hills_and_sheep::decision_flock);
  p.play(p.flock_move(false));  // draws sheep1: flock 3, then scored automatically
  CHECK(p.score_of(0) == 3);
  CHECK(shepherds_on_board(p.s) == 0);
}

TEST_CASE("a shepherd deployed on a field its tile closes scores its placement sheep at once") {
  position p = loop({"sheep4"});
  p.place(1, 2, 90);
  p.play(p.shepherd_move(1, 2, "field1"));  // the inner corner field of the last curve
  CHECK(p.score_of(0) == 4);
  CHECK(shepherds_on_board(p.s) == 0);
  CHECK(hs::bag_size(p.s) == 18);
}

TEST_CASE("shepherds never count for majorities and end the game scoring nothing") {
  position p(hills_setup(2, {"sheep4"}), {"BA/L", "BA/C"});
  p.place(0, 1, 0);
  p.play(p.shepherd_move(0, 1, "field0"));
  CHECK(p.s.features.data(p.feature(0, 1, "field0")).follower_total() == 0);
  p.place(1, 1, 180);  // Blue extends the field: a farmer may join the shepherd's field
  CHECK(legal(p.s, p.deploy_move(1, 1, "field0")));
  p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 0);  // the flock of 4 is lost at the end
  CHECK(p.score_of(1) == 0);
}

TEST_CASE("a scripted draw that is exhausted or not in the bag refuses the move") {
  position p(hills_setup(2, {"sheep1"}), {"BA/L", "BA/L", "BA/C"});
  p.place(0, 1, 0);
  p.play(p.shepherd_move(0, 1, "field0"));
  p.place(1, 1, 0);
  p.pass();
  p.place(-1, 1, 0);
  p.pass();
  REQUIRE(p.s.awaiting == hills_and_sheep::decision_flock);
  CHECK(p.refused(p.flock_move(false)) == error_code::script_exhausted);
  p.play(p.flock_move(true));  // Gather draws nothing
  CHECK(p.score_of(0) == 1);
  CHECK(new_game(hills_setup(2, {"goat"})).err().code == error_code::bad_script);
}
