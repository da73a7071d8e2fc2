// The options that selfplay and arena share: --games N, --players P, --seed S, --expansions LIST
// (game-record.md, docs/bots.md). Each command keeps its own defaults and its other options.
#pragma once
#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/protocol/json_codec.hpp"

namespace carcassonne::app {

struct game_options {
  long long games = 0, players = 0;
  std::string seed = "1";
  game_setup setup;                                         // its expansions, from --expansions
  protocol::json expansion_list = protocol::json::array();  // their names, as given
};

// What read_game_option made of args[i].
enum class option_read { taken, not_shared, failed };

// Reads args[i] when it is one of the shared options with its value, and moves i onto the
// value (taken); when it is not, changes nothing (not_shared); on a bad value writes
// "carcassonne COMMAND: ..." to err (failed). --games takes min_games to 100,000,000.
option_read read_game_option(std::span<const std::string> args, std::size_t& i, game_options& o,
                             std::string_view command, long long min_games, std::ostream& err);

// A whole number in [lo, hi], all of `text`.
bool parse_count(const std::string& text, long long lo, long long hi, long long& out);

}  // namespace carcassonne::app
