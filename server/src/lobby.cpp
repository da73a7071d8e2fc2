#include "carcassonne/server/lobby.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "asio_room_timer.hpp"
#include "carcassonne/protocol/record.hpp"
#include "fairness.hpp"
#include "random_ids.hpp"

namespace carcassonne::server {

lobby::created lobby::create(const protocol::create_room_msg& m,
                             std::weak_ptr<const client_link> creator) {
  json setup = m.setup;
  for (const char* key : {"players"}) setup.erase(key);
  if (!config_.allow_scripted_rooms && (setup.contains("seed") || setup.contains("script")))
    return {nullptr, {"bad_setup", "this server does not accept seed or script in rooms"}};
  for (const auto& [key, value] : setup.items())
    if (key != "expansions" && key != "options" && key != "seed" && key != "script")
      return {nullptr, {"bad_setup", "unknown setup key '" + key + "'"}};
  // Validate now with two placeholder players, so that a bad room is refused at creation.
  json probe = setup;
  probe["players"] = json::array({{{"name", "a"}}, {{"name", "b"}}});
  auto parsed = protocol::parse_setup(probe);
  if (!parsed.ok()) return {nullptr, parsed.error};
  if (auto g = new_game(parsed.value->setup); !g.ok())
    return {nullptr, protocol::from_engine(g.err())};

  room_settings s;
  s.name = m.name;
  s.is_public = m.is_public;
  s.seats = m.seats;
  s.spectator_delay = m.spectator_delay;
  s.max_spectators = config_.max_spectators;
  s.setup = setup;
  auto match = match_options_from_json(m.match);
  if (!match.ok()) return {nullptr, match.error};
  s.match = *match.value;
  std::lock_guard lock(mutex_);
  if (rooms_.size() >= config_.max_rooms && !make_space())
    return {nullptr, {"server_full", "the server holds as many rooms as it may"}};
  do s.id = random_hex(10);
  while (rooms_.count(s.id));
  s.seed = s.id + "/" + random_hex(16);
  if (!setup.contains("seed") && !setup.contains("script")) s.secret = fairness::new_secret();
  if (s.name.empty()) s.name = "Room " + s.id.substr(0, 4);
  auto made = std::make_shared<room>(s, &metrics_, std::move(creator));
  made->set_bot_settings(m.bots);
  auto entry = add(std::move(made));
  spdlog::info("room {} created ({} seats, {})", s.id, s.seats, setup.dump());
  return {entry, {}};
}

std::shared_ptr<room_entry> lobby::add(std::shared_ptr<room> r) {
  const std::string id = r->id();
  auto entry =
      std::make_shared<room_entry>(room_entry{std::move(r), boost::asio::make_strand(executor_)});
  // Durability callbacks and bots' moves come back on the room's strand, while the room exists.
  const room::poster post = [weak = std::weak_ptr<room_entry>(entry)](std::function<void()> f) {
    if (auto e = weak.lock()) boost::asio::post(e->strand, [e, f = std::move(f)] { f(); });
  };
  if (store_) entry->game_room->attach_store(store_, post);
  entry->game_room->attach_timer(make_asio_room_timer(entry->strand));
  entry->game_room->attach_spawner([this](room_settings s, std::vector<room::seat_init> seats) {
    return spawn_rematch(std::move(s), seats);
  });
  // On the strand: a restored game may start with a bot's turn.
  boost::asio::post(entry->strand, [e = entry, post, this] {
    e->game_room->attach_bots(
        bots_.get(), post, {config_.bot_playouts, std::chrono::milliseconds(config_.bot_think_ms)});
  });
  rooms_[id] = entry;
  order_.push_back(id);
  metrics_.rooms.store(static_cast<std::int64_t>(rooms_.size()));
  return entry;
}

std::string lobby::spawn_rematch(room_settings s, const std::vector<room::seat_init>& seats) {
  std::shared_ptr<room_entry> entry;
  {
    std::lock_guard lock(mutex_);
    if (rooms_.size() >= config_.max_rooms && !make_space()) return {};
    do s.id = random_hex(10);
    while (rooms_.count(s.id));
    s.seed = s.id + "/" + random_hex(16);
    // A new deck, committed to as at creation (fairness.md): unless its setup fixes the seed.
    s.secret = s.setup.contains("seed") || s.setup.contains("script") ? std::string()
                                                                      : fairness::new_secret();
    entry = add(room::rematch_room(std::move(s), seats, &metrics_));
  }
  boost::asio::post(entry->strand, [entry] { entry->game_room->start_rematch(); });
  return entry->game_room->id();
}

bool lobby::restore(std::string& error) {
  if (!store_) return true;
  auto stored = store_->unfinished_rooms(error);
  if (!error.empty()) return false;
  std::size_t games = 0, moves = 0;
  for (const auto& s : stored) {
    auto r = room::restore(s, &metrics_, error);
    if (!r) return false;
    games += r->game() != nullptr;
    moves += s.moves.size();
    std::lock_guard lock(mutex_);
    add(std::shared_ptr<room>(std::move(r)));
  }
  spdlog::info("database: {} rooms rebuilt ({} games in progress, {} moves replayed)",
               stored.size(), games, moves);
  return true;
}

lobby::record_status lobby::finished_record(const std::string& id, nlohmann::json& record) const {
  if (auto e = find(id)) {
    if (auto r = e->game_room->finished_record())
      return record = std::move(*r), record_status::found;
    return record_status::not_finished;
  }
  if (!store_) return record_status::unknown;
  std::string error;
  auto s = store_->load(id, error);
  if (!s) {
    if (!error.empty()) spdlog::error("database: reading room {}: {}", id, error);
    return record_status::unknown;
  }
  if (s->state != "finished") return record_status::not_finished;
  json moves = json::array();
  for (const auto& m : s->moves) moves.push_back(m.move);
  record = protocol::record_to_json(s->meta.value("record_setup", json()), moves);
  room::add_stored_fairness(record, s->meta);
  return record_status::found;
}

void lobby::forget_stored(const room& r) {
  if (store_ && r.summary().state != "finished") store_->submit(delete_room_write{r.id()}, nullptr);
}

bool lobby::make_space() {
  // First rooms nobody can come back to; failing that, the oldest room nobody is connected to
  // (its players left without finishing: at the cap, new games go first).
  const auto before = rooms_.size();
  const auto sweep = [&](auto&& droppable, bool just_one) {
    for (auto it = order_.begin(); it != order_.end();) {
      auto r = rooms_.find(*it);
      if (r == rooms_.end() || droppable(*r->second->game_room)) {
        if (r != rooms_.end()) {
          spdlog::info("room {} dropped to make space", *it);
          forget_stored(*r->second->game_room);
          rooms_.erase(r);
        }
        it = order_.erase(it);
        if (just_one) return;
      } else {
        ++it;
      }
    }
  };
  sweep([](const room& r) { return r.abandoned(); }, false);
  if (rooms_.size() == before)
    sweep([](const room& r) { return r.summary().connections == 0; }, true);
  metrics_.rooms.store(static_cast<std::int64_t>(rooms_.size()));
  return rooms_.size() < before;
}

std::shared_ptr<room_entry> lobby::find(const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(id);
  return it == rooms_.end() ? nullptr : it->second;
}

json lobby::list() const {
  std::vector<std::shared_ptr<room_entry>> entries;
  {
    std::lock_guard lock(mutex_);
    for (const auto& id : order_)
      if (auto it = rooms_.find(id); it != rooms_.end()) entries.push_back(it->second);
  }
  json out = json::array();
  for (const auto& e : entries) {
    auto s = e->game_room->summary();
    if (s.is_public) out.push_back(s.to_json());
  }
  return out;
}

void lobby::forget_if_abandoned(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(id);
  if (it == rooms_.end() || !it->second->game_room->abandoned()) return;
  // Finished games stay listed until space is needed; emptied waiting rooms go at once.
  if (it->second->game_room->summary().state == "finished") return;
  forget_stored(*it->second->game_room);
  rooms_.erase(it);
  order_.erase(std::remove(order_.begin(), order_.end(), id), order_.end());
  metrics_.rooms.store(static_cast<std::int64_t>(rooms_.size()));
  spdlog::info("room {} closed (empty)", id);
}

void lobby::clear() {
  std::lock_guard lock(mutex_);
  rooms_.clear();
  order_.clear();
}

std::size_t lobby::size() const {
  std::lock_guard lock(mutex_);
  return rooms_.size();
}

}  // namespace carcassonne::server
