// The frames of one change (docs/protocol.md "Patches" and "Snapshots"): the public diff written
// once, each seat's patch (the seats with nothing of their own share one frame; a seat its owner
// may resume keeps its patches), the spectators' one frame (with their delay, events withheld),
// and a member's whole view. Plain functions over a room's seats and table: the room hands the
// frames to its outbox. Room-strand only.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "room/client_link.hpp"
#include "room/seat_slot.hpp"
#include "table/game_table.hpp"

namespace carcassonne::server {

using frame_sink = std::function<void(const client_ptr&, frame_ptr)>;

// Whether this change brings the game (its first patch after the start): the game's part is
// then sent whole.
inline bool game_appears(const game_table& t) {
  return t.game && t.public_view.fields.empty();
}

// Makes the game's public part as it is now the one last sent; appends its operations under
// "/game" to `ops` unless the game just appeared.
void update_public_view(game_table& t, bool game_appeared, std::string& ops);

// The events of a change as a JSON array's text: the room's own (JSON texts, emptied), then the
// game's (`game_events`, an array's text).
std::string events_text(std::vector<std::string>& room_events, std::string game_events);

// A patch frame up to its list of operations: the frame is that, the operations, and "]}".
std::string patch_head(const std::string& room, std::uint64_t seq, std::string_view events);

// Each seat's patch of change `seq`: `head`, then `ops` (every seat's), then its own part's
// operations. Updates each seat's private part and its resume window; sends to connected seats.
void send_seat_patches(std::vector<seat_slot>& seats, const game_table& t, std::uint64_t seq,
                       const std::string& head, const std::string& ops, bool game_appeared,
                       const frame_sink& out);

// The spectators' frame of change `seq`: the room part's operations (`room_ops`), then the seats'
// public game operations (`game_ops`: the room's and the game's, as seats got them) or, with a
// delay, the delayed game's (`t.delayed` follows the journal); events withheld while delayed.
frame_ptr spectator_patch(game_table& t, const std::string& room, std::uint64_t seq, bool delayed,
                          std::string_view events, const std::string& room_ops,
                          const std::string& game_ops, bool game_appeared);

// The whole view of seat `seat` (-1: a spectator) with `room_part`, as a snapshot sends it; the
// seat's private part becomes the one last sent.
std::string view_text(const std::string& room_part, const game_table& t,
                      std::vector<seat_slot>& seats, int seat);

}  // namespace carcassonne::server
