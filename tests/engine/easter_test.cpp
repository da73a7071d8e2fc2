// Easter in Carcassonne (shared/rules/easter.md) as worked positions: EX-14, EX-15 and EX-16 of
// examples.md, nests (several seats, several nests, a nest placed into a hole, nest_timing),
// the bunny under both variants (placement, timing, paths blocked by gaps and by visited squares,
// a stuck bunny), the die (scripted, exhausted, fixed_2), shepherds' eggs, and egg points with
// ties under easter.second_place.
#include <algorithm>
#include <string>

#include "easter/easter.hpp"
#include "easter/id.hpp"
#include "festival/id.hpp"
#include "hills_and_sheep/id.hpp"
#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::position;

namespace {

using square_list = std::vector<std::pair<int, int>>;

game_setup easter_setup(std::vector<std::string> dice = {},
                        std::vector<std::pair<std::string, std::string>> options = {},
                        bool with_hills = false) {
  game_setup g;
  g.expansions.add(easter::id);
  if (with_hills) g.expansions.add(hills_and_sheep::id);
  if (!dice.empty()) g.script.draws["dice"] = std::move(dice);
  for (const auto& [name, value] : options) {
    if (value == "true" || value == "false")
      REQUIRE(g.options.set(name, value == "true").ok());
    else
      REQUIRE(g.options.set(name, std::string_view(value)).ok());
  }
  return g;
}

game_setup with_seats(game_setup g, int seats) {
  g.seats = seats;
  return g;
}

std::vector<int> eggs_of(const position& p) {
  std::vector<int> out;
  for (int seat = 0; seat < p.s.seats; ++seat) out.push_back(easter::eggs(p.s, seat));
  return out;
}

std::vector<int> scores_of(const position& p) {
  std::vector<int> out;
  for (int seat = 0; seat < p.s.seats; ++seat) out.push_back(p.score_of(seat));
  return out;
}

square_pos sq(int x, int y) {
  return {static_cast<std::int16_t>(x), static_cast<std::int16_t>(y)};
}

// The paths offered to the seat whose go it is, as lists of squares.
std::vector<square_list> offered_paths(const game_state& s) {
  std::vector<square_list> out;
  for (const auto& m : legal_actions(s)) {
    REQUIRE(m.type == easter::move_bunny);
    square_list path;
    for (int i = 0; i < m.path_length; ++i) path.emplace_back(m.path[i].x, m.path[i].y);
    out.push_back(path);
  }
  return out;
}

int count(const event_log& events, event_type type) {
  return static_cast<int>(
      std::count_if(events.begin(), events.end(), [&](const event& e) { return e.type == type; }));
}

// EX-14's board and figures (shared/rules/examples.md): the nest EA/04 at (0,1), one square
// missing around it, at (1,2).
position ex14(game_setup setup, const std::vector<std::string>& deck = {"BA/C", "BA/L"}) {
  position p(with_seats(std::move(setup), 3), deck);
  p.tile(-1, 0, "BA/RFr", 0).tile(1, 0, "BA/RFr", 0).tile(-1, 1, "BA/C", 180);
  p.tile(0, 1, "EA/04", 0).tile(1, 1, "BA/C", 180).tile(-1, 2, "BA/C", 0).tile(0, 2, "BA/C", 180);
  p.follower(0, 1, 0, "road0").follower(1, -1, 1, "field0").follower(2, 0, 2, "city0");
  return p;
}

// EX-15's board and figures: a row (0,0)-(2,0) with a monastery under (1,0).
position ex15(game_setup setup, const std::vector<std::string>& deck = {"EA/01", "BA/L"}) {
  position p(with_seats(std::move(setup), 3), deck);
  p.tile(1, 0, "BA/RFr", 0).tile(2, 0, "BA/RFr", 0).tile(1, 1, "BA/L", 0);
  p.follower(1, 1, 0, "road0").follower(0, 2, 0, "field1").follower(2, 1, 1, "monastery0");
  return p;
}

}  // namespace

// ---- nests -------------------------------------------------------------------------------------

