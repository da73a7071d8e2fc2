#include "room/room_saves.hpp"

#include <chrono>
#include <optional>
#include <utility>
#include <variant>

#include "carcassonne/protocol/json_text.hpp"
#include "room/game_end.hpp"
#include "room/room_info.hpp"
#include "room/room_meta.hpp"

namespace carcassonne::server {

namespace {

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
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

int acting_of(const game_table& t) {
  return t.game && !t.game->finished ? static_cast<int>(to_act(*t.game)) : -1;
}

}  // namespace

room_saves::room_saves(room_writes& writes, const room_settings& settings)
    : writes_(writes), notices_(settings.id, settings.name, settings.match.clock) {}

void room_saves::write(const save_source& r, store_write w) {
  if (!writes_.writing()) return;
  if (!std::holds_alternative<delete_room_write>(w)) {
    notice_rows::moment m;
    m.acting = acting_of(r.table);
    m.over = r.table.finished();
    m.stored_moves = writes_.rows();
    m.now_ms = wall_ms();
    const bool clocked = r.timer && r.clocks.enabled();
    notices_.fill(
        w, m,
        my_game_of(r.settings, r.members.seats, r.table, r.clocks.clock(),
                   clocked ? std::optional(r.timer->now()) : std::nullopt, notices_.turn_since()));
  }
  writes_.write(std::move(w));
}

void room_saves::meta(const save_source& r) {
  meta_rest_.clear();  // what changed is in the meta built now; the next clock write builds it
  writes_.claim(r.seq + seq_reserve);
  save_room_write w{r.settings.id, state_of(r.table), meta_text(r)};
  if (r.table.game && r.table.game->finished && !end_stored_) {
    w.end = game_end_of(r.settings, r.members.seats, *r.table.game, wall_ms());
    end_stored_ = true;
  }
  write(r, std::move(w));
}

void room_saves::clock(const save_source& r) {
  if (meta_rest_.empty()) meta_rest_ = meta_rest(r);
  writes_.claim(r.seq + seq_reserve);
  write(r, save_room_write{r.settings.id, state_of(r.table), with_clock(r, meta_rest_)});
}

std::string room_saves::meta_text(const save_source& r) const {
  return with_clock(r, meta_rest(r));
}

std::string room_saves::meta_rest(const save_source& r) const {
  return meta_rest_text({r.settings, r.members.seats, r.members.creator_seat, r.bots, r.rematch,
                         r.table.game ? std::string_view(r.table.setup_text) : std::string_view()});
}

std::string room_saves::with_clock(const save_source& r, const std::string& rest) const {
  std::string clock;
  if (r.clocks.enabled() && r.timer)
    r.clocks.clock().append_saved(clock, r.timer->now());
  else
    clock = "null";
  // Every write precedes the patch that shows it; the meta claims seq_reserve numbers, so that a
  // room rebuilt from it starts above every seq it showed (room_writes.hpp claimed).
  return carcassonne::server::meta_text(clock, r.seq + seq_reserve, rest);
}

void room_saves::notice(const save_source& r, int seat, const char* kind, const std::string& what) {
  if (seat < 0 || seat >= static_cast<int>(r.members.seats.size())) return;
  if (const auto* player = account_of(r.members.seats[static_cast<std::size_t>(seat)]))
    notices_.add(*player, seat, kind, what, writes_.rows());
}

void room_saves::write_notices(const save_source& r) {
  if (!notices_.empty() && writes_.writing()) meta(r);
  notices_.clear();
}

void room_saves::restored(const save_source& r, bool end_unsaved) {
  if (r.table.game) notices_.restored(acting_of(r.table), writes_.rows(), r.table.game->finished);
  end_unsaved_ = end_unsaved;
}

void room_saves::attached(const save_source& r) {
  if (std::exchange(end_unsaved_, false)) meta(r);
}

}  // namespace carcassonne::server
