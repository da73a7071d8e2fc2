#include "lobby/lobby.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>

#include "base/completion_queue.hpp"
#include "base/random_ids.hpp"
#include "carcassonne/engine/expansion.hpp"
#include "carcassonne/protocol/record.hpp"
#include "fairness/fairness.hpp"
#include "match/asio_room_timer.hpp"
#include "room/stored_record.hpp"

namespace carcassonne::server {

namespace {

// Rooms looked at to make space when the server is full: a bound on the work done under the
// lobby's lock, whatever the number of rooms.
constexpr int eviction_look = 32;
// A finished room whose last writes were not yet durable when it emptied is looked at again
// after this; so is a finished room rebuilt from the store that nobody entered.
constexpr auto finished_recheck = std::chrono::seconds(1);
constexpr auto loaded_linger = std::chrono::seconds(30);

}  // namespace

lobby::checked lobby::check(const protocol::create_room_msg& m) const {
  json setup = m.setup;
  for (const char* key : {"players"}) setup.erase(key);
  if (!config_.allow_scripted_rooms && (setup.contains("seed") || setup.contains("script")))
    return {{}, {"bad_setup", "this server does not accept seed or script in rooms"}};
  for (const auto& [key, value] : setup.items())
    if (key != "expansions" && key != "options" && key != "seed" && key != "script")
      return {{}, {"bad_setup", "unknown setup key '" + key + "'"}};
  // Validate now with two placeholder players, so that a bad room is refused at creation.
  json probe = setup;
  probe["players"] = json::array({{{"name", "a"}}, {{"name", "b"}}});
  auto parsed = protocol::parse_setup(probe);
  if (!parsed.ok()) return {{}, parsed.error};
  // A test's sample expansion (tests/expansions; only test binaries have it, in a test slot of the
  // registry) is played only where tests play: on a server that takes seeds and scripts.
  if (!config_.allow_scripted_rooms)
    for (const auto* module : all_modules())
      if (module && module->test_only && parsed.value->setup.expansions.has(module->id))
        return {
            {},
            {"bad_setup", "expansion '" + std::string(module->name) +
                              "' is a test's: only a server with --allow-scripted true has it"}};
  if (auto g = new_game(parsed.value->setup); !g.ok()) return {{}, protocol::from_engine(g.err())};

  room_settings s;
  s.name = m.name;
  s.is_public = m.is_public;
  s.rated = m.rated;
  s.seats = m.seats;
  s.spectator_delay = m.spectator_delay;
  s.max_spectators = config_.max_spectators;
  s.setup = setup;
  auto match = match_options_from_json(m.match);
  if (!match.ok()) return {{}, match.error};
  s.match = *match.value;
  return {std::move(s), {}};
}

lobby::created lobby::create(const protocol::create_room_msg& m,
                             std::weak_ptr<const client_link> creator) {
  auto [s, error] = check(m);
  if (!error.code.empty()) return {nullptr, std::move(error)};
  const json& setup = s.setup;
  if (store_ && store_->degraded())
    return {nullptr,
            {"storage_failed", "the server cannot store new rooms now: try again in a minute"}};
  std::shared_ptr<room_entry> entry;
  {
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
    entry = add(std::move(made));
  }
  // Nobody is in the room yet: it expires unless someone comes.
  boost::asio::post(entry->strand, [this, entry] { arm_expiry(entry); });
  spdlog::info("room {} created ({} seats, {})", s.id, s.seats, setup.dump());
  return {entry, {}};
}

std::shared_ptr<completion_queue> lobby::make_completion_queue(boost::asio::any_io_executor e) {
  return std::make_shared<completion_queue>(std::move(e));
}

std::shared_ptr<room_entry> lobby::add(std::shared_ptr<room> r) {
  const std::string id = r->id();
  auto entry = std::make_shared<room_entry>();
  entry->game_room = std::move(r);
  entry->arranged = entry->game_room->arranged();
  entry->strand = serial_executor(executor_, config_);
  // Durability callbacks and bots' moves come back on the room's strand, while the room exists.
  const room::poster post = [weak = std::weak_ptr<room_entry>(entry)](std::function<void()> f) {
    if (auto e = weak.lock()) boost::asio::post(e->strand, [e, f = std::move(f)] { f(); });
  };
  // The journal's callbacks: one hand-over per commit for all its rooms, then each room's strand.
  const room::poster durable = [weak = std::weak_ptr<room_entry>(entry),
                                queue = durable_](std::function<void()> f) {
    queue->push([weak, f = std::move(f)]() mutable {
      if (auto e = weak.lock()) boost::asio::post(e->strand, [e, f = std::move(f)] { f(); });
    });
  };
  const auto weak = std::weak_ptr<room_entry>(entry);
  room_hooks hooks;
  hooks.spawn = [this](room_settings s, std::vector<seat_init> seats) {
    return spawn_rematch(std::move(s), seats);
  };
  // A game that ends with nobody connected (bots only, its creator gone) leaves memory like one
  // whose last connection left; checked after the handler that ended it, once it is done.
  hooks.finished = [this, weak] {
    if (auto e = weak.lock()) boost::asio::post(e->strand, [this, e] { check_idle(e); });
  };
  if (store_) {
    entry->game_room->attach_store(store_, durable);
    hooks.storage_lost = [this, weak] {
      if (auto e = weak.lock()) storage_lost(e);  // on the room's strand
    };
  }
  if (vacation_lookup_) hooks.vacation = vacation_lookup_for(entry);
  entry->game_room->attach_hooks(std::move(hooks));
  entry->game_room->attach_timer(make_asio_room_timer(entry->strand));
  // On the strand: a restored game may start with a bot's turn.
  boost::asio::post(entry->strand, [e = entry, post, this] {
    e->game_room->attach_bots(
        bots_.get(), post, {config_.bot_playouts, std::chrono::milliseconds(config_.bot_think_ms)});
  });
  entry->lobby_timer = make_asio_room_timer(entry->strand);
  entry->order = next_order_++;
  entry->is_public = entry->game_room->listing().summary().is_public;
  auto& slot = rooms_[id];
  if (slot) slot->dropped = true;
  slot = entry;
  order_[entry->order] = id;
  metrics_.rooms.store(static_cast<std::int64_t>(rooms_.size()));
  return entry;
}

void lobby::save_clocks() {
  std::lock_guard lock(mutex_);
  for (const auto& [id, e] : rooms_) e->game_room->save_clock();
}

protocol::create_room_msg lobby::from_template(const json& t, int seats) {
  protocol::create_room_msg m;
  m.seats = seats;
  m.setup = t.value("setup", json::object());
  m.match = t.value("match", json());
  m.name = t.value("name", std::string());
  m.spectator_delay = t.value("spectator_delay", 0);
  return m;
}

std::optional<protocol::proto_error> lobby::check_template(const json& t, int seats) const {
  if (!t.is_object()) return protocol::proto_error{"bad_setup", "the room must be an object"};
  for (const auto& [key, value] : t.items())
    if (key != "setup" && key != "match" && key != "name" && key != "spectator_delay")
      return protocol::proto_error{"bad_setup", "unknown room key '" + key + "'"};
  if (t.contains("setup") && !t["setup"].is_object())
    return protocol::proto_error{"bad_setup", "'setup' must be an object"};
  if (t.contains("name") &&
      (!t["name"].is_string() || t["name"].get_ref<const std::string&>().size() > 80))
    return protocol::proto_error{"bad_setup", "'name' is a string of at most 80 bytes"};
  if (t.contains("spectator_delay") &&
      (!t["spectator_delay"].is_number_integer() || t["spectator_delay"].get<int>() < 0 ||
       t["spectator_delay"].get<int>() > 20))
    return protocol::proto_error{"bad_setup", "'spectator_delay' is 0..20 moves"};
  if (seats < 2 || seats > 6) return protocol::proto_error{"bad_setup", "2 to 6 seats"};
  auto [s, error] = check(from_template(t, seats));
  if (!error.code.empty()) return error;
  return std::nullopt;
}

lobby::arranged lobby::arrange(const json& room_template, const std::vector<seat_init>& seats,
                               bool rated, int bot_pause_ms) {
  if (auto bad = check_template(room_template, static_cast<int>(seats.size())))
    return {{}, std::move(*bad)};
  auto [s, error] = check(from_template(room_template, static_cast<int>(seats.size())));
  s.rated = rated;
  s.arranged = true;
  if (store_ && store_->degraded())
    return {{}, {"storage_failed", "the server cannot store new rooms now: try again in a minute"}};
  std::shared_ptr<room_entry> entry;
  {
    std::lock_guard lock(mutex_);
    if (rooms_.size() >= config_.max_rooms && !make_space())
      return {{}, {"server_full", "the server holds as many rooms as it may"}};
    do s.id = random_hex(10);
    while (rooms_.count(s.id));
    s.seed = s.id + "/" + random_hex(16);
    if (!s.setup.contains("seed") && !s.setup.contains("script")) s.secret = fairness::new_secret();
    if (s.name.empty()) s.name = "Room " + s.id.substr(0, 4);
    auto made = room::rematch_room(std::move(s), seats, &metrics_);
    protocol::room_bot_settings bots;
    bots.pause_ms = bot_pause_ms;
    made->set_bot_settings(bots);
    entry = add(std::move(made));
  }
  if (claim_) claim_(entry->game_room->id());  // a cluster's lease, before its first write
  boost::asio::post(entry->strand, [entry] { entry->game_room->start_rematch(); });
  spdlog::info("room {} arranged ({} seats)", entry->game_room->id(), seats.size());
  return {entry->game_room->id(), {}};
}

void lobby::resign_player(const std::string& room_id, const std::string& player) {
  auto e = find(room_id);
  if (!e) return;
  boost::asio::post(e->strand, [e, player] { e->game_room->resign_player(player); });
}

std::string lobby::spawn_rematch(room_settings s, const std::vector<seat_init>& seats) {
  std::shared_ptr<room_entry> entry;
  {
    std::lock_guard lock(mutex_);
    if (rooms_.size() >= config_.max_rooms && !make_space()) return {};
    do s.id = random_hex(10);
    while (rooms_.count(s.id));
    s.seed = s.id + "/" + random_hex(16);
    // s.secret is the finished room's rematch secret, committed to since its game ended
    // (fairness.md "Rematches"); empty when that room's creator chose the randomness.
    entry = add(room::rematch_room(std::move(s), seats, &metrics_));
  }
  if (claim_) claim_(entry->game_room->id());  // a cluster's lease, before its first write
  boost::asio::post(entry->strand, [entry] { entry->game_room->start_rematch(); });
  return entry->game_room->id();
}

void lobby::drop(const std::string& room, const char* why) {
  const std::string id = room;  // `room` may be a value of order_, erased below
  auto it = rooms_.find(id);
  if (it == rooms_.end()) return;
  order_.erase(it->second->order);
  it->second->dropped = true;
  rooms_.erase(it);
  metrics_.rooms.store(static_cast<std::int64_t>(rooms_.size()));
  spdlog::info("room {} {}", id, why);
}

void lobby::let_go(const std::string& room, const char* why) {
  const std::string id = room;  // as in drop()
  drop(id, why);
  if (release_) release_(id);
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
    std::shared_ptr<room_entry> entry;
    {
      std::lock_guard lock(mutex_);
      entry = add(std::shared_ptr<room>(std::move(r)));
    }
    // Nobody is connected after a restart: waiting rooms expire unless their players return.
    boost::asio::post(entry->strand, [this, entry] { arm_expiry(entry); });
  }
  spdlog::info("database: {} rooms rebuilt ({} games in progress, {} moves replayed)",
               stored.size(), games, moves);
  return true;
}

