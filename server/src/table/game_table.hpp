// A room's game as values: the engine's state once started, the seats' names, the record's setup
// (JSON text), the journal of accepted moves, the random outcomes revealed (docs/fairness.md),
// the public part of the view every seat was last sent, and the game spectators follow with a
// spectator delay. No connections, no strand: the room plays moves on it and sends what it says.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/protocol/view.hpp"
#include "carcassonne/protocol/view_doc.hpp"
#include "table/delayed_view.hpp"
#include "table/game_journal.hpp"
#include "table/record_parts.hpp"

namespace carcassonne::server {

struct game_table {
  explicit game_table(int spectator_delay) : delayed(spectator_delay) {}

  std::optional<game_state> game;  // none before the start
  std::vector<std::string> names;  // of the engine's seats
  // The setup as the record has it, kept as text: a tree of it costs ~1 KB a room
  // (docs/performance.md "Memory"), and it is read only for records, history and take-backs.
  std::string setup_text;  // "" before the start
  // Accepted moves in record form, as JSON texts (keys as written: a reader parses), and the
  // moves a take-back may remove. Text, not trees: a game's trees cost more to build, keep and
  // free than the few reads that parse.
  game_journal journal;
  // Random outcomes revealed, as JSON texts: the start's, then one list per journal entry.
  std::vector<std::string> outcomes;
  protocol::view_doc public_view;   // the public part last sent to seats
  protocol::board_memo board_memo;  // the tiles public_view's board was written from
  delayed_view delayed;             // spectators' game and view with a spectator delay

  // Starts the game: `first` (the start's outcomes as fairness::outcomes_text wrote them).
  void start(game_state g, std::vector<std::string> seat_names, std::string setup,
             std::string first);
  nlohmann::json setup() const;  // null before the start
  bool finished() const { return game && game->finished; }
  // What spectators see: the seats' public part, or the delayed one.
  const protocol::view_doc& spectator_doc() const {
    return delayed.active() ? delayed.doc() : public_view;
  }
  // The record's parts; `secret` and the seats' `nonces` for its fairness section ("": none).
  record_parts record(const std::string& secret, std::vector<std::string> nonces) const;
};

}  // namespace carcassonne::server
