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
#include "ratings/pools.hpp"
#include "room/room.hpp"

namespace carcassonne::server {

void room::attach_store(store* s, poster post) {
  store_ = s;
  post_ = std::move(post);
  if (std::exchange(end_unsaved_, false)) persist_meta();
}

void room::persist(store_write w) {
  if (!store_) return;
  if (const auto* m = std::get_if<move_write>(&w)) seq_claimed_ = std::max(seq_claimed_, m->seq);
  std::visit([g = lease_generation_.load()](auto& op) { op.generation = g; }, w);
  add_room_rows(w);
  const auto n = outbox_.issue();
  store_->submit(std::move(w), [this, n, post = post_](write_result r) {
    post([this, n, r] {
      if (r.fenced)
        lease_lost();  // another instance owns the room: nothing of this write may show
      else
        on_durable(n, r.durable);
    });
  });
}

void room::persist_meta() {
  meta_rest_.clear();  // what changed is in the meta built now; the next clock write builds it
  seq_claimed_ = std::max(seq_claimed_, seq_ + seq_reserve);
  save_room_write w{settings_.id, state(), stored_meta()};
  // The end goes with the save that finishes the game: the index of games and the ratings are
  // written in its transaction (store.hpp game_end), so a game is rated if and only if it ended.
  if (game_ && game_->finished && !end_stored_) {
    w.end = game_end_of();
    end_stored_ = true;
  }
  persist(std::move(w));
}

// Rated when the room says so, its seed is the seats' (a fair room, docs/fairness.md: a seeded
// or scripted deck is the creator's choice) and every seat is a different player. A seat that
// left the game (resigned, timed out, away) loses to those who stayed (ratings/pools.hpp).
game_end room::game_end_of() const {
  game_end e;
  e.finished_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  std::set<std::string> players;
  for (int i = 0; i < game_->seats; ++i) {
    const auto& s = seats_[static_cast<std::size_t>(i)];
    // A bot leaves only with the last person (room_match.cpp): that is not its defeat.
    e.seats.push_back({player_of(s), s.name, game_->players[i].score,
                       has_forfeited(*game_, static_cast<seat_t>(i)) && !s.bot});
    if (!e.seats.back().player.empty()) players.insert(e.seats.back().player);
  }
  const bool every_seat_a_player = players.size() == e.seats.size();
  if (settings_.rated && !settings_.secret.empty() && every_seat_a_player) {
    const auto x = settings_.setup.find("expansions");
    const bool any_expansion = x != settings_.setup.end() && x->is_array() && !x->empty();
    e.pool = ratings::pool_name(ratings::pool_of(game_->seats, any_expansion));
  }
  return e;
}

// A clocked game writes its clock with every move: the rest of the meta changes only where
// persist_meta is called (which every change must do anyway, or an unclocked room would not
// keep it), so it is built once per game in progress and kept as text.
void room::persist_clock() {
  if (meta_rest_.empty()) meta_rest_ = stored_meta_rest();
  seq_claimed_ = std::max(seq_claimed_, seq_ + seq_reserve);
  persist(save_room_write{settings_.id, state(), meta_with_clock(meta_rest_)});
}

std::string room::stored_meta() const {
  return meta_with_clock(stored_meta_rest());
}

std::string room::meta_with_clock(const std::string& rest) const {
  std::string text = R"({"clock":)";
  if (clock_.enabled() && timer_)
    clock_.append_saved(text, timer_->now());
  else
    text += "null";
  // Every write precedes the patch that shows it; the meta claims seq_reserve numbers, so that a
  // room rebuilt from it starts above every seq it showed (room.hpp seq_claimed_).
  text += R"(,"seq":)";
  text += std::to_string(seq_ + seq_reserve);
  text += ',';
  text += rest;
  text += '}';
  return text;
}

void room::on_durable(std::uint64_t n, bool ok) {
  if (!ok) return storage_lost();  // nothing of the failed write, or after it, is shown
  outbox_.durable(n, seats_.size() + spectators_.size());
}

// The meta's members but the clock and seq, as text without the braces, written as text: a
// tree of it cost 3% of a move's instructions in a closed loop of short games (a meta is written
// at every join, start and end; docs/performance.md). The setups are spliced in as text: the
// record's setup is kept as text. Readers parse the meta, so the keys' order does not matter.
std::string room::stored_meta_rest() const {
  using protocol::append_number;
  using protocol::append_quoted;
  std::string text;
  text.reserve(1024);
  text += R"("id":)";
  append_quoted(text, settings_.id);
  text += R"(,"name":)";
  append_quoted(text, settings_.name);
  text += settings_.is_public ? R"(,"public":true)" : R"(,"public":false)";
  if (!settings_.rated) text += R"(,"rated":false)";
  if (settings_.arranged) text += R"(,"arranged":true)";
  text += R"(,"seats":)";
  append_number(text, settings_.seats);
  text += R"(,"spectator_delay":)";
  append_number(text, settings_.spectator_delay);
  text += R"(,"max_spectators":)";
  append_number(text, static_cast<long long>(settings_.max_spectators));
  text += R"(,"seed":)";
  append_quoted(text, settings_.seed);
  text += R"(,"secret":)";
  append_quoted(text, settings_.secret);
  text += R"(,"rematch_secret":)";
  append_quoted(text, settings_.rematch_secret);
  text += R"(,"rematch":)";
  append_rematch_meta(text);
  text += R"(,"seat_list":[)";
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    const auto& s = seats_[i];
    if (i) text += ',';
    if (!s.taken) {
      text += "null";
      continue;
    }
    text += R"({"name":)";
    append_quoted(text, s.name);
    text += R"(,"token_sha256":)";
    append_quoted(text, s.token_hash);
    text += R"(,"nonce":)";
    append_quoted(text, s.nonce);
    if (!s.player.empty()) {
      text += R"(,"player":)";
      append_quoted(text, s.player);
    }
    text += '}';
  }
  text += R"(],"creator_seat":)";
  append_number(text, creator_seat_);
  text += R"(,"bots":)";
  append_bot_meta(text);
  text += R"(,"match":)";
  text += settings_.match.to_json().dump();
  text += R"(,"record_setup":)";
  text += game_ && !record_setup_.empty() ? record_setup_ : "null";
  text += R"(,"setup":)";
  text += settings_.setup.dump();
  return text;
}

