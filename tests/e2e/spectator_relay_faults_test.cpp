// The spectator relay under faults (docs/scaling.md "Spectators on every instance"): Redis
// down while a room is relayed, the owner losing the room without dying (a graceful stop, its
// lease taken), and a finished room leaving its owner while spectators elsewhere watch it (its
// owner stopped or killed), or before anyone watches it elsewhere. In each, the relayed
// spectators' views are checked the way the relay tests do: every patch applied by the client in
// seq order, then compared with the owner's view and a fresh snapshot.
#include <unistd.h>

#include "../server/private_postgres.hpp"
#include "../server/private_redis.hpp"
#include "cluster/directory.hpp"
#include "e2e_client.hpp"
#include "process.hpp"

using namespace e2e;
using carcassonne::server::room_directory;

namespace relay_faults {

carcassonne::server::config member(const std::string& redis, const std::string& id) {
  auto c = test_config();
  c.redis_url = redis;
  c.instance_id = id;
  return c;
}

// Polls /healthz until it says `body`, at most 10 s.
bool health_is(std::uint16_t port, const std::string& body) {
  for (int i = 0; i < 200; ++i) {
    if (http_get(port, "/healthz").body == body) return true;
    ::usleep(50'000);
  }
  return false;
}

// The first frame of `c` from index `from` on of type `type`, reading more until one comes.
json frame_from(ws_client& c, std::size_t from, const std::string& type) {
  for (auto i = from; i < c.frames.size(); ++i)
    if (c.frames[i]["type"] == type) return c.frames[i];
  return c.wait_type(type);
}

constexpr int ttl_ms = 2000;

struct node {
  std::string id;
  std::uint16_t port = 0;
  std::unique_ptr<child_process> process;
  std::string url() const { return "ws://127.0.0.1:" + std::to_string(port) + "/ws"; }
};

// Three `serve` processes on one PostgreSQL and one Redis.
struct cluster {
  std::unique_ptr<carcassonne::testing::private_redis> redis;
  std::unique_ptr<carcassonne::testing::private_postgres> pg;
  std::unique_ptr<temp_dir> dir;
  std::vector<node> nodes;

  bool start(const std::string& name) {
    redis = carcassonne::testing::started_redis();
    if (!redis) return false;
    pg = carcassonne::testing::started_postgres();
    if (!pg) return false;
    dir = std::make_unique<temp_dir>("carcassonne-e2e-" + name);
    nodes.resize(3);
    for (int n = 0; n < 3; ++n) {
      nodes[n].id = name + std::to_string(n);
      nodes[n].port = free_port();
      nodes[n].process =
          start_instance(nodes[n].port, nodes[n].id, pg->url("postgres"), redis->url(),
                         dir->str() + "/" + nodes[n].id + ".log",
                         {"--lease-ttl-ms", std::to_string(ttl_ms), "--allow-scripted", "true"});
    }
    std::string error;
    auto watcher = room_directory::open({redis->url(), "watcher", "ws://watcher/ws"}, error);
    REQUIRE_MESSAGE(watcher, error);
    REQUIRE(eventually([&] { return watcher->instances(error).size() == 3; }));
    return true;
  }

  // The players of `g` resume through `door`, retrying while the room is between owners; `gone`
  // is the instance that let the room go (a `moved` to it is stale), -1 when none did (the owner
  // itself may adopt the room again).
  void resume_players(seated_game& g, int door, int gone) {
    g.resume_in_cluster({nodes[door].port}, gone >= 0 ? nodes[gone].port : std::uint16_t{0},
                        steady::now() + std::chrono::seconds(30));
  }

  // Every instance still running stopped with SIGTERM: each exits 0.
  void stop_all() {
    std::vector<node*> running;
    for (auto& n : nodes)
      if (n.process && !n.process->wait(milliseconds(0))) running.push_back(&n);
    for (auto* n : running) n->process->signal(SIGTERM);
    for (auto* n : running) CHECK_MESSAGE(n->process->wait(std::chrono::seconds(20)) == 0, n->id);
  }
};

// Whether a spectator's view shows the game a seat's view shows (the parts both views have).
bool same_game(json spectator, json seat) {
  for (const char* part : {"board", "figures", "scores", "players", "status", "tile", "turn"})
    if (spectator["game"][part] != seat["game"][part]) return false;
  return true;
}

// Frames of `c` from index `from` on that are snapshots.
int snapshots_from(const ws_client& c, std::size_t from) {
  int n = 0;
  for (auto i = from; i < c.frames.size(); ++i) n += c.frames[i].value("type", "") == "snapshot";
  return n;
}

}  // namespace relay_faults

TEST_CASE("e2e spectator relay faults: Redis down while relaying, back on the same port") {
  auto redis = carcassonne::testing::started_redis();
  if (!redis) return;
  test_server a(relay_faults::member(redis->url(), "a")),
      b(relay_faults::member(redis->url(), "b"));
  std::string error;
  {
    auto watcher = room_directory::open({redis->url(), "watcher", "ws://watcher/ws"}, error);
    REQUIRE_MESSAGE(watcher, error);
    REQUIRE(eventually([&] { return watcher->instances(error).size() == 2; }));
  }
  ws_client p0(a.port()), p1(a.port()), here(a.port()), there(b.port());
  auto created = p0.request({{"type", "create_room"},
                             {"setup", {{"seed", "relay-redis-down"}}},
                             {"seats", 2},
                             {"moved", true}});
  REQUIRE_MESSAGE(created["type"] == "room_created", created.dump());
  const std::string room = created["room"];
  join(p0, room, "Ann");
  join(p1, room, "Bob");
  spectate(here, room);
  spectate(there, room);
  there.wait_type("snapshot");
  sse_client stream(b.port(), "/api/rooms/" + room + "/events");
  REQUIRE(stream.status == 200);
  REQUIRE(stream.read_event()->name == "snapshot");
  p0.wait_view([](const json& v) { return v["room"]["spectators"] == 3; }, "3 spectators");
  table t{{&p0, &p1}, {&here, &there}};
  t.start(p0);
  t.play(4);
  stream.wait_seq(p0.seq);
  REQUIRE(there.view == here.view);
  REQUIRE(stream.view == here.view);

  // Redis goes away: the game at a goes on; nothing reaches b meanwhile.
  const auto seen = there.frames.size();
  const auto stream_seen = stream.events.size();
  REQUIRE(redis->kill());
  REQUIRE(relay_faults::health_is(a.port(), "degraded: redis unreachable, new rooms refused\n"));
  table alone{{&p0, &p1}, {&here}};
  alone.rng.seed(7);
  alone.play(6);
  REQUIRE_FALSE(alone.finished());
  const auto played_while_down = p0.seq;
  // Past the owner's audience TTL (3 s) b's spectators are forgotten at a and the room's link
  // goes: when Redis is back, a new link starts the stream again.
  p0.wait_view([](const json& v) { return v["room"]["spectators"] == 1; }, "b's spectators gone");
  alone.play(2);

  // Back on the same port (empty: no data was saved): b subscribes again and gets a snapshot of
  // the room as it is, then the live patches, on the same connections.
  REQUIRE(redis->restart());
  REQUIRE(relay_faults::health_is(a.port(), "ok\n"));
  REQUIRE(relay_faults::health_is(b.port(), "ok\n"));
  auto snapshot = relay_faults::frame_from(there, seen, "snapshot");
  CHECK(snapshot["seq"].get<std::uint64_t>() >= played_while_down);
  there.wait_seq(p0.seq);
  stream.wait_seq(p0.seq);
  CHECK(there.view == here.view);
  CHECK(stream.view == here.view);
  bool stream_snapshot = false;
  for (auto i = stream_seen; i < stream.events.size(); ++i)
    stream_snapshot = stream_snapshot || stream.events[i].name == "snapshot";
  CHECK(stream_snapshot);
  // The relayed spectators count again at the owner.
  p0.wait_view([](const json& v) { return v["room"]["spectators"] == 3; }, "3 spectators again");
  t.play(6);
  stream.wait_seq(p0.seq);
  REQUIRE(p0.request({{"type", "chat"}, {"text", "gg"}})["type"] == "chat_sent");
  there.wait_type("chat");
  stream.wait_event("chat");
  CHECK(there.view == here.view);
  CHECK(stream.view == here.view);
  CHECK_FALSE(there.ended());
  CHECK_FALSE(stream.ended());
  CHECK_FALSE(there.gap);
  CHECK_FALSE(stream.gap);
  relay_faults::frame_from(there, seen, "snapshot");
  check_view_is_snapshot(there);
}

TEST_CASE("e2e spectator relay faults: the owner stopped gracefully, the room goes on elsewhere") {
  relay_faults::cluster c;
  if (!c.start("relaystop")) return;
  seated_game g;
  g.seat_two_at(c.nodes[0].port, "relay-sigterm");
  ws_client near(c.nodes[0].port), far(c.nodes[1].port);
  spectate(near, g.room);
  spectate(far, g.room);
  far.wait_type("snapshot");
  sse_client stream(c.nodes[1].port, "/api/rooms/" + g.room + "/events");
  REQUIRE(stream.status == 200);
  REQUIRE(stream.read_event()->name == "snapshot");
  g.start();
  std::mt19937_64 rng(43);
  for (int i = 0; i < 8; ++i) g.step(rng);
  far.wait_seq(g.clients[0]->seq);
  near.wait_seq(g.clients[0]->seq);
  stream.wait_seq(g.clients[0]->seq);
  CHECK(far.view == near.view);
  const auto seq_before = far.seq;
  const auto seen = far.frames.size();

  c.nodes[0].process->signal(SIGTERM);
  // The spectator at the owner is told the server goes away (docs/protocol.md §16).
  near.wait_type("goodbye");
  CHECK(near.wait_end());
  CHECK(near.close_code() == 1001);
  g.clients.clear();  // the players too are going away (they resume below)
  REQUIRE(c.nodes[0].process->wait(std::chrono::seconds(20)) == 0);
  c.resume_players(g, 2, 0);
  for (int i = 0; i < 4 && !g.finished(); ++i) g.step(rng);
  far.wait_seq(g.clients[0]->seq);
  stream.wait_seq(g.clients[0]->seq);
  // A snapshot of the adopted room ended the pause, above every seq shown before.
  auto snapshot = relay_faults::frame_from(far, seen, "snapshot");
  CHECK(snapshot["seq"].get<std::uint64_t>() > seq_before);
  CHECK(relay_faults::same_game(far.view, g.clients[0]->view));
  for (int i = 0; i < 6 && !g.finished(); ++i) g.step(rng);
  REQUIRE(g.clients[0]->request({{"type", "chat"}, {"text", "gg"}})["type"] == "chat_sent");
  far.wait_type("chat");
  stream.wait_event("chat");
  CHECK(relay_faults::same_game(far.view, g.clients[0]->view));
  CHECK(stream.view == far.view);
  CHECK_FALSE(far.gap);
  CHECK_FALSE(stream.gap);
  // Once the new owner counts both (nothing changes the room after that), a snapshot asked is
  // the view as patched.
  far.wait_view([](const json& v) { return v["room"]["spectators"] == 2; }, "2 spectators");
  check_view_is_snapshot(far);
  c.stop_all();
}

TEST_CASE("e2e spectator relay faults: the owner loses the lease without dying") {
  relay_faults::cluster c;
  if (!c.start("relaylease")) return;
  seated_game g;
  g.seat_two_at(c.nodes[0].port, "relay-lease");
  ws_client near(c.nodes[0].port), far(c.nodes[1].port);
  spectate(near, g.room);
  spectate(far, g.room);
  far.wait_type("snapshot");
  g.start();
  std::mt19937_64 rng(47);
  for (int i = 0; i < 8; ++i) g.step(rng);
  far.wait_seq(g.clients[0]->seq);
  near.wait_seq(g.clients[0]->seq);
  CHECK(far.view == near.view);
  const auto seen = far.frames.size();

  // The lease disappears from Redis (as when it expired during a pause of the owner): another
  // instance (or the owner itself) adopts the room with a new generation, the owner's room stops.
  REQUIRE(c.redis->cli("DEL carcassonne:lease:" + g.room));
  // The spectator at the owner is sent away as its players are.
  const auto moved = near.wait_for(
      [](const json& f) {
        return f.value("type", "") == "error" && f.value("code", "") == "room_moved";
      },
      "room_moved");
  CHECK_FALSE(moved.contains("id"));
  c.resume_players(g, 2, -1);
  for (int i = 0; i < 4 && !g.finished(); ++i) g.step(rng);
  far.wait_seq(g.clients[0]->seq);
  CHECK(relay_faults::snapshots_from(far, seen) >= 1);
  CHECK(relay_faults::same_game(far.view, g.clients[0]->view));
  // Watching again from the owner's door works, wherever the room is now.
  ws_client again(c.nodes[0].port);
  spectate(again, g.room);
  again.wait_type("snapshot");
  for (int i = 0; i < 6 && !g.finished(); ++i) g.step(rng);
  REQUIRE(g.clients[0]->request({{"type", "chat"}, {"text", "gg"}})["type"] == "chat_sent");
  far.wait_type("chat");
  again.wait_type("chat");
  CHECK(relay_faults::same_game(far.view, g.clients[0]->view));
  CHECK(again.view == far.view);
  CHECK_FALSE(far.gap);
  CHECK_FALSE(again.gap);
  far.wait_view([](const json& v) { return v["room"]["spectators"] == 2; }, "2 spectators");
  check_view_is_snapshot(far);
  c.stop_all();
}
TEST_CASE("e2e spectator relay faults: a finished room leaves its owner while watched elsewhere") {
  relay_faults::cluster c;
  if (!c.start("relayend")) return;
  seated_game g;
  g.seat_two_at(c.nodes[0].port, "relay-end");
  ws_client far(c.nodes[1].port);
  spectate(far, g.room);
  far.wait_type("snapshot");
  sse_client stream(c.nodes[1].port, "/api/rooms/" + g.room + "/events");
  REQUIRE(stream.status == 200);
  REQUIRE(stream.read_event()->name == "snapshot");
  g.start();
  std::mt19937_64 rng(53);
  for (int i = 0; i < 2000 && !g.finished(); ++i) g.step(rng);
  REQUIRE(g.finished());
  REQUIRE(g.clients[0]->request({{"type", "chat"}, {"text", "gg"}})["type"] == "chat_sent");
  far.wait_type("chat");
  stream.wait_event("chat");
  json final_view = far.view;
  CHECK(relay_faults::same_game(final_view, g.clients[0]->view));
  CHECK(stream.view == final_view);
  g.clients.clear();  // the players leave; the relay keeps the finished room at its owner

  // The owner stops: finished rooms are not adopted, so nobody will publish this room again.
  c.nodes[0].process->signal(SIGTERM);
  REQUIRE(c.nodes[0].process->wait(std::chrono::seconds(20)) == 0);
  // The relayed spectators are told, as a room's spectators are when it stops being served
  // there, and keep the final view they hold; the stream ends.
  const auto moved = far.wait_for(
      [](const json& f) {
        return f.value("type", "") == "error" && f.value("code", "") == "room_moved";
      },
      "room_moved");
  CHECK_FALSE(moved.contains("id"));
  CHECK(far.view["game"] == final_view["game"]);
  CHECK(stream.wait_event("error")["code"] == "room_moved");
  CHECK(stream.wait_end());
  CHECK(stream.view["game"] == final_view["game"]);
  // Spectating again at the same instance shows the finished game (from the store).
  auto r = far.request({{"type", "spectate"}, {"room", g.room}});
  REQUIRE_MESSAGE(r["type"] == "spectating", r.dump());
  far.wait_type("snapshot");
  CHECK(far.view["game"] == final_view["game"]);
  CHECK_FALSE(far.gap);
  CHECK_FALSE(stream.gap);
  far.wait_view([](const json& v) { return v["room"]["spectators"] == 1; }, "1 spectator");
  check_view_is_snapshot(far);
  c.stop_all();
}

TEST_CASE(
    "e2e spectator relay faults: a finished room that left its owner's memory, watched anew") {
  relay_faults::cluster c;
  if (!c.start("relaygone")) return;
  seated_game g;
  g.seat_two_at(c.nodes[0].port, "relay-gone");
  g.start();
  std::mt19937_64 rng(59);
  for (int i = 0; i < 2000 && !g.finished(); ++i) g.step(rng);
  REQUIRE(g.finished());
  json final_view = g.clients[0]->view;
  g.clients.clear();
  // Nobody left in it: the finished room leaves its owner's memory and its lease is given up.
  std::string error;
  auto directory = room_directory::open({c.redis->url(), "watcher", "ws://watcher/ws"}, error);
  REQUIRE_MESSAGE(directory, error);
  REQUIRE(eventually([&] { return !directory->lease_of(g.room, error) && error.empty(); }));
  // Any instance shows it (from the store), the owner's as another.
  for (int n : {1, 0}) {
    ws_client late(c.nodes[n].port);
    spectate(late, g.room);
    late.wait_type("snapshot");
    CHECK(relay_faults::same_game(late.view, final_view));
    sse_client stream(c.nodes[n].port, "/api/rooms/" + g.room + "/events");
    REQUIRE(stream.status == 200);
    REQUIRE(stream.read_event()->name == "snapshot");
    CHECK(stream.view["game"] == late.view["game"]);
  }
  c.stop_all();
}

TEST_CASE("e2e spectator relay faults: the owner of a finished relayed room killed") {
  relay_faults::cluster c;
  if (!c.start("relaykill")) return;
  seated_game g;
  g.seat_two_at(c.nodes[0].port, "relay-kill");
  ws_client far(c.nodes[1].port);
  spectate(far, g.room);
  far.wait_type("snapshot");
  g.start();
  std::mt19937_64 rng(61);
  for (int i = 0; i < 2000 && !g.finished(); ++i) g.step(rng);
  REQUIRE(g.finished());
  far.wait_seq(g.clients[0]->seq);
  REQUIRE(relay_faults::same_game(far.view, g.clients[0]->view));
  json final_game = far.view["game"];
  g.clients.clear();

  // No end mark from a killed owner: the spectator in step keeps its final view, silent; one
  // arriving at the same instance waits for a snapshot nobody sends, and after the relay's
  // patience (3 lease TTLs + 1 s) both are let go.
  c.nodes[0].process->signal(SIGKILL);
  REQUIRE(c.nodes[0].process->wait(std::chrono::seconds(10)) == 128 + SIGKILL);
  ws_client late(c.nodes[1].port);
  spectate(late, g.room);
  const auto t0 = steady::now();
  const auto is_moved = [](const json& f) {
    return f.value("type", "") == "error" && f.value("code", "") == "room_moved";
  };
  // Longer than a read's usual deadline: one read with its own.
  std::optional<json> first;
  while (!first || !is_moved(*first)) {
    first = late.read_frame(milliseconds(20'000));
    REQUIRE_MESSAGE(first, "no room_moved within 20 s");
  }
  CHECK(seconds_since(t0) > 5.0);
  CHECK_FALSE(late.has_view);
  far.wait_for(is_moved, "room_moved");
  CHECK(far.view["game"] == final_game);
  // Spectating again finds the finished game in the store (the dead owner's lease has lapsed).
  spectate(late, g.room);
  late.wait_type("snapshot");
  CHECK(late.view["game"] == final_game);
  c.stop_all();
}