lobby::record_status lobby::finished_record(const std::string& id, nlohmann::json& record) const {
  if (auto e = find(id)) {
    if (auto r = e->game_room->listing().finished_record())
      return record = std::move(*r), record_status::found;
    return record_status::not_finished;
  }
  if (!store_) return record_status::unknown;
  std::string error;
  auto s = store_->load(id, error);
  if (!s) {
    if (error.empty()) return record_status::unknown;
    spdlog::error("database: reading room {}: {}", id, error);
    return record_status::unreadable;
  }
  if (s->state != room_state::finished) return record_status::not_finished;
  record = stored_record(*s);
  return record_status::found;
}

std::shared_ptr<room_entry> lobby::find_or_load(const std::string& id, bool* unfinished_elsewhere,
                                                bool* unreadable) {
  if (auto e = find(id)) return e;
  if (!store_) return nullptr;
  // Read and rebuild outside the lock: other rooms never wait for this one's replay.
  std::string error;
  auto s = store_->load(id, error);
  if (!s && !error.empty()) {
    spdlog::error("database: reading room {}: {}", id, error);
    if (unreadable) *unreadable = true;
  }
  if (s && s->state != room_state::finished && unfinished_elsewhere) *unfinished_elsewhere = true;
  if (!s || s->state != room_state::finished) return nullptr;
  auto r = room::restore(*s, &metrics_, error);
  if (!r) {
    spdlog::error("database: rebuilding finished room {}: {}", id, error);
    if (unreadable) *unreadable = true;
    return nullptr;
  }
  std::shared_ptr<room_entry> entry;
  {
    std::lock_guard lock(mutex_);
    if (auto it = rooms_.find(id); it != rooms_.end()) return it->second;  // loaded meanwhile
    if (rooms_.size() >= config_.max_rooms && !make_space()) return nullptr;
    entry = add(std::shared_ptr<room>(std::move(r)));
  }
  spdlog::info("room {} rebuilt from the database (finished)", id);
  // Leaves again if nobody enters it (a resume or spectate normally follows at once).
  entry->lobby_timer->call_after(loaded_linger, [this, weak = std::weak_ptr(entry)] {
    if (auto e = weak.lock()) check_idle(e);
  });
  return entry;
}

