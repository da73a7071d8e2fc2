// Limits over real sockets: a flooding client, a slow reader and an oversized frame each lose
// their own connection, and only theirs: games in other rooms (and the same room) go on.
#include "e2e_client.hpp"

using namespace e2e;

namespace {

// A two-player seeded game in its own room, started, with every client synced.
struct game_room {
  ws_client a, b;
  std::string id;
  table t;
  game_room(std::uint16_t port, const std::string& seed) : a(port), b(port) {
    id = create_room(a, {{"seed", seed}});
    join(a, id, "A");
    join(b, id, "B");
    t.seats = {&a, &b};
    t.start(a);
  }
  void check_views() {
    for (auto* c : {&a, &b}) {
      CHECK_FALSE(c->gap);
      check_view_is_snapshot(*c);
    }
  }
};

const std::string long_text(450, 'z');

// `speaker` chats (its seat-mate `listener` reading along) until `done` holds of its view.
void chat_until(ws_client& speaker, ws_client& listener,
                const std::function<bool(const json&)>& done) {
  int chats = 0;
  for (; chats < 5000 && !done(speaker.view); ++chats) {
    auto r = speaker.request({{"type", "chat"}, {"text", long_text}});
    REQUIRE_MESSAGE(r["type"] == "chat_sent", r.dump());
    listener.wait_type("chat");
  }
  MESSAGE(chats << " chats of " << long_text.size() << " characters before the drop");
  speaker.wait_view(done, "the slow reader gone from the room");
  listener.wait_seq(speaker.seq);  // the departure's patch may still be on its way to the other
}

}  // namespace

TEST_CASE(
    "e2e: a flooding client is refused, then closed with 1008; a game in another room goes on") {
  auto cfg = test_config();
  cfg.message_rate = 20;
  cfg.message_burst = 40;
  cfg.rate_strikes = 3;
  test_server server(cfg);
  const auto port = server.port();
  game_room other(port, "e2e-flood-other");
  other.t.play(4);

  ws_client flooder(port);
  const auto room = create_room(flooder);
  join(flooder, room, "F");
  int sent = 0;
  for (; sent < 200; ++sent)
    if (flooder.try_send_text(json{{"type", "ping"}, {"id", sent}}.dump())) break;
  CHECK(sent > 43);

  // While the server deals with the flood, the other room plays on.
  const int before = other.t.moves;
  other.t.play(8);
  CHECK(other.t.moves == before + 8);

  REQUIRE(flooder.wait_end());
  int pongs = 0, limited = 0;
  for (const auto& f : flooder.frames) {
    if (f["type"] == "pong") ++pongs;
    if (f["type"] == "error") {
      CHECK(f["code"] == "rate_limited");
      CHECK(f["id"].is_number_integer());  // the refused request's id, unread but echoed
      ++limited;
    }
  }
  CHECK(pongs >= 30);  // the burst (less create and join), and a little refill
  CHECK(pongs < 60);
  CHECK(limited == 3);  // one refusal per strike, then the close
  CHECK(flooder.frames.back()["type"] == "error");
  CHECK_MESSAGE(flooder.end_error() == websocket::error::closed, flooder.end_error().message());
  CHECK(flooder.close_code() == static_cast<int>(websocket::close_code::policy_error));

  other.t.play(4);
  CHECK(other.t.moves == before + 12);
  other.check_views();
  CHECK(server.get().stats().dropped_flood.load() == 1);
  CHECK(server.get().stats().dropped_slow.load() == 0);
}

