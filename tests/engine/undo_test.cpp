// Take-backs (undo.hpp): only the seat's own steps since the last one that revealed or scored.
#include "carcassonne/engine/undo.hpp"
#include "easter/id.hpp"
#include "gifts/id.hpp"
#include "hills_and_sheep/id.hpp"
#include "peasant_revolts/id.hpp"
#include "position.hpp"

using namespace carcassonne;
using carcassonne::testing::position;

TEST_CASE("undo: a placement waiting for the figure step can be taken back, by its seat only") {
  position p(2, {"BA/RFr", "BA/RFr", "BA/RFr"});
  std::vector<step_taken> history;
  const auto m = p.place_move(1, 0, 0);
  history.push_back({m, p.play(m)});
  CHECK(p.s.awaiting == decision::figure);
  CHECK_FALSE(reveals_or_scores(history.back().events));
  CHECK(undoable_steps(history, 0) == 1);
  CHECK(undoable_steps(history, 1) == 0);
  // The pass ends the turn: the next tile is drawn, nothing before it can be taken back.
  const auto pass = p.pass_move();
  history.push_back({pass, p.play(pass)});
  CHECK(reveals_or_scores(history.back().events));
  CHECK(undoable_steps(history, 0) == 0);
  CHECK(undoable_steps(history, 1) == 0);
}

TEST_CASE("undo: nothing after a score") {
  position p(2, {"BA/C", "BA/RFr", "BA/RFr"});
  std::vector<step_taken> history;
  const auto m = p.place_move(0, -1, 180);  // closes the start city: scored at step 11
  history.push_back({m, p.play(m)});
  REQUIRE(undoable_steps(history, 0) == 1);  // waiting for the figure step, nothing scored yet
  const auto d = p.deploy_move(0, -1, "city0");
  history.push_back({d, p.play(d)});
  CHECK(p.score_of(0) == 4);
  CHECK(undoable_steps(history, 0) == 0);
}

TEST_CASE("undo: the events that make a step final") {
  CHECK_FALSE(reveals_or_scores({}));
  CHECK_FALSE(reveals_or_scores(
      {event{.type = event_type::tile_placed}, event{.type = event_type::figure_deployed}}));
  for (auto t :
       {event_type::tile_drawn, event_type::turn_started, event_type::points,
        hills_and_sheep::event_token_drawn, gifts::event_gift_received, gifts::event_gift_opened,
        easter::event_die_rolled, hills_and_sheep::event_tile_hidden, peasant_revolts::event_revolt,
        event_type::feature_completed, event_type::game_finished})
    CHECK(reveals_or_scores({event{.type = event_type::tile_placed}, event{.type = t}}));
}
