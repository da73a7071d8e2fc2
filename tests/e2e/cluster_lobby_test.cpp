// Three servers on one private Redis (docs/scaling.md): one lobby over every instance, `moved`
// to a room's owner and its loop guard, and new rooms placed on the least loaded instance.
#include "../server/private_redis.hpp"
#include "cluster/directory.hpp"
#include "e2e_client.hpp"

using namespace e2e;
using carcassonne::server::room_directory;

namespace {

// Its public URL is the default, ws://HOST:PORT/ws: the test follows it to the port.
carcassonne::server::config member_config(const std::string& redis, const std::string& id) {
  auto c = test_config();
  c.redis_url = redis;
  c.instance_id = id;
  return c;
}

// A request that must be created or entered here: sent as if already moved once.
json here(json request) {
  request["moved"] = true;
  return request;
}

json public_room(const std::string& name) {
  return {{"type", "create_room"}, {"setup", json::object()}, {"seats", 2}, {"name", name}};
}

struct cluster {
  std::unique_ptr<carcassonne::testing::private_redis> redis;  // outlives the servers
  std::vector<std::unique_ptr<test_server>> servers;
  std::unique_ptr<room_directory> watcher;

  bool start(int n) {
    redis = carcassonne::testing::started_redis();
    if (!redis) return false;
    for (int i = 0; i < n; ++i)
      servers.push_back(std::make_unique<test_server>(
          member_config(redis->url(), std::string(1, static_cast<char>('a' + i)))));
    std::string error;
    watcher = room_directory::open({redis->url(), "watcher", "ws://watcher/ws"}, error);
    REQUIRE_MESSAGE(watcher, error);
    return true;
  }
  std::uint16_t port(int i) const { return servers[static_cast<std::size_t>(i)]->port(); }
  // Every instance registered: the lobbies read each other from now on.
  void wait_registered() {
    REQUIRE(eventually([&] {
      std::string error;
      return watcher->instances(error).size() == servers.size();
    }));
  }
};

json rooms_of(ws_client& c) {
  auto r = c.request({{"type", "list_rooms"}});
  REQUIRE(r["type"] == "rooms");
  r.erase("id");
  return r;
}

}  // namespace

TEST_CASE("e2e cluster lobby: every instance lists every live instance's public rooms alike") {
  cluster k;
  if (!k.start(3)) return;
  k.wait_registered();
  ws_client a(k.port(0)), b(k.port(1)), c(k.port(2));
  std::map<std::string, std::uint16_t> owner;  // room -> the port of its instance
  auto made = [&](ws_client& by, json request, int at) {
    auto r = by.request(here(std::move(request)));
    REQUIRE_MESSAGE(r["type"] == "room_created", r.dump());
    owner[r["room"]] = k.port(at);
    return r["room"].get<std::string>();
  };
  const auto ra = made(a, public_room("at a"), 0);
  made(b, public_room("at b"), 1);
  const auto rc = made(c, public_room("at c"), 2);
  auto secret = public_room("private");
  secret["public"] = false;
  const auto hidden = made(c, secret, 2);

  // The same three rooms, in the same order, from each door; each names its owner's URL.
  const auto alike = [&](const std::function<bool(const json&)>& also) {
    return eventually([&] {
      const auto la = rooms_of(a), lb = rooms_of(b), lc = rooms_of(c);
      return la == lb && lb == lc && la["total"] == 3 && also(la);
    });
  };
  REQUIRE(alike([](const json&) { return true; }));
  auto list = rooms_of(b);
  list.erase("type");
  for (const auto& r : list["rooms"]) {
    CHECK(r["id"] != hidden);
    CHECK(port_of(r["url"]) == owner[r["id"]]);
  }
  // /api/rooms is the same list.
  auto api = json::parse(http_get(k.port(2), "/api/rooms").body);
  CHECK(api == list);

  // A change at one instance (a seat taken) reaches the others' lobbies.
  ws_client ann(k.port(0));
  join(ann, ra, "Ann");
  REQUIRE(alike([&](const json& l) {
    for (const auto& r : l["rooms"])
      if (r["id"] == ra) return r["taken"] == 1;
    return false;
  }));
  // Filters apply to the other instances' rooms too.
  auto taken =
      b.request({{"type", "list_rooms"}, {"state", "waiting"}, {"limit", 1}, {"offset", 2}});
  CHECK(taken["total"] == 3);
  CHECK(taken["rooms"].size() == 1);

  // An instance that stops: its rooms leave every lobby (its heartbeat lapses).
  c.drop();  // a connection that does not answer the goodbye would hold the stop for its grace
  k.servers[2].reset();
  REQUIRE(eventually([&] {
    const auto la = rooms_of(a);
    return la == rooms_of(b) && la["total"] == 2 &&
           std::none_of(la["rooms"].begin(), la["rooms"].end(),
                        [&](const json& r) { return r["id"] == rc; });
  }));

  // Back under the same id: the entries of its earlier run leave the directory.
  k.servers[2] = std::make_unique<test_server>(member_config(k.redis->url(), "c"));
  REQUIRE(eventually([&] {
    std::string error;
    const auto entries = k.watcher->lobby_entries(error);
    return k.watcher->instances(error).size() == 3 &&
           std::none_of(entries.begin(), entries.end(),
                        [](const auto& e) { return e.instance == "c"; });
  }));
  CHECK(rooms_of(a)["total"] == 2);
}

