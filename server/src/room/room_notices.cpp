// What a room writes for the notifications (store.hpp notice, my_game; server/src/notify reads
// them): the "my games" rows of its seats with accounts, rewritten with the write that changes
// them, and the notices of its events, written with the write that makes them. A notice's key
// names the event (the journal length for a turn), so a room rebuilt after a restart or a
// failover writes the same key again for the same event, which the outbox skips.
#include <chrono>

#include "carcassonne/protocol/json_text.hpp"
#include "room/room.hpp"

namespace carcassonne::server {

namespace {

const char* clock_name(time_control c) {
  switch (c) {
    case time_control::fischer:
      return "fischer";
    case time_control::per_decision:
      return "per_decision";
    case time_control::correspondence:
      return "correspondence";
    case time_control::none:
      break;
  }
  return "none";
}

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

// A seat's account to tell: a person's seat with an account (never a bot, nor a guest seat).
const std::string* room::account_of(int seat) const {
  if (seat < 0 || seat >= static_cast<int>(seats_.size())) return nullptr;
  const auto& s = seats_[static_cast<std::size_t>(seat)];
  return s.taken && !s.bot && !s.player.empty() ? &s.player : nullptr;
}

void room::add_notice(int seat, const char* kind, const std::string& what) {
  const auto* player = account_of(seat);
  if (!player) return;
  std::string data;
  protocol::object_writer w(data);
  w.string("clock", clock_name(settings_.match.clock))
      .string("name", settings_.name)
      .number("seat", seat)
      .number("turn", stored_moves_)
      .close();
  notices_.push_back(
      {*player, kind, settings_.id + ":" + what + ":" + kind + ":" + *player, settings_.id, data});
}

my_game room::my_game_now() const {
  my_game g;
  g.name = settings_.name;
  g.state = std::string(to_string(state()));
  g.seats = static_cast<int>(seats_.size());
  g.clock = clock_name(settings_.match.clock);
  if (game_ && !game_->finished) g.acting = to_act(*game_);
  g.turn = turn_since_;
  // A seat held by its player's vacation has no deadline while it lasts.
  if (clock_.enabled() && timer_ && game_ && !game_->finished && clock_.counting())
    g.deadline_ms = wall_ms() + std::chrono::duration_cast<std::chrono::milliseconds>(
                                    clock_.deadline() - timer_->now())
                                    .count();
  if (clock_.enabled()) {
    g.vacation.assign(1, '[');  // not = "[": GCC 12 sees a false -Wrestrict in that
    for (int i = 0; i < static_cast<int>(seats_.size()); ++i)
      if (clock_.held(i)) {
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
  // The turn: your_turn when the decision passes to another seat (a seat's several decisions in
  // a row, tile then meeple, are one turn).
  const int acting = game_ && !game_->finished ? static_cast<int>(to_act(*game_)) : -1;
  if (acting != turn_seat_) {
    turn_seat_ = acting;
    turn_since_ = stored_moves_;
    if (acting >= 0) add_notice(acting, "your_turn", std::to_string(turn_since_));
  }
  if (game_ && game_->finished && !over_told_) {
    over_told_ = true;
    for (int s = 0; s < static_cast<int>(seats_.size()); ++s) add_notice(s, "game_over", "end");
  }
  // "My games": rewritten only when something in it changed (the deadline moves with each
  // decision of a clocked game, which writes anyway).
  auto mine = my_game_now();
  std::string sig = mine.state + '|' + std::to_string(mine.acting) + '|' +
                    std::to_string(mine.turn) + '|' + std::to_string(mine.deadline_ms) + '|' +
                    mine.seat_list + '|' + mine.name + '|' + mine.vacation;
  const bool has_players = !mine.players.empty();
  const bool changed = sig != mine_written_ && (has_players || !mine_written_.empty());
  std::visit(
      [&](auto& op) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(op)>, delete_room_write>) {
          op.notices = std::move(notices_);
          if (changed) {
            mine.updated_ms = wall_ms();
            op.mine = std::move(mine);
          }
        }
      },
      w);
  notices_.clear();
  if (changed) mine_written_ = has_players ? std::move(sig) : std::string();
}

void room::write_notices() {
  if (!notices_.empty() && store_) persist_meta();
  notices_.clear();
}

}  // namespace carcassonne::server