TEST_CASE("EX-14 a nest surrounded: 2 eggs to the placer, 1 per follower on its 9 squares") {
  position p = ex14(easter_setup());
  p.place(1, 2, 0);
  CHECK(eggs_of(p) == std::vector<int>{0, 0, 0});  // Red may still put a knight on the city
  const auto events = p.pass();
  CHECK(eggs_of(p) == std::vector<int>{3, 1, 1});
  CHECK(scores_of(p) == std::vector<int>{0, 0, 0});
  CHECK(count(events, easter::event_nest_scored) == 1);
  // Step 12 after step 11: the nest's events follow the completed features'.
  const auto first_nest = std::find_if(events.begin(), events.end(), [](const event& e) {
    return e.type == easter::event_nest_scored;
  });
  CHECK(std::none_of(first_nest, events.end(),
                     [](const event& e) { return e.type == event_type::feature_completed; }));
  CHECK(p.s.active == 1);
  CHECK(p.s.awaiting == decision::place_tile);
}

TEST_CASE(
    "nest timing: a knight scored at step 11 lays no egg, unless nests score during scoring") {
  for (const char* timing : {"after_scoring", "during_scoring"}) {
    CAPTURE(timing);
    position p = ex14(easter_setup({}, {{"easter.nest_timing", timing}}));
    p.follower(1, 1, 1, "city0");          // Blue's knight on the city Red's tile completes
    const auto events = p.place(1, 2, 0);  // Red has no free feature: no figure step
    CHECK(p.s.awaiting == decision::place_tile);
    CHECK(p.score_of(1) == 4);
    CHECK(p.supply_of(1) == 6);  // the knight is back, the farmer still out
    const bool during = std::string(timing) == "during_scoring";
    CHECK(eggs_of(p) == std::vector<int>{3, during ? 2 : 1, 1});
    // during_scoring: the nest (step 10a) comes before the city's scoring (step 11).
    const auto nest = std::find_if(events.begin(), events.end(), [](const event& e) {
      return e.type == easter::event_nest_scored;
    });
    const auto city = std::find_if(events.begin(), events.end(), [](const event& e) {
      return e.type == event_type::feature_completed;
    });
    REQUIRE(nest != events.end());
    REQUIRE(city != events.end());
    CHECK((nest < city) == during);
  }
}

TEST_CASE("one tile surrounding two nests: 2 eggs each to the placer, figures counted per nest") {
  position p(with_seats(easter_setup(), 3), {"BA/L", "BA/L"});
  // Rows y = 1..3, x = -1..3, all-field tiles; nests at (0,2) and (2,2); (1,2) left open.
  for (int y = 1; y <= 3; ++y)
    for (int x : {0, 1, 2, 3, -1}) {  // each square next to one placed before
      if (x == 1 && y == 2) continue;
      p.tile(x, y, (x == 0 || x == 2) && y == 2 ? "EA/04" : "BA/L", 0);
    }
  p.follower(0, 1, 1, "monastery0");   // Red: in both nests' areas
  p.follower(1, -1, 1, "monastery0");  // Blue: first nest only
  p.follower(2, 3, 3, "field0");       // Green: second nest only
  p.follower(2, 0, 0, "field0");       // Green on the start tile: in no nest's area
  p.place(1, 2, 0);
  CHECK(eggs_of(p) == std::vector<int>{0, 0, 0});
  const auto events = p.pass();
  CHECK(count(events, easter::event_nest_scored) == 2);
  CHECK(eggs_of(p) == std::vector<int>{2 + 2 + 2, 1, 1});
}

TEST_CASE("a nest placed into a hole whose 8 neighbours are all there is scored at once") {
  position p(with_seats(easter_setup(), 2), {"EA/04", "BA/L"});
  for (const auto& [x, y] :
       square_list{{0, 1}, {-1, 1}, {1, 1}, {-1, 2}, {1, 2}, {-1, 3}, {0, 3}, {1, 3}})
    p.tile(x, y, "BA/L", 0);
  p.follower(1, -1, 3, "monastery0");
  p.follower(1, 1, 1, "field0");
  p.follower(0, -1, 1, "monastery0");
  p.to_move(1);
  p.place(0, 2, 0);
  p.pass();
  CHECK(eggs_of(p) == std::vector<int>{1, 2 + 2});
}

