// Spectators on every instance (docs/scaling.md "Spectators on every instance"): a spectator, or
// an event stream, on an instance that does not hold the room gets the owner's public stream
// through Redis: the same frames a spectator at the owner gets (the spectator delay kept), and
// after the owner's SIGKILL a snapshot of the adopted room, then the adopter's frames.
#include "../server/private_postgres.hpp"
#include "../server/private_redis.hpp"
#include "cluster/directory.hpp"
#include "e2e_client.hpp"
#include "process.hpp"

using namespace e2e;
using carcassonne::server::room_directory;

namespace relay_test {

carcassonne::server::config member(const std::string& redis, const std::string& id) {
  auto c = test_config();
  c.redis_url = redis;
  c.instance_id = id;
  return c;
}

void play_watched(int delay) {
  auto redis = carcassonne::testing::started_redis();
  if (!redis) return;
  test_server a(member(redis->url(), "a")), b(member(redis->url(), "b"));
  std::string error;
  auto watcher = room_directory::open({redis->url(), "watcher", "ws://watcher/ws"}, error);
  REQUIRE_MESSAGE(watcher, error);
  REQUIRE(eventually([&] { return watcher->instances(error).size() == 2; }));

  ws_client p0(a.port()), p1(a.port()), here(a.port()), there(b.port());
  auto created = p0.request({{"type", "create_room"},
                             {"setup", {{"seed", "relay-" + std::to_string(delay)}}},
                             {"seats", 2},
                             {"spectator_delay", delay},
                             {"moved", true}});
  REQUIRE_MESSAGE(created["type"] == "room_created", created.dump());
  const std::string room = created["room"];
  join(p0, room, "Ann");
  join(p1, room, "Bob");
  spectate(here, room);
  // At b, which does not hold the room: no `moved` any more, the stream comes to b.
  auto s = there.request({{"type", "spectate"}, {"room", room}});
  REQUIRE_MESSAGE(s["type"] == "spectating", s.dump());
  CHECK(s["room"] == room);
  there.wait_type("snapshot");
  sse_client stream(b.port(), "/api/rooms/" + room + "/events");
  REQUIRE(stream.status == 200);
  REQUIRE(stream.read_event()->name == "snapshot");
  // Every spectator counts, wherever it watches: the one here, and two at b.
  p0.wait_view([](const json& v) { return v["room"]["spectators"] == 3; }, "3 spectators");
  const auto from = std::max(there.seq, stream.seq);
  here.wait_seq(from);
  there.wait_seq(from);
  stream.wait_seq(from);

  table t{{&p0, &p1}, {&here, &there}};
  t.start(p0);
  stream.wait_seq(p0.seq);
  std::vector<json> boards{p0.view["game"]["board"]};
  while (!t.finished()) {
    t.step();
    boards.push_back(p0.view["game"]["board"]);
    stream.wait_seq(p0.seq);
    REQUIRE(there.view == here.view);
    REQUIRE(stream.view == here.view);
    if (t.finished()) break;
    // Never ahead of the delay: the board of `delay` moves ago.
    const auto behind = static_cast<std::size_t>(delay);
    const std::size_t shown = boards.size() - 1 < behind ? 0 : boards.size() - 1 - behind;
    REQUIRE_MESSAGE(there.view["game"]["board"] == boards[shown], "after move " << t.moves);
  }
  auto chat = p0.request({{"type", "chat"}, {"text", "gg"}});
  REQUIRE(chat["type"] == "chat_sent");
  here.wait_type("chat");
  there.wait_type("chat");
  stream.wait_event("chat");
  CHECK(there.view == here.view);
  CHECK(there.view["game"]["board"] == p1.view["game"]["board"]);
  // The same frames, byte for byte, chat included, from the moment both watched.
  CHECK(patches_and_chat_after(there.raw, from) == patches_and_chat_after(here.raw, from));
  CHECK(patches_and_chat_after(stream.raw, from) == patches_and_chat_after(here.raw, from));
  CHECK_FALSE(there.gap);
  CHECK_FALSE(stream.gap);
  // A snapshot asked at b is the owner's view as patched at b.
  check_view_is_snapshot(there);
  // Requests of a seat are not a spectator's; a leave ends the watch and the count drops.
  CHECK(there.request({{"type", "chat"}, {"text", "hi"}})["code"] == "not_seated");
  CHECK(there.request({{"type", "leave"}})["type"] == "left");
  p1.wait_view([](const json& v) { return v["room"]["spectators"] == 2; }, "2 spectators");
}

}  // namespace relay_test

