// Provably fair randomness over real sockets (docs/fairness.md): the commitment in the lobby and
// the room, nonces by join and by message (and their refusals), the reveal at the end, and a
// record from GET /api/rooms/{id}/record that `carcassonne verify` accepts.
#include <sstream>

#include "carcassonne/app/commands.hpp"
#include "e2e_client.hpp"
#include "process.hpp"

using namespace e2e;

namespace {

// `carcassonne verify -` in-process on a record: the exit code and the verdict.
std::pair<int, json> verify(const json& record) {
  std::istringstream in(record.dump());
  std::ostringstream out, err;
  const std::vector<std::string> args{"verify", "-"};
  const int code = carcassonne::app::run_command(args, in, out, err);
  return {code, json::parse(out.str())};
}

json listed(ws_client& c, const std::string& room) {
  const auto rooms = c.request({{"type", "list_rooms"}})["rooms"];
  for (const auto& r : rooms)
    if (r["id"] == room) return r;
  return nullptr;
}

}  // namespace

TEST_CASE("e2e fairness: commitment, nonces, a whole game, the reveal and a record that verifies") {
  test_server server;
  const auto port = server.port();
  ws_client a(port), b(port), s(port);
  const auto room = create_room(
      a, {{"expansions", {"hills_and_sheep", "gifts", "peasant_revolts", "easter", "festival"}}});
  const json lobby_entry = listed(a, room);
  REQUIRE(lobby_entry.is_object());
  const std::string commitment = lobby_entry.value("commitment", "");
  CHECK(commitment.size() == 64);

  auto joined =
      a.request({{"type", "join"}, {"room", room}, {"name", "Ann"}, {"nonce", "a1b2c3d4"}});
  REQUIRE_MESSAGE(joined["type"] == "joined", joined.dump());
  join(b, room, "Bob");
  spectate(s, room);
  s.wait_view([](const json& v) { return v["room"]["seats"][1]["name"] == "Bob"; }, "Bob seated");
  const json fair = s.view["room"]["fairness"];
  CHECK(fair["scheme"] == "carcassonne-fair/1");
  CHECK(fair["commitment"] == commitment);
  CHECK(fair["nonces"] == json::array({"a1b2c3d4", nullptr}));
  CHECK(fair["secret"].is_null());
  CHECK_FALSE(fair.contains("seed"));  // derived by whoever checks, from the revealed secret

  // Bad nonces: the wrong format, a second one, a spectator's; each refused, nothing changed.
  for (const json& bad : {json("not a nonce!"), json(""), json(std::string(65, 'a')), json(7)}) {
    auto r = b.request({{"type", "nonce"}, {"nonce", bad}});
    CHECK_MESSAGE(r["code"] == "bad_nonce", r.dump());
  }
  auto r = b.request({{"type", "join"}, {"room", room}, {"name", "Bo"}, {"nonce", "x y"}});
  CHECK(r["code"] == "bad_nonce");
  r = b.request({{"type", "nonce"}, {"nonce", "Zm9vYmFy+/=="}});
  REQUIRE_MESSAGE(r["type"] == "nonce_set", r.dump());
  CHECK(r["seat"] == 1);
  r = b.request({{"type", "nonce"}, {"nonce", "ffff"}});
  CHECK(r["code"] == "nonce_already_set");
  r = a.request({{"type", "nonce"}, {"nonce", "ffff"}});
  CHECK(r["code"] == "nonce_already_set");
  r = s.request({{"type", "nonce"}, {"nonce", "ffff"}});
  CHECK(r["code"] == "not_seated");
  s.wait_view([](const json& v) { return v["room"]["fairness"]["nonces"][1] == "Zm9vYmFy+/=="; },
              "Bob's nonce");
  CHECK(s.view["room"]["fairness"]["nonces"] == json::array({"a1b2c3d4", "Zm9vYmFy+/=="}));

  table t{{&a, &b}, {&s}};
  t.rng.seed(21);
  t.start(a);
  r = b.request({{"type", "nonce"}, {"nonce", "abcd"}});
  CHECK(r["code"] == "already_started");
  CHECK(a.view["room"]["fairness"]["secret"].is_null());
  const auto early = http_get(port, "/api/rooms/" + room + "/record");
  CHECK(early.status == 409);

  t.play_to_end();
  for (auto* c : {&a, &b, &s}) {
    const json f = c->view["room"]["fairness"];
    CHECK(f["commitment"] == commitment);
    CHECK(f["secret"].is_string());
    check_view_is_snapshot(*c);
  }
  const auto got = http_get(port, "/api/rooms/" + room + "/record");
  REQUIRE(got.status == 200);
  const json record = json::parse(got.body);
  REQUIRE(record.contains("fairness"));
  CHECK(record["fairness"]["commitment"] == commitment);
  CHECK(record["fairness"]["secret"] == a.view["room"]["fairness"]["secret"]);
  CHECK(record["fairness"]["nonces"] == json::array({"a1b2c3d4", "Zm9vYmFy+/=="}));
  CHECK(record["fairness"]["outcomes"].size() == record["moves"].size() + 1);
  CHECK(record["fairness"]["outcomes"][0][0].contains("set_aside"));
  const auto [code, verdict] = verify(record);
  const auto shown = verdict.dump();  // clang 14 cannot capture a structured binding
  CHECK_MESSAGE(code == 0, shown);
  CHECK(verdict["verified"] == true);
  CHECK(verdict["moves"] == t.moves);

  // The replay message reveals the same, without the outcomes.
  r = s.request({{"type", "replay"}, {"room", room}, {"move", 3}});
  REQUIRE_MESSAGE(r["type"] == "replay", r.dump());
  CHECK(r["fairness"]["secret"] == record["fairness"]["secret"]);
  CHECK_FALSE(r["fairness"].contains("outcomes"));

  // Tampered: the first tile drawn after the start.
  json swapped = record;
  auto& first = swapped["fairness"]["outcomes"][0];
  for (auto& o : first)
    if (o.contains("tile")) o["tile"] = o["tile"] == "BA/C" ? "BA/L" : "BA/C";
  const auto [bad_code, bad] = verify(swapped);
  CHECK(bad_code == 4);
  CHECK(bad["mismatch"]["at"] == "setup");
}

