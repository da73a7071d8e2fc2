#include "carcassonne/engine/forfeit.hpp"

#include <algorithm>
#include <bit>
#include <string>
#include <tuple>

#include "forfeit_steps.hpp"
#include "turn.hpp"

namespace carcassonne {

namespace detail {

namespace {

// A fixed order on moves, independent of the order legal moves are generated in: a forfeit's
// replay must not change when move generation is reworked.
auto order_key(const move& m) {
  return std::tuple(static_cast<int>(m.type), m.at.y, m.at.x, m.rotation,
                    static_cast<int>(m.figure), m.feature, m.to, m.choice, m.protect, m.has_target,
                    m.path_length);
}

bool before(const move& a, const move& b) {
  if (order_key(a) != order_key(b)) return order_key(a) < order_key(b);
  for (int i = 0; i < a.path_length; ++i)
    if (!(a.path[i] == b.path[i]))
      return std::pair(a.path[i].y, a.path[i].x) < std::pair(b.path[i].y, b.path[i].x);
  return false;
}

// Forfeit rule: a forfeited seat's pending decision is `pass` when allowed, else the least legal
// move (order_key) that the expansions' prechecks accept.
void decide_for_forfeited(game_state& s, event_log* events) {
  std::vector<move> legal;
  while (!s.finished && has_forfeited(s, s.deciding)) {
    legal_actions(s, legal);
    std::sort(legal.begin(), legal.end(), before);
    auto pass = std::find_if(legal.begin(), legal.end(),
                             [](const move& m) { return m.type == move_type::pass; });
    if (pass != legal.end()) std::rotate(legal.begin(), pass, pass + 1);
    const auto chosen = std::find_if(legal.begin(), legal.end(),
                                     [&](const move& m) { return check_move(s, m).ok(); });
    if (chosen == legal.end()) return;  // cannot happen: some seat always has a legal move
    perform(s, *chosen, events);
  }
}

}  // namespace

score_sheet scores_of(const game_state& s) {
  score_sheet out{};
  for (int i = 0; i < s.seats; ++i) out[i] = s.players[i].score;
  return out;
}

seat_t next_in_play(const game_state& s, seat_t seat) {
  for (int i = 1; i <= s.seats; ++i) {
    const auto next = static_cast<seat_t>((seat + i) % s.seats);
    if (!has_forfeited(s, next)) return next;
  }
  return static_cast<seat_t>((seat + 1) % s.seats);
}

void settle_forfeits(game_state& s, const score_sheet& before, event_log* events,
                     std::size_t first_event) {
  if (!s.forfeited) return;
  decide_for_forfeited(s, events);
  for (int i = 0; i < s.seats; ++i)
    if (has_forfeited(s, static_cast<seat_t>(i))) s.players[i].score = before[i];
  if (!events) return;
  const auto from = events->begin() + static_cast<std::ptrdiff_t>(first_event);
  events->erase(std::remove_if(from, events->end(),
                               [&](const event& e) {
                                 return e.type == event_type::points && e.seat < s.seats &&
                                        has_forfeited(s, e.seat);
                               }),
                events->end());
}

}  // namespace detail

int seats_in_play(const game_state& s) {
  return s.seats - std::popcount(static_cast<unsigned>(s.forfeited));
}

status forfeit(game_state& s, std::uint8_t seats, event_log* events) {
  if (s.finished) return make_error(error_code::game_over, "the game is over");
  const unsigned all = (1u << s.seats) - 1;
  if (seats == 0 || (seats & ~all) || (seats & s.forfeited))
    return make_error(error_code::already_forfeited,
                      "only a seat of the game that is still in play can forfeit");
  const auto scores = detail::scores_of(s);
  const std::size_t first = events ? events->size() : 0;
  s.forfeited = static_cast<std::uint8_t>(s.forfeited | seats);
  detail::settle_forfeits(s, scores, events, first);
  return {};
}

}  // namespace carcassonne