TEST_CASE("e2e: slow readers are dropped; rooms go on; a dropped seat resumes") {
  auto cfg = test_config();
  cfg.max_outbound_messages = 16;
  test_server server(cfg);
  const auto port = server.port();

  // Room X: a spectator that never reads while two players play a whole game.
  ws_client a(port), b(port);
  const auto x = create_room(a, {{"seed", "e2e-slow-x"}});
  join(a, x, "A");
  join(b, x, "B");
  ws_client lazy(port, true);
  lazy.send({{"type", "spectate"}, {"room", x}, {"id", "s"}});  // and never reads again
  a.wait_view([](const json& v) { return v["room"]["spectators"] == 1; }, "the spectator in");
  table tx{{&a, &b}, {}};
  tx.start(a);
  game_room y(port, "e2e-slow-y");  // Room Y: another game, a move after each of X's
  while (!tx.finished()) {
    tx.step();
    y.t.play(1);
  }
  // The game's frames may fit in the socket buffers; chat until the queue overflows.
  chat_until(a, b, [](const json& v) { return v["room"]["spectators"] == 0; });
  CHECK(server.get().stats().dropped_slow.load() == 1);
  REQUIRE(lazy.wait_end());       // what the kernel held, then the end
  CHECK(lazy.close_code() == 0);  // dropped without a close frame (docs/protocol.md §15)
  CHECK_FALSE(lazy.gap);
  for (auto* c : {&a, &b}) {
    CHECK_FALSE(c->gap);
    check_view_is_snapshot(*c);
  }
  y.t.play(6);

  // Room Z: a seated player stops reading; the other one chats until it is dropped.
  ws_client q(port);
  const auto z = create_room(q, {{"seed", "e2e-slow-z"}});
  join(q, z, "Q");
  ws_client p(port, true);
  const auto token = join(p, z, "P");  // P reads its token, then nothing more
  REQUIRE(q.request({{"type", "start"}})["type"] == "started");
  q.wait_view([](const json& v) { return !v["game"].is_null(); }, "the game");
  ws_client ear(port);  // reads along as a spectator of Z
  spectate(ear, z);
  chat_until(q, ear, [](const json& v) { return v["room"]["seats"][1]["connected"] == false; });
  CHECK(server.get().stats().dropped_slow.load() == 2);
  REQUIRE(p.wait_end());
  CHECK(p.close_code() == 0);
  y.t.play(6);  // the other room still goes on

  ws_client p2(port);
  p2.view = p.view;  // what P had applied: the patches after it come again, or a snapshot
  p2.has_view = p.has_view;
  p2.seq = p.seq;
  auto r = p2.request({{"type", "resume"}, {"room", z}, {"token", token}, {"last_seq", p.seq}});
  REQUIRE_MESSAGE(r["type"] == "resumed", r.dump());
  CHECK(r["seat"] == 1);
  p2.wait_seq(r["seq"].get<std::uint64_t>());
  q.wait_view([](const json& v) { return v["room"]["seats"][1]["connected"] == true; }, "P back");
  table tz{{&q, &p2}, {&ear}};
  tz.sync(q.seq);
  tz.play_to_end();
  for (auto* c : {&q, &p2, &ear}) {
    CHECK_FALSE(c->gap);
    check_view_is_snapshot(*c);
  }
  y.check_views();

  const auto m = http_get(port, "/metrics");
  CHECK(metric(m.body, "carcassonne_dropped_total{reason=\"slow_reader\"}") == 2);
  CHECK(metric(m.body, "carcassonne_games_finished_total") == (y.t.finished() ? 3 : 2));
}

TEST_CASE("e2e: a frame over max_message_bytes closes that connection with 1009; others go on") {
  auto cfg = test_config();
  cfg.max_message_bytes = 1024;
  test_server server(cfg);
  const auto port = server.port();
  game_room other(port, "e2e-oversize");
  other.t.play(4);

  ws_client big(port);
  // Just under the limit is served.
  const json small{{"type", "ping"}, {"pad", std::string(900, 'x')}};
  REQUIRE(small.dump().size() < 1024);
  CHECK(big.request(small)["type"] == "pong");
  const std::string huge =
      json{{"type", "ping"}, {"id", 99}, {"pad", std::string(2000, 'x')}}.dump();
  CHECK_FALSE(big.try_send_text(huge));
  REQUIRE(big.wait_end());
  // Beast fails the connection: a close frame with 1009, then its teardown. The close frame
  // always arrives; the TCP teardown may race (Beast's server teardown can stop reading before
  // our close reply and reset the connection), so the read may end with `closed` or with a
  // transport error after the close frame.
  CHECK(big.close_code() == static_cast<int>(websocket::close_code::too_big));
  const auto ended = big.end_error();
  CHECK_MESSAGE((ended == websocket::error::closed || ended == net::error::not_connected ||
                 ended == net::error::connection_reset || ended == net::error::eof),
                ended.message());
  for (const auto& f : big.frames) CHECK(f.value("id", json()) != 99);  // never answered
  // Counted by the server's read handler, which may run just after the close frame left.
  CHECK(eventually([&] { return server.get().stats().dropped_oversize.load() >= 1; }));
  CHECK(server.get().stats().dropped_oversize.load() == 1);

  other.t.play(6);
  other.check_views();
  ws_client fresh(port);
  CHECK(fresh.request({{"type", "ping"}})["type"] == "pong");
}

TEST_CASE("e2e: a reader that falls behind and catches up gets every frame whole, in order") {
  // The server writes what the socket takes at once and leaves the rest of a batch (a frame
  // cut anywhere) to an asynchronous write: both paths, and their seam, carry these frames.
  auto cfg = test_config();
  cfg.max_outbound_messages = 100000;  // behind, not dropped
  test_server server(cfg);
  const auto port = server.port();
  ws_client a(port);
  const auto room = create_room(a, {{"seed", "e2e-catch-up"}});
  join(a, room, "A");
  ws_client late(port, true);  // a small receive buffer: the server's writes fill it soon
  join(late, room, "L");
  constexpr int chats = 3000;  // about 1.4 MB: more than the socket buffers hold
  for (int i = 0; i < chats; ++i) {
    auto r = a.request({{"type", "chat"}, {"text", std::to_string(i) + ":" + long_text}});
    REQUIRE_MESSAGE(r["type"] == "chat_sent", r.dump());
  }
  for (int i = 0; i < chats; ++i) {
    const json chat = late.wait_type("chat");
    REQUIRE(chat["text"] == std::to_string(i) + ":" + long_text);
  }
  CHECK_FALSE(late.ended());
  CHECK(server.get().stats().dropped_slow.load() == 0);
}
