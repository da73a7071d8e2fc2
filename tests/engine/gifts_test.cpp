// The Gifts (shared/rules/gifts.md) as worked positions with exact points: EX-08..EX-11, receipt
// when the majority changes with the placement (both receipt_owners options), Road Sweeper with
// several players, each Change Position direction and its illegal cases, Take 2 (unplaceable
// extra draw, empty supply, the leftover going back), the reshuffle, the end scoring.
#include <algorithm>
#include <string>

#include "gifts/gifts.hpp"
#include "gifts/id.hpp"
#include "hills_and_sheep/id.hpp"
#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::legal;
using carcassonne::testing::position;
namespace gf = carcassonne::gifts;

namespace {

game_setup gifts_setup(int seats, std::vector<std::pair<std::string, std::string>> options = {},
                       bool with_hills = false) {
  game_setup g;
  g.seats = seats;
  g.seed = "gifts-test";
  g.expansions.add(gifts::id);
  if (with_hills) g.expansions.add(hills_and_sheep::id);
  for (const auto& [name, value] : options)
    REQUIRE(g.options.set(name, std::string_view(value)).ok());
  return g;
}

// Moves a card of the kind from the deck into the seat's hand (as if received earlier).
void give(position& p, int seat, gf::card c) {
  auto& st = p.s.ext.get<gifts::state>();
  const auto it = std::find(st.deck.begin(), st.deck.end(), static_cast<std::uint8_t>(c));
  REQUIRE(it != st.deck.end());
  st.deck.erase(it);
  st.hands[seat].push_back(static_cast<std::uint8_t>(c));
}

move open_move(const position& p, gf::card c) {
  return move{
      .type = gifts::move_open_gift, .seat = p.s.active, .choice = static_cast<std::uint8_t>(c)};
}
move open_move(const position& p, gf::card c, int x, int y, const std::string& feature) {
  auto m = p.deploy_move(x, y, feature);
  m.type = gifts::move_open_gift;
  m.choice = static_cast<std::uint8_t>(c);
  m.has_target = true;
  return m;
}

std::size_t hand(const position& p, int seat) {
  return p.s.ext.get<gifts::state>().hands[seat].size();
}

}  // namespace

TEST_CASE("EX-08 one gift for extending others' road and city, however many") {
  position p(gifts_setup(3), {"BA/RCr", "BA/L"});
  p.tile(-1, 0, "BA/RFr", 0).tile(0, -1, "BA/C", 180).tile(1, -1, "BA/C", 180);
  p.follower(1, -1, 0, "road0").follower(2, 1, -1, "city0");
  p.place(1, 0, 0);
  CHECK(hand(p, 0) == 1);
  CHECK(p.s.ext.get<gifts::state>().deck.size() == 24);
  p.pass();
  CHECK(p.score_of(2) == 4);
  CHECK(p.score_of(1) == 0);
}

TEST_CASE("EX-09 Synod: a second Red monk wins the monastery 2-1-1") {
  position p(gifts_setup(3), {"BA/C", "BA/L"});
  p.tile(-1, 0, "BA/RFr", 0).tile(1, 0, "BA/RFr", 0).tile(-1, 1, "BA/C", 180).tile(0, 1, "BA/L", 0);
  p.tile(1, 1, "BA/C", 180).tile(-1, 2, "BA/C", 0).tile(0, 2, "BA/C", 180);
  p.follower(0, 0, 1, "monastery0").follower(1, 0, 1, "monastery0").follower(2, 0, 1, "monastery0");
  give(p, 0, gf::card::synod);
  p.play(open_move(p, gf::card::synod, 0, 1, "monastery0"));
  CHECK(p.supply_of(0) == 5);
  CHECK(p.s.awaiting == decision::place_tile);
  CHECK_FALSE(legal(p.s, open_move(p, gf::card::synod, 0, 1, "monastery0")));  // one per turn
  p.place(1, 2, 0);
  if (p.s.awaiting == decision::figure) p.pass();
  CHECK(p.score_of(0) == 9);
  CHECK(p.score_of(1) == 0);
  CHECK(p.score_of(2) == 0);
  CHECK(p.supply_of(0) == 7);
  CHECK(hand(p, 0) == 0);  // the extended city had no follower: no gift
  CHECK(p.s.ext.get<gifts::state>().discard.size() == 1);
}

