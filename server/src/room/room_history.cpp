// The `history` request (docs/protocol.md): the events of the room's game so far, for a client
// that arrives late or reloads its page. They are rebuilt the way `replay` rebuilds a position:
// the room's journal is replayed through the engine from its setup, and each move's events are
// those every seat heard when it was played (a timeout's and a forfeit's room events included;
// a take-back's are not: the move it took back has left the journal). One answer holds at most
// history_page moves.
#include <algorithm>

#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"
#include "room/room.hpp"
#include "room/room_events.hpp"

namespace carcassonne::server {

void room::history(const client_ptr& c, const protocol::history_msg& m, const json& id) {
  const int seat = members_.seat_of(c.get());
  if (seat < 0 && !members_.is_spectator(c.get()))
    return fail(c, id, "not_in_room", "you are not in this room");
  if (!table_.game) return fail(c, id, "not_started", "the game has not started");
  // Live events are withheld from delayed spectators (they would reveal the present): so is
  // their history, until the end.
  if (seat < 0 && settings_.spectator_delay > 0 && !table_.game->finished)
    return fail(c, id, "not_finished",
                "with a spectator delay, the game's events are told once it is over");
  const std::size_t total = table_.journal.moves.size() + 1;  // the start, then one entry per move
  const std::size_t from = std::min(static_cast<std::size_t>(m.from), total);
  const std::size_t to = std::min(total, from + static_cast<std::size_t>(protocol::history_page));

  auto parsed = protocol::parse_setup(table_.setup());
  if (!parsed.ok()) return fail(c, id, parsed.error.code, parsed.error.message);
  event_log events;
  auto g = new_game(parsed.value->setup, &events);
  if (!g.ok()) return fail(c, id, std::string(code_name(g.err().code)), g.err().message);
  json entries = json::array();
  const auto keep = [&](std::size_t move, json list) {
    if (move < from) return;
    for (const auto& e : events) list.push_back(protocol::event_to_json(e));
    entries.push_back({{"move", move}, {"events", std::move(list)}});
  };
  keep(0, json::array());
  for (std::size_t i = 0; i + 1 < to; ++i) {
    events.clear();
    const json entry = protocol::move_json_from_text(table_.journal.moves[i]);
    // Accepted once already: a failure here means the journal and the game disagree.
    if (auto e = protocol::apply_json_move(g.value(), entry, &events); !e.code.empty())
      return fail(c, id, e.code, "the room's journal does not replay: " + e.message);
    keep(i + 1, room_events::of_entry(entry));
  }
  send(c, protocol::reply("history", id,
                          {{"room", settings_.id},
                           {"from", from},
                           {"to", to},
                           {"moves", table_.journal.moves.size()},
                           {"seq", seq_},
                           {"entries", std::move(entries)}}));
}

}  // namespace carcassonne::server
