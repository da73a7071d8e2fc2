// The Festival (shared/rules/festival.md) as worked positions: EX-17 and EX-18 of examples.md,
// returning each kind of figure, the shepherd alone and sharing a flock under both values of
// festival.shepherd_flock, festival.return_scope, and illegal returns.
#include <string>

#include "festival/id.hpp"
#include "hills_and_sheep/hills_and_sheep.hpp"
#include "hills_and_sheep/id.hpp"
#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::legal;
using carcassonne::testing::position;
namespace hs = carcassonne::hills_and_sheep;

namespace {

game_setup festival_setup(bool with_hills, std::vector<std::string> sheep = {},
                          std::vector<std::pair<std::string, std::string>> options = {}) {
  game_setup g;
  g.expansions.add(festival::id);
  if (with_hills) g.expansions.add(hills_and_sheep::id);
  if (!sheep.empty()) g.script.draws["sheep"] = std::move(sheep);
  for (const auto& [name, value] : options)
    REQUIRE(g.options.set(name, std::string_view(value)).ok());
  return g;
}

// Board FX1 of examples.md.
void fx1(position& p) {
  p.tile(0, -1, "BA/CFc.1", 90).tile(-1, 0, "BA/Rr", 270).tile(1, -1, "BA/C", 0);
  p.tile(1, 0, "BA/RFr", 0).tile(0, 1, "BA/Rr", 270).tile(2, 0, "BA/LR", 90);
}

move return_move(const position& p, int x, int y, const std::string& feature,
                 figure_type figure = figure_type::meeple) {
  auto m = p.deploy_move(x, y, feature);
  m.type = festival::move_return_figure;
  m.figure = figure;
  return m;
}

int count_returns(const game_state& s) {
  int n = 0;
  for (const auto& m : legal_actions(s)) n += m.type == festival::move_return_figure;
  return n;
}

// Deploys the active seat's shepherd through a real turn: place `tile` then deploy.
void shepherd_turn(position& p, int x, int y, int degrees, const std::string& feature) {
  p.place(x, y, degrees);
  auto m = p.deploy_move(x, y, feature);
  m.figure = hills_and_sheep::figure_shepherd;
  p.play(m);
}

}  // namespace

TEST_CASE("EX-17 a festival tile takes a farmer back instead of deploying") {
  position p(festival_setup(false), {"FE/CCc"});
  fx1(p);
  p.follower(1, 0, -1, "city0").follower(0, 2, 0, "field0");
  REQUIRE(p.supply_of(0) == 6);
  p.place(0, -2, 0);  // its S city cap closes C1
  CHECK(p.s.awaiting == decision::figure);
  CHECK(count_returns(p.s) == 1);  // Red's farmer only: never Blue's knight
  CHECK_FALSE(legal(p.s, return_move(p, 0, -1, "city0")));
  p.play(return_move(p, 2, 0, "field0"));
  CHECK(p.supply_of(0) == 7);
  CHECK(p.score_of(0) == 0);
  CHECK(p.score_of(1) == 6);  // C1: 3 tiles
  CHECK(p.supply_of(1) == 7);
  CHECK(p.s.finished);
}

TEST_CASE("a follower taken back from an incomplete city scores nothing and frees the city") {
  position p(festival_setup(false), {"FE/RrRr", "BA/RFr"});
  p.tile(0, -1, "BA/Cc.1", 180);
  p.follower(0, 0, -1, "city0");
  const auto city = p.feature(0, -1, "city0");
  p.place(-1, 0, 0);  // FE/RrRr west of the start tile
  p.play(return_move(p, 0, -1, "city0"));
  CHECK(p.supply_of(0) == 7);
  CHECK(p.score_of(0) == 0);
  CHECK(p.s.features.data(city).follower_total() == 0);
  CHECK(p.s.awaiting == decision::place_tile);  // no deploy after a return (F-2)
  CHECK(p.s.active == 1);
}

TEST_CASE(
    "a follower on a feature the festival tile completes may be taken back: it scores nothing") {
  position p(festival_setup(false), {"FE/CR", "BA/RFr"});
  p.tile(1, 0, "BA/RCr", 0);  // a city cap open to the north
  p.follower(0, 1, 0, "city0");
  p.place(1, -1, 180);  // FE/CR: city S closes the cap at (1,0)
  p.play(return_move(p, 1, 0, "city0"));
  CHECK(p.score_of(0) == 0);
  CHECK(p.supply_of(0) == 7);
}

TEST_CASE("without a figure of one's own on the board a festival tile offers no return") {
  position p(festival_setup(false), {"FE/RrRr", "BA/RFr"});
  p.follower(1, 0, 0, "road0");
  p.place(-1, 0, 0);
  CHECK(count_returns(p.s) == 0);
  const auto m = return_move(p, 0, 0, "road0");  // Blue's thief
  CHECK(p.refused(m) == error_code::figure_not_allowed);
  auto other = m;
  other.seat = 1;
  CHECK(p.refused(other) == error_code::not_your_turn);
}

TEST_CASE("an ordinary tile offers no return") {
  position p(festival_setup(false), {"BA/RFr", "BA/RFr"});
  p.follower(0, 0, 0, "road0");
  p.place(-1, 0, 0);
  CHECK(count_returns(p.s) == 0);
}

