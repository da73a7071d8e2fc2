// Hills & Sheep (rules/hills_and_sheep.md): hills (the tile under a hill, the tie-break),
// shepherds and the sheep bag, vineyards. The module plugs into the turn through the hooks of
// expansion.hpp; the queries below are for views (counts and face-up flocks only).
#pragma once
#include <vector>

#include "carcassonne/engine/expansion.hpp"
#include "carcassonne/engine/game.hpp"
#include "id.hpp"

namespace carcassonne::hills_and_sheep {

extern const expansion_module module;

// One flock: every shepherd on one field and the tokens lying there, face up.
struct flock_info {
  segment_t at = 0;            // the first shepherd's segment (or the ownerless flock's)
  std::vector<int> shepherds;  // indexes into game_state::figures, in figure order (may be empty)
  token_counts tokens{};       // the wolf slot is always 0
  int sheep = 0;
};
// The flocks on the board, in the order of their first shepherd in game_state::figures, then the
// ownerless ones (Festival).
std::vector<flock_info> flocks(const game_state& s);
// Tokens in the bag (its order is never shown).
int bag_size(const game_state& s);
// The bag's counts just before a token_drawn event's draw, which the draw is uniform over (a
// record carries them so that a verifier needs no flock rules: docs/randomness.md). The event
// keeps them in `points`, 4 bits a kind, sheep1 lowest (pack_bag).
token_counts bag_before(const event& token_drawn);
std::int32_t pack_bag(const token_counts& bag);
// Whether the seat's shepherd is in its supply.
bool shepherd_in_supply(const game_state& s, int seat);

// The Festival takes the seat's shepherd back (festival.md §4; take_back_figure): nothing scores;
// its tokens join the other shepherds of the field, or stay ownerless when `flock_stays`
// (festival.shepherd_flock "stays"), or go back to the bag.
void return_shepherd(game_state& s, int seat, bool flock_stays, event_log* events);

// Internal to the module (hooks by area, one file each).
namespace detail {
void hide_tile_under_hill(game_state& s, event_log* events);
std::uint8_t hill_tiebreak(const game_state& s, segment_t root, std::uint8_t tied);
int vineyard_bonus(const game_state& s, segment_t root);
void shepherd_moves(const game_state& s, std::vector<move>& out);
status check_draw(const game_state& s, const move& m);
bool apply_shepherd_move(game_state& s, const move& m, event_log* events);
bool shepherd_step(game_state& s, turn_step step, event_log* events);
status check_sheep(const game_state& s);
}  // namespace detail

}  // namespace carcassonne::hills_and_sheep
