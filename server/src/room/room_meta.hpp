// The stored meta of a room (docs/hosting.md "What is stored"): what the store keeps of a room
// besides its journal — settings, seats with hashed tokens, the creator's seat, bots, the
// rematch, the record's setup, the clock and a claim on seq numbers — written as JSON text and
// read back when the room is rebuilt. Plain functions over the parts the room hands them.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "carcassonne/protocol/bot_messages.hpp"
#include "match/rematch_state.hpp"
#include "room/room_settings.hpp"
#include "room/seat_slot.hpp"

namespace carcassonne::server {

// How far ahead of the room's seq a stored meta claims (its "seq"): a room rebuilt from it starts
// above every seq it showed, and a change that writes nothing needs a meta write only once every
// seq_reserve changes.
inline constexpr std::uint64_t seq_reserve = 64;

// The parts of a room its meta is written from.
struct meta_source {
  const room_settings& settings;
  const std::vector<seat_slot>& seats;
  int creator_seat;
  const protocol::room_bot_settings& bots;  // its seats unused: the seats say who is a bot
  const rematch_state& rematch;
  std::string_view record_setup;  // the record's setup as JSON text; "" before the start
};

// The meta's members but the clock and seq, as JSON text without the braces. Written as text: a
// tree of it cost 3% of a move's instructions in a closed loop of short games (a meta is
// written at every join, start and end). Readers parse the meta: its keys' order is free.
std::string meta_rest_text(const meta_source& m);
// The whole meta: `clock` (the clock's saved JSON text, or "null"), the seq claimed, the rest.
std::string meta_text(std::string_view clock, std::uint64_t seq_claimed, std::string_view rest);

// What a stored meta says of its room, read back. Its seats hold who sat there (name, hashed
// token, nonce, player, bot), nothing of a connection.
struct meta_read {
  room_settings settings;
  std::vector<seat_slot> seats;
  int creator_seat = -1;
  protocol::room_bot_settings bots;  // seats unused (in `seats`)
  bool has_bots = false;             // false: stored before bots existed
  std::uint64_t seq = 0;
};
// Nothing, with `error`, when the meta does not describe room `id`.
std::optional<meta_read> read_meta(const nlohmann::json& meta, const std::string& id,
                                   std::string& error);

}  // namespace carcassonne::server