json room::stored_record(const stored_room& stored) {
  json moves = json::array();
  for (const auto& e : stored.moves) {
    if (e.move.value("type", json()) != "undo") {
      moves.push_back(e.move);
      continue;
    }
    // restore() refuses a marker without the moves it takes back: never in a stored room.
    const auto count = std::min(moves.size(), e.move.value("count", std::size_t{0}));
    moves.erase(moves.end() - static_cast<std::ptrdiff_t>(count), moves.end());
  }
  json record = protocol::record_to_json(stored.meta.value("record_setup", json()), moves);
  add_stored_fairness(record, stored.meta);
  return record;
}

std::unique_ptr<room> room::restore(const stored_room& stored, metrics* m, std::string& error) {
  const auto fail = [&](const std::string& what) {
    error = "room " + stored.id + ": " + what;
    return nullptr;
  };
  try {
    const json& meta = stored.meta;
    room_settings s;
    s.id = meta.at("id").get<std::string>();
    s.name = meta.at("name").get<std::string>();
    s.is_public = meta.at("public").get<bool>();
    s.rated = meta.value("rated", true);
    s.arranged = meta.value("arranged", false);
    s.seats = meta.at("seats").get<int>();
    s.spectator_delay = meta.at("spectator_delay").get<int>();
    s.max_spectators = meta.at("max_spectators").get<std::size_t>();
    s.setup = meta.at("setup");
    s.seed = meta.at("seed").get<std::string>();
    s.secret = meta.value("secret", std::string());  // rooms stored before docs/fairness.md
    s.rematch_secret = meta.value("rematch_secret", std::string());  // else drawn anew
    if (auto match = match_options_from_json(meta.value("match", json())); match.ok())
      s.match = *match.value;
    else
      return fail("stored match options: " + match.error.message);
    const json& list = meta.at("seat_list");
    if (s.id != stored.id || !list.is_array() || static_cast<int>(list.size()) != s.seats)
      return fail("the stored seats do not match the room");
    auto r = std::make_unique<room>(s, m, std::weak_ptr<const client_link>());
    for (std::size_t i = 0; i < list.size(); ++i) {
      if (list[i].is_null()) continue;
      r->seats_[i].taken = true;
      r->seats_[i].name = list[i].at("name").get<std::string>();
      r->seats_[i].token_hash = list[i].at("token_sha256").get<std::string>();
      r->seats_[i].nonce = list[i].value("nonce", std::string());
      r->seats_[i].player = list[i].value("player", std::string());
    }
    r->creator_seat_ = meta.at("creator_seat").get<int>();
    r->restore_bot_meta(meta);
    r->restore_rematch_meta(meta);
    r->seq_ = meta.at("seq").get<std::uint64_t>();

    const json& setup = meta.at("record_setup");
    if (!setup.is_null()) {
      auto parsed = protocol::parse_setup(setup);
      if (!parsed.ok()) return fail("stored setup: " + parsed.error.message);
      auto g = new_game(parsed.value->setup);
      if (!g.ok()) return fail("stored setup: " + g.err().message);
      r->record_setup_ = setup.dump();
      r->game_ = std::move(g.value());
      for (const auto& seat : r->seats_) r->names_.push_back(seat.name);
      r->delayed_.start(*r->game_);
      r->clock_ = room_clock(s.match, static_cast<int>(r->seats_.size()));
      for (const auto& e : stored.moves) {
        const auto n = std::to_string(r->stored_moves_);
        if (auto bad =
                apply_stored_entry(setup, e.move, r->settings_.match.undo, *r->game_, r->played_);
            !bad.empty())
          return fail("journal move " + n + ": " + bad);
        ++r->stored_moves_;
        r->seq_ = std::max(r->seq_, e.seq);
        // Duplicates of moves answered before the restart are still recognised.
        if (!e.client_id.is_null() && e.move.contains("seat")) {
          auto& cache = r->seats_.at(e.move["seat"].get<std::size_t>()).answered;
          cache.emplace_back(
              e.client_id,
              std::make_shared<const std::string>(
                  protocol::reply("move_accepted", e.client_id, {{"seq", e.seq}}).dump()));
          if (cache.size() > answers_kept) cache.pop_front();
        }
      }
      std::vector<json> moves;
      moves.reserve(r->played_.moves.size());
      for (const auto& text : r->played_.moves)
        moves.push_back(protocol::move_json_from_text(text));
      r->outcomes_.clear();
      for (const auto& o : fairness::replay_outcomes(parsed.value->setup, moves).outcomes)
        r->outcomes_.push_back(o.dump());
      if (const auto& saved = meta.value("clock", json()); saved.is_object() && r->clock_.enabled())
        r->clock_.restore_saved(saved);
      r->public_ = protocol::public_doc(*r->game_, r->names_, nullptr, &r->board_memo_);
      r->delayed_.follow(r->played_.moves, r->game_->finished, r->names_, nullptr);
    } else if (!stored.moves.empty()) {
      return fail("moves stored for a game that never started");
    }
    r->seq_claimed_ = r->seq_;
    // What the store holds already: the rebuilt room tells of no turn or end again (and were it
    // to, the same keys would be skipped).
    if (r->game_) {
      r->notices_.restored(r->game_->finished ? -1 : static_cast<int>(to_act(*r->game_)),
                           r->stored_moves_, r->game_->finished);
    }
    r->end_unsaved_ = r->game_ && r->game_->finished && stored.state != room_state::finished;
    r->reset_room_part();
    r->publish_summary();
    return r;
  } catch (const std::exception& e) {
    return fail(std::string("unreadable stored room: ") + e.what());
  }
}

}  // namespace carcassonne::server
