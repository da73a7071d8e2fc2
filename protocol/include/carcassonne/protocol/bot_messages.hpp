// The bots' part of the client protocol (docs/protocol.md "Bots"): the bot fields of
// create_room and the add_bot / remove_bot messages. Parsing never throws: bad input is a
// bad_message error naming the field.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <vector>

#include "carcassonne/engine/bot.hpp"
#include "carcassonne/protocol/json_codec.hpp"

namespace carcassonne::protocol {

// A room's bot settings, as create_room gives them.
struct room_bot_settings {
  std::vector<std::optional<bot_level>> seats;  // seat i: a bot of that level, or open (nullopt)
  int pause_ms = 1000;                          // a bot waits this long before it moves
  int takeover_after = 0;                       // seconds; 0: nobody plays for an absent player
  bot_level takeover_level = bot_level::greedy;
};

// Reads `bots`, `bot_pause_ms`, `takeover_after` and `takeover_level` of a create_room message
// (all optional). `seats` is the room's seat count: `bots` may not list more.
std::optional<proto_error> parse_room_bot_settings(const json& j, int seats,
                                                   room_bot_settings& out);

struct add_bot_msg {
  bot_level level = bot_level::random;
  std::optional<int> seat;  // a particular seat, else the first free one
};
struct remove_bot_msg {
  int seat = 0;
};
std::optional<proto_error> parse_add_bot(const json& j, add_bot_msg& out);
std::optional<proto_error> parse_remove_bot(const json& j, remove_bot_msg& out);

}  // namespace carcassonne::protocol
