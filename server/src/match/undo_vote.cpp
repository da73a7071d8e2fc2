#include "match/undo_vote.hpp"

namespace carcassonne::server {

std::vector<int> undo_vote::waiting_seats() const {
  std::vector<int> seats;
  for (int i = 0; i < 8; ++i)
    if (waits_for(i)) seats.push_back(i);
  return seats;
}

undo_vote::verdict undo_vote::answer(int seat, bool accept) {
  if (!accept) return verdict::declined;
  waiting_ = static_cast<std::uint8_t>(waiting_ & ~(1u << seat));
  return waiting_ == 0 ? verdict::granted : verdict::waiting;
}

}  // namespace carcassonne::server
