// A room's event stream (GET /api/rooms/{id}/events, docs/protocol.md "Streams") over real
// sockets: the frames of a WebSocket spectator as events, the spectator delay kept, a client
// that never reads dropped while the game goes on, the limits and refusals of a connection.
#include "e2e_client.hpp"

using namespace e2e;

namespace {

std::string events_path(const std::string& room) {
  return "/api/rooms/" + room + "/events";
}

}  // namespace

TEST_CASE("e2e streams: an event stream reads a whole game as a WebSocket spectator does") {
  test_server server;
  const auto port = server.port();
  ws_client a(port), b(port), s(port);
  const auto room = create_room(a, {{"seed", "e2e-stream-game"}});
  join(a, room, "A");
  join(b, room, "B");
  spectate(s, room);

  auto stream = std::make_unique<sse_client>(port, events_path(room));
  auto& e = *stream;
  REQUIRE(e.status == 200);
  CHECK(e.headers["content-type"] == "text/event-stream; charset=utf-8");
  CHECK(e.headers["cache-control"] == "no-store");
  // The first event is the snapshot; the stream counts as a spectator.
  auto first = e.read_event();
  REQUIRE(first);
  REQUIRE(first->name == "snapshot");
  const auto from = e.seq;
  CHECK(e.view["game"].is_null());
  a.wait_view([](const json& v) { return v["room"]["spectators"] == 2; }, "two spectators");
  e.wait_view([](const json& v) { return v["room"]["spectators"] == 2; }, "itself counted");

  table t{{&a, &b}, {&s}};
  t.start(a);
  t.play(6);
  auto r = a.request({{"type", "chat"}, {"text", "hello, stream"}});
  REQUIRE(r["type"] == "chat_sent");
  s.wait_type("chat");
  t.play_to_end();
  e.wait_seq(s.seq);
  CHECK(e.view == s.view);
  CHECK(e.view["game"]["viewer"] == "spectator");
  CHECK(e.view["game"]["status"] == "finished");
  CHECK_FALSE(e.gap);
  CHECK(e.patches > t.moves);
  // Event for frame, the same text as the WebSocket spectator's from the stream's snapshot on.
  CHECK(patches_and_chat_after(e.raw, from) == patches_and_chat_after(s.raw, from));
  for (const auto& ev : e.events) CHECK(ev.name != "spectating");

  // The lobby counts it; when it closes it leaves the room.
  auto listed = http_get(port, "/api/rooms?state=finished");
  REQUIRE(listed.status == 200);
  CHECK(json::parse(listed.body)["rooms"][0]["spectators"] == 2);
  stream.reset();
  a.wait_view([](const json& v) { return v["room"]["spectators"] == 1; }, "the stream gone");
  sse_client again(port, events_path(room));  // a new stream: a new snapshot
  REQUIRE(again.status == 200);
  REQUIRE(again.read_event()->name == "snapshot");
  CHECK(again.view["game"] == s.view["game"]);
}

TEST_CASE("e2e streams: with a spectator delay the stream shows no move before its delay") {
  test_server server;
  const auto port = server.port();
  ws_client a(port), b(port), s(port);
  auto created = a.request({{"type", "create_room"},
                            {"setup", {{"seed", "e2e-stream-delay"}}},
                            {"seats", 2},
                            {"spectator_delay", 2}});
  REQUIRE(created["type"] == "room_created");
  const auto room = created["room"].get<std::string>();
  join(a, room, "A");
  join(b, room, "B");
  spectate(s, room);
  sse_client e(port, events_path(room));
  REQUIRE(e.status == 200);
  REQUIRE(e.read_event()->name == "snapshot");
  const auto from = e.seq;
  table t{{&a, &b}, {&s}};
  t.start(a);
  e.wait_seq(a.seq);
  // The boards the players saw after each move: the stream must show the one of two moves ago.
  std::vector<json> boards{a.view["game"]["board"]};
  REQUIRE(e.view["game"]["board"] == boards[0]);
  while (!t.finished()) {
    t.step();
    boards.push_back(a.view["game"]["board"]);
    e.wait_seq(a.seq);
    if (t.finished()) break;
    const std::size_t shown = boards.size() - 1 < 2 ? 0 : boards.size() - 1 - 2;
    REQUIRE_MESSAGE(e.view["game"]["board"] == boards[shown], "after move " << t.moves);
    CHECK(e.view == s.view);
    CHECK(e.view["game"]["board"].size() <= a.view["game"]["board"].size());
  }
  // At the end the view jumps to the final position, as every spectator's does.
  CHECK(e.view == s.view);
  CHECK(e.view["game"]["board"] == a.view["game"]["board"]);
  CHECK(patches_and_chat_after(e.raw, from) == patches_and_chat_after(s.raw, from));
  // No event of the game went out while it ran (they would tell the present).
  for (const auto& text : e.raw) {
    json f = json::parse(text);
    if (f["type"] == "patch" && f["seq"].get<std::uint64_t>() < e.seq) CHECK(f["events"].empty());
  }
}

