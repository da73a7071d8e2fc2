// The reads of accounts.hpp: profiles, leaderboards and the records API, as JSON.
#include <limits>

#include "players/accounts.hpp"
#include "ratings/pools.hpp"

namespace carcassonne::server {

namespace {

constexpr std::int64_t max_page = 100;

account_error read_failed(const std::string& why) {
  return {503, "storage_failed", "the accounts' database cannot answer now (" + why + ")"};
}

nlohmann::json rating_json(const ratings::rating& r) {
  return {{"rating", r.r},
          {"deviation", r.rd},
          {"volatility", r.sigma},
          {"provisional", ratings::provisional(r)}};
}

nlohmann::json game_json(const game_summary& g) {
  nlohmann::json seats = nlohmann::json::array();
  for (const auto& s : g.seats)
    seats.push_back({{"player", s.player.empty() ? nlohmann::json() : nlohmann::json(s.player)},
                     {"name", s.name},
                     {"score", s.score},
                     {"forfeited", s.forfeited},
                     {"bot", s.bot}});
  return {{"room", g.room},
          {"finished_ms", g.finished_ms},
          {"pool", g.pool.empty() ? nlohmann::json() : nlohmann::json(g.pool)},
          {"rated", g.rated},
          {"seats", std::move(seats)},
          {"record", "/api/rooms/" + g.room + "/record"}};
}

std::optional<account_error> bad_page(std::int64_t offset, std::int64_t limit) {
  if (offset < 0 || limit < 1 || limit > max_page)
    return account_error{400, "bad_message", "offset >= 0 and limit 1 to 100"};
  return std::nullopt;
}

}  // namespace

outcome<nlohmann::json> accounts::profile(const std::string& player) {
  std::string error;
  const auto p = db_->player_by_id(player, error);
  if (!p) {
    if (!error.empty()) return read_failed(error);
    return account_error{404, "no_such_player", "no player '" + player + "'"};
  }
  const auto rows = db_->ratings_of(player, error);
  if (!rows) return read_failed(error);
  nlohmann::json ratings = nlohmann::json::array();
  for (const auto& row : *rows) {
    auto history = db_->rating_history(player, row.pool, 100, error);
    if (!history) return read_failed(error);
    nlohmann::json points = nlohmann::json::array();
    for (const auto& h : *history)
      points.push_back(
          {{"room", h.room}, {"at_ms", h.at_ms}, {"rating", h.after.r}, {"deviation", h.after.rd}});
    auto r = rating_json(row.value);
    r["pool"] = row.pool;
    r["games"] = row.games;
    r["history"] = std::move(points);
    ratings.push_back(std::move(r));
  }
  auto recent = games(player, 0, 0, 0, 20);
  if (!recent) return recent.error;
  return nlohmann::json{{"player", player_json(*p)},
                        {"ratings", std::move(ratings)},
                        {"games", std::move(*recent.value)}};
}

outcome<nlohmann::json> accounts::leaderboard(const std::string& pool, std::int64_t offset,
                                              std::int64_t limit) {
  if (!ratings::pool_from_name(pool))
    return account_error{404, "no_such_pool", "pools are duel, duel_expansions and multi"};
  if (auto bad = bad_page(offset, limit)) return *bad;
  std::int64_t total = 0;
  std::string error;
  const auto rows = db_->leaderboard(pool, offset, limit, total, error);
  if (!rows) return read_failed(error);
  nlohmann::json list = nlohmann::json::array();
  std::int64_t rank = offset;
  for (const auto& row : *rows) {
    auto r = rating_json(row.value);
    r["rank"] = ++rank;
    r["player"] = {{"id", row.player}, {"name", row.name}, {"bot", row.bot}};
    r["games"] = row.games;
    list.push_back(std::move(r));
  }
  return nlohmann::json{{"pool", pool}, {"players", std::move(list)}, {"total", total}};
}

outcome<nlohmann::json> accounts::games(const std::string& player, std::int64_t from_ms,
                                        std::int64_t to_ms, std::int64_t offset,
                                        std::int64_t limit) {
  if (auto bad = bad_page(offset, limit)) return *bad;
  std::int64_t total = 0;
  std::string error;
  const auto end = to_ms > 0 ? to_ms : std::numeric_limits<std::int64_t>::max();  // 0: no end
  const auto rows = db_->games(player, from_ms, end, offset, limit, total, error);
  if (!rows) return read_failed(error);
  nlohmann::json list = nlohmann::json::array();
  for (const auto& g : *rows) list.push_back(game_json(g));
  return nlohmann::json{{"games", std::move(list)}, {"total", total}};
}

}  // namespace carcassonne::server
