// The matchmaker (docs/protocol.md "Quick play"): which waiting seekers play together now. Pure
// and deterministic: the same queue and time give the same matches on every instance, whatever
// the order the queue was read in.
//
// Seekers are compatible when every preference agrees, a preference left open ("any") agreeing
// with every value. Each seeker accepts opponents within a rating window that widens with its
// wait; a group forms only when every member's window holds every other member: for every pair
// (a, b), |rating a - rating b| <= min(window a, window b). After `bot_after_ms` (the seeker's
// choice; 0 never), a seeker still waiting is given bots of the nearest rating for its empty
// seats.
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace carcassonne::server::competition {

// What a seeker wants. An empty optional is "any".
struct seek_prefs {
  std::optional<int> seats;                            // 2..6 seats at the table
  std::optional<std::vector<std::string>> expansions;  // sorted, unique ids; [] the base game
  std::optional<std::string> time_control;             // a named time control (time_controls.hpp)
  std::optional<bool> rated;
  std::optional<int> best_of;     // seats 2 only: a series of 1, 3, 5 or 7 games
  std::int64_t bot_after_ms = 0;  // 0: never fill with bots
  bool operator==(const seek_prefs&) const = default;
};

struct seek {
  std::string player;         // the seeker's player id: one seek per player
  std::string name;           // shown to the others
  double rating = 1500.0;     // in the pool the seek would be rated in (duel when seats is open)
  std::int64_t since_ms = 0;  // when it joined the queue
  seek_prefs prefs;
  std::string instance;  // the cluster instance the seeker is connected to ("" single)
  std::string nonce;     // the seeker's fairness nonce (docs/fairness.md), may be ""
  bool operator==(const seek&) const = default;
};

// The widening rating window: base + per_second × whole seconds waited (rounded down; none
// before since_ms), at most max. A step each second, so the boundary is exact.
struct window_rules {
  double base = 100.0;
  double per_second = 25.0;
  double max = 1000.0;
};
double window_of(const seek& s, std::int64_t now_ms, const window_rules& w);

// A bot the matchmaker may seat: its level's name ("random", "greedy", "strong") and rating.
struct bot_option {
  std::string level;
  double rating = 1500.0;
};

// One table: its seekers in seat order (the longest waiting first), the bots that fill the rest
// (levels), and the preferences settled for it: every open preference given its default (seats
// 2, the base game, time control "rapid", rated true, best_of 1; a table with bots is never rated
// and plays one game).
struct match {
  std::vector<std::string> players;
  std::vector<std::string> bots;
  seek_prefs settled;
  bool operator==(const match&) const = default;
};

// The matches to make now from `queue`, no seeker in two. Seekers are taken oldest first (ties by
// player id); each, if still free, considers the free compatible seekers by distance to its own
// rating (ties: the older first) and adds each one that agrees with the preferences the group
// has settled so far and fits every member's window, until the table is full. A group settles
// each preference as the first of its members to state it (the one that started it, then the
// others in the order they joined); its seats, 2 when none states them. A group that does not
// fill leaves its members in the queue, unless the seeker that started it has waited
// bot_after_ms (> 0) or more: then those of its members who have also waited their own
// bot_after_ms (> 0) sit at a table with bots in the empty seats (the preferences settled again
// among them), each seat the bot_option nearest the mean rating of those members (ties: the
// first in `bots`). `bots` empty: never bots. A seek with seats outside 2..6 is ignored, and so
// is a player's second seek (the later). The result's order is the order the tables formed in.
std::vector<match> find_matches(std::span<const seek> queue, std::int64_t now_ms,
                                const window_rules& rules, std::span<const bot_option> bots);

// Whether two preference sets can share a table (the matchmaker's first test).
bool compatible(const seek_prefs& a, const seek_prefs& b);

// A seek as the cluster's queue stores it (an object; open preferences absent) and back; nothing
// when `j` is not one.
nlohmann::json to_json(const seek& s);
std::optional<seek> seek_from_json(const nlohmann::json& j);

}  // namespace carcassonne::server::competition