void lobby::forget_stored(const room& r) {
  if (store_ && r.listing().summary().state != room_state::finished)
    store_->submit(delete_room_write{r.id(), r.writes().generation()}, nullptr);
}

bool lobby::make_space() {
  // First finished rooms nobody is in (oldest first); failing that, one of the oldest rooms
  // nobody is connected to (its players left without finishing: at the cap, new games go
  // first). Either way a few rooms are looked at, never all of them.
  for (int looked = 0; looked < eviction_look && !finished_.empty(); ++looked) {
    auto e = finished_.front().lock();
    finished_.pop_front();
    if (!e || !rooms_.count(e->game_room->id())) continue;
    e->queued_finished = false;
    if (e->game_room->listing().abandoned()) {
      let_go(e->game_room->id(), "dropped to make space (finished)");
      return true;
    }
  }
  int looked = 0;
  for (auto it = order_.begin(); it != order_.end() && looked < eviction_look; ++it, ++looked) {
    auto r = rooms_.find(it->second);
    if (r == rooms_.end() || r->second->game_room->listing().summary().connections != 0) continue;
    if (r->second->arranged &&
        r->second->game_room->listing().summary().state != room_state::finished)
      continue;
    forget_stored(*r->second->game_room);
    let_go(it->second, "dropped to make space");
    return true;
  }
  return false;
}

