// A rematch over real sockets, with the database (docs/protocol.md §21, docs/fairness.md
// "Rematches"): Ann offers with her nonce and drops; Bob accepts with his and leaves, so the
// finished room leaves memory; Ann comes back to it, learns of the rematch and enters its game
// with her old token; the rematch's commitment is the one shown at the end, its nonces the two
// acceptances', and its record verifies.
#include <fstream>

#include "e2e_client.hpp"
#include "process.hpp"

using namespace e2e;

TEST_CASE("e2e: a rematch offered by a seat that then drops: it enters the game, provably fair") {
  temp_dir dir("carcassonne-e2e-rematch");
  auto config = test_config();
  config.journal = true;
  config.data_dir = dir.str();
  test_server server(config);
  const auto port = server.port();
  ws_client a(port), b(port);
  const std::string room = create_room(a);
  const std::string ann = join(a, room, "Ann");
  const std::string bob = join(b, room, "Bob");
  table t{{&a, &b}, {}};
  t.start(a);
  CHECK(a.view["room"]["fairness"]["rematch_commitment"].is_null());
  REQUIRE(a.request({{"type", "resign"}})["type"] == "resigned");  // in her turn: the end at once
  a.wait_view([](const json& v) { return v["game"]["status"] == "finished"; }, "the end");
  const json shown = a.view["room"]["fairness"]["rematch_commitment"];
  REQUIRE(shown.is_string());

  CHECK(a.request({{"type", "rematch"}, {"nonce", "bad nonce!"}})["code"] == "bad_nonce");
  CHECK(a.request({{"type", "rematch"}, {"nonce", "a1b2"}})["type"] == "rematch_answered");
  a.drop();
  b.wait_view(
      [](const json& v) {
        return v["room"].contains("rematch") && v["room"]["rematch"]["nonces"][0] == "a1b2";
      },
      "the offer");
  CHECK(b.request({{"type", "rematch"}, {"nonce", "Zm9v"}})["type"] == "rematch_answered");
  const json ready_b = b.wait_type("rematch_ready");
  const std::string next = ready_b["room"];
  CHECK(b.request({{"type", "leave"}})["type"] == "left");
  // Nobody is in the finished room: it leaves memory (the store serves it from now on).
  CHECK(eventually([&] {
    const json rooms = json::parse(http_get(port, "/api/rooms").body)["rooms"];
    for (const auto& r : rooms)
      if (r["id"] == room) return false;
    return true;
  }));

  ws_client a2(port);
  auto back = a2.request({{"type", "resume"}, {"room", room}, {"token", ann}});
  REQUIRE_MESSAGE(back["type"] == "resumed", back.dump());
  const json ready_a = a2.wait_type("rematch_ready");
  CHECK(ready_a == json{{"type", "rematch_ready"}, {"room", next}, {"seat", 0}, {"token", ann}});
  CHECK(a2.request({{"type", "leave"}})["type"] == "left");
  auto there = a2.request({{"type", "resume"}, {"room", next}, {"token", ann}});
  REQUIRE_MESSAGE(there["type"] == "resumed", there.dump());
  CHECK(there["seat"] == 0);
  a2.wait_type("snapshot");
  CHECK(a2.view["game"]["status"] == "playing");
  CHECK(a2.view["room"]["fairness"]["commitment"] == shown);
  CHECK(a2.view["room"]["fairness"]["nonces"] == json::array({"a1b2", "Zm9v"}));

  auto bob_there = b.request({{"type", "resume"}, {"room", next}, {"token", ready_b["token"]}});
  REQUIRE_MESSAGE(bob_there["type"] == "resumed", bob_there.dump());
  CHECK(bob_there["seat"] == 1);
  b.wait_type("snapshot");  // the new room's view
  REQUIRE(a2.request({{"type", "resign"}})["type"] == "resigned");
  b.wait_view([](const json& v) { return v["game"]["status"] == "finished"; }, "the rematch's end");
  const auto got = http_get(port, "/api/rooms/" + next + "/record");
  REQUIRE(got.status == 200);
  const json record = json::parse(got.body);
  CHECK(record["fairness"]["commitment"] == shown);
  CHECK(record["fairness"]["nonces"] == json::array({"a1b2", "Zm9v"}));
  const std::string file = dir.str() + "/rematch.json", out = dir.str() + "/verify.out";
  std::ofstream(file) << record.dump();
  child_process verify({"verify", file}, out);
  const auto status = verify.wait(std::chrono::seconds(30));
  REQUIRE(status);
  CHECK_MESSAGE(*status == 0, verify.output());
  CHECK(json::parse(verify.output())["verified"] == true);
}