TEST_CASE("a nest not surrounded gives nothing, during play or at the end") {
  position p(with_seats(easter_setup(), 2), {"BA/L"});
  p.tile(0, 1, "EA/04", 0);
  p.follower(1, 0, 1, "monastery0");
  p.place(-1, 1, 0);
  p.pass();
  REQUIRE(p.s.finished);
  CHECK(eggs_of(p) == std::vector<int>{0, 0});
  CHECK(scores_of(p) == std::vector<int>{0, 1 + 2});  // the monk's incomplete monastery only
}

TEST_CASE("Festival: a figure taken back at step 8 lays no egg in the nest scored that turn") {
  auto setup = easter_setup();
  setup.expansions.add(festival::id);
  position p = ex14(setup, {"FE/CR", "BA/L"});
  p.place(1, 2, 0);
  auto back = p.deploy_move(1, 0, "road0");  // Red's thief, on the nest's 9 squares
  back.type = festival::move_return_figure;
  p.play(back);
  CHECK(eggs_of(p) == std::vector<int>{2, 1, 1});
}

// ---- the bunny phase ---------------------------------------------------------------------------

TEST_CASE("EX-15 the bunny phase (HiG): each seat rolls and hops; Green finds the bunny stuck") {
  position p = ex15(easter_setup({"2", "1", "3"}));
  auto events = p.place(3, 0, 0);
  CHECK(count(events, easter::event_bunny_placed) == 1);
  REQUIRE(easter::bunny(p.s).has_value());
  CHECK(*easter::bunny(p.s) == sq(3, 0));
  CHECK(p.s.awaiting == decision::figure);  // the bunny blocks no feature
  events = p.pass();
  REQUIRE(p.s.awaiting == easter::decision_bunny);
  CHECK(to_act(p.s) == 0);
  CHECK(count(events, easter::event_die_rolled) == 1);
  auto go = easter::current_go(p.s);
  REQUIRE(go.has_value());
  CHECK(go->roll == 2);
  CHECK(go->visited == std::vector<square_pos>{sq(3, 0)});
  // Gaps all round (3,0) and (2,0): one path only.
  CHECK(offered_paths(p.s) == std::vector<square_list>{{{2, 0}, {1, 0}}});
  events = p.play(p.bunny_move({{2, 0}, {1, 0}}));
  CHECK(eggs_of(p) == std::vector<int>{1, 1, 0});  // Red's farmer, Blue's thief
  REQUIRE(p.s.awaiting == easter::decision_bunny);
  CHECK(to_act(p.s) == 1);
  CHECK(p.s.active == 0);
  CHECK(easter::current_go(p.s)->roll == 1);
  // (2,0) was visited this phase: Blue may go south or west only.
  CHECK(offered_paths(p.s) == std::vector<square_list>{{{1, 1}}, {{0, 0}}});
  events = p.play(p.bunny_move({{1, 1}}));
  CHECK(eggs_of(p) == std::vector<int>{1, 1, 1});
  // Green rolls 3 although the bunny cannot move: its go is skipped, the turn ends.
  CHECK(count(events, easter::event_die_rolled) == 1);
  CHECK(count(events, easter::event_bunny_stuck) == 1);
  CHECK(p.s.ext.get<easter::state>().script_next == 3);
  CHECK(*easter::bunny(p.s) == sq(1, 1));
  CHECK(p.s.awaiting == decision::place_tile);
  CHECK(p.s.active == 1);
  CHECK(to_act(p.s) == 1);
  CHECK(scores_of(p) == std::vector<int>{0, 0, 0});
}

