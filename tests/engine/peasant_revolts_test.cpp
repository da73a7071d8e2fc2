// The Peasant Revolts (shared/rules/peasant_revolts.md) as worked positions with exact points:
// EX-12, EX-13, a revolt passing round a 5-seat table, a revolt nobody feels, protection for 4
// and for 2 (negative scores, both protect_for_2 options), two revolts in one turn, setup.
#include <algorithm>
#include <set>
#include <string>

#include "festival/id.hpp"
#include "gifts/id.hpp"
#include "hills_and_sheep/id.hpp"
#include "peasant_revolts/id.hpp"
#include "peasant_revolts/peasant_revolts.hpp"
#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::position;
namespace pr = carcassonne::peasant_revolts;

namespace {

game_setup revolts_setup(int seats, bool with_hills = false,
                         std::vector<std::pair<std::string, std::string>> options = {}) {
  game_setup g;
  g.seats = seats;
  g.expansions.add(peasant_revolts::id);
  if (with_hills) g.expansions.add(hills_and_sheep::id);
  for (const auto& [name, value] : options)
    REQUIRE(g.options.set(name, std::string_view(value)).ok());
  return g;
}

void revolt_fx1(position& p) {
  p.tile(0, -1, "BA/CFc.1", 90).tile(-1, 0, "BA/Rr", 270).tile(1, -1, "BA/C", 0);
  p.tile(1, 0, "BA/RFr", 0).tile(0, 1, "BA/Rr", 270).tile(2, 0, "BA/LR", 90);
}

// A follower of `seat` laid down (protected) on a feature, as if protected earlier.
void lying(position& p, int seat, int x, int y, const std::string& feature) {
  p.follower(seat, x, y, feature);
  p.s.figures.back().mark |= pr::protected_mark;
}

int on_board(const game_state& s, int seat) {
  int n = 0;
  for (const auto& f : s.figures) n += f.seat == seat && f.type == figure_type::meeple;
  return n;
}

int count(const event_log& events, event_type t) {
  int n = 0;
  for (const auto& e : events) n += e.type == t;
  return n;
}

// Passes the figure step and, when offered, protect-for-2; returns every event.
event_log end_turn(position& p) {
  event_log all;
  for (int guard = 0; guard < 2 && (p.s.awaiting == decision::figure ||
                                    p.s.awaiting == peasant_revolts::decision_protect);
       ++guard) {
    const auto e = p.pass();
    all.insert(all.end(), e.begin(), e.end());
  }
  REQUIRE(p.s.awaiting != decision::figure);
  REQUIRE(p.s.awaiting != peasant_revolts::decision_protect);
  return all;
}

move protect_move(const position& p, int x, int y, const std::string& feature) {
  auto m = p.deploy_move(x, y, feature);
  m.type = peasant_revolts::move_protect;
  return m;
}

}  // namespace

TEST_CASE("EX-12 a thief deployed with protection costs 4: 3 - 4 = -1") {
  position p(revolts_setup(2), {"BA/RFr", "BA/L"});
  revolt_fx1(p);
  p.score(0, 3);
  p.place(1, 1, 0);  // extends R2 to (0,1),(1,1)
  auto m = p.deploy_move(1, 1, "road0");
  m.protect = true;
  p.play(m);
  CHECK(p.score_of(0) == -1);
  REQUIRE(p.s.figures.size() == 1);
  CHECK(pr::is_protected(p.s.figures[0]));
  CHECK(p.s.awaiting == decision::place_tile);  // no protect-for-2: a figure was deployed
  CHECK(p.s.active == 1);
}

TEST_CASE("protection for 4 is offered only on roads, cities and monasteries of the new tile") {
  position p(revolts_setup(2), {"BA/RCr", "BA/L"});
  p.place(0, -1, 180);  // BA/RCr upside down: its city joins the start's
  int protected_deploys = 0;
  for (const auto& m : legal_actions(p.s))
    if (m.type == move_type::deploy && m.protect) {
      ++protected_deploys;
      CHECK(tiles()[p.s.board.placed()[p.s.placed].type].segments[m.feature].kind !=
            feature_kind::field);
    }
  CHECK(protected_deploys == 2);  // city0 and road0, not the two fields
}

