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

double competitions::rating_of(const std::string& player, int seats, bool expansions) {
  std::string error;
  const auto pool = std::string(ratings::pool_name(ratings::pool_of(seats, expansions)));
  if (auto rows = players_.store().ratings_of(player, error))
    for (const auto& r : *rows)
      if (r.pool == pool) return r.value.r;
  return ratings::rating{}.r;
}

std::string competitions::arrange(const json& room_template, const std::vector<seat_of>& seats,
                                  bool rated, protocol::proto_error& error) {
  std::vector<seat_init> init;
  for (const auto& s : seats) {
    seat_init i;
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

void competitions::request(const player_account& who, std::uint64_t connection,
                           const protocol::competition_msg& m, const json& id, answer_fn answer) {
  post([this, who, connection, m, id, answer = std::move(answer)] {
    json out;
    try {
      out = dispatch(who, connection, m, id);
    } catch (const json::exception& e) {
      // A member of a type no check caught: refused, never the end of the process (this runs on
      // the service's thread, where an exception would terminate it).
      spdlog::warn("{} refused: {}", m.type, e.what());
      out = error_message({"bad_message", "a member of this message has the wrong type"}, id);
    }
    answer(std::move(out));
  });
}

json competitions::dispatch(const player_account& who, std::uint64_t connection,
                            const protocol::competition_msg& m, const json& id) {
  if (m.type == "seek") return seek(who, connection, m.body, id);
  if (m.type == "cancel_seek") return cancel_seek(who, id);
  if (m.type == "create_tournament") return create_tournament(who, m.body, id);
  if (m.type == "tournament") return tournament_action(who, m.body, id);
  if (m.type == "get_tournament") return read_request("tournament", m.body, id);
  return read_request("series", m.body, id);
}

// ---- the store ----

bool competitions::save(const std::string& kind, const std::string& id, const json& state,
                        bool finished, std::vector<std::string> players,
                        std::vector<notice> notices) {
  competition_doc d;
  d.id = id;
  d.kind = kind;
  d.state = state.dump();
  d.finished = finished;
  d.version = versions_[id] + 1;
  d.updated_ms = hooks_.now_ms();
  d.players = std::move(players);
  d.notices = std::move(notices);
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

bool competitions::save(const tournament& t, std::vector<notice> notices) {
  std::vector<std::string> players;
  for (const auto& p : t.participants)
    if (p.bot.empty()) players.push_back(p.id);
  const bool over = t.phase == tournament_phase::finished || t.phase == tournament_phase::cancelled;
  return save("tournament", t.id, to_json(t), over, std::move(players), std::move(notices));
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