std::shared_ptr<room_entry> lobby::find(const std::string& id) const {
  std::lock_guard lock(mutex_);
  auto it = rooms_.find(id);
  return it == rooms_.end() ? nullptr : it->second;
}

lobby::page lobby::list(const protocol::room_filter& filter) const {
  std::vector<std::shared_ptr<room_entry>> entries;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [order, id] : order_)
      if (auto it = rooms_.find(id); it != rooms_.end() && it->second->is_public)
        entries.push_back(it->second);
  }
  page out;
  for (const auto& e : entries) {
    auto s = e->game_room->listing().summary();
    if (!filter.state.empty() && to_string(s.state) != filter.state) continue;
    const bool has_all =
        std::all_of(filter.expansions.begin(), filter.expansions.end(), [&](const std::string& x) {
          return std::find(s.expansions.begin(), s.expansions.end(), x) != s.expansions.end();
        });
    if (!has_all) continue;
    const auto index = out.total++;
    if (index >= static_cast<std::size_t>(filter.offset) &&
        out.rooms.size() < static_cast<std::size_t>(filter.limit))
      out.rooms.push_back(s.to_json());
  }
  return out;
}

void lobby::room_left(const std::string& id) {
  if (auto e = find(id)) check_idle(e);
}

void lobby::check_idle(const std::shared_ptr<room_entry>& e) {
  const room& r = *e->game_room;
  const auto s = r.listing().summary();
  if (s.connections != 0) return;
  std::lock_guard lock(mutex_);
  if (!rooms_.count(r.id())) return;
  if (s.state == room_state::waiting) {
    if (s.taken == 0) {
      // Emptied waiting rooms go at once.
      forget_stored(r);
      let_go(r.id(), "closed (empty)");
    } else {
      arm_expiry(e);
    }
  } else if (s.state == room_state::finished) {
    if (store_ && !r.writes().writes_pending()) {
      // Its record is in the store, which serves it from now on (record, replay, resume).
      let_go(r.id(), "left memory (finished, stored)");
    } else if (store_) {
      e->lobby_timer->call_after(finished_recheck, [this, weak = std::weak_ptr(e)] {
        if (auto x = weak.lock()) check_idle(x);
      });
    } else if (!e->queued_finished) {
      // Memory only: finished rooms stay, served until space is needed.
      e->queued_finished = true;
      finished_.push_back(e);
    }
  }
}

void lobby::arm_expiry(const std::shared_ptr<room_entry>& e) {
  e->lobby_timer->cancel(e->expiry);
  e->expiry = e->lobby_timer->call_after(
      std::chrono::seconds(config_.waiting_room_expiry_seconds), [this, weak = std::weak_ptr(e)] {
        auto x = weak.lock();
        if (!x) return;
        x->expiry = 0;
        const auto s = x->game_room->listing().summary();
        if (s.connections != 0 || s.state != room_state::waiting) return;
        std::lock_guard lock(mutex_);
        forget_stored(*x->game_room);
        let_go(x->game_room->id(), "expired (waiting, nobody connected)");
      });
}

void lobby::clear() {
  std::lock_guard lock(mutex_);
  for (auto& [id, e] : rooms_) e->dropped = true;
  rooms_.clear();
  order_.clear();
  finished_.clear();
}

std::size_t lobby::size() const {
  std::lock_guard lock(mutex_);
  return rooms_.size();
}

}  // namespace carcassonne::server