TEST_CASE("bunny moves: only the listed paths of the seat whose go it is") {
  position p = ex15(easter_setup({"2", "1", "3"}));
  p.place(3, 0, 0);
  p.pass();
  // Red's go: too short while a hop remains, a gap, a diagonal, the start square.
  CHECK(p.refused(p.bunny_move({{2, 0}})) == error_code::unexpected_move);
  CHECK(p.refused(p.bunny_move({{3, 1}})) == error_code::unexpected_move);
  CHECK(p.refused(p.bunny_move({{2, 1}})) == error_code::unexpected_move);
  CHECK(p.refused(p.bunny_move({{2, 0}, {3, 0}})) == error_code::unexpected_move);
  CHECK(p.refused(p.bunny_move({{2, 0}, {1, 0}, {0, 0}})) == error_code::unexpected_move);
  CHECK(p.refused(p.pass_move()) == error_code::unexpected_move);
  auto blue = p.bunny_move({{2, 0}, {1, 0}});
  blue.seat = 1;
  CHECK(p.refused(blue) == error_code::not_your_turn);
  p.play(p.bunny_move({{2, 0}, {1, 0}}));
  // Blue's go: back onto a visited square is refused; the active seat cannot move for Blue.
  CHECK(p.refused(p.bunny_move({{2, 0}})) == error_code::unexpected_move);
  auto red = p.bunny_move({{0, 0}});
  red.seat = 0;
  CHECK(p.refused(red) == error_code::not_your_turn);
  // Outside the phase a bunny move is unexpected.
  p.play(p.bunny_move({{0, 0}}));
  CHECK(p.s.awaiting == decision::place_tile);
  auto late = p.bunny_move({{-1, 0}});
  CHECK(p.refused(late) == error_code::unexpected_move);
}

TEST_CASE(
    "a bunny steered into a dead end makes every later seat pass; a dead end ends a go early") {
  SUBCASE("Blue steers into the dead end (1,1): Green and Yellow are skipped") {
    position p(with_seats(easter_setup({"2", "1", "3", "2"}), 4), {"EA/01", "BA/L"});
    p.tile(-1, 0, "BA/RFr", 0)
        .tile(1, 0, "BA/RFr", 0)
        .tile(2, 0, "BA/RFr", 0)
        .tile(1, 1, "BA/L", 0);
    p.place(3, 0, 0);
    p.pass();
    p.play(p.bunny_move({{2, 0}, {1, 0}}));
    CHECK(offered_paths(p.s) == std::vector<square_list>{{{1, 1}}, {{0, 0}}});
    const auto events = p.play(p.bunny_move({{1, 1}}));
    CHECK(count(events, easter::event_die_rolled) == 2);
    CHECK(count(events, easter::event_bunny_stuck) == 2);
    CHECK(p.s.ext.get<easter::state>().script_next ==
          4);  // one roll per go, also for the skipped ones
    CHECK(p.s.awaiting == decision::place_tile);
    CHECK(p.s.active == 1);
  }
  SUBCASE("Blue goes west instead: Green's 3 ends after one hop, Yellow is skipped") {
    position p(with_seats(easter_setup({"2", "1", "3", "2"}), 4), {"EA/01", "BA/L"});
    p.tile(-1, 0, "BA/RFr", 0)
        .tile(1, 0, "BA/RFr", 0)
        .tile(2, 0, "BA/RFr", 0)
        .tile(1, 1, "BA/L", 0);
    p.follower(3, -1, 0, "road0");
    p.place(3, 0, 0);
    p.pass();
    p.play(p.bunny_move({{2, 0}, {1, 0}}));
    p.play(p.bunny_move({{0, 0}}));
    REQUIRE(to_act(p.s) == 2);
    CHECK(easter::current_go(p.s)->roll == 3);
    CHECK(offered_paths(p.s) == std::vector<square_list>{{{-1, 0}}});
    const auto events = p.play(p.bunny_move({{-1, 0}}));
    CHECK(eggs_of(p) == std::vector<int>{0, 0, 0, 1});  // Yellow's thief, moved onto by Green
    CHECK(count(events, easter::event_bunny_stuck) == 1);
    CHECK(p.s.awaiting == decision::place_tile);
  }
}

