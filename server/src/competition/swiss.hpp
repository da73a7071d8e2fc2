// Swiss pairings, standings and tie-breaks (docs/protocol.md "Tournaments"). Pure and
// deterministic: the same entrants and results give the same pairings and standings everywhere.
//
// Points: a game at a table of k players gives each player the sum of its results against every
// table-mate (1 a win, 0.5 a draw, 0 a loss: ratings::pair_score) divided by k - 1, so a duel gives
// 1 / 0.5 / 0 and a table's points always add up to k / 2. A 2-player series counts as one game
// whose result is the series' (its winner 1, a drawn series 0.5 each). A bye gives
// `bye_points` (1) and no opponent.
//
// Tie-breaks, in this order: points, Buchholz (the sum, over the player's games, of each
// table-mate's final points), Sonneborn–Berger (the sum, over the player's games, of its result
// against each table-mate times that mate's final points, divided by k - 1 as the points are),
// then rating (higher first), then id. Byes add nothing to either tie-break.
#pragma once
#include <span>
#include <string>
#include <vector>

namespace carcassonne::server::competition {

struct entrant {
  std::string id;  // a player id, or a bot entrant's ("bot-greedy#3")
  double rating = 1500.0;
  bool operator==(const entrant&) const = default;
};

// One finished game (or series) of a round. `results[i][j]`: players[i]'s result against
// players[j] (1, 0.5, 0; the diagonal unused).
struct table_result {
  int round = 0;
  std::vector<std::string> players;
  std::vector<std::vector<double>> results;
  bool operator==(const table_result&) const = default;
};
// Points of each player of a table (the rule above), in the table's order.
std::vector<double> table_points(const table_result& t);

struct bye {
  int round = 0;
  std::string player;
  double points = 1.0;
  bool operator==(const bye&) const = default;
};

struct swiss_history {
  std::vector<table_result> games;
  std::vector<bye> byes;
};

// One round's pairing: tables in board order (the top score group first), each table's players
// in seat order, and the players who sit out with a bye.
struct round_pairing {
  std::vector<std::vector<std::string>> tables;
  std::vector<std::string> byes;
  bool operator==(const round_pairing&) const = default;
};

// The next round among `active` (the entrants still playing, in any order), tables of
// `table_size` (2..6).
// - Score groups: players are ranked by points, then rating, then id; a table is made of players
//   of one score group when it can be, and a player floats down to the next group otherwise.
//   Duels pair the top half of a group against its bottom half (1 v n/2+1, ...), as the Dutch
//   system does.
// - Never two players who met already at one table, if any pairing avoids it (a search with
//   backtracking); if none does (a small field late in the event), the fewest repeated meetings.
// - Byes: the players in `requested_byes` (a director's award) sit out; then, when the rest do not
//   fill whole tables, the lowest ranked players who have had no bye yet sit out (a table of
//   3-6 players may also be short by one seat instead: a table is never below 2, and never more
//   than one seat short of table_size).
//   Precisely: the fewest players sit out so that the others fill tables of table_size or one
//   seat short, in the fewest tables (so a short table is preferred to a bye; fewer than
//   table_size - 1 players, or a single one, all sit out); those who sit out are the players
//   with the fewest byes so far, the lowest ranked first. The search then tries the pairings in
//   the order above (for duels, each unpaired best player takes the first opponent it has not
//   met: its group's bottom half in order, then the rest of its group, then lower groups) and
//   keeps the first with no repeat; it is bounded, and then takes the fewest repeats it finds.
// - Seats: at each table the player who sat first least often for its number of games takes
//   the first seat (first seats x table size - games, lowest first), the higher ranked on a tie.
round_pairing pair_swiss_round(std::span<const entrant> active, const swiss_history& history,
                               int table_size, std::span<const std::string> requested_byes = {});

struct standing {
  std::string id;
  double points = 0, buchholz = 0, sonneborn_berger = 0;
  int games = 0, byes = 0;
  int rank = 0;  // 1-based; players equal on every tie-break but id share nothing: ranks are 1..n
  bool operator==(const standing&) const = default;
};
// Every entrant's standing (those with no game too), best first.
std::vector<standing> swiss_standings(std::span<const entrant> entrants,
                                      const swiss_history& history);

// How many times each pair met at a table (for tests and the pairing), a and b in either order.
int times_met(const swiss_history& history, const std::string& a, const std::string& b);

}  // namespace carcassonne::server::competition