TEST_CASE("EX-18 a shepherd on an inner field scores its placement sheep at once") {
  position p(festival_setup(true, {"sheep2"}), {"FE/CcCc"});
  shepherd_turn(p, 0, -1, 0, "field0");
  CHECK(p.score_of(0) == 2);
  CHECK(hs::bag_size(p.s) == 18);
  CHECK(hs::shepherd_in_supply(p.s, 0));
}

TEST_CASE("returning a shepherd alone: its tokens go back to the bag, nothing scores") {
  position p(festival_setup(true, {"sheep3"}), {"BA/L", "BA/RFr", "FE/RrRr", "BA/L"});
  shepherd_turn(p, 0, 1, 0, "field0");  // Red: sheep3
  p.place(1, 0, 0);                     // Blue extends nothing of note
  p.pass();
  p.place(-1, 0, 0);  // Red: FE/RrRr (a festival tile) west of the start tile
  REQUIRE(legal(p.s, return_move(p, 0, 1, "field0", hills_and_sheep::figure_shepherd)));
  p.play(return_move(p, 0, 1, "field0", hills_and_sheep::figure_shepherd));
  CHECK(hs::shepherd_in_supply(p.s, 0));
  CHECK(hs::bag_size(p.s) == 18);
  CHECK(hs::flocks(p.s).empty());
  CHECK(p.score_of(0) == 0);
  CHECK(p.s.awaiting == decision::place_tile);  // no Grow/Gather: the shepherd is gone
}

TEST_CASE("festival.shepherd_flock = stays: an ownerless flock waits for the next shepherd") {
  position p(festival_setup(true, {"sheep3", "sheep1"}, {{"festival.shepherd_flock", "stays"}}),
             {"BA/L", "BA/RFr", "FE/RrRr", "BA/L", "BA/L"});
  shepherd_turn(p, 0, 1, 0, "field0");  // Red: sheep3
  p.place(1, 0, 0);
  p.pass();
  p.place(-1, 0, 0);
  p.play(return_move(p, 0, 1, "field0", hills_and_sheep::figure_shepherd));
  CHECK(hs::bag_size(p.s) == 17);
  REQUIRE(hs::flocks(p.s).size() == 1);
  CHECK(hs::flocks(p.s)[0].shepherds.empty());
  CHECK(hs::flocks(p.s)[0].sheep == 3);
  // Blue deploys a shepherd on that field: it adopts the flock (sheep1 joins: 4). Red then
  // extends it (Blue's shepherd does not act on Red's turn) and the game ends: nothing scores.
  shepherd_turn(p, 1, 1, 0, "field0");
  REQUIRE(hs::flocks(p.s).size() == 1);
  CHECK(hs::flocks(p.s)[0].shepherds.size() == 1);
  CHECK(hs::flocks(p.s)[0].sheep == 4);
  p.place(0, 2, 0);
  p.pass();
  CHECK(p.s.finished);  // the deck is used up: the flock scores nothing at the end
  CHECK(p.score_of(1) == 0);
}

TEST_CASE("returning a shepherd that shares a flock leaves the whole flock to the others") {
  position p(festival_setup(true, {"sheep3", "sheep1", "sheep2"}),
             {"BA/RFr", "BA/RFr", "BA/LR", "FE/RrRr", "BA/L"});
  shepherd_turn(p, -1, 0, 0, "field0");  // Red: north of the road, sheep3
  shepherd_turn(p, 1, 0, 0, "field1");   // Blue: south of the road, sheep1
  p.place(2, 0, 90);                     // Red: the road ends at the monastery, fields join
  p.pass();
  REQUIRE(p.s.awaiting == hills_and_sheep::decision_flock);
  REQUIRE(hs::flocks(p.s).size() == 1);
  CHECK(hs::flocks(p.s)[0].sheep == 4);
  p.play(p.flock_move(false));  // Grow: sheep2 -> 6
  CHECK(hs::flocks(p.s)[0].sheep == 6);
  // Blue draws the festival tile and takes its shepherd back: Red keeps the whole flock.
  p.place(-2, 0, 0);
  p.play(return_move(p, 1, 0, "field1", hills_and_sheep::figure_shepherd));
  REQUIRE(hs::flocks(p.s).size() == 1);
  CHECK(hs::flocks(p.s)[0].sheep == 6);
  CHECK(hs::flocks(p.s)[0].shepherds.size() == 1);
  CHECK(hs::bag_size(p.s) == 15);
  CHECK(p.score_of(1) == 0);
  REQUIRE(check_invariants(p.s).ok());
}

TEST_CASE("festival.return_scope = followers_only: the shepherd cannot be taken back") {
  for (const char* scope : {"any_figure", "followers_only"}) {
    CAPTURE(scope);
    position p(festival_setup(true, {"sheep3"}, {{"festival.return_scope", scope}}),
               {"BA/L", "BA/RFr", "FE/RrRr", "BA/L"});
    shepherd_turn(p, 0, 1, 0, "field0");
    p.place(1, 0, 0);
    p.pass();
    p.place(-1, 0, 0);
    const bool any = std::string(scope) == "any_figure";
    CHECK(legal(p.s, return_move(p, 0, 1, "field0", hills_and_sheep::figure_shepherd)) == any);
  }
}
