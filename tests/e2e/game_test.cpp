// Whole games over real sockets: two players and a spectator play to the end, the HTTP
// endpoints report the room and the counters, and a player who loses its connection resumes
// on a new one without losing a diff.
#include <algorithm>

#include "e2e_client.hpp"
#include "process.hpp"

using namespace e2e;

TEST_CASE(
    "e2e: two players and a spectator play a whole seeded game; views, /api/rooms, /metrics") {
  test_server server;
  const auto port = server.port();
  ws_client a(port), b(port), s(port);
  const auto room = create_room(a, {{"seed", "e2e-full-game"}});
  join(a, room, "Ann");
  join(b, room, "Bob");
  spectate(s, room);
  table t{{&a, &b}, {&s}};
  t.rng.seed(7);
  t.start(a);
  CHECK(a.view["room"]["state"] == "playing");
  CHECK(a.view["game"]["legal_moves"].is_array());
  CHECK_FALSE(b.view["game"].contains("legal_moves"));
  CHECK(s.view["game"]["viewer"] == "spectator");
  CHECK_FALSE(s.view["game"].contains("legal_moves"));

  t.play_to_end();
  CHECK(t.moves > 60);
  for (auto* c : {&a, &b, &s}) {
    CAPTURE(c->view["game"]["viewer"]);
    CHECK_FALSE(c->gap);
    CHECK(c->seq == a.seq);
    CHECK(c->view["game"]["status"] == "finished");
    CHECK(c->view["room"]["state"] == "finished");
    check_view_is_snapshot(*c);
  }
  const json scores = a.view["game"]["scores"];
  CHECK(scores.size() == 2);
  CHECK(b.view["game"]["scores"] == scores);
  CHECK(s.view["game"]["scores"] == scores);
  for (std::size_t i = 0; i < 2; ++i) CHECK(a.view["game"]["players"][i]["score"] == scores[i]);

  // The lobby over HTTP lists the room, finished, with both players and the spectator.
  const auto listed = http_get(port, "/api/rooms");
  CHECK(listed.status == 200);
  const json rooms = json::parse(listed.body)["rooms"];
  json mine;
  for (const auto& r : rooms)
    if (r["id"] == room) mine = r;
  REQUIRE_MESSAGE(mine.is_object(), listed.body);
  CHECK(mine["state"] == "finished");
  CHECK(mine["players"] == json::array({"Ann", "Bob"}));
  CHECK(mine["spectators"] == 1);

  const auto m = http_get(port, "/metrics");
  CHECK(m.status == 200);
  CHECK(metric(m.body, "carcassonne_moves_accepted_total") == t.moves);
  CHECK(metric(m.body, "carcassonne_games_started_total") == 1);
  CHECK(metric(m.body, "carcassonne_games_finished_total") == 1);
  CHECK(metric(m.body, "carcassonne_connections") == 3);
  CHECK(metric(m.body, "carcassonne_move_seconds_count") == t.moves);
}

namespace {

// A game in which Bob's connection drops mid-game and resumes on a new one.
void play_with_a_resume(carcassonne::server::config cfg) {
  test_server server(std::move(cfg));
  const auto port = server.port();
  ws_client a(port);
  auto b = std::make_unique<ws_client>(port);
  const auto room = create_room(a, {{"seed", "e2e-resume"}});
  join(a, room, "Ann");
  const auto token = join(*b, room, "Bob");

  table t{{&a, b.get()}, {}};
  t.rng.seed(11);
  t.start(a);

  // What Ann sees of seat 1's connection from now on, each time it changes ("T", "F").
  std::string seen = "T";
  a.on_frame = [&](const std::string&, const ws_client& c) {
    const char now = c.view["room"]["seats"][1]["connected"] == true ? 'T' : 'F';
    if (seen.back() != now) seen += now;
  };
  t.play(15);
  REQUIRE_FALSE(t.finished());
  const auto last_seq = b->seq;
  CHECK_FALSE(b->gap);
  b->drop();  // the socket closes, no close handshake
  t.seats[1] = nullptr;
  a.wait_view([](const json& v) { return v["room"]["seats"][1]["connected"] == false; },
              "seat 1 away");

  // Ann plays on while it is her turn; Bob misses these patches and gets them after resume.
  int away_moves = 0;
  while (!t.finished() && t.acting() == 0 && away_moves < 6) {
    t.step();
    ++away_moves;
  }

  // The new connection keeps the view Bob had: with last_seq it gets the patches it missed, not
  // a snapshot (docs/protocol.md §12), and ends with the same view as everyone.
  ws_client b2(port);
  b2.view = b->view;
  b2.has_view = true;
  b2.seq = last_seq;
  auto r =
      b2.request({{"type", "resume"}, {"room", room}, {"token", token}, {"last_seq", last_seq}});
  REQUIRE_MESSAGE(r["type"] == "resumed", r.dump());
  CHECK(r["seat"] == 1);
  CHECK(r["room"] == room);
  b2.wait_seq(r["seq"].get<std::uint64_t>() + 1);  // the missed patches, then the resume's own
  CHECK(b2.seq >= last_seq);
  CHECK_FALSE(b2.gap);
  CHECK(b2.patches >= 2);
  CHECK(std::none_of(b2.frames.begin(), b2.frames.end(),
                     [](const json& f) { return f["type"] == "snapshot"; }));
  CHECK(b2.view["game"]["board"] == a.view["game"]["board"]);
  a.wait_view([](const json& v) { return v["room"]["seats"][1]["connected"] == true; },
              "seat 1 back");
  t.seats[1] = &b2;
  t.sync(a.seq);

  t.play_to_end();
  for (auto* c : {&a, &b2}) {
    CHECK_FALSE(c->gap);
    CHECK(c->seq == a.seq);
    check_view_is_snapshot(*c);
  }
  CHECK(b2.view["game"]["scores"] == a.view["game"]["scores"]);
  CHECK(seen == "TFT");
  CHECK(server.get().stats().moves_accepted.load() == t.moves);
  CHECK(server.get().stats().games_finished.load() == 1);
}

}  // namespace

TEST_CASE("e2e: a player loses its connection mid-game and resumes on a new one") {
  play_with_a_resume(test_config());
}

TEST_CASE("e2e: one I/O thread, journal on: rooms and connections without strands") {
  // With --threads 1 handlers run on the io_context's own executor (lobby.hpp serial_executor);
  // the store's thread posts the commits back to it.
  temp_dir dir("carcassonne-e2e-one-thread");
  auto cfg = test_config();
  cfg.threads = 1;
  cfg.journal = true;
  cfg.data_dir = dir.str();
  play_with_a_resume(cfg);
}

TEST_CASE("e2e: /healthz answers ok while the server runs") {
  test_server server;
  const auto h = http_get(server.port(), "/healthz");
  CHECK(h.status == 200);
  CHECK(h.body == "ok\n");
  CHECK(http_get(server.port(), "/nowhere").status == 404);
  // A WebSocket session does not disturb it.
  ws_client c(server.port());
  CHECK(c.request({{"type", "ping"}})["type"] == "pong");
  CHECK(http_get(server.port(), "/healthz").status == 200);
}
