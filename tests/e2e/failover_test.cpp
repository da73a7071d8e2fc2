// Failover (docs/scaling.md): three `serve` processes on one private PostgreSQL and one private
// Redis; games on every instance; one instance killed with SIGKILL mid-game, a move in flight in
// each of its games. Every game of the dead instance resumes on a live one (its clients try each
// live instance with their seat tokens) and plays to the end; its record equals what the
// players saw, every acknowledged move once. The killed instance comes back and fights for
// nothing: the rooms stay where they are.
#include "../server/private_postgres.hpp"
#include "../server/private_redis.hpp"
#include "cluster/directory.hpp"
#include "e2e_client.hpp"
#include "process.hpp"

using namespace e2e;
using carcassonne::server::room_directory;

namespace {

constexpr int instances = 3;
constexpr int ttl_ms = 3000;  // the default: several beats even on a loaded machine

struct instance {
  std::string id;
  std::uint16_t port = 0;
  std::unique_ptr<child_process> process;
};

void start(instance& i, const std::string& store, const std::string& redis, const temp_dir& dir,
           int life) {
  i.process = start_instance(
      i.port, i.id, store, redis, dir.str() + "/" + i.id + "-" + std::to_string(life) + ".log",
      {"--lease-ttl-ms", std::to_string(ttl_ms), "--allow-scripted", "true"});
}

struct game : seated_game {
  int home = 0;  // the instance its clients connected to first
};

// The answer of an instance that cannot serve the room yet: its lease still names the dead
// owner, or it lapsed and no instance has adopted the room yet (the store holds it unfinished).
// Never `no_such_room`: a client would give the game up.
}  // namespace

TEST_CASE("e2e failover: SIGKILL of one of three instances; its games resume on the others") {
  auto redis = carcassonne::testing::started_redis();
  if (!redis) return;
  auto pg = carcassonne::testing::started_postgres();
  if (!pg) return;
  temp_dir dir("carcassonne-e2e-failover");
  const std::string store = pg->url("postgres");
  std::vector<instance> nodes(instances);
  for (int n = 0; n < instances; ++n) {
    nodes[n].id = "node" + std::to_string(n);
    nodes[n].port = free_port();
    start(nodes[n], store, redis->url(), dir, 1);
  }
  std::string error;
  auto watcher = room_directory::open({redis->url(), "watcher", "ws://watcher/ws"}, error);
  REQUIRE_MESSAGE(watcher, error);
  REQUIRE(eventually([&] { return watcher->instances(error).size() == instances; }));

  // Two games per instance, each played by clients connected to its instance.
  std::vector<game> games(2 * instances);
  std::mt19937_64 rng(23);
  for (std::size_t k = 0; k < games.size(); ++k) {
    auto& g = games[k];
    g.home = static_cast<int>(k % instances);
    const auto port = nodes[g.home].port;
    g.seat_two_at(port, "failover-" + std::to_string(k));  // each instance its own games to lose
    g.start();
    auto lease = watcher->lease_of(g.room, error);
    REQUIRE(lease);
    CHECK(lease->owner == nodes[g.home].id);
  }
  for (int round = 0; round < 12; ++round)
    for (auto& g : games) g.step(rng);

  // node0 dies with a move in flight in each of its games.
  static int next_id = 700000;
  for (auto& g : games) {
    if (g.home != 0) continue;
    g.send_in_flight(rng, ++next_id);
  }
  nodes[0].process->signal(SIGKILL);
  const auto killed_at = steady::now();
  REQUIRE(nodes[0].process->wait(std::chrono::seconds(10)) == 128 + SIGKILL);

  // The games elsewhere go on meanwhile.
  for (auto& g : games)
    if (g.home != 0) g.step(rng);

  // Each seat of node0's games comes back through one live instance (seats spread over both),
  // as a client behind the cluster's one address would: `resume` there, follow `moved` once to
  // the new owner; until a live instance has adopted the room, the answer is `room_unavailable`
  // (its lease is still the dead owner's, or lapsed and the room not adopted yet): retry.
  const auto deadline = steady::now() + std::chrono::seconds(30);
  for (auto& g : games)
    if (g.home == 0) g.resume_in_cluster({nodes[1].port, nodes[2].port}, nodes[0].port, deadline);
  const double failover_s = seconds_since(killed_at);
  MESSAGE("every room of the killed instance resumed " << failover_s << " s after its SIGKILL");

  // The move in flight, sent again with its id, is accepted once (stored or not before the kill).
  for (auto& g : games) {
    if (g.home != 0) continue;
    g.resend_in_flight();
    auto lease = watcher->lease_of(g.room, error);
    REQUIRE(lease);
    CHECK(lease->owner != nodes[0].id);
    CHECK(lease->generation == 2);  // one new owner, one new generation
  }

  // node0 comes back: it takes nothing (a resume there is sent on to the owner) and the games go
  // on.
  start(nodes[0], store, redis->url(), dir, 2);
  REQUIRE(eventually([&] { return watcher->instances(error).size() == instances; }));
  for (int round = 0; round < 3; ++round)
    for (auto& g : games)
      if (!g.finished()) g.step(rng);
  for (auto& g : games) {
    if (g.home != 0) continue;
    ws_client probe(nodes[0].port);
    auto r = probe.request({{"type", "resume"}, {"room", g.room}, {"token", g.tokens[0]}});
    REQUIRE_MESSAGE(r["type"] == "moved", r.dump());  // sent on to the room's new owner
    CHECK(port_of(r["url"].get<std::string>()) != nodes[0].port);
    auto lease = watcher->lease_of(g.room, error);
    REQUIRE(lease);
    CHECK(lease->owner != nodes[0].id);
    CHECK(lease->generation == 2);
  }
  CHECK(metric(http_get(nodes[0].port, "/metrics").body, "carcassonne_rooms") == 0);

  for (int i = 0; i < 2000; ++i) {
    bool any = false;
    for (auto& g : games)
      if (!g.finished()) g.step(rng), any = true;
    if (!any) break;
  }
  for (auto& g : games) {
    CAPTURE(g.room);
    REQUIRE(g.finished());
    // Any instance serves a finished game's record from the shared store.
    const auto got = http_get(nodes[static_cast<std::size_t>(g.home + 1) % instances].port,
                              "/api/rooms/" + g.room + "/record");
    REQUIRE(got.status == 200);
    g.check_record(json::parse(got.body));
  }
  for (auto& n : nodes) {
    const auto m = http_get(n.port, "/metrics").body;
    CHECK(metric(m, "carcassonne_journal_failures_total") == 0);
  }
  for (auto& n : nodes) n.process->signal(SIGTERM);
  for (auto& n : nodes) CHECK_MESSAGE(n.process->wait(std::chrono::seconds(20)) == 0, n.id);
}