TEST_CASE("EX-10 Cash Out: 2 points per follower on the city, the one taken back included") {
  position p(gifts_setup(3), {"BA/RFr", "BA/L"});
  p.tile(0, -1, "BA/Cc.1", 180).tile(1, 0, "BA/RCr", 0).tile(0, -2, "BA/L", 0);
  p.tile(1, -2, "BA/CFc+", 90).tile(1, -1, "BA/Ccc", 270);
  p.follower(0, 0, -1, "city0").follower(1, 1, 0, "city0").follower(2, 1, -2, "city0");
  REQUIRE(p.s.features.data(p.feature(0, -1, "city0")).follower_total() == 3);
  give(p, 0, gf::card::cash_out);
  p.play(open_move(p, gf::card::cash_out, 0, -1, "city0"));
  CHECK(p.score_of(0) == 6);
  CHECK(p.supply_of(0) == 7);
  CHECK(p.s.features.data(p.feature(0, -1, "city0")).follower_total() == 2);
  CHECK_FALSE(p.s.features.data(p.feature(0, -1, "city0")).scored);
}

TEST_CASE("EX-11 Road Sweeper on an opponent's road, then Red takes the road") {
  position p(gifts_setup(2), {"BA/RFr", "BA/L"});
  p.tile(-1, 0, "BA/RFr", 0).tile(1, 0, "BA/RFr", 0);
  p.follower(1, 1, 0, "road0");
  give(p, 0, gf::card::road_sweeper);
  p.play(open_move(p, gf::card::road_sweeper, 0, 0, "road0"));  // any segment names the road
  CHECK(p.score_of(1) == 3);
  CHECK(p.supply_of(1) == 7);
  p.place(2, 0, 0);
  CHECK(hand(p, 0) == 0);  // the road had no follower when the tile was placed
  p.deploy(2, 0, "road0");
  CHECK(p.s.features.data(p.feature(2, 0, "road0")).followers[0] == 1);
}

TEST_CASE("Road Sweeper with several players: the owners score, everybody goes home") {
  position p(gifts_setup(3), {"BA/RFr", "BA/L"});
  p.tile(-1, 0, "BA/RFr", 0).tile(1, 0, "BA/RFr", 0);
  p.follower(1, 1, 0, "road0").follower(1, -1, 0, "road0").follower(2, 0, 0, "road0");
  give(p, 0, gf::card::road_sweeper);
  p.play(open_move(p, gf::card::road_sweeper, 1, 0, "road0"));
  CHECK(p.score_of(1) == 3);
  CHECK(p.score_of(2) == 0);
  CHECK(p.supply_of(1) == 7);
  CHECK(p.supply_of(2) == 7);
}

TEST_CASE("receipt is judged on the joined feature: outnumbered gets a gift, tied does not") {
  for (int blue = 1; blue <= 2; ++blue) {
    CAPTURE(blue);
    position p(gifts_setup(2), {"BA/RFr", "BA/L"});
    p.tile(-1, 0, "BA/RFr", 0)
        .tile(0, -1, "BA/C", 180)
        .tile(1, -1, "BA/L", 0)
        .tile(2, -1, "BA/L", 0);
    p.tile(2, 0, "BA/RFr", 0);  // a separate road east of the gap at (1,0)
    p.follower(0, -1, 0, "road0");
    for (int i = 0; i < blue; ++i) p.follower(1, 2, 0, "road0");
    p.place(1, 0, 0);  // joins both roads
    CHECK(hand(p, 0) == (blue == 2 ? 1u : 0u));
  }
}

