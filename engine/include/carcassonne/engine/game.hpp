// The game: a copyable value holding everything (board, features, figures, the hidden supply and
// the generator), and the two verbs that carry it: legal_actions and apply.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "carcassonne/engine/board.hpp"
#include "carcassonne/engine/decisions.hpp"
#include "carcassonne/engine/errors.hpp"
#include "carcassonne/engine/events.hpp"
#include "carcassonne/engine/expansion_states.hpp"
#include "carcassonne/engine/features.hpp"
#include "carcassonne/engine/moves.hpp"
#include "carcassonne/engine/options.hpp"
#include "carcassonne/engine/rng.hpp"
#include "carcassonne/engine/tiles.hpp"

namespace carcassonne {

// Fixed random outcomes for tests and puzzles (game-record.md, "Script formats").
struct game_script {
  std::optional<std::vector<tile_type_id>> deck;
  // The other scripted draws by script key, entries as text; each is read by the expansion that
  // owns the key (its vocabulary's script_keys).
  std::map<std::string, std::vector<std::string>, std::less<>> draws;
};

struct game_setup {
  int seats = 2;
  expansion_set expansions;
  rule_options options;
  std::string seed;
  game_script script;
};

// The automatic steps of a turn after the figure action (rules README "Turn structure", numbered
// as there), in order. Expansions act in the steps other than s11_scoring, which is the base's.
enum class turn_step : std::uint8_t {
  s8_figure,
  s9_protect,        // Peasant Revolts: protect for 2
  s10_shepherd,      // Hills & Sheep: Grow or Gather, flocks scored
  s10a_early_bunny,  // Easter, original variant: the bunny phase before scoring
  s11_scoring,
  s12_nests,  // Easter: nest scoring
  s13_bunny,  // Easter: the bunny phase
  s14_end
};

// Which draw a tile_drawn hook sees: the turn's (steps 1-3) or an extra one an expansion makes.
enum class draw_kind : std::uint8_t { turn, extra };

struct seat_state {
  std::int32_t score = 0;
  std::uint8_t followers = followers_per_seat;  // in supply
  friend bool operator==(const seat_state&, const seat_state&) = default;
};

struct figure_on_board {
  seat_t seat = 0;
  figure_type type = figure_type::meeple;
  segment_t segment = 0;
  // Nonzero: protected (expansion_module::protect_figure); gone when the figure leaves.
  std::uint8_t mark = 0;
  friend bool operator==(const figure_on_board&, const figure_on_board&) = default;
};

struct game_state {
  // Configuration.
  std::uint8_t seats = 2;
  expansion_set expansions;
  rule_options options;

  // Hidden: the generator and the supply in draw order (tiles supply[next_draw..] remain).
  rng random;
  std::vector<tile_type_id> supply;
  std::uint16_t next_draw = 0;
  std::vector<tile_type_id> out_of_play;  // taken from the supply unseen, never shown to anyone

  // Public.
  carcassonne::board board;
  feature_graph features;
  std::vector<figure_on_board> figures;
  std::array<seat_state, max_seats> players{};
  std::vector<tile_type_id> discarded;

  // The turn.
  decision awaiting = decision::none;
  seat_t active = 0;                 // whose turn it is
  seat_t deciding = 0;               // who must take the awaited decision: the active seat,
                                     // except in an expansion's decision that another seat takes
  tile_type_id drawn = 0;            // the tile to place (valid while awaiting place_tile)
  std::int16_t placed = -1;          // board index of this turn's tile, -1 before placing
  std::uint16_t turn = 0;            // 1-based turn counter
  std::vector<segment_t> completed;  // features this turn's tile completed, scored at step 11
  turn_step step = turn_step::s8_figure;  // the step whose decision is awaited (after placing)
  std::uint8_t deployed = 0;              // bit per figure_type deployed in this turn's step 8
  bool finished = false;
  std::uint8_t forfeited = 0;  // bit per seat that left the game (forfeit.hpp)

  // Each expansion's own state (expansion_states.hpp).
  expansion_states ext;

  int tiles_left() const { return static_cast<int>(supply.size()) - next_draw; }
  friend bool operator==(const game_state&, const game_state&) = default;
};

// Starts a game: validates the setup, builds and shuffles the supply, places the start tile and
// runs to the first decision. Errors: bad_seat_count, unsupported_expansion, tile_not_in_play.
result<game_state> new_game(const game_setup& setup, event_log* events = nullptr);

// Every legal move for the seat to act (empty when the game is finished), in a fixed order.
std::vector<move> legal_actions(const game_state& s);
void legal_actions(const game_state& s, std::vector<move>& out);
// legal_actions(s)[r.below(n)] for the list's size n, the same move and draw, without writing
// out the tile placements (the random playouts' choice). `scratch` is working space; s is not
// finished.
move random_legal_action(const game_state& s, rng& r, std::vector<move>& scratch);

// Applies a move in place if (and only if) legal_actions would list it; otherwise returns the
// error and leaves s untouched. Runs every automatic step up to the next decision.
status apply_in_place(game_state& s, const move& m, event_log* events = nullptr);
// The same for a move taken from legal_actions(s) of this very state (selfplay, arena): it is
// not checked again, only the modules' prechecks run (a scripted draw may be exhausted). Any
// other move is undefined behaviour (debug builds abort); moves from outside go to apply_in_place.
status apply_legal_in_place(game_state& s, const move& m, event_log* events = nullptr);

struct applied {
  game_state state;
  event_log events;
};
// Value form of apply: the next state and its events, or the error.
result<applied> apply(const game_state& s, const move& m);

// Seat that must act next (game_state::deciding), or no_seat when finished.
inline seat_t to_act(const game_state& s) {
  return s.finished ? no_seat : s.deciding;
}

// Bytes a state occupies: the value itself plus the heap memory it holds.
std::size_t state_bytes(const game_state& s);

// Debug check of the state's invariants (figures conserved, tiles accounted, graph consistent).
status check_invariants(const game_state& s);

}  // namespace carcassonne