TEST_CASE("the bunny phase runs in the last turn, before final scoring") {
  position p = ex15(easter_setup({"2", "1", "3"}), {"EA/01"});
  p.place(3, 0, 0);
  p.pass();
  CHECK_FALSE(p.s.finished);
  p.play(p.bunny_move({{2, 0}, {1, 0}}));
  CHECK_FALSE(p.s.finished);
  p.play(p.bunny_move({{1, 1}}));
  REQUIRE(p.s.finished);
  CHECK(to_act(p.s) == no_seat);
  // Eggs 1, 1, 1: all tied for the most. Blue's thief: road of 4 tiles; Green's monk: 1 + 3.
  CHECK(scores_of(p) == std::vector<int>{10, 10 + 4, 10 + 4});
}

TEST_CASE("where the bunny goes: HiG every bunny tile; original the latest nest") {
  // Red: bunny tile (1,0); Blue: nest (0,1); Red: bunny tile (2,0). All rolls 1.
  const auto play_first_turns = [](position& p) {
    p.place(1, 0, 0);
    p.pass();
    CHECK(*easter::bunny(p.s) == sq(1, 0));  // both variants: the bunny was off the board
    p.play(p.bunny_move({{0, 0}}));          // Red; Blue finds (0,0) a dead end
    CHECK(p.s.active == 1);
    p.place(0, 1, 0);
    p.pass();
  };
  SUBCASE("hig") {
    position p(with_seats(easter_setup({"1", "1", "1", "1"}), 2),
               {"EA/01", "EA/04", "EA/07", "BA/L"});
    play_first_turns(p);
    CHECK(*easter::bunny(p.s) == sq(0, 0));  // a nest tile does not move it
    p.place(2, 0, 0);
    CHECK(*easter::bunny(p.s) == sq(2, 0));
    p.pass();
    CHECK(offered_paths(p.s) == std::vector<square_list>{{{1, 0}}});
    p.play(p.bunny_move({{1, 0}}));
    // (0,0) was visited in the last phase only: each phase starts afresh.
    CHECK(offered_paths(p.s) == std::vector<square_list>{{{0, 0}}});
  }
  SUBCASE("original") {
    position p(with_seats(easter_setup({"1", "1", "1", "1"}, {{"easter.variant", "original"}}), 2),
               {"EA/01", "EA/04", "EA/07", "BA/L"});
    play_first_turns(p);
    CHECK(*easter::bunny(p.s) == sq(0, 1));  // the nest is its new home; no phase for a nest
    CHECK(p.s.awaiting == decision::place_tile);
    p.place(2, 0, 0);
    CHECK(*easter::bunny(p.s) == sq(0, 1));  // a bunny tile only starts the phase
    p.pass();
    CHECK(easter::current_go(p.s)->visited == std::vector<square_pos>{sq(0, 1)});
    CHECK(offered_paths(p.s) == std::vector<square_list>{{{0, 0}}});
    p.play(p.bunny_move({{0, 0}}));
    CHECK(offered_paths(p.s) == std::vector<square_list>{{{1, 0}}});
  }
}

TEST_CASE(
    "original variant: the bunny moves before scoring, so a thief about to return lays eggs") {
  // Red's thief on (1,0); Blue closes the road's west end at (-1,0); Red's bunny tile EA/05 at
  // (2,0) closes the east end: the road (-1,0)..(2,0) is completed by the bunny tile itself.
  for (const char* variant : {"hig", "original"}) {
    CAPTURE(variant);
    position p(with_seats(easter_setup({"1", "1"}, {{"easter.variant", variant}}), 2),
               {"BA/RFr", "BA/RRR", "EA/05", "BA/L"});
    p.place(1, 0, 0);
    p.deploy(1, 0, "road0");
    p.place(-1, 0, 0);
    p.pass();
    p.place(2, 0, 0);
    p.pass();
    REQUIRE(p.s.awaiting == easter::decision_bunny);
    const bool original = std::string(variant) == "original";
    CHECK(p.score_of(0) == (original ? 0 : 4));  // HiG: the road was scored before the phase
    p.play(p.bunny_move({{1, 0}}));
    CHECK(eggs_of(p)[0] == (original ? 1 : 0));
    p.play(p.bunny_move({{0, 0}}));
    CHECK(p.score_of(0) == 4);
    CHECK(p.supply_of(0) == 7);
  }
}

// ---- the die -----------------------------------------------------------------------------------

