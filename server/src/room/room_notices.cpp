// The room's side of the notifications (notice_rows.hpp holds what is queued and written): every
// write carries the notices queued since the last one and the "my games" rows when they changed,
// made from the room as it is now.
#include <chrono>

#include "carcassonne/protocol/json_text.hpp"
#include "room/room.hpp"
#include "room/room_info.hpp"

namespace carcassonne::server {

namespace {

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The seat's account to tell, if any.
const std::string* account_at(const std::vector<seat_slot>& seats, int seat) {
  if (seat < 0 || seat >= static_cast<int>(seats.size())) return nullptr;
  return account_of(seats[static_cast<std::size_t>(seat)]);
}

// The "my games" row of the room as it is now; `now` is the timer's, if the room has one.
my_game my_game_of(const room_settings& settings, const std::vector<seat_slot>& seats,
                   const game_table& table, const room_clock& clock,
                   std::optional<room_clock::time_point> now, std::int64_t turn_since) {
  my_game g;
  g.name = settings.name;
  g.state = std::string(to_string(state_of(table)));
  g.seats = static_cast<int>(seats.size());
  g.clock = notice_rows::clock_name(settings.match.clock);
  const bool playing = table.game && !table.game->finished;
  if (playing) g.acting = to_act(*table.game);
  g.turn = turn_since;
  // A seat held by its player's vacation has no deadline while it lasts.
  if (clock.enabled() && now && playing && clock.counting())
    g.deadline_ms =
        wall_ms() +
        std::chrono::duration_cast<std::chrono::milliseconds>(clock.deadline() - *now).count();
  if (clock.enabled()) {
    g.vacation.assign(1, '[');  // not = "[": GCC 12 sees a false -Wrestrict in that
    for (int i = 0; i < static_cast<int>(seats.size()); ++i)
      if (clock.held(i)) {
        if (g.vacation.size() > 1) g.vacation += ',';
        g.vacation += std::to_string(i);
      }
    g.vacation += ']';
  }
  g.seat_list.assign(1, '[');
  for (std::size_t i = 0; i < seats.size(); ++i) {
    const auto& s = seats[i];
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
    if (const auto* a = account_of(s)) g.players.emplace_back(static_cast<int>(i), *a);
  }
  g.seat_list += ']';
  return g;
}

}  // namespace

void room::persist(store_write w) {
  if (!writes_.writing()) return;
  if (!std::holds_alternative<delete_room_write>(w)) {
    notice_rows::moment m;
    m.acting = table_.game && !table_.game->finished ? static_cast<int>(to_act(*table_.game)) : -1;
    m.over = table_.finished();
    m.stored_moves = writes_.rows();
    m.now_ms = wall_ms();
    notices_.fill(
        w, m,
        my_game_of(settings_, members_.seats, table_, clocks_.clock(),
                   timer_ && clocks_.enabled() ? std::optional(timer_->now()) : std::nullopt,
                   notices_.turn_since()));
  }
  writes_.write(std::move(w));
}

void room::add_notice(int seat, const char* kind, const std::string& what) {
  if (const auto* player = account_at(members_.seats, seat))
    notices_.add(*player, seat, kind, what, writes_.rows());
}

void room::write_notices() {
  if (!notices_.empty() && writes_.writing()) persist_meta();
  notices_.clear();
}

}  // namespace carcassonne::server