TEST_CASE("e2e spectator relay: a spectator and a stream at another instance see the owner's") {
  relay_test::play_watched(0);
}

TEST_CASE("e2e spectator relay: with a spectator delay, the relayed view is never ahead") {
  relay_test::play_watched(2);
}

namespace relay_test {

struct node {
  std::string id;
  std::uint16_t port = 0;
  std::unique_ptr<child_process> process;
};

void start(node& n, const std::string& store, const std::string& redis, const temp_dir& dir) {
  n.process = start_instance(n.port, n.id, store, redis, dir.str() + "/" + n.id + ".log",
                             {"--lease-ttl-ms", "3000", "--allow-scripted", "true"});
}

}  // namespace relay_test

TEST_CASE(
    "e2e spectator relay: the owner killed, the adopted room's stream goes on after a "
    "snapshot") {
  auto redis = carcassonne::testing::started_redis();
  if (!redis) return;
  auto pg = carcassonne::testing::started_postgres();
  if (!pg) return;
  temp_dir dir("carcassonne-e2e-relay");
  std::vector<relay_test::node> nodes(3);
  for (int n = 0; n < 3; ++n) {
    nodes[n].id = "relay" + std::to_string(n);
    nodes[n].port = free_port();
    relay_test::start(nodes[n], pg->url("postgres"), redis->url(), dir);
  }
  std::string error;
  auto watcher = room_directory::open({redis->url(), "watcher", "ws://watcher/ws"}, error);
  REQUIRE_MESSAGE(watcher, error);
  REQUIRE(eventually([&] { return watcher->instances(error).size() == 3; }));

  seated_game g;
  g.seat_two_at(nodes[0].port, "relay-failover");
  ws_client far(nodes[1].port);
  spectate(far, g.room);
  far.wait_type("snapshot");
  g.start();
  far.wait_seq(g.clients[0]->seq);
  std::mt19937_64 rng(41);
  for (int i = 0; i < 10; ++i) g.step(rng);
  far.wait_seq(g.clients[0]->seq);
  CHECK(far.view["game"]["board"] == g.clients[0]->view["game"]["board"]);
  CHECK_FALSE(far.gap);
  const auto seq_before = far.seq;
  const auto snapshots_before = far.frames.size();

  nodes[0].process->signal(SIGKILL);
  REQUIRE(nodes[0].process->wait(std::chrono::seconds(10)) == 128 + SIGKILL);
  // The players come back through node2 (node1 may have adopted the room: then node2 says
  // `moved`), as in the failover test.
  g.resume_in_cluster({nodes[2].port}, nodes[0].port, steady::now() + std::chrono::seconds(30));
  // The spectator at node1 never left: a snapshot of the adopted room fills the gap (its seq
  // above every seq shown before), then the adopter's frames follow.
  for (int i = 0; i < 6 && !g.finished(); ++i) g.step(rng);
  far.wait_seq(g.clients[0]->seq);
  bool snapshot_after_kill = false;
  for (auto i = snapshots_before; i < far.frames.size(); ++i)
    if (far.frames[i]["type"] == "snapshot") {
      CHECK(far.frames[i]["seq"].get<std::uint64_t>() > seq_before);
      snapshot_after_kill = true;
    }
  CHECK(snapshot_after_kill);
  CHECK(far.view["game"]["board"] == g.clients[0]->view["game"]["board"]);
  CHECK(far.view["room"]["state"] == "playing");
  for (int i = 0; i < 2000 && !g.finished(); ++i) g.step(rng);
  REQUIRE(g.finished());
  REQUIRE(g.clients[0]->request({{"type", "chat"}, {"text", "gg"}})["type"] == "chat_sent");
  far.wait_type("chat");  // everything before it has reached `far`
  CHECK(far.view["game"]["board"] == g.clients[0]->view["game"]["board"]);
  CHECK(far.view["game"]["scores"] == g.clients[0]->view["game"]["scores"]);
  CHECK(far.view["game"]["status"] == "finished");
  check_view_is_snapshot(far);
  for (int n = 1; n < 3; ++n) nodes[n].process->signal(SIGTERM);
  for (int n = 1; n < 3; ++n)
    CHECK_MESSAGE(nodes[n].process->wait(std::chrono::seconds(20)) == 0, nodes[n].id);
}