TEST_CASE("EX-13 a revolt hits the player who drew it") {
  position p(revolts_setup(2), {"BA/L", "PR/07", "BA/L"});
  revolt_fx1(p);
  p.follower(0, 1, 0, "road0");
  lying(p, 0, 0, 1, "road0");
  p.follower(0, -1, 0, "field0");
  p.follower(1, 0, -1, "city0").follower(1, 2, 0, "monastery0");
  p.to_move(1);
  p.place(3, 0, 0);  // Blue's tile, out of the way
  const auto events = end_turn(p);
  // Red draws PR/07 (road): the protected thief scores 2, the unprotected one goes home.
  CHECK(count(events, peasant_revolts::event_revolt) == 1);
  CHECK(p.score_of(0) == 2);
  CHECK(p.score_of(1) == 0);
  CHECK(on_board(p.s, 0) == 2);  // the lying thief and the farmer
  CHECK(p.supply_of(0) == 5);
  CHECK(on_board(p.s, 1) == 2);  // Blue was not checked
  CHECK(p.s.awaiting == decision::place_tile);
  CHECK(tiles()[p.s.drawn].id == "PR/07");
  p.place(1, 1, 0);  // then Red places PR/07 normally
  CHECK(p.s.awaiting == decision::figure);
}

TEST_CASE("a city revolt passes round a 5-seat table until a seat loses a follower") {
  position p(revolts_setup(5), {"BA/RFr", "PR/01", "BA/L"});
  p.follower(0, 0, 0, "city0");  // seat 0: never reached
  p.follower(2, 0, 0, "road0");  // seat 2 (draws): no city follower, passes it on
  lying(p, 3, 0, 0, "city0");    // seat 3: two lying knights, +4, passes it on
  lying(p, 3, 0, 0, "city0");
  lying(p, 4, 0, 0, "city0");  // seat 4: +2 and loses its standing knight: the revolt ends
  p.follower(4, 0, 0, "city0");
  p.to_move(1);
  p.place(-1, 0, 0);
  const auto events = end_turn(p);
  CHECK(count(events, peasant_revolts::event_revolt) == 1);
  CHECK(p.score_of(2) == 0);
  CHECK(p.score_of(3) == 4);
  CHECK(p.score_of(4) == 2);
  CHECK(p.score_of(0) == 0);
  CHECK(on_board(p.s, 4) == 1);
  CHECK(on_board(p.s, 0) == 1);  // not reached: the knight stays
  CHECK(on_board(p.s, 3) == 2);
  CHECK(on_board(p.s, 2) == 1);  // the thief is not on a city
}

TEST_CASE("a revolt nobody feels checks every seat once and changes nothing") {
  position p(revolts_setup(3), {"BA/RFr", "PR/10", "BA/L"});  // PR/10: monastery revolt
  p.follower(0, 0, 0, "road0").follower(1, 0, 0, "city0").follower(2, 0, 0, "field1");
  const auto before = p.s.figures;
  p.place(-1, 0, 0);
  const auto events = end_turn(p);
  CHECK(count(events, peasant_revolts::event_revolt) == 1);
  CHECK(count(events, event_type::figure_returned) == 0);
  CHECK(p.s.figures == before);
  for (int seat = 0; seat < 3; ++seat) CHECK(p.score_of(seat) == 0);
}

TEST_CASE("protection for 2 when no figure was deployed: the score goes below zero") {
  position p(revolts_setup(2), {"BA/RFr", "BA/L"});
  p.follower(0, 0, 0, "road0").follower(0, 0, 0, "field1");
  p.place(-1, 0, 0);
  p.pass();  // no figure deployed: step 9 offers the thief (never the farmer) or pass
  REQUIRE(p.s.awaiting == peasant_revolts::decision_protect);
  const auto moves = legal_actions(p.s);
  REQUIRE(moves.size() == 2);
  CHECK(moves[0] == protect_move(p, 0, 0, "road0"));
  CHECK(moves[1].type == move_type::pass);
  CHECK(p.refused(protect_move(p, 0, 0, "field1")) == error_code::figure_not_allowed);
  p.play(protect_move(p, 0, 0, "road0"));
  CHECK(p.score_of(0) == -2);
  CHECK(pr::is_protected(p.s.figures[0]));
  CHECK(p.s.active == 1);
}