TEST_CASE("scripted dice that run out refuse the move needing the roll, and change nothing") {
  SUBCASE("the first roll, made when the figure step ends") {
    auto setup = easter_setup();
    setup.script.draws["dice"] = {};
    position p = ex15(setup);
    p.place(3, 0, 0);  // no roll yet: Red may still deploy
    CHECK(p.refused(p.pass_move()) == error_code::script_exhausted);
    CHECK(p.refused(p.deploy_move(3, 0, "field0")) == error_code::script_exhausted);
    // The unchecked apply of a listed move (the playouts') still asks the modules' prechecks.
    game_state copy = p.s;
    const auto st = apply_legal_in_place(copy, p.pass_move());
    REQUIRE_FALSE(st.ok());
    CHECK(st.err().code == error_code::script_exhausted);
    CHECK(copy == p.s);
  }
  SUBCASE("the next go's roll, made after a bunny move") {
    position p = ex15(easter_setup({"2"}));
    p.place(3, 0, 0);
    p.pass();
    CHECK(p.refused(p.bunny_move({{2, 0}, {1, 0}})) == error_code::script_exhausted);
  }
  SUBCASE("the roll of a go that finds the bunny stuck") {
    position p = ex15(easter_setup({"2", "1"}));
    p.place(3, 0, 0);
    p.pass();
    p.play(p.bunny_move({{2, 0}, {1, 0}}));
    CHECK(p.refused(p.bunny_move({{1, 1}})) == error_code::script_exhausted);
    // Going west leaves Green a hop, still rolled when Green's go begins.
    CHECK(p.refused(p.bunny_move({{0, 0}})) == error_code::script_exhausted);
  }
  SUBCASE("moves that roll nothing are not refused") {
    auto setup = easter_setup();
    setup.script.draws["dice"] = {};
    position p = ex14(setup);
    p.place(1, 2, 0);
    p.pass();
    CHECK(eggs_of(p) == std::vector<int>{3, 1, 1});
  }
}

TEST_CASE("script.dice entries must be 1, 2 or 3") {
  for (const char* bad : {"0", "4", "six", "", "12"}) {
    CAPTURE(bad);
    auto setup = with_seats(easter_setup({"1", bad}), 2);
    CHECK(new_game(setup).err().code == error_code::bad_script);
  }
}

TEST_CASE("easter.hops = fixed_2: always two hops, no die rolled") {
  position p = ex15(easter_setup({"1", "1", "1"}, {{"easter.hops", "fixed_2"}}));
  p.place(3, 0, 0);
  const auto events = p.pass();
  CHECK(count(events, easter::event_die_rolled) == 0);
  CHECK(easter::current_go(p.s)->roll == 2);
  p.play(p.bunny_move({{2, 0}, {1, 0}}));
  CHECK(easter::current_go(p.s)->roll == 2);
  CHECK(offered_paths(p.s) == std::vector<square_list>{{{1, 1}}, {{0, 0}}});  // dead ends early
  p.play(p.bunny_move({{0, 0}}));
  CHECK(p.s.ext.get<easter::state>().script_next == 0);
  CHECK(p.s.awaiting == decision::place_tile);
}

TEST_CASE("seeded dice are uniform over 1..3 from the game's generator") {
  position p = ex15(easter_setup());
  p.s.random = rng::from_string("dice");
  rng copy = p.s.random;
  p.place(3, 0, 0);
  p.pass();
  CHECK(easter::current_go(p.s)->roll == static_cast<int>(copy.below(3) + 1));
  CHECK(p.s.random == copy);
}

// ---- shepherds ---------------------------------------------------------------------------------

TEST_CASE(
    "Hills & Sheep: a shepherd lays an egg when the bunny lands on it (easter.shepherd_eggs)") {
  for (const char* shepherd_eggs : {"true", "false"}) {
    CAPTURE(shepherd_eggs);
    auto setup =
        with_seats(easter_setup({"1", "1"}, {{"easter.shepherd_eggs", shepherd_eggs}}, true), 2);
    setup.script.draws["sheep"] = {"sheep1"};
    position p(setup, {"BA/RFr", "EA/01", "BA/L"});
    p.place(1, 0, 0);
    p.play(p.shepherd_move(1, 0, "field0"));
    p.place(2, 0, 0);  // Blue's bunny tile
    p.pass();
    p.play(p.bunny_move({{1, 0}}));  // Blue lands on Red's shepherd
    CHECK(eggs_of(p) == std::vector<int>{std::string(shepherd_eggs) == "true" ? 1 : 0, 0});
  }
}

