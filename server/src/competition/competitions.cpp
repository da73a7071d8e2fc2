#include "competition/competitions.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <set>
#include <thread>

#include "base/random_ids.hpp"
#include "competition/time_controls.hpp"
#include "ratings/pools.hpp"

namespace carcassonne::server::competition {

using json = nlohmann::json;
using protocol::error_message;
using protocol::reply;

struct competitions::impl {
  boost::asio::io_context io;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{io.get_executor()};
  boost::asio::steady_timer timer{io};
  std::thread thread;
};

competitions::competitions(lobby& rooms, accounts& players, std::unique_ptr<competition_store> db,
                           std::unique_ptr<seek_queue> queue, service_settings settings,
                           service_hooks hooks)
    : rooms_(rooms),
      players_(players),
      db_(std::move(db)),
      queue_(std::move(queue)),
      settings_(std::move(settings)),
      hooks_(std::move(hooks)),
      impl_(std::make_unique<impl>()) {
  if (!hooks_.now_ms)
    hooks_.now_ms = [] {
      return std::chrono::duration_cast<std::chrono::milliseconds>(
                 std::chrono::system_clock::now().time_since_epoch())
          .count();
    };
  // A match is announced to every instance; each tells the seats connected to it. The listener
  // may run on the queue's thread (Redis): the work goes to the service's.
  queue_->on_notice([this](const std::string& text) { post([this, text] { on_notice(text); }); });
}

competitions::~competitions() {
  stop();
}

void competitions::start() {
  post([this] {
    adopt(hooks_.now_ms());
    arm_tick();
  });
  impl_->thread = std::thread([this] { impl_->io.run(); });
}

void competitions::stop() {
  queue_->stop();
  impl_->work.reset();
  impl_->io.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

void competitions::post(std::function<void()> f) {
  boost::asio::post(impl_->io, std::move(f));
}

void competitions::arm_tick() {
  impl_->timer.expires_after(settings_.tick);
  impl_->timer.async_wait([this](boost::system::error_code ec) {
    if (ec) return;
    tick();
    arm_tick();
  });
}

void competitions::tick() {
  const std::int64_t now = hooks_.now_ms();
  matchmake(now);
  poll_results();
  // A series whose next game found no room (the server full) tries again.
  std::vector<std::string> waiting;
  for (const auto& [id, s] : series_)
    if (next_game(s)) waiting.push_back(id);
  for (const auto& id : waiting)
    if (auto it = series_.find(id); it != series_.end()) start_series_game(it->second);
  std::vector<std::string> running;
  for (const auto& [id, t] : tournaments_) running.push_back(id);
  for (const auto& id : running) run_tournament(id, now);
  forget_ended();
  if (hooks_.claim && now - last_adoption_ms_ >= 3000) adopt(now);
}

// ---- quick play ----

namespace {

json prefs_json(const seek_prefs& p) {
  json j = json::object();
  if (p.seats) j["seats"] = *p.seats;
  if (p.expansions) j["expansions"] = *p.expansions;
  if (p.time_control) j["time_control"] = *p.time_control;
  if (p.rated) j["rated"] = *p.rated;
  if (p.best_of) j["best_of"] = *p.best_of;
  if (p.bot_after_ms) j["bots_after_s"] = p.bot_after_ms / 1000;
  return j;
}

// The room of a settled seek: its expansions and its time control's match options.
json room_of_prefs(const seek_prefs& p) {
  return {{"setup", {{"expansions", p.expansions.value_or(std::vector<std::string>{})}}},
          {"match", match_of(p.time_control.value_or("rapid")).value_or(json())}};
}

// Tournament and series games: always on a clock, forfeited on time, no take-backs.
json competition_room(json room) {
  room["match"]["timeout"] = "forfeit";
  room["match"]["undo"] = "off";
  return room;
}

}  // namespace

double competitions::rating_of(const std::string& player, int seats, bool expansions) {
  std::string error;
  const auto pool = std::string(ratings::pool_name(ratings::pool_of(seats, expansions)));
  if (auto rows = players_.store().ratings_of(player, error))
    for (const auto& r : *rows)
      if (r.pool == pool) return r.value.r;
  return ratings::rating{}.r;
}

json competitions::seek(const player_account& who, std::uint64_t connection, const json& body,
                        const json& id) {
  const auto bad = [&](const std::string& message) {
    return error_message({"bad_seek", message}, id);
  };
  static const std::set<std::string> keys{"seats",   "expansions",   "time_control", "rated",
                                          "best_of", "bots_after_s", "nonce"};
  for (const auto& [key, value] : body.items())
    if (!keys.count(key)) return bad("unknown key '" + key + "'");
  seek_prefs p;
  if (body.contains("seats")) {
    const auto& v = body["seats"];
    if (!v.is_number_integer() || v.get<int>() < 2 || v.get<int>() > 6)
      return bad("'seats' is 2 to 6");
    p.seats = v.get<int>();
  }
  if (body.contains("expansions")) {
    const auto& v = body["expansions"];
    if (!v.is_array() || v.size() > 16) return bad("'expansions' is a list of expansion ids");
    std::vector<std::string> list;
    for (const auto& e : v) {
      if (!e.is_string() || e.get_ref<const std::string&>().size() > 32)
        return bad("'expansions' is a list of expansion ids");
      list.push_back(e.get<std::string>());
    }
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    p.expansions = std::move(list);
  }
  if (body.contains("time_control")) {
    const auto& v = body["time_control"];
    const auto& names = time_control_names();
    if (!v.is_string() ||
        std::find(names.begin(), names.end(), v.get<std::string>()) == names.end())
      return bad("'time_control' is one of blitz, rapid, daily");
    p.time_control = v.get<std::string>();
  }
  if (body.contains("rated")) {
    if (!body["rated"].is_boolean()) return bad("'rated' is true or false");
    p.rated = body["rated"].get<bool>();
  }
  if (body.contains("best_of")) {
    const auto& v = body["best_of"];
    if (!v.is_number_integer() || !valid_best_of(v.get<int>()))
      return bad("'best_of' is 1, 3, 5 or 7");
    if (p.seats.value_or(2) != 2) return bad("a series ('best_of') is played by two seats");
    p.best_of = v.get<int>();
    if (*p.best_of > 1) p.seats = 2;
  }
  if (body.contains("bots_after_s")) {
    const auto& v = body["bots_after_s"];
    if (!v.is_number_integer() || v.get<int>() < 0 || v.get<int>() > 600)
      return bad("'bots_after_s' is 0 (never) to 600 seconds");
    p.bot_after_ms = v.get<std::int64_t>() * 1000;
  }
  std::string nonce;
  if (body.contains("nonce")) {
    const auto& v = body["nonce"];
    if (!v.is_string() || v.get_ref<const std::string&>().empty() ||
        v.get_ref<const std::string&>().size() > 64)
      return bad("'nonce' is 1 to 64 characters");
    nonce = v.get<std::string>();
  }
  // A table nobody could ever sit at (an unknown expansion, a combination the engine refuses)
  // is refused now rather than waited for.
  if (p.expansions)
    if (auto refused = rooms_.check_template(room_of_prefs(p), p.seats.value_or(2)))
      return error_message({"bad_seek", refused->message}, id);
  competition::seek s;
  s.player = who.id;
  s.name = who.name;
  s.rating = rating_of(who.id, p.seats.value_or(2), p.expansions && !p.expansions->empty());
  s.since_ms = hooks_.now_ms();
  s.prefs = p;
  s.instance = hooks_.instance;
  s.nonce = nonce;
  std::string error;
  switch (queue_->add(s, error)) {
    case seek_queue::added::already_seeking:
      return error_message({"already_seeking", "you are seeking a game already: cancel_seek first"},
                           id);
    case seek_queue::added::failed:
      spdlog::warn("quick play: seek of {} not queued: {}", who.id, error);
      return error_message({"queue_unavailable", "the queue cannot be reached: try again shortly"},
                           id);
    case seek_queue::added::yes:
      break;
  }
  seek_connection_[who.id] = connection;
  return reply("seeking", id, {{"prefs", prefs_json(p)}, {"rating", s.rating}});
}

json competitions::cancel_seek(const player_account& who, const json& id) {
  std::string error;
  seek_connection_.erase(who.id);
  if (!queue_->remove(who.id, error))
    return error_message(error.empty() ? protocol::proto_error{"no_seek", "you are not seeking"}
                                       : protocol::proto_error{"queue_unavailable", error},
                         id);
  return reply("seek_cancelled", id);
}

void competitions::connection_closed(const std::string& player, std::uint64_t connection) {
  post([this, player, connection] {
    auto it = seek_connection_.find(player);
    if (it == seek_connection_.end() || it->second != connection) return;
    seek_connection_.erase(it);
    std::string error;
    queue_->remove(player, error);
  });
}

std::string competitions::arrange(const json& room_template, const std::vector<seat_of>& seats,
                                  bool rated, protocol::proto_error& error) {
  std::vector<room::seat_init> init;
  for (const auto& s : seats) {
    room::seat_init i;
    i.name = s.name;
    i.nonce = s.nonce;
    if (s.bot.empty()) {
      i.player = s.player;
    } else {
      bot_level level = bot_level::greedy;
      if (auto parsed = bot_level_from_name(s.bot)) level = *parsed;
      i.bot = level;
    }
    init.push_back(std::move(i));
  }
  auto made = rooms_.arrange(room_template, init, rated, settings_.bot_pause_ms);
  error = made.error;
  return made.room;
}

void competitions::matchmake(std::int64_t now) {
  std::string error;
  if (!queue_->lead(error)) return;
  if (hooks_.live_instances) {
    const auto live = hooks_.live_instances();
    if (!live.empty()) queue_->prune(live, error);
  }
  auto queued = queue_->all(error);
  if (!queued || queued->empty()) return;
  std::map<std::string, competition::seek> by_player;
  for (const auto& s : *queued) by_player[s.player] = s;
  for (const auto& m : find_matches(*queued, now, settings_.window, settings_.bots)) {
    if (!queue_->take(m.players, error)) continue;  // one of them left, or went elsewhere
    const int best_of = m.settled.best_of.value_or(1);
    const bool rated = m.settled.rated.value_or(true) && m.bots.empty();
    const json room_template = room_of_prefs(m.settled);
    if (best_of > 1 && m.players.size() == 2 && m.bots.empty()) {
      series s;
      s.id = random_hex(10);
      s.best_of = best_of;
      for (int i = 0; i < 2; ++i) {
        s.players[i] = m.players[i];
        s.names[i] = by_player[m.players[i]].name;
      }
      s.room = room_template;
      s.rated = rated;
      if (make_series(std::move(s))) continue;
    } else {
      std::vector<seat_of> seats;
      for (const auto& p : m.players)
        seats.push_back({p, by_player[p].name, "", by_player[p].nonce});
      for (std::size_t i = 0; i < m.bots.size(); ++i) {
        std::string level = m.bots[i];
        std::string name = level;
        if (!name.empty()) name[0] = static_cast<char>(std::toupper(name[0]));
        seats.push_back({"", name + " bot", level, ""});
      }
      protocol::proto_error refused;
      const auto room = arrange(room_template, seats, rated, refused);
      if (!room.empty()) {
        json players = json::array(), names = json::array();
        for (const auto& s : seats) {
          players.push_back(s.player);
          names.push_back(s.name);
        }
        json notice{{"room", room},
                    {"players", players},
                    {"names", names},
                    {"time_control", m.settled.time_control.value_or("rapid")},
                    {"rated", rated}};
        if (!queue_->announce(notice.dump(), error))
          spdlog::warn("quick play: the match in room {} was not announced: {}", room, error);
        continue;
      }
      spdlog::warn("quick play: no room for a match: {}", refused.message);
    }
    // No room now (the server full, the store failing): the seekers wait on, as they were.
    for (const auto& p : m.players) queue_->add(by_player[p], error);
  }
}

// A match (a quick play table, a series' game, a tournament's table) told to the seats connected
// here: `match_found` with the seat each one has.
void competitions::on_notice(const std::string& text) {
  const json notice = json::parse(text, nullptr, false);
  if (!notice.is_object() || !notice.contains("players")) return;
  const auto& players = notice["players"];
  for (std::size_t seat = 0; seat < players.size(); ++seat) {
    if (!players[seat].is_string() || players[seat].get_ref<const std::string&>().empty()) continue;
    const auto player = players[seat].get<std::string>();
    seek_connection_.erase(player);
    json message = notice;
    message["type"] = "match_found";
    message["seat"] = seat;
    message.erase("players");
    message["players"] = notice.value("names", json::array());
    message.erase("names");
    if (hooks_.tell) hooks_.tell(player, message.dump());
  }
}

// ---- results ----

void competitions::poll_results() {
  std::vector<std::string> awaited;
  for (const auto& [room, owner] : rooms_of_) awaited.push_back(room);
  for (const auto& room : awaited) {
    bool found = false;
    std::string error;
    auto g = players_.store().finished_game(room, found, error);
    if (!g || !found) continue;
    room_ended(room, *g);
  }
}

namespace {

// results[i][j]: seat i against seat j (ratings::pair_score).
std::vector<std::vector<double>> results_of(const game_summary& g) {
  const std::size_t n = g.seats.size();
  std::vector<std::vector<double>> r(n, std::vector<double>(n, 0.0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (i != j)
        r[i][j] = ratings::pair_score({g.seats[i].score, g.seats[i].forfeited},
                                      {g.seats[j].score, g.seats[j].forfeited});
  return r;
}

}  // namespace

void competitions::room_ended(const std::string& room, const game_summary& g) {
  const auto it = rooms_of_.find(room);
  if (it == rooms_of_.end()) return;
  const room_owner owner = it->second;
  rooms_of_.erase(it);
  if (owner.kind == "series") {
    if (auto s = series_.find(owner.id); s != series_.end()) series_game_ended(s->second, room, g);
    return;
  }
  auto t = tournaments_.find(owner.id);
  if (t == tournaments_.end()) return;
  table_finished(t->second, owner.table, results_of(g));
  save(t->second);
  run_tournament(owner.id, hooks_.now_ms());
}

// ---- series ----

std::optional<std::string> competitions::make_series(series s) {
  const std::string id = s.id;
  if (hooks_.claim && !hooks_.claim("competition:" + id)) return std::nullopt;
  auto [it, inserted] = series_.emplace(id, std::move(s));
  if (!inserted) return std::nullopt;
  start_series_game(it->second);
  if (!series_.count(id)) return std::nullopt;
  return id;
}

void competitions::start_series_game(series& s) {
  const auto order = next_game(s);
  if (!order) return;
  std::vector<seat_of> seats;
  for (int p : *order) seats.push_back({s.players[p], s.names[p], s.bots[p], ""});
  protocol::proto_error refused;
  const auto room = arrange(competition_room(s.room), seats, s.rated, refused);
  if (room.empty()) {
    // Tried again at the next tick (a series whose game is not under way is retried by adopt).
    spdlog::warn("series {}: no room for game {}: {}", s.id, s.games.size() + 1, refused.message);
    return;
  }
  game_started(s, room);
  const std::string id = s.id;
  if (!save(s)) return;
  rooms_of_[room] = {"series", id, {}};
  const auto& now = series_.at(id);
  json players = json::array(), names = json::array();
  for (const auto& seat : seats) {
    players.push_back(seat.bot.empty() ? seat.player : std::string());
    names.push_back(seat.name);
  }
  json notice{{"room", room},      {"players", players},       {"names", names},
              {"series", id},      {"game", now.games.size()}, {"best_of", now.best_of},
              {"rated", now.rated}};
  if (!now.tournament.empty()) notice["tournament"] = now.tournament;
  std::string error;
  queue_->announce(notice.dump(), error);
}

void competitions::series_game_ended(series& s, const std::string& room, const game_summary& g) {
  if (g.seats.size() != 2) return;
  if (!game_ended(s, room, {g.seats[0].score, g.seats[1].score},
                  {g.seats[0].forfeited, g.seats[1].forfeited}))
    return;
  const std::string id = s.id;
  if (!save(s)) return;
  auto& now = series_.at(id);
  if (!now.finished) return start_series_game(now);
  spdlog::info("series {} finished: {}", id, to_json(now)["points"].dump());
  const std::string tournament_id = now.tournament;
  const double r = series_result(now);
  series_.erase(id);
  versions_.erase(id);
  if (tournament_id.empty()) return;
  if (auto t = tournaments_.find(tournament_id); t != tournaments_.end()) {
    if (series_into_table(t->second, id, r)) {
      save(t->second);
      run_tournament(tournament_id, hooks_.now_ms());
    }
    return;
  }
  // The tournament is run by another instance (a failover moved one and not the other): its
  // stored document takes the result, fenced; its runner reads it back.
  std::string error;
  auto doc = db_->load(tournament_id, error);
  if (!doc) return;
  auto stored = tournament_from_json(json::parse(doc->state, nullptr, false));
  if (!stored || !series_into_table(*stored, id, r)) return;
  versions_[tournament_id] = doc->version;
  save(*stored);
  versions_.erase(tournament_id);
}

bool competitions::series_into_table(tournament& t, const std::string& series_id, double result) {
  for (const auto& round : t.rounds)
    for (std::size_t i = 0; i < round.tables.size(); ++i)
      if (round.tables[i].series == series_id && !round.tables[i].results) {
        table_finished(t, {round.number, static_cast<int>(i)},
                       {{0.0, result}, {1.0 - result, 0.0}});
        return true;
      }
  return false;
}

// ---- tournaments ----

void competitions::run_tournament(const std::string& id, std::int64_t now) {
  auto it = tournaments_.find(id);
  if (it == tournaments_.end()) return;
  auto& t = it->second;
  const auto step = advance(t, now);
  for (const auto& ref : step.start) start_table(t, ref, now);
  if (step.changed || !step.start.empty()) save(t);
}

// Finished and cancelled tournaments leave memory (the store has them), after the tick.
void competitions::forget_ended() {
  for (auto it = tournaments_.begin(); it != tournaments_.end();) {
    const auto phase = it->second.phase;
    if (phase != tournament_phase::finished && phase != tournament_phase::cancelled) {
      ++it;
      continue;
    }
    spdlog::info("tournament {} {}", it->first,
                 phase == tournament_phase::finished ? "finished" : "cancelled");
    versions_.erase(it->first);
    it = tournaments_.erase(it);
  }
}

void competitions::start_table(tournament& t, const table_ref& ref, std::int64_t now) {
  tournament_table* table = nullptr;
  for (auto& round : t.rounds)
    if (round.number == ref.round && ref.table < static_cast<int>(round.tables.size()))
      table = &round.tables[static_cast<std::size_t>(ref.table)];
  if (!table) return;
  std::vector<seat_of> seats;
  for (const auto& p : table->players) {
    const auto who = std::find_if(t.participants.begin(), t.participants.end(),
                                  [&](const participant& x) { return x.id == p; });
    if (who == t.participants.end()) return table_failed(t, ref, now);
    seats.push_back({who->bot.empty() ? who->id : std::string(), who->name, who->bot, ""});
  }
  json room = competition_room(t.settings.room);
  if (ref.table < t.settings.featured && t.settings.featured_delay > 0)
    room["spectator_delay"] = t.settings.featured_delay;
  if (t.settings.table_size == 2 && t.settings.best_of > 1 && seats.size() == 2) {
    series s;
    s.id = random_hex(10);
    s.best_of = t.settings.best_of;
    for (int i = 0; i < 2; ++i) {
      s.players[i] = table->players[i];
      s.names[i] = seats[i].name;
      s.bots[i] = seats[i].bot;
    }
    s.room = room;
    s.rated = t.settings.rated;
    s.tournament = t.id;
    if (auto made = make_series(std::move(s))) return table_started(t, ref, *made, true);
    return table_failed(t, ref, now);
  }
  protocol::proto_error refused;
  const auto made = arrange(room, seats, t.settings.rated, refused);
  if (made.empty()) {
    spdlog::warn("tournament {} round {} table {}: no room: {}", t.id, ref.round, ref.table + 1,
                 refused.message);
    return table_failed(t, ref, now);
  }
  table_started(t, ref, made, false);
  rooms_of_[made] = {"tournament", t.id, ref};
  json players = json::array(), names = json::array();
  for (const auto& seat : seats) {
    players.push_back(seat.player);
    names.push_back(seat.name);
  }
  json notice{{"room", made},       {"players", players}, {"names", names},
              {"tournament", t.id}, {"round", ref.round}, {"rated", t.settings.rated}};
  std::string error;
  queue_->announce(notice.dump(), error);
}

std::vector<std::string> competitions::rooms_in_play(const tournament& t,
                                                     const std::string& player) const {
  std::vector<std::string> rooms;
  if (t.rounds.empty()) return rooms;
  for (const auto& table : t.rounds.back().tables) {
    if (table.results || table.void_table ||
        std::find(table.players.begin(), table.players.end(), player) == table.players.end())
      continue;
    if (!table.series.empty()) {
      const auto s = series_.find(table.series);
      if (s != series_.end() && !s->second.games.empty() && !s->second.games.back().scores)
        rooms.push_back(s->second.games.back().room);
    } else if (!table.rooms.empty()) {
      rooms.push_back(table.rooms.back());
    }
  }
  return rooms;
}

json competitions::create_tournament(const player_account& who, const json& body, const json& id) {
  tournament_error error;
  auto settings = settings_from_json(body.value("tournament", json()), error);
  if (!settings) return error_message({error.code, error.message}, id);
  settings->director = who.id;
  settings->room = competition_room(settings->room);
  if (auto bad = check_settings(*settings, hooks_.now_ms()))
    return error_message({bad->code, bad->message}, id);
  if (auto refused = rooms_.check_template(settings->room, settings->table_size))
    return error_message({"bad_tournament", refused->message}, id);
  tournament t;
  t.id = random_hex(10);
  t.settings = std::move(*settings);
  if (hooks_.claim && !hooks_.claim("competition:" + t.id))
    return error_message({"directory_unavailable", "the cluster's directory cannot be reached"},
                         id);
  const std::string tid = t.id;
  tournaments_.emplace(tid, std::move(t));
  if (!save(tournaments_.at(tid)))
    return error_message({"storage_failed", "the tournament could not be stored: try again"}, id);
  spdlog::info("tournament {} created by {}", tid, who.id);
  return reply("tournament_created", id, {{"tournament", to_json(tournaments_.at(tid))}});
}

json competitions::tournament_action(const player_account& who, const json& body, const json& id) {
  const auto bad = [&](const std::string& code, const std::string& message) {
    return error_message({code, message}, id);
  };
  if (!body.contains("tournament") || !body["tournament"].is_string())
    return bad("bad_message", "missing 'tournament'");
  if (!body.contains("action") || !body["action"].is_string())
    return bad("bad_message", "missing 'action'");
  const auto tid = body["tournament"].get<std::string>();
  const auto action = body["action"].get<std::string>();
  const std::string target = body.value("player", std::string());
  // The tournament as it is: here when this instance runs it, else from the database (the
  // version fence makes the runner reload it).
  std::optional<tournament> loaded;
  tournament* t = nullptr;
  if (auto it = tournaments_.find(tid); it != tournaments_.end()) {
    t = &it->second;
  } else {
    std::string error;
    auto doc = db_->load(tid, error);
    if (!doc && !error.empty()) return bad("storage_failed", "the tournament cannot be read now");
    if (!doc || doc->kind != "tournament")
      return bad("no_such_tournament", "no tournament '" + tid + "'");
    loaded = tournament_from_json(json::parse(doc->state, nullptr, false));
    if (!loaded) return bad("storage_failed", "the stored tournament does not read");
    versions_[tid] = doc->version;
    t = &*loaded;
  }
  const auto now = hooks_.now_ms();
  maybe_error refused;
  if (action == "register") {
    participant p;
    p.id = who.id;
    p.name = who.name;
    p.rating = rating_of(
        who.id, t->settings.table_size,
        t->settings.room.value("setup", json::object()).value("expansions", json::array()).size() >
            0);
    refused = register_player(*t, p);
  } else if (action == "withdraw") {
    refused = withdraw(*t, who.id, now);
  } else if (action == "check_in") {
    refused = check_in(*t, who.id, now);
  } else if (action == "pause") {
    refused = pause(*t, who.id);
  } else if (action == "resume") {
    refused = resume(*t, who.id, now);
  } else if (action == "remove") {
    refused = remove_player(*t, who.id, target);
    // The game under way is the removed player's to lose: it resigns there (a room of this
    // instance; on another the player's clock settles it).
    if (!refused)
      for (const auto& room : rooms_in_play(*t, target)) rooms_.resign_player(room, target);
  } else if (action == "bye") {
    refused = award_bye(*t, who.id, target);
  } else if (action == "start") {
    if (who.id != t->settings.director)
      refused = tournament_error{"not_director", "only the tournament's director may do that"};
    else if (t->phase != tournament_phase::registration)
      refused = tournament_error{"registration_closed", "the tournament has started"};
    else
      t->settings.starts_ms = now;
  } else if (action == "add_bots") {
    const int count = body.value("count", 0);
    const std::string level = body.value("level", std::string("greedy"));
    if (who.id != t->settings.director)
      refused = tournament_error{"not_director", "only the tournament's director may do that"};
    else if (count < 1 || count > 64 || !bot_level_from_name(level))
      refused = tournament_error{"bad_message",
                                 "'count' is 1 to 64 and 'level' random, greedy or strong"};
    else {
      int next = 0;
      for (const auto& p : t->participants) next += !p.bot.empty();
      double rating = ratings::rating{}.r;
      for (const auto& b : settings_.bots)
        if (b.level == level) rating = b.rating;
      for (int i = 0; i < count && !refused; ++i) {
        participant p;
        p.id = "bot-" + level + "#" + std::to_string(next + i + 1);
        p.name = std::string(1, static_cast<char>(std::toupper(level[0]))) + level.substr(1) +
                 " bot " + std::to_string(next + i + 1);
        p.rating = rating;
        p.bot = level;
        p.checked_in = true;
        refused = register_player(*t, p);
      }
    }
  } else {
    return bad("bad_message", "unknown tournament action '" + action + "'");
  }
  if (refused) {
    if (loaded) versions_.erase(tid);
    return bad(refused->code, refused->message);
  }
  if (!save(*t)) {
    // Lost to the runner's own save (or the database failed): nothing changed; try again.
    return bad("storage_failed", "the tournament changed meanwhile or cannot be stored: try again");
  }
  if (loaded) {
    versions_.erase(tid);  // not run here: the runner reloads it (fenced)
    return reply("tournament_updated", id, {{"tournament", to_json(*t)}});
  }
  run_tournament(tid, now);
  const auto it = tournaments_.find(tid);  // gone when the store refused it
  if (it == tournaments_.end())
    return bad("storage_failed", "the tournament changed meanwhile or cannot be stored: try again");
  return reply("tournament_updated", id, {{"tournament", to_json(it->second)}});
}

json competitions::read_request(const std::string& kind, const json& body, const json& id) {
  const std::string key = kind == "series" ? "series" : "tournament";
  if (!body.contains(key) || !body[key].is_string())
    return error_message({"bad_message", "missing '" + key + "'"}, id);
  std::string error;
  auto doc = document(kind, body[key].get<std::string>(), error);
  if (!doc && !error.empty())
    return error_message({"storage_failed", "cannot be read now: try again"}, id);
  if (!doc)
    return error_message(
        {"no_such_" + key, "no " + key + " '" + body[key].get<std::string>() + "'"}, id);
  return reply(key, id, {{key, std::move(*doc)}});
}

void competitions::request(const player_account& who, std::uint64_t connection,
                           const protocol::competition_msg& m, const json& id, answer_fn answer) {
  post([this, who, connection, m, id, answer = std::move(answer)] {
    json out;
    if (m.type == "seek")
      out = seek(who, connection, m.body, id);
    else if (m.type == "cancel_seek")
      out = cancel_seek(who, id);
    else if (m.type == "create_tournament")
      out = create_tournament(who, m.body, id);
    else if (m.type == "tournament")
      out = tournament_action(who, m.body, id);
    else if (m.type == "get_tournament")
      out = read_request("tournament", m.body, id);
    else
      out = read_request("series", m.body, id);
    answer(std::move(out));
  });
}

// ---- the store ----

bool competitions::save(const std::string& kind, const std::string& id, const json& state,
                        bool finished, std::vector<std::string> players) {
  competition_doc d;
  d.id = id;
  d.kind = kind;
  d.state = state.dump();
  d.finished = finished;
  d.version = versions_[id] + 1;
  d.updated_ms = hooks_.now_ms();
  d.players = std::move(players);
  std::string error;
  switch (db_->save(d, error)) {
    case competition_store::saved::yes:
      versions_[id] = d.version;
      return true;
    case competition_store::saved::stale:
      spdlog::info("{} {}: changed elsewhere: reloaded", kind, id);
      break;
    case competition_store::saved::failed:
      spdlog::error("{} {}: not stored: {}", kind, id, error);
      break;
  }
  drop(id);  // the next adoption reads it back as stored
  return false;
}

bool competitions::save(const series& s) {
  std::vector<std::string> players;
  for (int i = 0; i < 2; ++i)
    if (s.bots[i].empty()) players.push_back(s.players[i]);
  return save("series", s.id, to_json(s), s.finished, std::move(players));
}

bool competitions::save(const tournament& t) {
  std::vector<std::string> players;
  for (const auto& p : t.participants)
    if (p.bot.empty()) players.push_back(p.id);
  const bool over = t.phase == tournament_phase::finished || t.phase == tournament_phase::cancelled;
  return save("tournament", t.id, to_json(t), over, std::move(players));
}

void competitions::drop(const std::string& id) {
  series_.erase(id);
  tournaments_.erase(id);
  versions_.erase(id);
  std::erase_if(rooms_of_, [&](const auto& r) { return r.second.id == id; });
}

// Unfinished series and tournaments that nobody runs: this instance takes them (all of them for
// a single instance at its start; in a cluster, those whose lease it gets).
void competitions::adopt(std::int64_t now) {
  last_adoption_ms_ = now;
  for (const char* kind : {"series", "tournament"}) {
    std::string error;
    auto docs = db_->unfinished(kind, error);
    if (!docs) {
      spdlog::warn("competitions: cannot read the unfinished {}: {}", kind, error);
      continue;
    }
    for (const auto& d : *docs) {
      if (versions_.count(d.id)) continue;  // run here already
      if (hooks_.claim && !hooks_.claim("competition:" + d.id)) continue;
      const json state = json::parse(d.state, nullptr, false);
      if (d.kind == "series") {
        auto s = series_from_json(state);
        if (!s) continue;
        versions_[d.id] = d.version;
        auto& held = series_[d.id] = std::move(*s);
        if (!held.games.empty() && !held.games.back().scores)
          rooms_of_[held.games.back().room] = {"series", d.id, {}};
        else
          start_series_game(held);
      } else {
        auto t = tournament_from_json(state);
        if (!t) continue;
        versions_[d.id] = d.version;
        auto& held = tournaments_[d.id] = std::move(*t);
        std::vector<std::pair<std::string, double>> ended;  // series over while nobody ran it
        for (const auto& round : held.rounds)
          for (std::size_t i = 0; i < round.tables.size(); ++i) {
            const auto& table = round.tables[i];
            if (table.results || table.void_table) continue;
            if (!table.series.empty()) {
              auto s = db_->load(table.series, error);
              auto done =
                  s ? series_from_json(json::parse(s->state, nullptr, false)) : std::nullopt;
              if (done && done->finished) ended.emplace_back(table.series, series_result(*done));
              continue;
            }
            if (table.rooms.empty()) continue;
            rooms_of_[table.rooms.back()] = {
                "tournament", d.id, {round.number, static_cast<int>(i)}};
          }
        bool changed = false;
        for (const auto& [series_id, result] : ended)
          changed = series_into_table(held, series_id, result) || changed;
        if (changed) save(held);
      }
      spdlog::info("competitions: {} {} taken up here", d.kind, d.id);
    }
  }
}

// ---- reads ----

std::optional<json> competitions::document(const std::string& kind, const std::string& id,
                                           std::string& error) {
  auto doc = db_->load(id, error);
  if (!doc || doc->kind != kind) return std::nullopt;
  auto state = json::parse(doc->state, nullptr, false);
  if (state.is_discarded()) return error = "the stored document does not read", std::nullopt;
  return state;
}

namespace {

json summary_of(const competition_doc& d) {
  const json s = json::parse(d.state, nullptr, false);
  json out{{"id", d.id}, {"kind", d.kind}, {"finished", d.finished}, {"updated_ms", d.updated_ms}};
  if (s.is_discarded()) return out;
  for (const char* key : {"name", "phase", "format", "starts_ms", "champion", "best_of", "names",
                          "points", "winner", "tournament"})
    if (s.contains(key)) out[key] = s[key];
  if (s.contains("settings"))
    for (const char* key : {"name", "format", "starts_ms", "table_size", "best_of", "rounds"})
      if (s["settings"].contains(key)) out[key] = s["settings"][key];
  if (s.contains("participants")) out["players"] = s["participants"].size();
  return out;
}

}  // namespace

std::optional<json> competitions::listing(const std::string& kind, int limit, int offset,
                                          std::string& error) {
  auto docs = db_->recent(kind, limit, offset, error);
  if (!docs) return std::nullopt;
  json out = json::array();
  for (const auto& d : *docs) out.push_back(summary_of(d));
  return out;
}

std::optional<json> competitions::of_player(const std::string& player, int limit, int offset,
                                            std::string& error) {
  auto docs = db_->of_player(player, limit, offset, error);
  if (!docs) return std::nullopt;
  json out = json::array();
  for (const auto& d : *docs) out.push_back(summary_of(d));
  return out;
}

}  // namespace carcassonne::server::competition
