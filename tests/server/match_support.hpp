// Test helpers for match rules (clocks, forfeits, undo, rematch): a room with a fake timer and
// its clients, and the check that a room's record replays to its live game.
#pragma once
#include <doctest/doctest.h>

#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"
#include "fake_client.hpp"
#include "fake_timer.hpp"

namespace carcassonne::testing {

using namespace std::chrono_literals;

inline server::room_settings match_settings(int seats, server::match_options o,
                                            json setup = json::object(), std::string secret = {}) {
  server::room_settings s;
  s.id = "m1";
  s.name = "match";
  s.seats = seats;
  s.setup = std::move(setup);
  s.seed = "match-test-seed";
  s.match = o;
  s.secret = std::move(secret);  // docs/fairness.md; none: the room's seed is `seed`
  return s;
}

// A started room with `seats` clients (seat order) and a fake timer.
struct table {
  std::shared_ptr<server::test::fake_timer> timer = std::make_shared<server::test::fake_timer>();
  server::metrics stats;
  std::vector<std::shared_ptr<fake_client>> seats;
  std::unique_ptr<server::room> r;

  table(int n, server::match_options o, json setup = json::object(), std::string secret = {}) {
    for (int i = 0; i < n; ++i) seats.push_back(make_client());
    r = std::make_unique<server::room>(match_settings(n, o, std::move(setup), std::move(secret)),
                                       &stats, seats[0]);
    r->attach_timer(timer);
    for (int i = 0; i < n; ++i)
      r->join(seats[i], messages::join_as(std::string("P").append(std::to_string(i))), nullptr);
    r->start(seats[0], "start");
    REQUIRE(r->game() != nullptr);
  }
  const game_state& game() const { return *r->game(); }
  fake_client& acting() { return *seats.at(to_act(game())); }
  // The acting seat plays the first legal move of its view.
  void play_first() {
    auto& c = seats.at(to_act(game()));
    const auto& legal = c->view["game"]["legal_moves"];
    REQUIRE(!legal.empty());
    const auto seen = c->frames.size();
    r->move(c, messages::move_of(legal[0]), nullptr);
    for (auto i = seen; i < c->frames.size(); ++i) REQUIRE(c->frames[i]["type"] != "error");
  }
  // Plays first legal moves until another seat decides (or the end).
  void play_turn() {
    const auto seat = to_act(game());
    while (!game().finished && to_act(game()) == seat) play_first();
  }
  void act(int seat, protocol::match_msg::kind what, bool accept = true, const json& id = "a") {
    protocol::match_msg m;
    m.what = what;
    m.accept = accept;
    r->match_action(seats.at(seat), m, id);
  }
  json clock() const { return seats[0]->view["room"]["clock"]; }
};

// The room's record, replayed through the engine, gives the live game exactly.
inline void check_replays(const server::room& r) {
  const json record = r.record();
  auto parsed = protocol::parse_record(record.dump());
  REQUIRE(parsed.ok());
  auto g = new_game(parsed.value->setup);
  REQUIRE(g.ok());
  for (const auto& m : parsed.value->moves) {
    const auto bad = protocol::apply_json_move(g.value(), m);
    REQUIRE_MESSAGE(bad.code.empty(), bad.message);
  }
  CHECK(g.value() == *r.game());
}

}  // namespace carcassonne::testing
