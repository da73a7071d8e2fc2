// A room's game kept as its journal: the accepted moves in record form (JSON texts) after the
// record's setup. The engine is deterministic, so a take-back replays the journal without the
// move instead of keeping a copy of the state per move, and a restart replays the stored entries,
// where an undo marker takes moves back as it did live. Plain functions over values.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/engine/undo.hpp"
#include "match/match_options.hpp"

namespace carcassonne::server {

struct game_journal {
  std::vector<std::string> moves;  // accepted moves, record form, JSON texts
  // The last moves that showed and scored nothing: what a take-back may remove.
  std::vector<step_taken> undo_steps;
};

// The game at the start of a record's setup; none when the setup does not start a game.
std::optional<game_state> game_at_start(const nlohmann::json& setup);

// The game again from `setup` and `moves`: "" with `game` replaced, or what failed (and `game`
// untouched).
std::string replay(const nlohmann::json& setup, const std::vector<std::string>& moves,
                   game_state& game);

// One stored journal entry at restore, on `game` and `journal`: an undo marker takes its moves
// back (the game replayed without them), a forfeit or a move is applied and journaled, and a
// move that showed and scored nothing is kept for later take-backs when `undo` allows them, as
// live. "" or what failed.
std::string apply_stored_entry(const nlohmann::json& setup, const nlohmann::json& entry,
                               undo_mode undo, game_state& game, game_journal& journal);

}  // namespace carcassonne::server