TEST_CASE("protect-for-2 may be passed; a protected follower is not offered again") {
  position p(revolts_setup(2), {"BA/RFr", "BA/RFr", "BA/L"});
  lying(p, 0, 0, 0, "road0");
  p.follower(0, 0, 0, "city0");
  p.place(-1, 0, 0);
  p.pass();
  REQUIRE(p.s.awaiting == peasant_revolts::decision_protect);
  CHECK(legal_actions(p.s).size() == 2);  // the knight, pass (not the lying thief)
  p.pass();
  CHECK(p.score_of(0) == 0);
  CHECK(p.s.active == 1);
}

TEST_CASE(
    "revolts.protect_for_2: deploying the shepherd blocks it by default, not under "
    "no_follower_deployed") {
  for (const char* rule : {"no_figure_deployed", "no_follower_deployed"}) {
    CAPTURE(rule);
    game_setup g = revolts_setup(2, true, {{"revolts.protect_for_2", rule}});
    g.script.draws["sheep"] = {"sheep1"};
    position p(g, {"BA/L", "BA/L"});
    p.follower(0, 0, 0, "road0");
    p.place(0, 1, 0);
    auto m = p.deploy_move(0, 1, "field0");
    m.figure = hills_and_sheep::figure_shepherd;
    p.play(m);
    CHECK((p.s.awaiting == peasant_revolts::decision_protect) ==
          (std::string(rule) == "no_follower_deployed"));
  }
}

TEST_CASE(
    "a revolt tile that cannot be placed revolts, is discarded, and the next one revolts too") {
  position p(revolts_setup(2), {"BA/RRR", "PR/10", "PR/07", "BA/L"});
  p.place(0, 1,
          0);  // every open square now needs a road or a city: PR/10 (all fields) fits nowhere
  p.follower(1, 0, 0, "road0");
  const auto events = end_turn(p);
  CHECK(count(events, peasant_revolts::event_revolt) == 2);
  CHECK(count(events, event_type::tile_discarded) == 1);
  REQUIRE(p.s.discarded.size() == 1);
  CHECK(tiles()[p.s.discarded[0]].id == "PR/10");
  CHECK(tiles()[p.s.drawn].id == "PR/07");
  CHECK(on_board(p.s, 1) == 0);  // the road revolt sent Blue's thief home
}

TEST_CASE("a returned protected follower loses its protection") {
  position p(revolts_setup(2), {"BA/C", "BA/L"});
  lying(p, 0, 0, 0, "city0");
  p.to_move(1);
  p.place(0, -1, 180);  // Blue closes the start's city: Red's knight scores and comes home
  end_turn(p);
  CHECK(p.score_of(0) == 4);
  CHECK(on_board(p.s, 0) == 0);
}

TEST_CASE("setup: 3 of the 12 revolt tiles are set aside, secretly and by the seed") {
  std::set<std::vector<std::uint8_t>> seen;
  for (const char* seed : {"a", "b", "c", "d"}) {
    game_setup g = revolts_setup(2);
    g.seed = seed;
    const auto s = new_game(g).value();
    const auto& aside = s.ext.get<peasant_revolts::state>().set_aside;
    REQUIRE(aside.size() == 3);
    int in_supply = 0;
    for (auto t : s.supply) in_supply += peasant_revolts::is_revolt_tile(t);
    CHECK(in_supply == 9);
    CHECK(s.supply.size() == 71 + 9);
    for (auto t : aside) {
      CHECK(peasant_revolts::is_revolt_tile(t));
      CHECK(std::count(s.supply.begin(), s.supply.end(), t) == 0);
    }
    seen.insert(aside);
    CHECK(new_game(g).value() == s);  // the same seed sets the same tiles aside
  }
  CHECK(seen.size() > 1);

  game_setup g = revolts_setup(2);
  g.script.draws["revolt_removed"] = {"PR/01", "PR/02", "PR/12"};
  const auto s = new_game(g).value();
  CHECK(s.ext.get<peasant_revolts::state>().set_aside.size() == 3);
  CHECK(std::count(s.supply.begin(), s.supply.end(), *tiles().find("PR/12")) == 0);
  g.script.draws["revolt_removed"] = {"PR/01", "PR/01", "PR/12"};
  CHECK(new_game(g).err().code == error_code::bad_script);
  g.script.draws["revolt_removed"] = {"PR/01", "BA/L", "PR/12"};
  CHECK(new_game(g).err().code == error_code::bad_script);
  g.script.draws["revolt_removed"] = {"PR/01"};
  CHECK(new_game(g).err().code == error_code::bad_script);
}

// ---- with the Festival and the Gifts
// ----------------------------------------------------------------