TEST_CASE("gifts.receipt_owners: a tie broken by a hill gives a gift only with the tie-break") {
  for (const char* rule : {"with_tiebreak", "followers_only"}) {
    CAPTURE(rule);
    position p(gifts_setup(2, {{"gifts.receipt_owners", rule}}, true), {"BA/RFr", "BA/L"});
    p.tile(-1, 0, "HS/RFR.h", 90);  // a hill: its east road joins the start's road
    p.tile(0, -1, "BA/C", 180)
        .tile(1, -1, "BA/L", 0)
        .tile(2, -1, "BA/L", 0)
        .tile(2, 0, "BA/RFr", 0);
    p.follower(1, -1, 0, "road0");  // Blue on the hill
    p.follower(0, 2, 0, "road0");   // Red not
    p.place(1, 0, 0);
    CHECK(hand(p, 0) == (std::string(rule) == "with_tiebreak" ? 1u : 0u));
  }
}

TEST_CASE("Change Position: a farmer stands up, a knight lies down; other moves are not offered") {
  position p(gifts_setup(2), {"BA/RFr", "BA/L"});
  p.tile(1, 0, "BA/RCr", 0).tile(0, -1, "BA/C", 180);  // the start's city is completed
  p.follower(0, 0, 0, "field1").follower(0, 1, 0, "city0");
  give(p, 0, gf::card::change_position);
  auto to = [&](int x, int y, const std::string& from, const std::string& target) {
    auto m = open_move(p, gf::card::change_position, x, y, from);
    const int t = p.s.board.tile_at({static_cast<std::int16_t>(x), static_cast<std::int16_t>(y)});
    m.to = static_cast<std::uint8_t>(*tiles()[p.s.board.placed()[t].type].segment_index(target));
    return m;
  };
  CHECK(legal(p.s, to(0, 0, "field1", "road0")));         // farmer -> road
  CHECK_FALSE(legal(p.s, to(0, 0, "field1", "city0")));   // the start's city is completed
  CHECK_FALSE(legal(p.s, to(0, 0, "field1", "field0")));  // field -> field: no change of role
  CHECK(legal(p.s, to(1, 0, "city0", "field0")));         // knight -> field
  CHECK_FALSE(legal(p.s, to(1, 0, "city0", "road0")));    // city -> road: no change of role
  p.play(to(0, 0, "field1", "road0"));
  CHECK(p.s.features.data(p.feature(0, 0, "road0")).followers[0] == 1);
  CHECK(p.s.features.data(p.feature(0, 0, "field1")).followers[0] == 0);
  CHECK(p.supply_of(0) == 5);
}

TEST_CASE("a card with no possible effect is opened alone and still used up") {
  position p(gifts_setup(2), {"BA/RFr", "BA/L"});
  give(p, 0, gf::card::cash_out);
  CHECK(legal(p.s, open_move(p, gf::card::cash_out)));
  p.play(open_move(p, gf::card::cash_out));
  CHECK(hand(p, 0) == 0);
  CHECK(p.s.ext.get<gifts::state>().discard.size() == 1);
}

TEST_CASE("Take 2: an unplaceable extra draw is discarded; the tile not chosen goes back") {
  game_setup g = gifts_setup(2);
  position p(g, {"BA/RFr", "BA/Cccc+", "BA/L", "BA/C", "BA/C"});
  p.tile(0, -1, "BA/C", 180);  // no open square takes an all-city tile any more
  give(p, 0, gf::card::take_two);
  p.play(open_move(p, gf::card::take_two));
  REQUIRE(p.s.awaiting == gifts::decision_choose_tile);
  REQUIRE(p.s.discarded.size() == 1);
  CHECK(tiles()[p.s.discarded[0]].id == "BA/Cccc+");
  CHECK(tiles()[static_cast<tile_type_id>(p.s.ext.get<gifts::state>().extra)].id == "BA/L");
  p.play(move{.type = gifts::move_choose_tile, .seat = 0, .choice = 1});  // place BA/L
  CHECK(tiles()[p.s.drawn].id == "BA/L");
  REQUIRE(check_invariants(p.s).ok());
  p.place(0, 1, 0);
  // BA/RFr went back to the bottom of the scripted deck: two tiles, then it.
  CHECK(p.s.tiles_left() == 3);
  CHECK(tiles()[p.s.supply.back()].id == "BA/RFr");
  REQUIRE(check_invariants(p.s).ok());
}

