// The random outcomes a room keeps as text (append_random_outcomes) are the fairness list's JSON
// as random_outcomes writes it, byte for byte: at the setup and after every move, with the base
// game's tile draws alone (written without a tree) and with the modules' own outcomes.
#include <doctest/doctest.h>

#include <string>

#include "carcassonne/protocol/random_outcomes.hpp"
#include "carcassonne/protocol/record.hpp"
#include "protocol_support.hpp"

using namespace carcassonne;
using namespace carcassonne::protocol;

namespace {

struct outcome_counts {
  std::size_t tiles_only = 0;    // lists of tile draws alone (one or none)
  std::size_t with_modules = 0;  // lists with a module's outcomes
};

// Plays the record's game to its end, each seat taking the step's move, and compares the two
// forms of every apply's outcomes.
void check_game(const std::string& record_text, outcome_counts& counts) {
  auto r = parse_record(record_text);
  REQUIRE_MESSAGE(r.ok(), r.error.message);
  event_log events;
  auto g = new_game(r.value->setup, &events);
  REQUIRE_MESSAGE(g.ok(), g.err().message);
  game_state& s = g.value();
  bool setup = true;
  for (int step = 0;; ++step) {
    std::string text;
    append_random_outcomes(text, s, events, setup);
    const auto tree = random_outcomes(s, events, setup);
    REQUIRE(text == tree.dump());
    bool modules = false;
    for (const auto& entry : tree) modules = modules || !entry.contains("tile");
    ++(modules ? counts.with_modules : counts.tiles_only);
    if (s.finished) break;
    const auto moves = legal_actions(s);
    REQUIRE_FALSE(moves.empty());
    events.clear();
    REQUIRE(apply_in_place(s, moves[static_cast<std::size_t>(step * 7) % moves.size()], &events));
    setup = false;
  }
}

}  // namespace

TEST_CASE("random outcomes written as text are the fairness list's JSON, for every module") {
  outcome_counts counts;
  check_game(R"({"setup": {"players": [{"name": "A"}, {"name": "B"}], "seed": "text-0"}})", counts);
  for (const char* seed : {"text-1", "text-2", "text-3"})
    check_game(carcassonne::testing::all_expansions_record(seed), counts);
  // Both ways of writing them were taken, many times.
  CHECK(counts.tiles_only > 100);
  CHECK(counts.with_modules > 20);
}
