// Vacation in a room (docs/protocol.md §21 "Vacation"): while a seated player is on vacation, the
// correspondence clock of their seat holds, in rooms whose match allows it; every view shows the
// seats held (`room.clock.vacation`). The players' store says who is on vacation: the room asks
// it when its clock starts or is rebuilt and before a timeout takes effect, and the lobby passes
// on every change (vacation_changed).
#include <set>

#include "carcassonne/engine/forfeit.hpp"
#include "room/room.hpp"
#include "room/room_events.hpp"

namespace carcassonne::server {

void room::attach_vacation_lookup(vacation_lookup f) {
  vacation_lookup_ = std::move(f);
  look_up_vacations();
}

void room::look_up_vacations() {
  if (!vacation_lookup_ || !vacation_applies() || !table_.game || table_.game->finished || !timer_)
    return;
  std::set<std::string> asked;
  for (const auto& s : seats_) {
    if (s.player.empty() || s.bot || !asked.insert(s.player).second) continue;
    vacation_lookup_(s.player, [this, player = s.player](
                                   std::optional<std::chrono::milliseconds> left, bool ok) {
      if (ok && left) vacation_changed(player, left);
    });
  }
}

void room::vacation_changed(const std::string& player,
                            std::optional<std::chrono::milliseconds> left) {
  if (!vacation_applies() || !table_.game || table_.game->finished || !timer_ || player.empty())
    return;
  if (writes_.stopped()) return;
  bool changed = false;
  for (std::size_t i = 0; i < seats_.size(); ++i)
    if (seats_[i].player == player && !seats_[i].bot) changed = hold_seat(i, left) || changed;
  if (changed) holds_changed();
}

bool room::hold_seat(std::size_t i, std::optional<std::chrono::milliseconds> left) {
  auto& s = seats_[i];
  if (s.vacation_end) timer_->cancel(std::exchange(s.vacation_end, 0));
  const int seat = static_cast<int>(i);
  const bool on = left && left->count() > 0 && !has_forfeited(*table_.game, static_cast<seat_t>(i));
  if (on) {
    // The end as the store said it: a vacation ended or extended early is told anew.
    s.vacation_end = timer_->call_after(*left, [this, i] {
      seats_[i].vacation_end = 0;
      if (table_.game && !table_.game->finished && hold_seat(i, std::nullopt)) holds_changed();
    });
  }
  if (clock_.held(seat) == on) return false;
  clock_.hold(seat, on, timer_->now());
  room_event(room_events::seat_event(on ? "vacation_started" : "vacation_ended", seat));
  return true;
}

void room::holds_changed() {
  clock_changed(false);  // the running seat's deadline: gone while held, anew when let go
  if (writes_.writing()) persist_clock();
  broadcast({});
}

}  // namespace carcassonne::server
