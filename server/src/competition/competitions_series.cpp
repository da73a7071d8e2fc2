// Series (docs/protocol.md §24 "Series"): their games made one after the other, and the results
// of every awaited room read from the index of finished games.
#include <spdlog/spdlog.h>

#include "competition/competitions.hpp"
#include "competition/time_controls.hpp"
#include "ratings/pools.hpp"

namespace carcassonne::server::competition {

using json = nlohmann::json;

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

}  // namespace carcassonne::server::competition
