// A tournament's state and rules (docs/protocol.md "Tournaments"): registration, check-in, rounds
// started on time, results, late players and tables that cannot start, the director's actions.
// Pure: a value with plain functions over it; time comes in as `now_ms` (wall clock ms). The
// service (competitions.hpp) stores it after every change, makes the tables' rooms and reports
// their results. Every refusal is a stable code and changes nothing.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "competition/knockout.hpp"
#include "competition/swiss.hpp"

namespace carcassonne::server::competition {

enum class tournament_format { swiss, knockout, swiss_knockout };

struct tournament_settings {
  std::string name;
  tournament_format format = tournament_format::swiss;
  int rounds = 5;        // Swiss rounds (swiss, swiss_knockout)
  int top = 8;           // swiss_knockout: the Swiss stage's top N play the knockout (2..64)
  int table_size = 2;    // 2..6 players a table
  int best_of = 1;       // table_size 2: each pairing is a series of 1, 3, 5 or 7 games
  int max_players = 64;  // 2..256
  int min_players = 2;   // fewer at the start: the tournament is cancelled
  // The games' room: {"setup": {"expansions", "options"}, "match": {...}} as create_room has
  // them; the match must have a clock (tournament games are always timed) and its timeout
  // action is always "forfeit" (set by the service).
  nlohmann::json room = nlohmann::json::object();
  std::int64_t starts_ms = 0;         // registration closes and round 1 starts
  std::int64_t check_in_ms = 0;       // check-in opens this long before the start; 0: none
  std::int64_t round_gap_ms = 30000;  // from a round's last result to the next round's start
  // A table whose room cannot be made (server full, store failing) is tried again every
  // retry_ms until void_after_ms after the round's start; then it is void (rule below).
  std::int64_t retry_ms = 5000, void_after_ms = 60000;
  bool rated = true;
  std::string director;  // player id of the tournament's director (its creator)
  // Featured tables: the first `featured` tables of each round (the top boards) are watched with
  // a spectator delay of `featured_delay` moves (docs/protocol.md §13), so that a stream shows
  // nothing a player could use.
  int featured = 1;
  int featured_delay = 0;
  bool operator==(const tournament_settings&) const = default;
};

struct participant {
  std::string id;  // player id, or a bot entrant's ("bot-greedy#3")
  std::string name;
  double rating = 1500.0;
  std::string bot;  // a bot entrant's level ("random", "greedy", "strong"); "" a player
  bool checked_in = false;
  bool removed = false;  // by the director, or withdrawn: paired no more
  bool operator==(const participant&) const = default;
};

// One table of a round. A duel of best_of > 1 is a series (`series` holds its id); otherwise
// `rooms` holds its one room. `results` (as table_result's) once it is over.
struct tournament_table {
  std::vector<std::string> players;  // seat order of its first game
  std::vector<std::string> rooms;    // every room made for it, oldest first
  std::string series;                // the series' id when best_of > 1
  std::optional<std::vector<std::vector<double>>> results;
  bool void_table = false;  // could not start: every player gets half the table's points
  // While it has no room: when advance() may offer it (again). Set when it is offered (a lease:
  // a room being made is not asked for twice) and by table_failed.
  std::int64_t next_try_ms = 0;
  bool operator==(const tournament_table&) const = default;
};

struct tournament_round {
  int number = 1;         // 1-based, across both stages
  bool knockout = false;  // a knockout round (else Swiss)
  std::int64_t started_ms = 0;
  std::vector<tournament_table> tables;
  std::vector<std::string> byes;  // sat out (Swiss: bye points; knockout: through)
  // Knockout: the players the round was drawn from, in the order the bracket took them (the seeds
  // for the first knockout round, then the winners slot by slot); the bracket's slot order is
  // drawn again from it, and the first knockout round's is the seed order that breaks ties.
  std::vector<std::string> bracket;
  bool finished = false;
  bool operator==(const tournament_round&) const = default;
};

enum class tournament_phase { registration, running, finished, cancelled };

struct tournament {
  std::string id;
  tournament_settings settings;
  tournament_phase phase = tournament_phase::registration;
  bool paused = false;  // the director's: no new round starts (games under way go on)
  std::vector<participant> participants;  // in registration order
  std::vector<tournament_round> rounds;
  std::vector<std::string> requested_byes;  // the director's, for the next round
  std::int64_t next_round_ms = 0;           // when the next round may start (0: not set)
  std::string champion;                     // knockout winner, or the Swiss winner
  bool operator==(const tournament&) const = default;
};

// A refusal: a stable code (docs/protocol.md) and a sentence.
struct tournament_error {
  std::string code, message;
};
using maybe_error = std::optional<tournament_error>;

// Checks new settings (bad_tournament with what is wrong) and makes the tournament.
maybe_error check_settings(const tournament_settings& s, std::int64_t now_ms);

// Players. Codes: registration_closed (started, finished, cancelled), already_registered,
// tournament_full, not_registered, check_in_closed (before the window or after the start),
// not_running (a withdrawal from a tournament that is over). Before the start a withdrawal (or
// the director's removal) frees the seat; after it, the player is removed. Bot entrants need no
// check-in.
maybe_error register_player(tournament& t, const participant& p);
maybe_error withdraw(tournament& t, const std::string& player, std::int64_t now_ms);
maybe_error check_in(tournament& t, const std::string& player, std::int64_t now_ms);

// The director's actions (`by` must be settings.director: not_director otherwise). Codes:
// not_running, no_such_player, already_paused, not_paused.
maybe_error pause(tournament& t, const std::string& by);
maybe_error resume(tournament& t, const std::string& by, std::int64_t now_ms);
// Removes a player from all later rounds (their game under way is the service's to resign).
maybe_error remove_player(tournament& t, const std::string& by, const std::string& player);
// The player sits out the next round with a bye (Swiss only: knockout_has_no_byes).
maybe_error award_bye(tournament& t, const std::string& by, const std::string& player);

// What the service must do now, and the state moved on: registration closing at starts_ms (the
// players who did not check in, when there is a check-in, are removed; too few: cancelled), a
// round starting (its pairings made, when it is due and not paused), a round finished (every
// table has results: next_round_ms set), the tournament finished (Swiss rounds done, or one
// player left in the knockout; champion set). Called whenever the service's timer fires or a
// result arrives; returns the tables to make rooms for (round number and table index).
struct table_ref {
  int round = 0;
  int table = 0;
  bool operator==(const table_ref&) const = default;
};
struct step {
  std::vector<table_ref> start;  // tables whose rooms (or series) must be made now
  bool changed = false;          // the state changed: store it
  std::int64_t wake_ms = 0;      // when to call advance() again at the latest (0: on events only)
};
step advance(tournament& t, std::int64_t now_ms);

// The service made the table's room (or series) / could not (advance() retries it every
// retry_ms, and voids it after void_after_ms).
void table_started(tournament& t, const table_ref& ref, const std::string& room_or_series,
                   bool is_series);
void table_failed(tournament& t, const table_ref& ref, std::int64_t now_ms);
// A table's game (or series) ended: results[i][j] as table_result's, in the table's order.
void table_finished(tournament& t, const table_ref& ref, std::vector<std::vector<double>> results);

// The history the Swiss pairing and standings read (void tables count 0.5 against each mate).
swiss_history history_of(const tournament& t);
std::vector<standing> standings_of(const tournament& t);

// The stored and published form (docs/protocol.md "Tournaments"): settings, participants,
// rounds with their tables (players, rooms, series, results), standings, phase. from_json
// refuses (nothing) what to_json would not write.
nlohmann::json to_json(const tournament& t);
std::optional<tournament> tournament_from_json(const nlohmann::json& j);
// Settings from a client's create_tournament (bad_tournament on any error).
std::optional<tournament_settings> settings_from_json(const nlohmann::json& j,
                                                      tournament_error& error);

}  // namespace carcassonne::server::competition