TEST_CASE("e2e streams: a stream that never reads is dropped while the game goes on") {
  auto cfg = test_config();
  cfg.max_outbound_messages = 16;
  test_server server(cfg);
  const auto port = server.port();
  ws_client a(port), b(port);
  const auto room = create_room(a, {{"seed", "e2e-stream-slow"}});
  join(a, room, "A");
  join(b, room, "B");
  sse_client lazy(port, events_path(room), true, false);  // asks, then never reads
  a.wait_view([](const json& v) { return v["room"]["spectators"] == 1; }, "the stream in");
  table t{{&a, &b}, {}};
  t.start(a);
  const std::string long_text(450, 'z');
  int chats = 0;
  while (a.view["room"]["spectators"] == 1 && chats < 5000) {
    if (!t.finished()) t.step();
    auto r = a.request({{"type", "chat"}, {"text", long_text}});
    REQUIRE(r["type"] == "chat_sent");
    b.wait_type("chat");
    ++chats;
  }
  a.wait_view([](const json& v) { return v["room"]["spectators"] == 0; }, "the stream dropped");
  CHECK(server.get().stats().dropped_slow.load() == 1);
  t.play_to_end();
  CHECK(t.finished());
  CHECK_FALSE(a.gap);
  check_view_is_snapshot(a);
}

TEST_CASE("e2e streams: refusals, limits per address and the spectator cap") {
  auto cfg = test_config();
  cfg.exempt_addresses = "";  // loopback is limited like any address here
  cfg.max_connections_per_address = 3;
  cfg.address_connection_burst = 100;
  cfg.max_spectators = 1;
  test_server server(cfg);
  const auto port = server.port();

  sse_client none(port, events_path("nosuchroom"));
  CHECK(none.status == 404);
  CHECK(json::parse(none.body)["error"] == "no_such_room");

  ws_client a(port);
  const auto room = create_room(a);
  sse_client e(port, events_path(room));
  REQUIRE(e.status == 200);
  REQUIRE(e.read_event()->name == "snapshot");
  // The room takes one spectator: a second stream is refused with the spectate's code.
  sse_client second(port, events_path(room));
  CHECK(second.status == 503);
  CHECK(json::parse(second.body)["error"] == "too_many_spectators");
  CHECK(second.headers.count("retry-after") == 1);
  // A, e and `second` (closed by now, its slot freed) from one address of three: one more may
  // come, then WebSockets and streams are refused alike.
  ws_client c(port);
  sse_client third(port, events_path(room));
  CHECK(third.status == 429);
  using refusal = carcassonne::server::metrics::refusal;
  CHECK(server.get().stats().refused_count(refusal::address_connections) == 1);
}

TEST_CASE("e2e streams: a silent stream gets a keep-alive comment") {
  auto cfg = test_config();
  cfg.idle_timeout_seconds = 1;  // a sweep every 250 ms
  test_server server(cfg);
  const auto port = server.port();
  ws_client a(port);
  const auto room = create_room(a);
  sse_client e(port, events_path(room));
  REQUIRE(e.status == 200);
  REQUIRE(e.read_event()->name == "snapshot");
  int comments = 0;
  for (int i = 0; i < 20 && comments == 0; ++i)
    if (auto ev = e.read_event(milliseconds(3000)); ev && ev->name == ":") ++comments;
  CHECK(comments == 1);
}

TEST_CASE("e2e streams: featured games are the games being played with the most spectators") {
  test_server server;
  const auto port = server.port();
  ws_client a(port), b(port), c(port), d(port), w(port);
  const auto quiet = create_room(a, {{"seed", "e2e-featured-quiet"}});
  join(a, quiet, "A");
  join(b, quiet, "B");
  table tq{{&a, &b}, {}};
  tq.start(a);
  const auto busy = create_room(c, {{"seed", "e2e-featured-busy"}});
  join(c, busy, "C");
  join(d, busy, "D");
  ws_client waiting(port);
  create_room(waiting);  // waiting for players: never featured
  spectate(w, busy);
  sse_client e(port, events_path(busy));
  REQUIRE(e.status == 200);
  table tb{{&c, &d}, {&w}};
  tb.start(c);
  c.wait_view([](const json& v) { return v["room"]["spectators"] == 2; }, "two spectators");

  auto r = http_get(port, "/api/featured");
  REQUIRE(r.status == 200);
  CHECK(r.headers["content-type"] == "application/json");
  const auto rooms = json::parse(r.body)["rooms"];
  REQUIRE(rooms.size() == 2);
  CHECK(rooms[0]["id"] == busy);
  CHECK(rooms[0]["spectators"] == 2);
  CHECK(rooms[0]["players"] == json::array({"C", "D"}));
  CHECK(rooms[1]["id"] == quiet);
  CHECK(rooms[1]["spectators"] == 0);
  auto one = json::parse(http_get(port, "/api/featured?limit=1").body)["rooms"];
  REQUIRE(one.size() == 1);
  CHECK(one[0]["id"] == busy);
  CHECK(http_get(port, "/api/featured?limit=0").status == 400);
  CHECK(http_get(port, "/api/featured?limit=21").status == 400);
}
