// Quick play and series in a cluster (docs/protocol.md §22, §24; docs/scaling.md "Failover"):
// `serve` processes on one private PostgreSQL and one private Redis. Seekers on different
// instances meet in the cluster's one queue and follow `moved` to the room the matchmaker's
// instance made; a seeker whose instance dies leaves the queue. A best-of-3 series whose runner
// is killed with SIGKILL mid-game carries on: the room and the series are taken up by live
// instances, and the players finish it there.
#include "../server/private_postgres.hpp"
#include "../server/private_redis.hpp"
#include "cluster/directory.hpp"
#include "e2e_client.hpp"
#include "process.hpp"

using namespace e2e;
using carcassonne::server::room_directory;

namespace competition_cluster_e2e {

struct node {
  std::string id;
  std::uint16_t port = 0;
  std::unique_ptr<child_process> process;
  bool alive = false;
};

struct cluster {
  std::unique_ptr<carcassonne::testing::private_redis> redis;
  std::unique_ptr<carcassonne::testing::private_postgres> pg;
  temp_dir dir{"carcassonne-e2e-competition-cluster"};
  std::vector<node> nodes;
  std::unique_ptr<room_directory> watcher;

  // False (the case skipped, with the fixture's message) when Redis or PostgreSQL cannot run.
  bool start(int count) {
    redis = carcassonne::testing::started_redis();
    if (!redis) return false;
    pg = carcassonne::testing::started_postgres();
    if (!pg) return false;
    nodes.resize(static_cast<std::size_t>(count));
    for (int n = 0; n < count; ++n) {
      auto& i = nodes[static_cast<std::size_t>(n)];
      i.id = "node" + std::to_string(n);
      i.port = free_port();
      i.process = start_instance(i.port, i.id, pg->url("postgres"), redis->url(),
                                 dir.str() + "/" + i.id + ".log", {"--competition-tick-ms", "50"});
      i.alive = true;
    }
    std::string error;
    watcher = room_directory::open({redis->url(), "watcher", "ws://watcher/ws"}, error);
    REQUIRE_MESSAGE(watcher, error);
    REQUIRE(eventually([&] { return live() == count; }));
    return true;
  }

  int live() {
    std::string error;
    return static_cast<int>(watcher->instances(error).size());
  }

  node& by_port(std::uint16_t port) {
    for (auto& n : nodes)
      if (n.port == port) return n;
    FAIL("no instance on port " << port);
    return nodes[0];
  }
  node& by_url(const std::string& url) {
    for (auto& n : nodes)
      if (url == "ws://127.0.0.1:" + std::to_string(n.port) + "/ws") return n;
    FAIL("moved to an unknown address: " << url);
    return nodes[0];
  }
  // The instance holding a lease (a room's, or "competition:<id>" of a series).
  node& owner_of(const std::string& key) {
    std::string error;
    const auto lease = watcher->lease_of(key, error);
    REQUIRE_MESSAGE(lease, key << ": " << error);
    for (auto& n : nodes)
      if (n.id == lease->owner) return n;
    FAIL(key << " is held by an unknown instance " << lease->owner);
    return nodes[0];
  }

