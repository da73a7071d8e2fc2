#include "room/notice_rows.hpp"

#include <type_traits>
#include <variant>

#include "carcassonne/protocol/json_text.hpp"

namespace carcassonne::server {

notice_rows::notice_rows(std::string room_id, std::string room_name, time_control clock)
    : room_id_(std::move(room_id)), room_name_(std::move(room_name)), clock_(clock) {}

const char* notice_rows::clock_name(time_control c) {
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

void notice_rows::add(const std::string& player, int seat, const char* kind,
                      const std::string& what, std::int64_t turn) {
  std::string data;
  protocol::object_writer w(data);
  w.string("clock", clock_name(clock_))
      .string("name", room_name_)
      .number("seat", seat)
      .number("turn", turn)
      .close();
  queued_.push_back(
      {player, kind, room_id_ + ":" + what + ":" + kind + ":" + player, room_id_, data});
}

void notice_rows::restored(int acting, std::int64_t stored_moves, bool over) {
  turn_seat_ = acting;
  turn_since_ = stored_moves;
  over_told_ = over;
}

void notice_rows::fill(store_write& w, const moment& m, my_game mine) {
  if (std::holds_alternative<delete_room_write>(w)) return;
  // The turn: your_turn when the decision passes to another seat (a seat's several decisions in
  // a row, tile then meeple, are one turn).
  if (m.acting != turn_seat_) {
    turn_seat_ = m.acting;
    turn_since_ = m.stored_moves;
    for (const auto& p : mine.players)
      if (p.first == m.acting)
        add(p.second, m.acting, "your_turn", std::to_string(turn_since_), m.stored_moves);
  }
  if (m.over && !over_told_) {
    over_told_ = true;
    for (const auto& p : mine.players) add(p.second, p.first, "game_over", "end", m.stored_moves);
  }
  mine.turn = turn_since_;
  // "My games": rewritten only when something in it changed (the deadline moves with each
  // decision of a clocked game, which writes anyway).
  std::string sig = mine.state + '|' + std::to_string(mine.acting) + '|' +
                    std::to_string(mine.turn) + '|' + std::to_string(mine.deadline_ms) + '|' +
                    mine.seat_list + '|' + mine.name + '|' + mine.vacation;
  const bool has_players = !mine.players.empty();
  const bool changed = sig != mine_written_ && (has_players || !mine_written_.empty());
  std::visit(
      [&](auto& op) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(op)>, delete_room_write>) {
          op.notices = std::move(queued_);
          if (changed) {
            mine.updated_ms = m.now_ms;
            op.mine = std::move(mine);
          }
        }
      },
      w);
  queued_.clear();
  if (changed) mine_written_ = has_players ? std::move(sig) : std::string();
}

}  // namespace carcassonne::server
