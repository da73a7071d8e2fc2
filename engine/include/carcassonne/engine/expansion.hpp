// The expansion interface: an expansion is a set of hooks into the fixed turn of the base game
// (shared/rules/README.md, "Turn structure"). Each hook is optional; the registry
// (engine/expansions/registry.cpp) lists the modules and their order. Base code calls hooks
// here and never names an expansion.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "carcassonne/engine/game.hpp"

namespace carcassonne {

// An expansion's own values of the engine's enums (its vocabulary.hpp), their names in the order
// of the values in the ranges its slot holds (slots.hpp).
struct module_vocabulary {
  std::span<const std::string_view> moves, events, decisions, reasons, figures;
  std::span<const event_type> quiet_events;       // events that neither reveal nor score (undo.hpp)
  std::span<const tile_symbol_def> tile_symbols;  // at the bits of its slot's symbols range
  std::span<const std::string_view> script_keys;  // the game_script::draws lists it reads
};
// A bit per move type, for expansion_module::extra_move_types (the registry's list compiles only
// while every move type has a bit: slots.hpp, max_move_types).
template <class... Types>
constexpr std::uint32_t move_type_bits(Types... types) {
  return ((std::uint32_t{1} << static_cast<unsigned>(types)) | ...);
}

struct expansion_module {
  expansion id;                         // its slot in the registry (checked at start)
  std::string_view name;                // as in setup.expansions
  std::string_view label;               // for people ("Hills & Sheep")
  std::span<const option_def> options;  // its rule options (their slots are their places here)
  std::string_view tile_set;            // the set of tiles it brings into the supply, if any
  std::string_view tile_data;           // that set as JSON, when it is not in engine/data/tiles
  bool test_only = false;               // a test's expansion: not offered to clients (/api/options)
  module_vocabulary vocabulary;
  // Setup (README "Setup" 3-4): after the supply is built, before it is shuffled.
  status (*setup)(game_state&, const game_setup&) = nullptr;
  // Step 2: a tile was drawn and shown (every draw, never a tile taken from the supply unseen).
  void (*tile_drawn)(game_state&, draw_kind, event_log*) = nullptr;
  // Steps 6a-6c: the drawn tile joined the board.
  void (*tile_placed)(game_state&, event_log*) = nullptr;
  // Adds this expansion's legal moves to the current decision (after the base game's).
  void (*extra_moves)(const game_state&, std::vector<move>&) = nullptr;
  // The move types extra_moves may list (move_type_bits; 0: any): checking a move then asks only
  // the modules that could list it, instead of generating every module's moves.
  std::uint32_t extra_move_types = 0;
  // Before any legal move is applied (the base's or an expansion's): what legality cannot show,
  // such as a scripted draw that is exhausted, also one that an automatic step after the move
  // would make (the move is then refused and nothing changes).
  status (*precheck)(const game_state&, const move&) = nullptr;
  // Why one of its own moves that no module lists now is refused, when the default ("this move is
  // not one of the legal moves now", or unexpected_move) would mislead; ok means the default.
  status (*refuse_move)(const game_state&, const move&) = nullptr;
  // Applies one of this expansion's moves (already checked against extra_moves); returns false
  // when the move is not its own. The base has set awaiting to none: the module sets a decision
  // to wait again, otherwise the turn goes on from the step after s.step.
  bool (*apply_move)(game_state&, const move&, event_log*) = nullptr;
  // An automatic step of the turn after the figure action; returns true when it set a decision
  // (s.awaiting) to wait for.
  bool (*run_step)(game_state&, turn_step, event_log*) = nullptr;
  std::uint8_t run_steps = 0;  // bit per turn_step in which run_step acts (the others are skipped)
  // Majority tie-break: narrows the tied seats of owners() (bit per seat).
  std::uint8_t (*narrow_owners)(const game_state&, segment_t root, std::uint8_t tied) = nullptr;
  // Extra points for a completed feature (added to its value).
  int (*completion_bonus)(const game_state&, segment_t root) = nullptr;
  // End of game, after the base game's final scoring.
  void (*final_scoring)(game_state&, event_log*) = nullptr;
  // Sibling hooks: what one module asks of another through the engine, never by its name.
  // Takes back game_state::figures[index], a figure of one of its own types, by another module's
  // rule (Festival's return). `leave_behind`: what the figure holds on the board stays there
  // ownerless instead of going back to the supply.
  void (*take_back_figure)(game_state&, std::size_t index, bool leave_behind, event_log*) = nullptr;
  // Protects game_state::figures[index] for `points` (move::protect on another module's move);
  // nothing when it is protected already. A module with this hook offers protection.
  void (*protect_figure)(game_state&, std::size_t index, int points, event_log*) = nullptr;
  // Tiles drawn and held aside by the expansion, not yet placed or returned (for invariants).
  int (*tiles_held)(const game_state&) = nullptr;
  // Debug invariants of the expansion's own state.
  status (*check_invariants)(const game_state&) = nullptr;
};

// The module of an expansion, or nullptr while it is not implemented.
const expansion_module* find_module(expansion e);
// The module that owns a move type, or nullptr for the base game's (and for values nobody owns).
const expansion_module* move_owner(move_type t);
// The module that owns a figure type, or nullptr for the base game's.
const expansion_module* figure_owner(figure_type f);
// The module of every slot, in registry order; null for a slot without one (a test slot, in a
// binary without the tests' expansions).
std::span<const expansion_module* const> all_modules();
// Modules of the expansions in play, in registry order.
struct module_list {
  std::array<const expansion_module*, max_expansions> items{};
  int size = 0;
  std::uint8_t run_steps = 0;  // union of the modules' run_steps
  const expansion_module* const* begin() const { return items.data(); }
  const expansion_module* const* end() const { return items.data() + size; }
};
const module_list& active_modules(const game_state& s);
// The active module that offers protection (protect_figure), or nullptr.
const expansion_module* protecting_module(const game_state& s);

}  // namespace carcassonne
