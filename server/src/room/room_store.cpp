// A room's persistence: what it writes to the store, the outbox that holds frames until their
// write is durable, and the rebuild of a stored room at server start.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <utility>

#include "carcassonne/engine/forfeit.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"
#include "carcassonne/protocol/view.hpp"
#include "carcassonne/protocol/view_doc.hpp"
#include "fairness/fairness.hpp"
#include "room/game_end.hpp"
#include "room/room.hpp"
#include "room/room_info.hpp"
#include "room/room_meta.hpp"

namespace carcassonne::server {

void room::attach_store(store* s, poster post) {
  writes_.attach(s, std::move(post),
                 {[this] { lease_lost(); }, [this] { storage_lost(); },
                  [this] { return members_.seats.size() + members_.spectators.size(); }});
  saves_.attached(saving());
}

save_source room::saving() const {
  return {settings_,    members_,         table_,           clocks_,
          timer_.get(), bots_.settings(), votes_.rematch(), seq_};
}

std::string room::stored_meta() const {
  return saves_.meta_text(saving());
}

std::unique_ptr<room> room::restore(const stored_room& stored, metrics* m, std::string& error) {
  const auto fail = [&](const std::string& what) {
    error = "room " + stored.id + ": " + what;
    return nullptr;
  };
  try {
    const json& meta = stored.meta;
    std::string why;
    auto read = read_meta(meta, stored.id, why);
    if (!read) return fail(why);
    const room_settings& s = read->settings;
    auto r = std::make_unique<room>(s, m, std::weak_ptr<const client_link>());
    r->members_.seats = std::move(read->seats);
    r->members_.creator_seat = read->creator_seat;
    if (read->has_bots)
      r->bots_.set_settings(read->bots.pause_ms, read->bots.takeover_after,
                            read->bots.takeover_level);
    r->votes_.rematch().restore(meta, static_cast<int>(r->members_.seats.size()));
    r->seq_ = read->seq;

    const json& setup = meta.at("record_setup");
    if (!setup.is_null()) {
      auto parsed = protocol::parse_setup(setup);
      if (!parsed.ok()) return fail("stored setup: " + parsed.error.message);
      auto g = new_game(parsed.value->setup);
      if (!g.ok()) return fail("stored setup: " + g.err().message);
      r->table_.setup_text = setup.dump();
      r->table_.game = std::move(g.value());
      for (const auto& seat : r->members_.seats) r->table_.names.push_back(seat.name);
      r->table_.delayed.start(*r->table_.game);
      r->clocks_.start(static_cast<int>(r->members_.seats.size()));
      for (const auto& e : stored.moves) {
        const auto n = std::to_string(r->writes_.rows());
        if (auto bad = apply_stored_entry(setup, e.move, r->settings_.match.undo, *r->table_.game,
                                          r->table_.journal);
            !bad.empty())
          return fail("journal move " + n + ": " + bad);
        r->writes_.next_row();
        r->seq_ = std::max(r->seq_, e.seq);
        // Duplicates of moves answered before the restart are still recognised.
        if (!e.client_id.is_null() && e.move.contains("seat")) {
          remember_answer(
              r->members_.seats.at(e.move["seat"].get<std::size_t>()), e.client_id,
              std::make_shared<const std::string>(
                  protocol::reply("move_accepted", e.client_id, {{"seq", e.seq}}).dump()));
        }
      }
      std::vector<json> moves;
      moves.reserve(r->table_.journal.moves.size());
      for (const auto& text : r->table_.journal.moves)
        moves.push_back(protocol::move_json_from_text(text));
      r->table_.outcomes.clear();
      for (const auto& o : fairness::replay_outcomes(parsed.value->setup, moves).outcomes)
        r->table_.outcomes.push_back(o.dump());
      if (const auto& saved = meta.value("clock", json());
          saved.is_object() && r->clocks_.enabled())
        r->clocks_.clock().restore_saved(saved);
      r->table_.public_view =
          protocol::public_doc(*r->table_.game, r->table_.names, nullptr, &r->table_.board_memo);
      r->table_.delayed.follow(r->table_.journal.moves, r->table_.game->finished, r->table_.names,
                               nullptr);
    } else if (!stored.moves.empty()) {
      return fail("moves stored for a game that never started");
    }
    r->writes_.claim(r->seq_);
    // What the store holds already: the rebuilt room tells of no turn or end again (and were it
    // to, the same keys would be skipped).
    r->saves_.restored(r->saving(), r->table_.game && r->table_.game->finished &&
                                        stored.state != room_state::finished);
    r->reset_room_part();
    r->publish_summary();
    return r;
  } catch (const std::exception& e) {
    return fail(std::string("unreadable stored room: ") + e.what());
  }
}

}  // namespace carcassonne::server
