// JSON forms of the engine's values: moves (game-record.md "Moves"), events, errors.
// Parsing never throws: a bad value becomes a proto_error with a stable code.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

#include "carcassonne/engine/errors.hpp"
#include "carcassonne/engine/events.hpp"
#include "carcassonne/engine/game.hpp"
#include "carcassonne/engine/moves.hpp"
#include "carcassonne/protocol/flat_object.hpp"

namespace carcassonne::protocol {

using json = nlohmann::json;

// A protocol-level error: engine codes by their names, plus malformed_move, bad_json, ...
struct proto_error {
  std::string code;
  std::string message;
};
inline proto_error from_engine(const error& e) {
  return {std::string(code_name(e.code)), e.message};
}
json to_json(const proto_error& e);

template <class T>
struct parsed {
  std::optional<T> value;
  proto_error error;
  bool ok() const { return value.has_value(); }
};

// A move (flat_object.hpp: a move message's, or a record's made one by from_json). Feature ids
// are resolved against the tile at (x, y) of s.
parsed<move> move_from_flat(const flat_object& f, const game_state& s);
// The same from a record's move.
parsed<move> move_from_json(const json& j, const game_state& s);
// Parses a move in record form against s and applies it: the codec's error or the engine's, or
// an empty code when the move was applied (replays, rebuilt rooms, delayed spectators).
proto_error apply_json_move(game_state& s, const json& j, event_log* events = nullptr);
// The record form of a move (features by id), as JSON text and as JSON.
std::string move_text(const move& m, const game_state& s);
void append_move_text(std::string& out, const move& m, const game_state& s);  // the same, appended
json move_to_json(const move& m, const game_state& s);
json move_json_from_text(std::string_view text);  // move_text's output as JSON (no lexer)

// An event as clients see it (tile and feature ids, feature kinds by name). Written as text,
// keys in order; the JSON form is parsed from that text, so the two never disagree.
json event_to_json(const event& e);
// Events as a JSON array's text, the same objects: what a patch carries.
void append_events_text(std::string& out, const event_log& events);

}  // namespace carcassonne::protocol
