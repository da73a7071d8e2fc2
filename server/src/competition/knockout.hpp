// Knockout brackets (docs/protocol.md "Tournaments"): single elimination, from a seeded list (a
// tournament's entrants by rating, or a Swiss stage's top N by standing). Pure.
//
// Duels (table_size 2): the standard bracket, seed 1 meeting the lowest seed and the two top
// seeds meeting at the earliest in the final; a field that is not a power of two gives the top
// seeds a bye in the first round. Tables of 3-6: the winner of each table goes on; the first
// round's tables are filled by seeds in a snake (1..k, then back), and a field that does not
// fill whole tables gets tables one seat short, or byes for the top seeds when a table would
// fall below 2 players.
// Precisely: the first round's tables are those of the Swiss pairing (the fewest players left
// out so that the others fill tables of k or k - 1, in the fewest tables); the players left out
// are the top seeds, with a bye; the short tables are those of the next best seeds; a field
// smaller than k - 1 plays one table. The slots are in bracket order: the later rounds' groups
// of consecutive slots are each a snake of the slots' seeds, recursively, so the top seeds meet
// as late as they can (for duels on a power of two, the standard bracket).
#pragma once
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace carcassonne::server::competition {

// One round of a bracket: its slots in bracket order, each a table (2 or more players, in seat
// order) or a single player who goes through without playing (a bye).
struct knockout_round {
  std::vector<std::vector<std::string>> slots;
  bool operator==(const knockout_round&) const = default;
};

// The first round among `seeded` (best seed first).
knockout_round first_knockout_round(std::span<const std::string> seeded, int table_size);

// The next round, from the players still in, in bracket order: the winner of each slot of the
// previous round, slot by slot. Duels: 1-2, 3-4, ...; tables: consecutive groups of table_size
// (the last one shorter, or a bye when a single player is left over). No slots when one player
// is left (the champion).
knockout_round next_knockout_round(std::span<const std::string> through, int table_size);

// The number of rounds a field of n needs (1 player: 0).
int knockout_rounds(int n, int table_size);

}  // namespace carcassonne::server::competition
