// Vacation (docs/protocol.md §21): the rooms learn of their players' vacations through the lobby,
// from the players' store (a room asks) and from every change (the cluster's notice).
#include <chrono>

#include "lobby/lobby.hpp"

namespace carcassonne::server {

namespace {

// How long from now a vacation that ends at `until_ms` lasts (nothing: it is over).
std::optional<std::chrono::milliseconds> vacation_left(std::int64_t until_ms) {
  using namespace std::chrono;
  const auto now = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
  if (until_ms <= now) return std::nullopt;
  return milliseconds(until_ms - now);
}

}  // namespace

seat_clocks::vacation_lookup lobby::vacation_lookup_for(const std::shared_ptr<room_entry>& entry) {
  return [lookup = vacation_lookup_, weak = std::weak_ptr<room_entry>(entry)](
             const std::string& player, seat_clocks::vacation_answer done) {
    lookup(player, [weak, done = std::move(done)](std::int64_t until_ms, bool ok) {
      if (auto e = weak.lock())
        boost::asio::post(e->strand, [e, done, until_ms, ok] {
          done(ok ? vacation_left(until_ms) : std::nullopt, ok);
        });
    });
  };
}

void lobby::vacation_changed(const std::string& player, std::int64_t until_ms) {
  std::vector<std::shared_ptr<room_entry>> holding;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, e] : rooms_)
      if (e->game_room->vacation_applies()) holding.push_back(e);
  }
  for (const auto& e : holding)
    boost::asio::post(e->strand, [e, player, until_ms] {
      if (!e->dropped) e->game_room->vacation_changed(player, vacation_left(until_ms));
    });
}

}  // namespace carcassonne::server
