#include "competition/series.hpp"

namespace carcassonne::server::competition {

bool valid_best_of(int n) {
  return n == 1 || n == 3 || n == 5 || n == 7;
}

double game_result(const series_game& g) {
  if (!g.scores) return 0.5;
  if (g.forfeited[0] != g.forfeited[1]) return g.forfeited[0] ? 0.0 : 1.0;
  if (g.forfeited[0]) return 0.5;
  const auto& s = *g.scores;
  return s[0] > s[1] ? 1.0 : s[0] < s[1] ? 0.0 : 0.5;
}

std::array<double, 2> series_points(const series& s) {
  std::array<double, 2> points{0, 0};
  for (const auto& g : s.games) {
    if (!g.scores) continue;
    const double r = game_result(g);
    points[0] += r;
    points[1] += 1 - r;
  }
  return points;
}

std::optional<std::array<int, 2>> next_game(const series& s) {
  if (s.finished || (!s.games.empty() && !s.games.back().scores)) return std::nullopt;
  const int first = static_cast<int>(s.games.size() % 2);
  return std::array<int, 2>{first, 1 - first};
}

void game_started(series& s, const std::string& room) {
  series_game g;
  g.room = room;
  g.first = static_cast<int>(s.games.size() % 2);
  s.games.push_back(std::move(g));
}

namespace {

// Ends the series when it is decided (more than N/2), or after N games with the tie-break.
void settle(series& s) {
  const auto points = series_points(s);
  const double half = s.best_of / 2.0;
  const bool decided = points[0] > half || points[1] > half;
  if (!decided && static_cast<int>(s.games.size()) < s.best_of) return;
  s.finished = true;
  if (points[0] != points[1]) {
    s.winner = points[0] > points[1] ? 0 : 1;
    return;
  }
  long total[2] = {0, 0};  // the tie-break: every point scored over the series
  for (const auto& g : s.games)
    for (int p = 0; p < 2; ++p) total[p] += (*g.scores)[p];
  s.winner = total[0] > total[1] ? 0 : total[0] < total[1] ? 1 : -1;
}

}  // namespace

bool game_ended(series& s, const std::string& room, std::array<int, 2> seat_scores,
                std::array<bool, 2> seat_forfeited) {
  if (s.finished || s.games.empty() || s.games.back().room != room || s.games.back().scores)
    return false;
  auto& g = s.games.back();
  // Seat 0 is series player `first`.
  const int p0_seat = g.first == 0 ? 0 : 1;
  g.scores = std::array<int, 2>{seat_scores[p0_seat], seat_scores[1 - p0_seat]};
  g.forfeited = {seat_forfeited[p0_seat], seat_forfeited[1 - p0_seat]};
  settle(s);
  return true;
}

double series_result(const series& s) {
  return s.winner == 0 ? 1.0 : s.winner == 1 ? 0.0 : 0.5;
}

nlohmann::json to_json(const series& s) {
  auto games = nlohmann::json::array();
  for (const auto& g : s.games) {
    nlohmann::json j{{"room", g.room}, {"first", g.first}};
    if (g.scores) {
      j["scores"] = *g.scores;
      j["forfeited"] = g.forfeited;
      j["result"] = game_result(g);
    }
    games.push_back(std::move(j));
  }
  const auto points = series_points(s);
  nlohmann::json j{{"id", s.id},           {"best_of", s.best_of},
                   {"players", s.players}, {"names", s.names},
                   {"bots", s.bots},       {"room", s.room},
                   {"rated", s.rated},     {"games", std::move(games)},
                   {"points", points},     {"finished", s.finished}};
  if (!s.tournament.empty()) j["tournament"] = s.tournament;
  if (s.finished) j["winner"] = s.winner < 0 ? nlohmann::json(nullptr) : nlohmann::json(s.winner);
  return j;
}

std::optional<series> series_from_json(const nlohmann::json& j) {
  try {
    series s;
    s.id = j.at("id").get<std::string>();
    s.best_of = j.at("best_of").get<int>();
    if (!valid_best_of(s.best_of)) return std::nullopt;
    s.players = j.at("players").get<std::array<std::string, 2>>();
    s.names = j.at("names").get<std::array<std::string, 2>>();
    s.bots = j.at("bots").get<std::array<std::string, 2>>();
    s.room = j.at("room");
    s.rated = j.at("rated").get<bool>();
    s.tournament = j.value("tournament", std::string());
    for (const auto& g : j.at("games")) {
      series_game game;
      game.room = g.at("room").get<std::string>();
      game.first = g.at("first").get<int>();
      if (game.first != 0 && game.first != 1) return std::nullopt;
      if (g.contains("scores")) {
        game.scores = g.at("scores").get<std::array<int, 2>>();
        game.forfeited = g.at("forfeited").get<std::array<bool, 2>>();
      }
      s.games.push_back(std::move(game));
    }
    s.finished = j.at("finished").get<bool>();
    if (s.finished) s.winner = j.at("winner").is_null() ? -1 : j.at("winner").get<int>();
    return s;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

}  // namespace carcassonne::server::competition