  void kill(node& n) {
    n.process->signal(SIGKILL);
    REQUIRE(n.process->wait(std::chrono::seconds(10)) == 128 + SIGKILL);
    n.alive = false;
  }
  void stop_all() {
    for (auto& n : nodes)
      if (n.alive) n.process->signal(SIGTERM);
    for (auto& n : nodes)
      if (n.alive) CHECK_MESSAGE(n.process->wait(std::chrono::seconds(20)) == 0, n.id);
  }
};

struct player {
  std::string id, session, name;
  std::uint16_t port = 0;  // the instance its connection is on
  std::unique_ptr<ws_client> ws;
  bool in_room = false;  // its connection is in a room (a finished one to leave first)
};

void connect(player& p, std::uint16_t port) {
  p.ws = std::make_unique<ws_client>(port);
  p.port = port;
  p.in_room = false;
  const auto who = p.ws->request({{"type", "authenticate"}, {"session", p.session}});
  REQUIRE_MESSAGE(who["type"] == "authenticated", who.dump());
}

// A new guest of the cluster (made through `port`), signed in on a connection to `port`.
player guest_at(std::uint16_t port) {
  const auto r = http_post(port, "/api/guest", json::object());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  const json g = json::parse(r.body);
  player p{g["player"]["id"], g["session"], g["player"]["name"]};
  connect(p, port);
  return p;
}

json get_doc(std::uint16_t port, const std::string& target) {
  const auto r = http_get(port, target);
  REQUIRE_MESSAGE(r.status == 200, target << ": " << r.body);
  return json::parse(r.body);
}

// The first frame of the player's connection (seen already or to come within `limit`) that
// matches: match_found may come from another instance, after a failover.
json frame_of(player& p, const std::function<bool(const json&)>& match, const std::string& what,
              std::chrono::seconds limit = std::chrono::seconds(10)) {
  for (const auto& f : p.ws->frames)
    if (match(f)) return f;
  const auto deadline = steady::now() + limit;
  for (;;) {
    const auto left = std::chrono::duration_cast<milliseconds>(deadline - steady::now());
    REQUIRE_MESSAGE(left.count() > 0, "timed out waiting for " << what);
    auto m = p.ws->read_frame(left);
    REQUIRE_MESSAGE(m, "no " << what << " (" << p.ws->end_error().message() << ")");
    if (match(*m)) return *m;
  }
}

json match_found_of(player& p, int game = 0) {
  return frame_of(
      p,
      [&](const json& m) {
        return m["type"] == "match_found" && (game == 0 || m.value("game", 0) == game);
      },
      "match_found" + (game ? " of game " + std::to_string(game) : std::string()),
      std::chrono::seconds(30));
}

// The player takes its seat in `room` by player (no token), as a client behind the cluster's one
// address would: `resume` on its connection (or on a new one at a live instance), following
// `moved` once with "moved": true to the room's instance; while no live instance serves the room
// (room_unavailable, or `moved` to the dead owner before its heartbeat lapsed), again a little
// later. Returns the first answer's type ("resumed" or "moved").
std::string seat(cluster& c, player& p, const std::string& room, int expected_seat) {
  const auto deadline = steady::now() + std::chrono::seconds(30);
  std::string first;
  std::size_t door = 0;
  for (;;) {
    REQUIRE_MESSAGE(steady::now() < deadline, "room " << room << " could not be resumed");
    if (!p.ws) {
      while (!c.nodes[door % c.nodes.size()].alive) ++door;
      connect(p, c.nodes[door++ % c.nodes.size()].port);
    }
    if (p.in_room) {
      const auto left = p.ws->request({{"type", "leave"}});
      REQUIRE_MESSAGE(left["type"] == "left", left.dump());
      p.in_room = false;
    }
    const json resume{{"type", "resume"}, {"room", room}};
    auto r = p.ws->request(resume);
    if (first.empty()) first = r["type"];
    if (r["type"] == "moved") {
      CHECK(r["room"] == room);
      auto& there = c.by_url(r["url"]);
      CHECK(there.port != p.port);  // an instance never names itself
      if (!there.alive) {           // the dead owner's lease, until its heartbeat lapses
        std::this_thread::sleep_for(milliseconds(50));
        continue;
      }
      connect(p, there.port);
      auto bounced = resume;
      bounced["moved"] = true;
      r = p.ws->request(bounced);
    }
    if (r["type"] == "resumed") {
      CHECK(r["seat"] == expected_seat);
      p.in_room = true;
      return first;
    }
    // Not adopted yet: the lease names the dead owner, or lapsed and no one took the room yet.
    REQUIRE_MESSAGE(r["code"] == "room_unavailable", r.dump());
    std::this_thread::sleep_for(milliseconds(50));
  }
}

// The players, by seat, play the room with random legal moves from where it is: `moves` moves,
// or to the end.
void play_to_end(const std::string& room, std::vector<player*> by_seat, std::uint64_t seed,
                 int moves = -1) {
  table t;
  t.rng.seed(seed);
  for (auto* p : by_seat) {
    p->ws->wait_view([&](const json& v) { return v["room"]["id"] == room && !v["game"].is_null(); },
                     "the game of room " + room);
    t.seats.push_back(p->ws.get());
  }
  if (moves < 0)
    t.play_to_end();
  else
    t.play(moves);
}

// The cases live in the namespace too: the unity build puts other files' `player` in sight.

TEST_CASE("e2e cluster quick play: seekers on two instances meet; a dead instance's seek is gone") {
  cluster c;
  if (!c.start(3)) return;
  auto& n0 = c.nodes[0];
  auto& n1 = c.nodes[1];
  auto& n2 = c.nodes[2];

  // One queue for the cluster: A on node0 and B on node1 meet, A (who waited longer) first.
  auto a = guest_at(n0.port);
  auto b = guest_at(n1.port);
  const json prefs{{"type", "seek"}, {"time_control", "blitz"}, {"seats", 2}};
  auto r = a.ws->request(prefs);
  REQUIRE_MESSAGE(r["type"] == "seeking", r.dump());
  CHECK(a.ws->request(prefs)["code"] == "already_seeking");
  {
    // The same player seeking through another instance: the queue is one.
    player again{a.id, a.session, a.name};
    connect(again, n2.port);
    CHECK(again.ws->request(prefs)["code"] == "already_seeking");
  }
  r = b.ws->request(prefs);
  REQUIRE_MESSAGE(r["type"] == "seeking", r.dump());
  const auto t0 = steady::now();
  const json found_a = match_found_of(a), found_b = match_found_of(b);
  MESSAGE("matched across instances in " << seconds_since(t0) << " s");
  REQUIRE(found_a["room"] == found_b["room"]);
  // Seats by arrival, each instance's clock to the millisecond: two seeks on two instances in
  // the same millisecond are ordered by player id. Either way the two seats are complementary.
  const int a_seat = found_a["seat"];
  CHECK(found_b["seat"] == 1 - a_seat);
  CHECK(found_a["players"] == (a_seat == 0 ? json{a.name, b.name} : json{b.name, a.name}));
  CHECK(found_a["time_control"] == "blitz");
  const std::string room = found_a["room"];

  // The room is on the matchmaker's instance; a seat connected elsewhere is sent there.
  auto& home = c.owner_of(room);
  const std::uint16_t a_was = a.port, b_was = b.port;
  CHECK(seat(c, a, room, a_seat) == (a_was == home.port ? "resumed" : "moved"));
  CHECK(seat(c, b, room, 1 - a_seat) == (b_was == home.port ? "resumed" : "moved"));
  CHECK(a.port == home.port);
  CHECK(b.port == home.port);
  play_to_end(room, a_seat == 0 ? std::vector<player*>{&a, &b} : std::vector<player*>{&b, &a}, 31);
  // Any instance reads the record from the shared store.
  for (auto& n : c.nodes) {
    REQUIRE(eventually(
        [&] { return http_get(n.port, "/api/rooms/" + room + "/record").status == 200; }));
    const auto record = get_doc(n.port, "/api/rooms/" + room + "/record");
    CHECK(record["setup"]["players"][a_seat]["player"] == a.id);
    CHECK(record["setup"]["players"][1 - a_seat]["player"] == b.id);
  }

  // A seeker whose instance dies leaves the queue. D seeks first, on node2; node2 is killed.
  auto d = guest_at(n2.port);
  r = d.ws->request(prefs);
  REQUIRE_MESSAGE(r["type"] == "seeking", r.dump());
  c.kill(n2);
  d.ws.reset();
  const auto killed_at = steady::now();
  // Once the directory no longer counts node2 live, the matchmaker prunes its seeks before
  // matching. Were D's seek still queued, D (the oldest) would take E.
  REQUIRE(eventually([&] { return c.live() == 2; }));
  MESSAGE("node2 out of the directory " << seconds_since(killed_at) << " s after its SIGKILL");
  auto e = guest_at(n0.port);
  auto f = guest_at(n1.port);
  r = e.ws->request(prefs);
  REQUIRE_MESSAGE(r["type"] == "seeking", r.dump());
  r = f.ws->request(prefs);
  REQUIRE_MESSAGE(r["type"] == "seeking", r.dump());
  const json found_e = match_found_of(e), found_f = match_found_of(f);
  CHECK(found_e["room"] == found_f["room"]);
  const int e_seat = found_e["seat"];
  CHECK(found_f["seat"] == 1 - e_seat);
  CHECK(found_e["players"] == (e_seat == 0 ? json{e.name, f.name} : json{f.name, e.name}));
  MESSAGE("the new seekers met " << seconds_since(killed_at) << " s after the SIGKILL");
  // D's seek is gone, not merely passed over: D seeks again through a live instance.
  connect(d, n1.port);
  r = d.ws->request(prefs);
  CHECK_MESSAGE(r["type"] == "seeking", r.dump());
  CHECK(d.ws->request({{"type", "cancel_seek"}})["type"] == "seek_cancelled");

  // E and F play their game out wherever it is.
  const std::string room2 = found_e["room"];
  CHECK(c.owner_of(room2).alive);
  seat(c, e, room2, e_seat);
  seat(c, f, room2, 1 - e_seat);
  play_to_end(room2, e_seat == 0 ? std::vector<player*>{&e, &f} : std::vector<player*>{&f, &e}, 32);
  c.stop_all();
}

TEST_CASE(
    "e2e cluster series failover: best of 3, its runner killed mid-game, finished elsewhere") {
  cluster c;
  if (!c.start(3)) return;
  auto a = guest_at(c.nodes[0].port);
  auto b = guest_at(c.nodes[1].port);
  REQUIRE(a.ws->request({{"type", "seek"}, {"best_of", 3}})["type"] == "seeking");
  REQUIRE(b.ws->request({{"type", "seek"}, {"best_of", 3}})["type"] == "seeking");
  const json first = match_found_of(a, 1);
  CHECK(match_found_of(b, 1)["room"] == first["room"]);
  REQUIRE(first.contains("series"));
  const std::string series = first["series"];
  CHECK(first["best_of"] == 3);
  // Seats of game 1 (the longer waiting seeker first), then alternating.
  const bool a_first = first["seat"] == 0;
  const auto in_order = [&](bool a_sits_first) {
    return a_sits_first ? std::vector<player*>{&a, &b} : std::vector<player*>{&b, &a};
  };
  // The series runs on the instance that made it, which makes its rooms.
  auto& runner = c.owner_of("competition:" + series);
  CHECK(c.owner_of(first["room"]).id == runner.id);
  for (int s = 0; s < 2; ++s) seat(c, *in_order(a_first)[s], first["room"], s);
  play_to_end(first["room"], in_order(a_first), 41);

  // Game 2 (the other player first) on the runner: 30 moves, then the runner dies.
  const json second = match_found_of(a, 2);
  CHECK(match_found_of(b, 2)["room"] == second["room"]);
  CHECK(second["seat"] == (a_first ? 1 : 0));
  const std::string room2 = second["room"];
  CHECK(c.owner_of(room2).id == runner.id);
  CHECK(c.owner_of("competition:" + series).id == runner.id);
  // Game 1 is in the series' document (any instance reads it): its winner resigns game 2 below,
  // so that the series needs game 3, made by the instance that took the series up.
  auto& reader = c.nodes[runner.port == c.nodes[0].port ? 1 : 0];
  const auto doc_now = [&] { return get_doc(reader.port, "/api/series/" + series)["series"]; };
  const json after_one = doc_now();
  REQUIRE(after_one["games"].size() == 2);
  const double game1 = after_one["games"][0]["result"];
  player& player0 = a_first ? a : b;  // series player 0: who sat first in game 1
  player& resigner = game1 >= 0.5 ? player0 : (a_first ? b : a);
  for (int s = 0; s < 2; ++s) seat(c, *in_order(!a_first)[s], room2, s);
  play_to_end(room2, in_order(!a_first), 42, 30);
  REQUIRE(a.ws->view["game"]["status"] != "finished");
  c.kill(runner);
  const auto killed_at = steady::now();
  for (auto* p : {&a, &b})
    if (p->port == runner.port) p->ws.reset();  // both: a room is played on its own instance

  // The players come back through the live instances and finish game 2 where it was adopted.
  for (int s = 0; s < 2; ++s) seat(c, *in_order(!a_first)[s], room2, s);
  MESSAGE("game 2 resumed " << seconds_since(killed_at) << " s after its instance's SIGKILL");
  CHECK(c.owner_of(room2).alive);
  play_to_end(room2, in_order(!a_first), 43, 10);
  const auto before = resigner.ws->seq;
  const auto resigned = resigner.ws->request({{"type", "resign"}});
  REQUIRE_MESSAGE(resigned["type"] == "resigned", resigned.dump());
  resigner.ws->wait_seq(before + 1);  // the forfeit's patch, which both seats read before going on
  for (auto* p : {&a, &b}) p->ws->wait_seq(resigner.ws->seq);
  play_to_end(room2, in_order(!a_first), 43);

  // The series is taken up by a live instance, which makes game 3 (game 1's winner first).
  const json third = match_found_of(a, 3);
  MESSAGE("game 3 made " << seconds_since(killed_at) << " s after the SIGKILL");
  CHECK(match_found_of(b, 3)["room"] == third["room"]);
  CHECK(third["seat"] == (a_first ? 0 : 1));
  auto& adopter = c.owner_of("competition:" + series);
  CHECK(adopter.alive);
  CHECK(c.owner_of(third["room"]).id == adopter.id);
  for (int s = 0; s < 2; ++s) seat(c, *in_order(a_first)[s], third["room"], s);
  play_to_end(third["room"], in_order(a_first), 44);
  const auto deadline = steady::now() + std::chrono::seconds(30);
  json doc = doc_now();
  while (!doc["finished"].get<bool>()) {
    REQUIRE_MESSAGE(steady::now() < deadline, "the series did not finish: " << doc.dump());
    std::this_thread::sleep_for(milliseconds(50));
    doc = doc_now();
  }
  MESSAGE("series finished " << seconds_since(killed_at) << " s after the SIGKILL");

  // Every live instance shows the same finished series, its games the index's.
  for (auto& n : c.nodes)
    if (n.alive) CHECK(get_doc(n.port, "/api/series/" + series)["series"] == doc);
  CHECK(doc["players"][0] == (a_first ? a.id : b.id));
  REQUIRE(doc["games"].size() == 3);
  CHECK(doc["games"][0]["room"] == first["room"]);
  CHECK(doc["games"][1]["room"] == room2);
  CHECK(doc["games"][2]["room"] == third["room"]);
  const int resigner_index = resigner.id == doc["players"][0] ? 0 : 1;
  CHECK(doc["games"][1]["forfeited"] == json{resigner_index == 0, resigner_index == 1});
  CHECK(doc["games"][1]["result"] == (resigner_index == 0 ? 0.0 : 1.0));
  double points[2] = {0, 0};
  const auto games = get_doc(reader.port, "/api/games?player=" + a.id + "&limit=10")["games"];
  for (std::size_t k = 0; k < doc["games"].size(); ++k) {
    const auto& g = doc["games"][k];
    CAPTURE(g.dump());
    CHECK(g["first"] == (k % 2 == 0 ? 0 : 1));
    const auto it = std::find_if(games.begin(), games.end(),
                                 [&](const json& x) { return x["room"] == g["room"]; });
    REQUIRE(it != games.end());
    const int p0_seat = g["first"] == 0 ? 0 : 1;  // where series player 0 sat
    const auto& seat0 = (*it)["seats"][p0_seat];
    const auto& seat1 = (*it)["seats"][1 - p0_seat];
    CHECK(g["scores"] == json{seat0["score"], seat1["score"]});
    CHECK(g["forfeited"] == json{seat0["forfeited"], seat1["forfeited"]});
    // A forfeit loses to the seat that did not forfeit; else the higher score wins.
    const int score0 = seat0["score"], score1 = seat1["score"];
    const bool out0 = seat0["forfeited"], out1 = seat1["forfeited"];
    const double result = out0 != out1      ? (out1 ? 1.0 : 0.0)
                          : score0 > score1 ? 1.0
                          : score0 < score1 ? 0.0
                                            : 0.5;
    CHECK(g["result"] == result);
    points[0] += result;
    points[1] += 1 - result;
  }
  CHECK(doc["points"] == json{points[0], points[1]});
  if (points[0] != points[1]) CHECK(doc["winner"] == (points[0] > points[1] ? 0 : 1));
  CHECK(get_doc(reader.port, "/api/players/" + b.id + "/competitions")["competitions"][0]["id"] ==
        series);
  c.stop_all();
}

}  // namespace competition_cluster_e2e
