// The game record (shared/spec/game-record.md): setup + moves, parsed and written.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/protocol/json_codec.hpp"

namespace carcassonne::protocol {

inline constexpr std::string_view record_format = "carcassonne-record/1";

struct game_record {
  std::vector<std::string> names;  // one per seat, seat order
  game_setup setup;
  json setup_json;          // the setup as given (kept verbatim when re-serialised)
  std::vector<json> moves;  // in record form; parsed one by one against the state
};

// Parses a record's text. Errors (exit 2 of `replay`): bad_json, bad_record, and the engine's
// setup codes (unknown_expansion, unknown_option, bad_option_value, unknown_tile, ...).
parsed<game_record> parse_record(std::string_view text);

// Parses the "setup" object alone (rooms use it too).
parsed<game_record> parse_setup(const json& setup);

json record_to_json(const game_record& r);
// A record from its setup (with players and seed) and its moves in record form.
json record_to_json(json setup, json moves);  // taken by value: moved in, not copied

}  // namespace carcassonne::protocol
