// The room's side of the notifications (notice_rows.hpp holds what is queued and written): the
// accounts of its seats, and the "my games" row as the room is now.
#include <chrono>

#include "carcassonne/protocol/json_text.hpp"
#include "room/room.hpp"

namespace carcassonne::server {

namespace {

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

const std::string* room::account_of(int seat) const {
  if (seat < 0 || seat >= static_cast<int>(seats_.size())) return nullptr;
  return server::account_of(seats_[static_cast<std::size_t>(seat)]);
}

void room::add_notice(int seat, const char* kind, const std::string& what) {
  if (const auto* player = account_of(seat))
    notices_.add(*player, seat, kind, what, writes_.rows());
}

my_game room::my_game_now() const {
  const auto& clock = clocks_.clock();
  my_game g;
  g.name = settings_.name;
  g.state = std::string(to_string(state()));
  g.seats = static_cast<int>(seats_.size());
  g.clock = notice_rows::clock_name(settings_.match.clock);
  if (table_.game && !table_.game->finished) g.acting = to_act(*table_.game);
  g.turn = notices_.turn_since();
  // A seat held by its player's vacation has no deadline while it lasts.
  if (clock.enabled() && timer_ && table_.game && !table_.game->finished && clock.counting())
    g.deadline_ms = wall_ms() + std::chrono::duration_cast<std::chrono::milliseconds>(
                                    clock.deadline() - timer_->now())
                                    .count();
  if (clock.enabled()) {
    g.vacation.assign(1, '[');  // not = "[": GCC 12 sees a false -Wrestrict in that
    for (int i = 0; i < static_cast<int>(seats_.size()); ++i)
      if (clock.held(i)) {
        if (g.vacation.size() > 1) g.vacation += ',';
        g.vacation += std::to_string(i);
      }
    g.vacation += ']';
  }
  g.seat_list.assign(1, '[');
  for (std::size_t i = 0; i < seats_.size(); ++i) {
    const auto& s = seats_[i];
    if (i) g.seat_list += ',';
    if (!s.taken) {
      g.seat_list += R"({"name":null,"player":null})";
      continue;
    }
    g.seat_list += R"({"name":)";
    protocol::append_quoted(g.seat_list, s.name);
    g.seat_list += R"(,"player":)";
    const auto p = player_of(s);
    if (p.empty())
      g.seat_list += "null";
    else
      protocol::append_quoted(g.seat_list, p);
    g.seat_list += '}';
    if (const auto* a = account_of(static_cast<int>(i)))
      g.players.emplace_back(static_cast<int>(i), *a);
  }
  g.seat_list += ']';
  return g;
}

void room::add_room_rows(store_write& w) {
  if (std::holds_alternative<delete_room_write>(w)) return;
  notice_rows::moment m;
  m.acting = table_.game && !table_.game->finished ? static_cast<int>(to_act(*table_.game)) : -1;
  m.over = table_.game && table_.game->finished;
  m.stored_moves = writes_.rows();
  m.now_ms = wall_ms();
  notices_.fill(w, m, my_game_now());
}

void room::write_notices() {
  if (!notices_.empty() && writes_.writing()) persist_meta();
  notices_.clear();
}

}  // namespace carcassonne::server
