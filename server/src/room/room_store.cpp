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
  if (std::exchange(end_unsaved_, false)) persist_meta();
}

void room::persist_meta() {
  meta_rest_.clear();  // what changed is in the meta built now; the next clock write builds it
  writes_.claim(seq_ + seq_reserve);
  save_room_write w{settings_.id, state_of(table_), stored_meta()};
  // The end goes with the save that finishes the game: the index of games and the ratings are
  // written in its transaction (store.hpp game_end), so a game is rated if and only if it ended.
  if (table_.game && table_.game->finished && !end_stored_) {
    w.end = game_end_of(settings_, members_.seats, *table_.game,
                        std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count());
    end_stored_ = true;
  }
  persist(std::move(w));
}

// A clocked game writes its clock with every move: the rest of the meta changes only where
// persist_meta is called (which every change must do anyway, or an unclocked room would not
// keep it), so it is built once per game in progress and kept as text.
void room::persist_clock() {
  if (meta_rest_.empty()) meta_rest_ = stored_meta_rest();
  writes_.claim(seq_ + seq_reserve);
  persist(save_room_write{settings_.id, state_of(table_), meta_with_clock(meta_rest_)});
}

std::string room::stored_meta() const {
  return meta_with_clock(stored_meta_rest());
}

std::string room::stored_meta_rest() const {
  return meta_rest_text({settings_, members_.seats, members_.creator_seat, bots_.settings(),
                         rematch_,
                         table_.game ? std::string_view(table_.setup_text) : std::string_view()});
}

std::string room::meta_with_clock(const std::string& rest) const {
  std::string clock;
  if (clocks_.enabled() && timer_)
    clocks_.clock().append_saved(clock, timer_->now());
  else
    clock = "null";
  // Every write precedes the patch that shows it; the meta claims seq_reserve numbers, so that a
  // room rebuilt from it starts above every seq it showed (room_writes.hpp claimed).
  return meta_text(clock, seq_ + seq_reserve, rest);
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
    r->rematch_.restore(meta, static_cast<int>(r->members_.seats.size()));
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
    if (r->table_.game) {
      r->notices_.restored(
          r->table_.game->finished ? -1 : static_cast<int>(to_act(*r->table_.game)),
          r->writes_.rows(), r->table_.game->finished);
    }
    r->end_unsaved_ =
        r->table_.game && r->table_.game->finished && stored.state != room_state::finished;
    r->reset_room_part();
    r->publish_summary();
    return r;
  } catch (const std::exception& e) {
    return fail(std::string("unreadable stored room: ") + e.what());
  }
}

}  // namespace carcassonne::server