TEST_CASE("e2e spectator relay: a relayed stream that never reads is dropped, the others go on") {
  auto redis = carcassonne::testing::started_redis();
  if (!redis) return;
  auto watching = relay_test::member(redis->url(), "b");
  watching.max_outbound_messages = 16;
  test_server a(relay_test::member(redis->url(), "a")), b(watching);
  std::string error;
  auto watcher = room_directory::open({redis->url(), "watcher", "ws://watcher/ws"}, error);
  REQUIRE_MESSAGE(watcher, error);
  REQUIRE(eventually([&] { return watcher->instances(error).size() == 2; }));
  ws_client p0(a.port()), p1(a.port()), reader(b.port());
  auto created = p0.request({{"type", "create_room"},
                             {"setup", {{"seed", "relay-slow"}}},
                             {"seats", 2},
                             {"moved", true}});
  REQUIRE(created["type"] == "room_created");
  const std::string room = created["room"];
  join(p0, room, "Ann");
  join(p1, room, "Bob");
  spectate(reader, room);
  // Asks, then never reads.
  sse_client lazy(b.port(), "/api/rooms/" + room + "/events", true, false);
  p0.wait_view([](const json& v) { return v["room"]["spectators"] == 2; }, "both in");
  table t{{&p0, &p1}, {&reader}};
  t.start(p0);
  const std::string long_text(450, 'z');
  int chats = 0;
  while (p0.view["room"]["spectators"] == 2 && chats < 5000) {
    if (!t.finished()) t.step();
    REQUIRE(p0.request({{"type", "chat"}, {"text", long_text}})["type"] == "chat_sent");
    reader.wait_type("chat");
    ++chats;
  }
  p0.wait_view([](const json& v) { return v["room"]["spectators"] == 1; }, "the stream dropped");
  CHECK(b.get().stats().dropped_slow.load() == 1);
  t.play_to_end();
  // Everything before this chat line has reached the reader: its view is the owner's now.
  REQUIRE(p0.request({{"type", "chat"}, {"text", "gg"}})["type"] == "chat_sent");
  reader.wait_type("chat");
  CHECK_FALSE(reader.gap);
  check_view_is_snapshot(reader);
}

TEST_CASE("e2e spectator relay: --max-spectators counts each instance's own spectators") {
  auto redis = carcassonne::testing::started_redis();
  if (!redis) return;
  auto one = [&](const char* id) {
    auto c = relay_test::member(redis->url(), id);
    c.max_spectators = 1;
    return c;
  };
  test_server a(one("a")), b(one("b"));
  std::string error;
  auto watcher = room_directory::open({redis->url(), "watcher", "ws://watcher/ws"}, error);
  REQUIRE_MESSAGE(watcher, error);
  REQUIRE(eventually([&] { return watcher->instances(error).size() == 2; }));
  ws_client p0(a.port()), at_a(a.port()), at_b(b.port()), second_at_b(b.port());
  auto created = p0.request(
      {{"type", "create_room"}, {"setup", json::object()}, {"seats", 2}, {"moved", true}});
  REQUIRE(created["type"] == "room_created");
  const std::string room = created["room"];
  spectate(at_a, room);
  spectate(at_b, room);  // a's one spectator does not count at b
  auto refused = second_at_b.request({{"type", "spectate"}, {"room", room}});
  CHECK(refused["code"] == "too_many_spectators");
  sse_client stream(b.port(), "/api/rooms/" + room + "/events");
  CHECK(stream.status == 503);
  CHECK(json::parse(stream.body)["error"] == "too_many_spectators");
  // The room shows both.
  at_b.wait_view([](const json& v) { return v["room"]["spectators"] == 2; }, "2 spectators");
}
