// A room's match options (docs/options.md "Match options"): time control, what a timeout does,
// take-backs, and how long seats may be away. Plain values, read from create_room's "match".
#pragma once
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>

#include "carcassonne/protocol/json_codec.hpp"

namespace carcassonne::server {

enum class time_control : std::uint8_t { none, fischer, per_decision, correspondence };
enum class timeout_action : std::uint8_t { bot, forfeit };
enum class undo_mode : std::uint8_t { off, consent, free };

struct match_options {
  using ms = std::chrono::milliseconds;
  time_control clock = time_control::none;
  ms initial{0};    // fischer: the time each seat starts with
  ms increment{0};  // fischer: added when the clock leaves a seat after its move
  ms per_move{0};   // per_decision: each decision; correspondence: each seat's turn
  timeout_action on_timeout = timeout_action::bot;
  undo_mode undo = undo_mode::consent;
  std::chrono::seconds away_limit{0};    // 0: never; else all seats away that long end the game
  std::chrono::seconds answer_time{60};  // an undo or rematch question not answered: declined
  // Correspondence only: a seated player on vacation holds their clock (docs/protocol.md §21).
  bool vacation = false;

  bool vacation_applies() const { return clock == time_control::correspondence && vacation; }

  bool is_default() const { return to_json() == match_options{}.to_json(); }
  nlohmann::json to_json() const;
};

// Reads create_room's "match" object (null or absent: the defaults). Error: bad_match_options.
protocol::parsed<match_options> match_options_from_json(const nlohmann::json& j);

}  // namespace carcassonne::server
