// The random outcomes of one apply as the fairness record lists them (docs/fairness.md, "The
// record"): the base game's tile draws and each module's own (its codec's outcomes hook).
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "carcassonne/engine/events.hpp"
#include "carcassonne/engine/game.hpp"

namespace carcassonne::protocol {

// The outcomes one apply revealed, in the order they happened; with `setup`, those of the start
// of the game. `after` is the state the apply left, `events` what it produced.
nlohmann::json random_outcomes(const game_state& after, const event_log& events, bool setup);
// The same list as JSON text, appended to `out`: random_outcomes(...).dump(), written without a
// tree when the base game's tile draws are all there is (a room keeps one per move).
void append_random_outcomes(std::string& out, const game_state& after, const event_log& events,
                            bool setup);

}  // namespace carcassonne::protocol
