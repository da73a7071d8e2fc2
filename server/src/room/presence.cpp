#include "room/presence.hpp"

#include "carcassonne/engine/forfeit.hpp"

namespace carcassonne::server {

namespace {

bool in_play(const game_state& g, std::size_t seat) {
  return !has_forfeited(g, static_cast<seat_t>(seat));
}

}  // namespace

void note_presence(std::vector<seat_slot>& seats, presence_time now) {
  for (auto& s : seats) {
    if (s.client)
      s.away_since.reset();
    else if (!s.away_since)
      s.away_since = now;
  }
}

std::optional<presence_time> all_away_at(const game_state& g, const std::vector<seat_slot>& seats,
                                         std::chrono::seconds limit) {
  if (limit.count() == 0) return std::nullopt;
  std::optional<presence_time> latest;  // the last person to leave
  for (std::size_t i = 0; i < seats.size(); ++i) {
    if (!in_play(g, i) || seats[i].bot) continue;
    if (!seats[i].away_since) return std::nullopt;  // someone is here
    if (!latest || *seats[i].away_since > *latest) latest = seats[i].away_since;
  }
  if (!latest) return std::nullopt;
  return *latest + limit;
}

std::uint8_t all_away(const game_state& g, const std::vector<seat_slot>& seats) {
  std::uint8_t away = 0;
  for (std::size_t i = 0; i < seats.size(); ++i) {
    if (!in_play(g, i) || seats[i].bot) continue;
    if (!seats[i].away_since) return 0;
    away = static_cast<std::uint8_t>(away | 1u << i);
  }
  return away;
}

std::uint8_t with_bots_if_no_person_left(const game_state& g, const std::vector<seat_slot>& seats,
                                         std::uint8_t leaving) {
  std::uint8_t bots = 0;
  for (std::size_t i = 0; i < seats.size(); ++i) {
    const auto bit = static_cast<std::uint8_t>(1u << i);
    if (!in_play(g, i) || (leaving & bit)) continue;
    if (!seats[i].bot) return leaving;  // a person stays
    bots = static_cast<std::uint8_t>(bots | bit);
  }
  return static_cast<std::uint8_t>(leaving | bots);
}

}  // namespace carcassonne::server