TEST_CASE("e2e fairness: a scripted room has no commitment; its nonces are accepted and unused") {
  test_server server;
  ws_client a(server.port()), b(server.port());
  const auto room = create_room(a, {{"script", {{"deck", {"BA/C", "BA/L"}}}}});
  CHECK_FALSE(listed(a, room).contains("commitment"));
  auto r = a.request({{"type", "join"}, {"room", room}, {"name", "Ann"}, {"nonce", "beef"}});
  REQUIRE(r["type"] == "joined");
  join(b, room, "Bob");
  a.wait_view([](const json& v) { return v["room"]["seats"][1]["name"] == "Bob"; }, "Bob");
  CHECK_FALSE(a.view["room"].contains("fairness"));
  table t{{&a, &b}, {}};
  t.start(a);
  t.play_to_end();
  const auto got = http_get(server.port(), "/api/rooms/" + room + "/record");
  REQUIRE(got.status == 200);
  const json record = json::parse(got.body);
  CHECK_FALSE(record.contains("fairness"));
  const auto [code, verdict] = verify(record);
  CHECK(code == 2);
  CHECK(verdict["error"]["code"] == "no_fairness");
}

TEST_CASE("e2e fairness: a restarted server keeps the secret and the nonces; the record verifies") {
  temp_dir dir("carcassonne-e2e-fair");
  auto cfg = test_config();
  cfg.journal = true;
  cfg.data_dir = dir.str();
  std::string room, token_a, token_b, commitment;
  {
    test_server server(cfg);
    ws_client a(server.port()), b(server.port());
    room = create_room(a, {{"expansions", {"hills_and_sheep", "gifts"}}});
    auto j = a.request({{"type", "join"}, {"room", room}, {"name", "Ann"}, {"nonce", "0a0b"}});
    REQUIRE(j["type"] == "joined");
    token_a = j["token"].get<std::string>();
    token_b = join(b, room, "Bob");
    table t{{&a, &b}, {}};
    t.start(a);
    t.play(12);
    commitment = a.view["room"]["fairness"]["commitment"].get<std::string>();
  }
  json record;
  {
    test_server again(cfg);
    ws_client a(again.port()), b(again.port());
    REQUIRE(a.request({{"type", "resume"}, {"room", room}, {"token", token_a}})["type"] ==
            "resumed");
    REQUIRE(b.request({{"type", "resume"}, {"room", room}, {"token", token_b}})["type"] ==
            "resumed");
    a.wait_seq(b.seq);
    b.wait_seq(a.seq);
    CHECK(a.view["room"]["fairness"]["commitment"] == commitment);
    CHECK(a.view["room"]["fairness"]["nonces"] == json::array({"0a0b", nullptr}));
    table t{{&a, &b}, {}};
    t.rng.seed(3);
    t.play_to_end();
    const auto got = http_get(again.port(), "/api/rooms/" + room + "/record");
    REQUIRE(got.status == 200);
    record = json::parse(got.body);
    const auto [code, verdict] = verify(record);
    const auto shown = verdict.dump();  // clang 14 cannot capture a structured binding
    CHECK_MESSAGE(code == 0, shown);
    CHECK(record["fairness"]["commitment"] == commitment);
  }
  // Served from the store by a third server: the same record, outcomes rebuilt by replay.
  test_server third(cfg);
  const auto got = http_get(third.port(), "/api/rooms/" + room + "/record");
  REQUIRE(got.status == 200);
  CHECK(json::parse(got.body) == record);
}
