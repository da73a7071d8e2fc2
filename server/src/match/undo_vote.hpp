// An open take-back request (docs/protocol.md "Undo"): the seat that asked and the seats still to
// answer. A single refusal declines it, the last acceptance grants it. The room does the take-back
// itself (it replays its journal without the move) and keeps the request's timer.
#pragma once
#include <cstdint>
#include <vector>

#include "match/room_timer.hpp"

namespace carcassonne::server {

class undo_vote {
 public:
  enum class verdict { waiting, granted, declined };

  // `asker` asks; `waiting` has a bit for each seat that must answer (not empty).
  undo_vote(int asker, std::uint8_t waiting) : asker_(asker), waiting_(waiting) {}
  int asker() const { return asker_; }
  bool waits_for(int seat) const { return seat >= 0 && seat < 8 && (waiting_ >> seat & 1); }
  // The seats still to answer, in order.
  std::vector<int> waiting_seats() const;
  // A seat's answer (it must be waited for: waits_for).
  verdict answer(int seat, bool accept);

  room_timer::handle timer = 0;  // not answered in time: declined

 private:
  int asker_;
  std::uint8_t waiting_;
};

}  // namespace carcassonne::server