namespace {
game_setup with(std::initializer_list<expansion> more,
                std::vector<std::pair<std::string, std::string>> options = {}) {
  game_setup g = revolts_setup(2);
  for (auto e : more) g.expansions.add(e);
  for (const auto& [name, value] : options)
    REQUIRE(g.options.set(name, std::string_view(value)).ok());
  return g;
}
void give_card(position& p, int seat, int card) {
  auto& st = p.s.ext.get<gifts::state>();
  const auto it = std::find(st.deck.begin(), st.deck.end(), static_cast<std::uint8_t>(card));
  REQUIRE(it != st.deck.end());
  st.deck.erase(it);
  st.hands[seat].push_back(static_cast<std::uint8_t>(card));
}
}  // namespace

TEST_CASE(
    "Festival: a protected follower taken back loses its protection; protect-for-2 stays open") {
  position p(with({festival::id}), {"FE/RrRr", "BA/L"});
  lying(p, 0, 0, 0, "city0");
  p.follower(0, 0, 0, "road0");
  p.place(-1, 0, 0);  // a festival tile
  auto back = p.deploy_move(0, 0, "city0");
  back.type = festival::move_return_figure;
  p.play(back);
  CHECK(p.supply_of(0) == 6);
  for (const auto& f : p.s.figures) CHECK_FALSE(pr::is_protected(f));
  REQUIRE(p.s.awaiting == peasant_revolts::decision_protect);  // a return is not a deployment (R-1)
  p.play(protect_move(p, 0, 0, "road0"));
  CHECK(p.score_of(0) == -2);
}

TEST_CASE("Gifts: Synod may protect its monk for 4") {
  position p(with({gifts::id}), {"BA/RFr", "BA/L"});
  p.tile(0, 1, "BA/L", 0);
  lying(p, 0, 0, 0, "road0");
  give_card(p, 0, 0);  // synod
  auto synod = p.deploy_move(0, 1, "monastery0");
  synod.type = gifts::move_open_gift;
  synod.choice = 0;
  synod.has_target = true;
  synod.protect = true;
  p.play(synod);
  CHECK(p.score_of(0) == -4);
  int lying_monks = 0;
  for (const auto& f : p.s.figures)
    lying_monks += pr::is_protected(f) && f.segment == p.feature(0, 1, "monastery0");
  CHECK(lying_monks == 1);
}

TEST_CASE("Gifts: Take 2 extra draws revolt unless revolts.extra_draws_trigger is false") {
  for (const char* trigger : {"true", "false"}) {
    CAPTURE(trigger);
    game_setup g = with({gifts::id});
    REQUIRE(g.options.set("revolts.extra_draws_trigger", std::string(trigger) == "true").ok());
    position p(g, {"BA/RFr", "PR/07", "BA/L"});
    p.follower(0, 0, 0, "road0");
    give_card(p, 0, 4);  // take_two
    auto m = move{.type = gifts::move_open_gift, .seat = 0, .choice = 4};
    const auto events = p.play(m);
    CHECK(count(events, peasant_revolts::event_revolt) == (std::string(trigger) == "true" ? 1 : 0));
    CHECK(on_board(p.s, 0) == (std::string(trigger) == "true" ? 0 : 1));
    REQUIRE(p.s.awaiting == gifts::decision_choose_tile);
  }
}

TEST_CASE(
    "of two followers of one seat on a segment, Cash Out and the Festival take the unprotected "
    "one") {
  position p(with({gifts::id, festival::id}), {"FE/RrRr", "BA/L"});
  lying(p, 0, 0, 0, "city0");
  p.follower(0, 0, 0, "city0");
  give_card(p, 0, 2);  // cash_out
  auto cash = p.deploy_move(0, 0, "city0");
  cash.type = gifts::move_open_gift;
  cash.choice = 2;
  cash.has_target = true;
  p.play(cash);
  CHECK(p.score_of(0) == 4);
  REQUIRE(on_board(p.s, 0) == 1);
  CHECK(pr::is_protected(p.s.figures[0]));  // the lying knight stays
  p.follower(0, 0, 0, "city0");
  p.place(-1, 0, 0);  // a festival tile
  auto back = p.deploy_move(0, 0, "city0");
  back.type = festival::move_return_figure;
  p.play(back);
  REQUIRE(on_board(p.s, 0) == 1);
  CHECK(pr::is_protected(p.s.figures[0]));
}
