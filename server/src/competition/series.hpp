// A best-of-N series between two players (docs/protocol.md "Series"): games in turn, the first
// seat alternating, each game rated on its own. Pure: a value and plain functions.
//
// A won game counts 1 to its winner, a drawn game (equal scores, or both forfeited) ½ to each.
// The series ends as soon as one player has more than N/2, or after N games. Tie-break of a
// series level after N games (drawn games make it possible): the sum of the points each player
// scored over the series' games; still level, the series is drawn (½ each; in a knockout the
// better seed goes on, tournament.hpp).
#pragma once
#include <nlohmann/json.hpp>

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace carcassonne::server::competition {

struct series_game {
  std::string room;
  int first = 0;  // which of the series' players sat first (0 or 1)
  // Once it is over: each series player's score and whether it forfeited, by series player.
  std::optional<std::array<int, 2>> scores;
  std::array<bool, 2> forfeited{false, false};
  bool operator==(const series_game&) const = default;
};

struct series {
  std::string id;
  int best_of = 3;                     // 1, 3, 5 or 7
  std::array<std::string, 2> players;  // player ids (or a tournament's bot entrants)
  std::array<std::string, 2> names;
  std::array<std::string, 2> bots;                 // a bot entrant's level, "" a player
  nlohmann::json room = nlohmann::json::object();  // the games' create_room template
  bool rated = true;
  std::string tournament;  // the tournament whose table it is, "" none
  std::vector<series_game> games;
  bool finished = false;
  int winner = -1;  // 0 or 1 once finished; -1 a drawn series (or not finished)
  bool operator==(const series&) const = default;
};

bool valid_best_of(int n);

// Each player's series points so far (wins + ½ draws), by series player.
std::array<double, 2> series_points(const series& s);
// The result of a finished game for series player 0: 1, 0.5 or 0 (ratings::pair_score).
double game_result(const series_game& g);

// The seat order of the next game (series player indexes, seat 0 first): player 0 first in game 1,
// then alternating. Nothing when the series is over or a game is under way.
std::optional<std::array<int, 2>> next_game(const series& s);
// A game's room was made for next_game().
void game_started(series& s, const std::string& room);
// The game in `room` ended: scores and forfeits by SEAT of that game; the series may end (then
// finished, winner). False when the room is not the series' game under way.
bool game_ended(series& s, const std::string& room, std::array<int, 2> seat_scores,
                std::array<bool, 2> seat_forfeited);
// The series' result for player 0: 1, 0.5 or 0 (after the tie-break). Finished series only.
double series_result(const series& s);

nlohmann::json to_json(const series& s);
std::optional<series> series_from_json(const nlohmann::json& j);

}  // namespace carcassonne::server::competition
