// Determinization: one complete state drawn at random among those consistent with an information
// set (the strong bot searches over many).
#pragma once
#include "carcassonne/engine/bot.hpp"

namespace carcassonne::bots {

// The unseen tiles shuffled and dealt (set-aside revolt tiles, tiles under hills, the supply),
// the unseen gift cards shuffled and dealt (other hands, then the deck) and a fresh generator for
// every future draw (dice, sheep, gifts), all from r. Reads nothing but the information set.
game_state determinize(const information_set& info, rng& r);

}  // namespace carcassonne::bots
