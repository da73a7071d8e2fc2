// Client-to-server messages (docs/protocol.md), parsed into plain structs. Parsing never throws:
// bad input becomes a proto_error with a stable code (bad_json, unknown_type, bad_message).
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "carcassonne/protocol/bot_messages.hpp"
#include "carcassonne/protocol/json_codec.hpp"

namespace carcassonne::protocol {

inline constexpr int protocol_version = 1;

struct hello_msg {
  int protocol = protocol_version;
  std::string client;
};
struct create_room_msg {
  json setup;     // expansions, options (and, for tests, seed/script)
  int seats = 4;  // 2..6 seats offered
  bool is_public = true;
  std::string name;
  int spectator_delay = 0;  // moves
  room_bot_settings bots;   // bot seats, their pause, takeover (bot_messages.hpp)
  json match;               // match options (clock, timeout, undo...), null for the defaults
  bool rated = true;        // rated when the seats are players (docs/protocol.md "Accounts")
};
// Which public rooms a list_rooms (or GET /api/rooms) asks for: a page of at most
// max_room_page rooms, oldest first, optionally only those in one state or with expansions.
inline constexpr int max_room_page = 100;
struct room_filter {
  int offset = 0;
  int limit = max_room_page;
  std::string state;                    // "" = any; else waiting, playing or finished
  std::vector<std::string> expansions;  // rooms playing every one of these
};
struct list_rooms_msg {
  room_filter filter;
};
struct join_msg {
  std::string room;
  std::string name;                  // "" when absent: a signed-in player sits under their name
  std::optional<int> seat;           // a particular seat, else the first free one
  std::optional<std::string> nonce;  // the seat's contribution to the seed (docs/fairness.md)
};
struct nonce_msg {  // a seated player's nonce, before the start, once (docs/fairness.md)
  std::string nonce;
};
struct spectate_msg {
  std::string room;
};
struct leave_msg {};
struct start_msg {};
struct move_msg {
  flat_object move;                  // the record form (game-record.md "Moves"); seat optional
  std::optional<std::uint64_t> seq;  // the last sequence number the client saw
};
struct resume_msg {
  std::string room;
  std::string token;
  std::optional<std::uint64_t> last_seq;
};
struct chat_msg {
  std::string text;
};
struct ping_msg {};
// Signs the connection in as a player: with a session token, or (no `session`) with the session
// cookie of the WebSocket upgrade (the page's, which its script cannot read).
struct authenticate_msg {
  std::optional<std::string> session;
};
struct snapshot_msg {};  // ask for a full snapshot (after a gap in sequence numbers)
// A seat's match requests: resign, ask to undo, answer an undo request, offer or answer a
// rematch (accept: false declines), with the seat's nonce for the rematch's seed
// (docs/fairness.md).
struct match_msg {
  enum class kind : std::uint8_t { resign, undo, undo_answer, rematch };
  kind what = kind::resign;
  bool accept = true;
  std::string nonce;  // rematch only; "" when none was sent
};
struct replay_msg {  // a finished game's spectator view after `move` moves
  std::string room;
  int move = 0;
};
struct history_msg {  // the events of the room's game so far, a page from move `from` on
  int from = 0;
};
inline constexpr int history_page = 40;  // moves of history per answer at most

// Quick play, series and tournaments (docs/protocol.md §24): seek, cancel_seek,
// create_tournament, tournament, get_tournament, get_series. The server's competition part reads
// the fields of `body` (the message without "type" and "id").
struct competition_msg {
  std::string type;
  json body;
};

using client_message =
    std::variant<hello_msg, create_room_msg, list_rooms_msg, join_msg, spectate_msg, leave_msg,
                 start_msg, move_msg, resume_msg, chat_msg, ping_msg, snapshot_msg, replay_msg,
                 nonce_msg, history_msg, add_bot_msg, remove_bot_msg, match_msg, authenticate_msg,
                 competition_msg>;

struct request {
  client_message message;
  json id;  // the client's id, echoed in the answer (null when absent)
  // `"moved": true`: repeated after a `moved` answer (a cluster's loop guard, docs/protocol.md).
  bool moved = false;
};

// Parses one text frame. On error, `id` is still filled when the frame had one. The usual move
// message is read without a tree (parse_flat_move_request); anything else by nlohmann.
struct parsed_request {
  std::optional<request> value;
  proto_error error;
  json id;
};
parsed_request parse_request(std::string_view text);
// parse_request's way for a move message without a tree: the request parse_request gives for the
// same text, or nothing when the text is anything else (another type, a move whose values are
// not all plain strings, integers, booleans or null, any error), which nlohmann then reads.
std::optional<parsed_request> parse_flat_move_request(std::string_view text);
// The filter fields of a list_rooms message (or of /api/rooms's query, as JSON); bad_message
// when one is malformed.
std::optional<room_filter> parse_room_filter(const json& j, proto_error& error);

// A seat's nonce: 1 to 64 characters of hex or base64 (A-Z a-z 0-9 + / - _), then at most two
// '=' of padding (docs/fairness.md). Anything else is refused with bad_nonce.
inline constexpr std::size_t max_nonce = 64;
bool valid_nonce(std::string_view nonce);

// Server-to-client helpers: every answer carries the request's id when it had one.
json error_message(const proto_error& e, const json& id = nullptr);
json reply(std::string_view type, const json& id, json fields = json::object());

}  // namespace carcassonne::protocol
