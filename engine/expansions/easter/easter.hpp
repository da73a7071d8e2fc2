// Easter in Carcassonne (rules/easter.md): nests scored for eggs when surrounded, the neutral
// bunny put on tiles and moved by every seat in the bunny phase, eggs turned into points at the
// end. The variant (hig / original) and the other easter.* options are read here only. The
// queries below are for views (public things only: no scripted dice).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "carcassonne/engine/expansion.hpp"
#include "carcassonne/engine/game.hpp"
#include "id.hpp"

namespace carcassonne::easter {

extern const expansion_module module;

// A seat's eggs.
std::int32_t eggs(const game_state& s, int seat);
// The bunny's square, or nothing while it is off the board.
std::optional<square_pos> bunny(const game_state& s);

// The go of the bunny phase that the game waits for.
struct go_info {
  seat_t seat = 0;                  // whose go it is (the seat awaited)
  int roll = 0;                     // hops to make (the die, or 2 with easter.hops = fixed_2)
  std::vector<square_pos> visited;  // squares the bunny stood on in this phase, its start first
};
// The current go, while the game waits for a bunny move.
std::optional<go_info> current_go(const game_state& s);

// Internal to the module (hooks by area, one file each).
namespace detail {
// bunny.cpp: §3 placing the bunny, §5 the bunny phase.
void bunny_tile_placed(game_state& s, event_log* events);
bool start_phase(game_state& s, event_log* events);
void bunny_moves(const game_state& s, std::vector<move>& out);
bool apply_bunny_move(game_state& s, const move& m, event_log* events);
status check_bunny(const game_state& s);
// eggs.cpp: §4 nests, eggs for figures, §6 final scoring.
void note_surrounded_nests(game_state& s);
void score_nests(game_state& s, event_log* events);
void collect_eggs(game_state& s, int tile_index, event_log* events);
void egg_points(game_state& s, event_log* events);
}  // namespace detail

}  // namespace carcassonne::easter
