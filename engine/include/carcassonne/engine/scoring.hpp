// Scoring: the one ownership function (base.md §6) and feature values (base.md §5).
#pragma once
#include <cstdint>

#include "carcassonne/engine/game.hpp"

namespace carcassonne {

// owners(F): seats with the most followers (at least one) on the feature of `root`, as a bit
// per seat, after every expansion's tie-break. Used by every scoring and by expansions.
std::uint8_t owners(const game_state& s, segment_t root);

// Distinct squares holding a segment of the feature (base.md B-2).
int distinct_tiles(const game_state& s, segment_t root);

// Value of a road, city or monastery: completed (during play) or incomplete (end of game).
int feature_value(const game_state& s, segment_t root, bool at_game_end);

// Scores a completed feature (step 11): owners get its value, every follower on it returns.
void score_completed(game_state& s, segment_t root, event_log* events);

// An event located at a segment: its square, tile type, tile-local id and its feature's kind.
event at_segment(const game_state& s, segment_t seg, event e);

// Majority without any expansion's tie-break (the seats with the most followers, bit per seat).
std::uint8_t majority(const game_state& s, segment_t root);

// Awards points to each seat of `seats` for a feature (points events at the feature).
void award(game_state& s, segment_t root, std::uint8_t seats, int points, bool final,
           event_log* events);

// Every figure on the feature goes back to its owner's supply (base 4.3.3, and expansions').
void return_followers(game_state& s, segment_t root, event_log* events);

// The index in game_state::figures of a figure of `seat` and `type` on segment `seg`, or -1; of
// several, one without an expansion's mark (an unprotected follower) first (game-record.md).
int find_figure(const game_state& s, seat_t seat, figure_type type, segment_t seg);

// Takes one follower (game_state::figures[index], a meeple) off the board into its seat's
// supply without scoring (an expansion's "take back"); emits figure_returned.
void return_follower(game_state& s, std::size_t index, event_log* events);

// Final scoring (README "End of game"): roads, cities, monasteries, fields, then expansions.
void score_game_end(game_state& s, event_log* events);

}  // namespace carcassonne
