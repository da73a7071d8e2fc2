#include "room/fan_out.hpp"

#include <memory>
#include <utility>

#include "carcassonne/protocol/json_text.hpp"
#include "carcassonne/protocol/view.hpp"
#include "carcassonne/protocol/view_doc.hpp"

namespace carcassonne::server {

void update_public_view(game_table& t, bool game_appeared, std::string& ops) {
  if (!t.game) return;
  auto now = protocol::public_doc(*t.game, t.names, &t.public_view, &t.board_memo);
  if (!game_appeared) protocol::diff_docs(t.public_view, now, "/game", ops);
  t.public_view = std::move(now);
}

std::string events_text(std::vector<std::string>& room_events, std::string game_events) {
  if (room_events.empty()) return game_events;  // the room's own events are rare
  std::string all = "[";
  for (const auto& e : room_events) {
    if (all.size() > 1) all += ',';
    all += e;
  }
  if (game_events.size() > 2) all += ',';
  all.append(game_events, 1);
  room_events.clear();
  return all;
}

std::string patch_head(const std::string& room, std::uint64_t seq, std::string_view events) {
  std::string head;
  protocol::object_writer w(head);
  w.string("type", "patch").string("room", room).number("seq", seq);
  w.text("events", events).key("patch").push_back('[');
  return head;
}

void send_seat_patches(std::vector<seat_slot>& seats, const game_table& t, std::uint64_t seq,
                       const std::string& head, const std::string& ops, bool game_appeared,
                       const frame_sink& out) {
  std::string mine_ops;  // the seat's own operations
  frame_ptr common;      // the frame of the seats without operations of their own
  for (std::size_t i = 0; i < seats.size(); ++i) {
    auto& s = seats[i];
    mine_ops.clear();
    // A seat with nothing of its own to see, before and now: its part is unchanged.
    const bool unchanged = t.game && !game_appeared && s.private_view.fields.size() == 1 &&
                           protocol::private_doc_is_viewer_only(*t.game, static_cast<int>(i));
    if (t.game && !unchanged) {
      auto mine = protocol::private_doc(*t.game, static_cast<int>(i));
      if (game_appeared) {
        mine_ops += R"({"op":"replace","path":"/game","value":)";
        mine_ops += t.public_view.text(&mine);
        mine_ops.push_back('}');
      } else {
        protocol::diff_docs(s.private_view, mine, "/game", mine_ops);
      }
      s.private_view = std::move(mine);
    }
    // A seat its owner may resume keeps its patches, also while away (for a while), once the game
    // is under way: the patch that brings the game, and what comes before, are no part of the
    // window (a resume from there gets a snapshot), so an idle room holds none.
    const bool keep = t.game && !game_appeared && s.taken && !s.bot &&
                      (s.client || s.missed < resume_window::patches);
    if (!keep) s.recent.clear();
    if (!s.client) {
      if (!keep) continue;
      ++s.missed;
    }
    if (mine_ops.empty() && common) {  // the same frame as another seat's: shared
      if (keep) s.recent.remember(seq, common);
      if (s.client) out(s.client, common);
      continue;
    }
    std::string frame;
    frame.reserve(head.size() + ops.size() + mine_ops.size() + 3);
    frame += head;
    frame += ops;
    if (!ops.empty() && !mine_ops.empty()) frame.push_back(',');
    frame += mine_ops;
    frame += "]}";
    auto f = std::make_shared<const std::string>(std::move(frame));
    if (mine_ops.empty()) common = f;
    if (keep) s.recent.remember(seq, f);
    if (s.client) out(s.client, std::move(f));
  }
}

frame_ptr spectator_patch(game_table& t, const std::string& room, std::uint64_t seq, bool delayed,
                          std::string_view events, const std::string& room_ops,
                          const std::string& game_ops, bool game_appeared) {
  std::string ops = room_ops;
  if (t.game) {
    if (t.delayed.active()) {
      t.delayed.follow(t.journal.moves, t.game->finished, t.names, game_appeared ? nullptr : &ops);
    } else if (!game_appeared) {
      ops = game_ops;
    }
    if (game_appeared) {
      const auto mine = protocol::private_doc(*t.game, protocol::spectator);
      if (!ops.empty()) ops += ',';
      ops += R"({"op":"replace","path":"/game","value":)" + t.spectator_doc().text(&mine) + "}";
    }
  }
  // Events are withheld from delayed spectators: they would reveal the present.
  const bool withheld = delayed && t.game && !t.game->finished;
  return std::make_shared<const std::string>(patch_head(room, seq, withheld ? "[]" : events) + ops +
                                             "]}");
}

std::string view_text(const std::string& room_part, const game_table& t,
                      std::vector<seat_slot>& seats, int seat) {
  std::string out;
  protocol::object_writer w(out);
  w.text("room", room_part);
  if (!t.game) {
    w.text("game", "null").close();
  } else if (seat >= 0) {
    auto& s = seats[static_cast<std::size_t>(seat)];
    s.private_view = protocol::private_doc(*t.game, seat);
    w.text("game", t.public_view.text(&s.private_view)).close();
  } else {
    const auto mine = protocol::private_doc(*t.game, protocol::spectator);
    w.text("game", t.spectator_doc().text(&mine)).close();
  }
  return out;
}

}  // namespace carcassonne::server