TEST_CASE("e2e cluster moved: join and resume at the wrong door go to the owner") {
  cluster k;
  if (!k.start(2)) return;
  k.wait_registered();
  ws_client creator(k.port(0));
  auto created = creator.request(here(public_room("owned by a")));
  REQUIRE(created["type"] == "room_created");
  const std::string room = created["room"];

  // Bob asks b: `moved` names a's URL and the room; at a, the same request (moved) is served.
  ws_client wrong(k.port(1));
  auto m = wrong.request({{"type", "join"}, {"room", room}, {"name", "Bob"}});
  REQUIRE_MESSAGE(m["type"] == "moved", m.dump());
  CHECK(m["room"] == room);
  REQUIRE(port_of(m["url"]) == k.port(0));
  ws_client bob(port_of(m["url"]));
  auto joined = bob.request(here({{"type", "join"}, {"room", room}, {"name", "Bob"}}));
  REQUIRE_MESSAGE(joined["type"] == "joined", joined.dump());

  // Bob's connection drops; he comes back through b with his token, and resumes at a.
  bob.drop();
  ws_client back(k.port(1));
  auto r = back.request({{"type", "resume"}, {"room", room}, {"token", joined["token"]}});
  REQUIRE(r["type"] == "moved");
  ws_client bob2(port_of(r["url"]));
  auto resumed =
      bob2.request(here({{"type", "resume"}, {"room", room}, {"token", joined["token"]}}));
  CHECK_MESSAGE(resumed["type"] == "resumed", resumed.dump());
  CHECK(resumed["seat"] == joined["seat"]);

  // A spectator is not moved: b relays a's stream (tests/e2e/spectator_relay_test.cpp), and so
  // does b's event stream of the room.
  auto s = wrong.request({{"type", "spectate"}, {"room", room}});
  CHECK(s["type"] == "spectating");
  wrong.wait_type("snapshot");
  CHECK(wrong.view["room"]["id"] == room);
  sse_client stream(k.port(1), "/api/rooms/" + room + "/events");
  REQUIRE(stream.status == 200);
  REQUIRE(stream.read_event()->name == "snapshot");
  CHECK(stream.view == wrong.view);
  // A replay too (the owner's store has the record): there the game is not over yet.
  auto replay = wrong.request({{"type", "replay"}, {"room", room}});
  REQUIRE(replay["type"] == "moved");
  auto there = bob2.request(here({{"type", "replay"}, {"room", room}}));
  CHECK(there["code"] == "not_finished");
  // A room nobody holds is unknown everywhere, as on a single server.
  REQUIRE(wrong.request({{"type", "leave"}})["type"] == "left");
  auto none = wrong.request({{"type", "join"}, {"room", "nosuchroom"}, {"name", "Bob"}});
  CHECK(none["code"] == "no_such_room");
}

