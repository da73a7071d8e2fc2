// What the room tests (room_test, history_test, fairness_test) share: a room's settings and a
// game played out by random legal moves from each seat's own view.
#pragma once
#include <doctest/doctest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "carcassonne/engine/rng.hpp"
#include "fake_client.hpp"
#include "room/room.hpp"

namespace carcassonne::testing {

inline server::room_settings test_room_settings(std::string id, int seats, std::string seed,
                                                json setup = json::object(), int delay = 0,
                                                std::string name = "") {
  server::room_settings s;
  s.id = std::move(id);
  s.name = std::move(name);
  s.seats = seats;
  s.spectator_delay = delay;
  s.setup = std::move(setup);
  s.seed = std::move(seed);
  return s;
}

// Plays the room's game to the end: the seat to act picks a random legal move from its own
// view (as a simple client would). Returns the number of moves.
inline int play_out(server::room& r, std::vector<std::shared_ptr<fake_client>>& seats,
                    std::uint64_t seed) {
  rng chooser(seed);
  int moves = 0;
  while (r.game() && !r.game()->finished) {
    auto& c = seats[to_act(*r.game())];
    const auto& legal = c->view["game"]["legal_moves"];
    REQUIRE(legal.is_array());
    REQUIRE(!legal.empty());
    json m = legal[chooser.below(legal.size())];
    r.move(c, messages::move_of(m), json(moves));
    REQUIRE_MESSAGE(c->last("move_accepted")["id"] == json(moves), c->raw.back());
    ++moves;
  }
  return moves;
}

}  // namespace carcassonne::testing