TEST_CASE("Take 2 with an empty supply has no effect") {
  position p(gifts_setup(2), {"BA/RFr"});
  give(p, 0, gf::card::take_two);
  p.play(open_move(p, gf::card::take_two));
  CHECK(p.s.awaiting == decision::place_tile);
  CHECK(p.s.ext.get<gifts::state>().extra == -1);
}

TEST_CASE("Take 2 in a seeded game puts the leftover back among the tiles to come") {
  game_setup g = gifts_setup(2);
  g.seed = "take-two";
  auto s = new_game(g).value();
  const auto c = static_cast<std::uint8_t>(gf::card::take_two);
  s.ext.get<gifts::state>().deck.erase(
      std::find(s.ext.get<gifts::state>().deck.begin(), s.ext.get<gifts::state>().deck.end(), c));
  s.ext.get<gifts::state>().hands[0].push_back(c);
  const auto left_before = s.tiles_left();
  REQUIRE(apply_in_place(s, move{.type = gifts::move_open_gift, .seat = 0, .choice = c}).ok());
  REQUIRE(s.awaiting == gifts::decision_choose_tile);
  const auto leftover = s.drawn;  // choose the extra one: the first goes back
  REQUIRE(apply_in_place(s, move{.type = gifts::move_choose_tile, .seat = 0, .choice = 1}).ok());
  const auto moves = legal_actions(s);
  REQUIRE(apply_in_place(s, moves.front()).ok());
  CHECK(s.tiles_left() >= left_before - 1);
  CHECK(std::find(s.supply.begin() + s.next_draw, s.supply.end(), leftover) != s.supply.end());
  CHECK(check_invariants(s).ok());
}

TEST_CASE("an empty deck is refilled from the discard pile; with every card in hands, no gift") {
  position p(gifts_setup(3), {"BA/RCr", "BA/L"});
  p.tile(-1, 0, "BA/RFr", 0).tile(0, -1, "BA/C", 180).tile(1, -1, "BA/C", 180);
  p.follower(1, -1, 0, "road0");
  auto& st = p.s.ext.get<gifts::state>();
  // Everything but one synod in hands, that synod on the discard pile.
  while (!st.deck.empty()) {
    st.hands[1].push_back(st.deck.back());
    st.deck.pop_back();
  }
  auto& h = st.hands[1];
  h.erase(std::find(h.begin(), h.end(), static_cast<std::uint8_t>(gf::card::synod)));
  st.discard.push_back(static_cast<std::uint8_t>(gf::card::synod));
  REQUIRE(check_invariants(p.s).ok());
  p.place(1, 0, 0);
  REQUIRE(hand(p, 0) == 1);
  CHECK(st.hands[0][0] == static_cast<std::uint8_t>(gf::card::synod));
  CHECK(st.discard.empty());
  CHECK(st.deck.empty());
}

TEST_CASE("unopened cards score 2 each at the end") {
  position p(gifts_setup(2), {"BA/RFr"});
  give(p, 0, gf::card::synod);
  give(p, 0, gf::card::take_two);
  give(p, 1, gf::card::cash_out);
  p.place(-1, 0, 0);
  if (p.s.awaiting == decision::figure) p.pass();
  REQUIRE(p.s.finished);
  CHECK(p.score_of(0) == 4);
  CHECK(p.score_of(1) == 2);
}