TEST_CASE("e2e cluster moved: a request is bounced once at most; a dead owner's room waits") {
  cluster k;
  if (!k.start(2)) return;
  k.wait_registered();
  ws_client a(k.port(0));
  auto created = a.request(here(public_room("owned by a")));
  REQUIRE(created["type"] == "room_created");
  const std::string room = created["room"];

  // A forged (or stale) `moved`: b is not the owner and the request was moved already.
  ws_client b(k.port(1));
  auto loop = b.request(here({{"type", "join"}, {"room", room}, {"name", "Eve"}}));
  CHECK(loop["type"] == "error");
  CHECK(loop["code"] == "room_unavailable");
  auto bad = b.request({{"type", "join"}, {"room", room}, {"name", "Eve"}, {"moved", 1}});
  CHECK(bad["code"] == "bad_message");
  // Nothing changed: the room at a still has both seats free.
  auto j = a.request({{"type", "join"}, {"room", room}, {"name", "Ann"}});
  CHECK(j["seat"] == 0);

  // A lease whose owner has no heartbeat any more: retry later, not a bounce to a dead URL.
  REQUIRE(k.redis->cli("set carcassonne:lease:ghostroom1 'ghost 1' px 60000"));
  auto dead = b.request({{"type", "spectate"}, {"room", "ghostroom1"}});
  CHECK(dead["type"] == "error");
  CHECK(dead["code"] == "room_unavailable");
  CHECK(http_get(k.port(1), "/metrics")
            .body.find("carcassonne_requests_rejected_total{code=\"room_unavailable\"} 2") !=
        std::string::npos);
  // Its event stream too: 503, not a redirect.
  sse_client stream(k.port(1), "/api/rooms/ghostroom1/events");
  CHECK(stream.status == 503);
  CHECK(json::parse(stream.body)["error"] == "room_unavailable");
  CHECK(stream.headers.count("retry-after") == 1);
}

TEST_CASE("e2e cluster placement: create_room goes to the least loaded live instance") {
  cluster k;
  if (!k.start(3)) return;
  k.wait_registered();
  ws_client a(k.port(0)), c(k.port(2));
  // a holds two rooms, b none, c one.
  for (int i = 0; i < 2; ++i) REQUIRE(a.request(here(public_room("a")))["type"] == "room_created");
  REQUIRE(c.request(here(public_room("c")))["type"] == "room_created");
  const auto loads_known = [&] {
    std::string error;
    std::map<std::string, std::int64_t> load;
    for (const auto& i : k.watcher->instances(error)) load[i.id] = i.rooms;
    return load == std::map<std::string, std::int64_t>{{"a", 2}, {"b", 0}, {"c", 1}};
  };
  REQUIRE(eventually(loads_known));
  // Until c has read the loads it may answer a's URL (its older view, ties by id): never its
  // own, and a moved create creates nothing. Then it names b, where the room is made.
  json moved;
  REQUIRE(eventually([&] {
    moved = c.request(public_room("placed"));
    REQUIRE_MESSAGE(moved["type"] == "moved", moved.dump());
    return port_of(moved["url"]) == k.port(1);
  }));
  CHECK_FALSE(moved.contains("room"));
  ws_client there(k.port(1));
  auto made = there.request(here(public_room("placed")));
  REQUIRE(made["type"] == "room_created");
  std::string error;
  auto lease = k.watcher->lease_of(made["room"], error);
  REQUIRE(lease);
  CHECK(lease->owner == "b");
  // The moved requests made no room at a or c.
  CHECK(eventually([&] {
    std::map<std::string, std::int64_t> load;
    for (const auto& i : k.watcher->instances(error)) load[i.id] = i.rooms;
    return load == std::map<std::string, std::int64_t>{{"a", 2}, {"b", 1}, {"c", 1}};
  }));
}