// ---- egg points at the end ---------------------------------------------------------------------

namespace {

// Ends a game of `eggs.size()` seats whose seats hold `eggs`: the last tile is a monastery that
// nobody takes. Returns the egg points (the only points of the game).
std::vector<int> final_egg_points(const std::vector<int>& eggs,
                                  std::vector<std::pair<std::string, std::string>> options = {}) {
  position p(with_seats(easter_setup({}, std::move(options)), static_cast<int>(eggs.size())),
             {"BA/L"});
  for (std::size_t seat = 0; seat < eggs.size(); ++seat)
    p.s.ext.get<easter::state>().eggs[seat] = eggs[seat];
  p.place(0, 1, 0);
  const auto events = p.pass();
  REQUIRE(p.s.finished);
  for (const auto& e : events)
    if (e.type == event_type::points) CHECK(e.value == static_cast<int>(easter::reason_eggs));
  return scores_of(p);
}

}  // namespace

TEST_CASE("EX-16 egg points: ties share a place, second is the second-highest count") {
  CHECK(final_egg_points({6, 6, 2, 0}) == std::vector<int>{10, 10, 5, 0});
}

TEST_CASE("egg points: ties for first and second place, zero eggs, both second_place values") {
  using v = std::vector<int>;
  const std::pair<std::string, std::string> competition{"easter.second_place", "competition"};
  CHECK(final_egg_points({6, 6, 2, 0}, {competition}) == v{10, 10, 0, 0});
  CHECK(final_egg_points({7, 4, 4, 0}) == v{10, 5, 5, 0});
  CHECK(final_egg_points({7, 4, 4, 0}, {competition}) == v{10, 5, 5, 0});
  CHECK(final_egg_points({1, 7, 4, 4}) == v{0, 10, 5, 5});
  CHECK(final_egg_points({3, 3, 3}) == v{10, 10, 10});
  CHECK(final_egg_points({3, 3, 3}, {competition}) == v{10, 10, 10});
  CHECK(final_egg_points({0, 0, 0}) == v{0, 0, 0});
  CHECK(final_egg_points({2, 0, 0}) == v{10, 0, 0});
  CHECK(final_egg_points({0, 5, 2, 2, 1, 0}) == v{0, 10, 5, 5, 0, 0});
}

TEST_CASE("egg points, original variant: 5 for second only with 3 or more players") {
  using v = std::vector<int>;
  const std::pair<std::string, std::string> original{"easter.variant", "original"};
  CHECK(final_egg_points({5, 3}) == v{10, 5});
  CHECK(final_egg_points({5, 3}, {original}) == v{10, 0});
  CHECK(final_egg_points({3, 3}, {original}) == v{10, 10});
  CHECK(final_egg_points({5, 3, 0}, {original}) == v{10, 5, 0});
}

TEST_CASE("the Easter state is part of the game state and its invariants") {
  position p = ex15(easter_setup({"2", "1", "3"}));
  p.place(3, 0, 0);
  p.pass();
  CHECK(check_invariants(p.s).ok());
  auto broken = p.s;
  broken.ext.get<easter::state>().eggs[1] = -1;
  CHECK_FALSE(check_invariants(broken).ok());
  broken = p.s;
  broken.ext.get<easter::state>().bunny = sq(9, 9);
  CHECK_FALSE(check_invariants(broken).ok());
  broken = p.s;
  broken.deciding = 1;
  CHECK_FALSE(check_invariants(broken).ok());
  broken = p.s;
  broken.ext.get<easter::state>().visited[broken.ext.get<easter::state>().visited_count++] =
      sq(3, 0);
  CHECK_FALSE(check_invariants(broken).ok());
  CHECK(state_bytes(p.s) >= sizeof(game_state));
}
