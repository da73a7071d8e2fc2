// The notifications' rows a room writes with its writes (store.hpp notice, my_game;
// store/notify_rows.hpp), on both databases: in the write's transaction, once per key however
// often the write is replayed, and the "my games" rows a player's list reads.
#include <doctest/doctest.h>

#include "notify/notify_store.hpp"
#include "store/store.hpp"
#include "store_backends.hpp"

using namespace carcassonne::server;
using carcassonne::testing::store_backends;

namespace {

std::unique_ptr<store> nr_open_store(const std::string& location) {
  std::string error;
  auto s = store::open({location, true}, error);
  REQUIRE_MESSAGE(s, error);
  return s;
}

std::unique_ptr<notify::notify_store> nr_open_notify(const std::string& location) {
  std::string error;
  auto s = notify::notify_store::open(location, error);
  REQUIRE_MESSAGE(s, error);
  return s;
}

// Two seats, p1 and p2 (accounts); `acting` to act since journal length `turn`.
my_game nr_game(int acting, std::int64_t turn, const std::string& state = "playing") {
  my_game g;
  g.name = "Friday game";
  g.state = state;
  g.seats = 2;
  g.acting = acting;
  g.turn = turn;
  g.clock = "correspondence";
  g.deadline_ms = acting >= 0 ? 1'800'000'000'000 : 0;
  g.seat_list = R"([{"name":"Ann","player":"p1"},{"name":"Bob","player":"p2"}])";
  g.updated_ms = 1'700'000'000'000;
  g.players = {{0, "p1"}, {1, "p2"}};
  return g;
}

notice nr_turn(const std::string& player, int seat, std::int64_t turn) {
  return {player, "your_turn", "r1:" + std::to_string(turn) + ":your_turn:" + player, "r1",
          R"({"seat":)" + std::to_string(seat) + R"(,"turn":)" + std::to_string(turn) + "}"};
}

std::int64_t nr_count(notify::notify_store& n, const std::string& what) {
  std::string error;
  auto counts = n.delivery_counts(error);
  REQUIRE_MESSAGE(counts, error);
  const auto it = counts->find(what);
  return it == counts->end() ? 0 : it->second;
}

}  // namespace

TEST_CASE("notices and my games ride a room's writes; a replayed write notifies once") {
  for (const auto& backend : store_backends()) {
    CAPTURE(backend.name);
    const auto location = backend.fresh();
    auto s = nr_open_store(location);
    auto n = nr_open_notify(location);
    bool durable = false;
    save_room_write start{"r1", room_state::playing, R"({"k":1})"};
    start.notices = {nr_turn("p1", 0, 0)};
    start.mine = nr_game(0, 0);
    s->submit(start, [&](write_result r) { durable = r.durable; });
    move_write move{"r1", 0, R"({"type":"place"})", "null", 1};
    move.notices = {nr_turn("p2", 1, 1)};
    move.mine = nr_game(1, 1);
    s->submit(move, nullptr);
    s->flush();
    CHECK(durable);
    CHECK(nr_count(*n, "notices_pending") == 2);

    // The room's state written again with the same notices (a retry, a rebuilt room after a
    // failover): nothing more.
    save_room_write again{"r1", room_state::playing, R"({"k":1})"};
    again.notices = {nr_turn("p1", 0, 0), nr_turn("p2", 1, 1)};
    again.mine = nr_game(1, 1);
    s->submit(again, nullptr);
    s->flush();
    CHECK(nr_count(*n, "notices_pending") == 2);

    std::string error;
    auto games = n->my_games("p2", 0, error);
    REQUIRE_MESSAGE(games, error);
    REQUIRE((*games)["games"].size() == 1);
    const auto& g = (*games)["games"][0];
    CHECK(g["room"] == "r1");
    CHECK(g["seat"] == 1);
    CHECK(g["to_act"] == true);
    CHECK(g["acting"] == 1);
    CHECK(g["clock"] == "correspondence");
    CHECK(g["deadline_ms"] == 1'800'000'000'000);
    CHECK(g["seats"][0]["name"] == "Ann");
    auto p1 = n->my_games("p1", 0, error);
    REQUIRE(p1);
    CHECK((*p1)["games"][0]["to_act"] == false);

    // A seat emptied (the waiting room's player left) loses its row; the end marks the rest.
    auto fewer = nr_game(-1, 1, "finished");
    fewer.players = {{0, "p1"}};
    s->submit(save_room_write{"r1", room_state::finished, R"({"k":2})", 0, std::nullopt, {}, fewer},
              nullptr);
    s->flush();
    auto none = n->my_games("p2", 0, error);
    REQUIRE(none);
    CHECK((*none)["games"].empty());
    auto done = n->my_games("p1", 0, error);
    REQUIRE(done);
    REQUIRE((*done)["games"].size() == 1);
    CHECK((*done)["games"][0]["state"] == "finished");
    CHECK((*done)["games"][0]["acting"].is_null());
    // Finished games older than the window are not listed.
    auto recent = n->my_games("p1", 1'700'000'000'001, error);
    REQUIRE(recent);
    CHECK((*recent)["games"].empty());

    // A forgotten room takes its rows along.
    s->submit(delete_room_write{"r1"}, nullptr);
    s->flush();
    auto gone = n->my_games("p1", 0, error);
    REQUIRE(gone);
    CHECK((*gone)["games"].empty());
  }
}
