// Long Roads, the test-only expansion, through every way a game is played: the engine and its
// codec on a worked position, the replay command, selfplay, and a WebSocket game; and its absence
// from the shipped binary.
#include <cstdio>
#include <fstream>
#include <sstream>

#include "carcassonne/protocol/options_doc.hpp"
#include "carcassonne/protocol/record.hpp"
#include "e2e_client.hpp"
#include "id.hpp"
#include "long_roads/long_roads.hpp"

using namespace e2e;
using carcassonne::expansion;

namespace {

const std::string folder = CARCASSONNE_SOURCE_DIR "/tests/expansions/long_roads/";

json record_file() {
  std::ifstream in(folder + "long_roads_record.json");
  REQUIRE(in);
  return json::parse(in);
}

// Plays a record's moves on its setup: the final state and every event.
struct played {
  carcassonne::game_state state;
  carcassonne::event_log events;
};
played play_record(const json& record) {
  auto rec = carcassonne::protocol::parse_record(record.dump());
  REQUIRE_MESSAGE(rec.ok(), rec.error.message);
  auto game = carcassonne::new_game(rec.value->setup);
  REQUIRE(game.ok());
  played p{game.value(), {}};
  for (const auto& m : record["moves"]) {
    const auto e = carcassonne::protocol::apply_json_move(p.state, m, &p.events);
    REQUIRE_MESSAGE(e.code.empty(), e.message);
  }
  return p;
}

int completed_road_points(const carcassonne::event_log& events) {
  for (const auto& e : events)
    if (e.type == carcassonne::event_type::feature_completed &&
        e.kind == carcassonne::feature_kind::road)
      return e.points;
  return -1;
}

// Runs a binary of the project (by default the one with the tests' expansions); its output
// (standard output, and standard error when asked) and exit status.
std::pair<std::string, int> run(const std::string& args,
                                const std::string& binary = CARCASSONNE_TEST_BINARY,
                                bool with_errors = false) {
  const std::string command = binary + " " + args + (with_errors ? " 2>&1" : " 2>/dev/null");
  FILE* pipe = ::popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  std::string out;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  const int status = ::pclose(pipe);
  return {out, WEXITSTATUS(status)};
}

}  // namespace

TEST_CASE("long roads: a road of 6 segments scores 6 and the bonus; the option doubles it") {
  auto record = record_file();
  auto p = play_record(record);
  CHECK(p.state.finished);
  CHECK(completed_road_points(p.events) == 11);
  CHECK(p.state.players[0].score == 11);
  CHECK(p.state.players[1].score == 0);

  record["setup"]["options"] = {{"long_roads.bonus", "10"}};
  p = play_record(record);
  CHECK(completed_road_points(p.events) == 16);
  CHECK(p.state.players[0].score == 16);

  record["setup"]["options"] = {{"long_roads.bonus", "20"}};
  CHECK(carcassonne::protocol::parse_record(record.dump()).error.code == "bad_option_value");
}

TEST_CASE("long roads: a road of 4 segments scores no bonus; its tiles need the expansion") {
  auto record = record_file();
  record["setup"]["script"]["deck"] = {"LR/RFr", "BA/RRR", "BA/RRR"};
  record["moves"] = json::parse(R"([
    {"seat": 0, "type": "place_tile", "x": 1, "y": 0, "rotation": 0},
    {"seat": 0, "type": "deploy", "figure": "meeple", "x": 1, "y": 0, "feature": "road0"},
    {"seat": 1, "type": "place_tile", "x": 2, "y": 0, "rotation": 0},
    {"seat": 1, "type": "pass"},
    {"seat": 0, "type": "place_tile", "x": -1, "y": 0, "rotation": 0},
    {"seat": 0, "type": "pass"}])");
  const auto p = play_record(record);
  CHECK(completed_road_points(p.events) == 4);
  CHECK(p.state.players[0].score == 4);

  record["setup"]["expansions"] = json::array();
  auto rec = carcassonne::protocol::parse_record(record.dump());
  REQUIRE(rec.ok());
  CHECK(carcassonne::new_game(rec.value->setup).err().code ==
        carcassonne::error_code::tile_not_in_play);
}

TEST_CASE(
    "long roads: the module sits in its slot, its options are its own, clients never see it") {
  const auto* m = carcassonne::find_module(carcassonne::long_roads::id);
  REQUIRE(m == &carcassonne::long_roads::module);
  CHECK(carcassonne::find_expansion("long_roads") == carcassonne::long_roads::id);
  CHECK(carcassonne::tiles().find_set("long_roads").has_value());
  const auto o = carcassonne::find_option("long_roads.bonus");
  REQUIRE(o.has_value());
  CHECK(o->owner == carcassonne::long_roads::id);
  const auto offered = carcassonne::protocol::options_catalogue();
  CHECK(offered["expansions"].size() == 5);
  for (const auto& x : offered["expansions"]) CHECK(x["id"] != "long_roads");
}

TEST_CASE("long roads: the replay command plays its record") {
  const auto [out, code] = run("replay " + folder + "long_roads_record.json");
  REQUIRE(code == 0);
  const auto j = json::parse(out);
  CHECK(j["status"] == "finished");
  CHECK(j["scores"] == json::array({11, 0}));
}

TEST_CASE("long roads: selfplay plays whole games with it") {
  const auto [out, code] = run("selfplay --games 3 --seed lr --expansions long_roads");
  REQUIRE(code == 0);
  const auto with = json::parse(out);
  CHECK(with["games"] == 3);
  const auto base = json::parse(run("selfplay --games 3 --seed lr").first);
  // Its 6 tiles join the 71 of the supply: every game has more turns than the base game's.
  CHECK(with["turns"].get<long long>() > base["turns"].get<long long>());
}

TEST_CASE("long roads: the shipped binary does not have it") {
  const auto [out, code] =
      run("selfplay --games 1 --seed lr --expansions long_roads", CARCASSONNE_BINARY, true);
  CHECK(code != 0);
  CHECK(out.find("unknown expansion 'long_roads'") != std::string::npos);
  const auto [replayed, replay_code] =
      run("replay " + folder + "long_roads_record.json", CARCASSONNE_BINARY, true);
  CHECK(replay_code != 0);
  CHECK(replayed.find("long_roads") != std::string::npos);
  // The players' expansions are all there.
  CHECK(run("selfplay --games 1 --seed lr --expansions festival", CARCASSONNE_BINARY).second == 0);
}

TEST_CASE("long roads: a WebSocket game, scripted to the long road, then a random one") {
  test_server server;
  const auto port = server.port();
  {
    ws_client a(port), b(port);
    auto record = record_file();
    auto setup = record["setup"];
    setup.erase("players");
    const auto room = create_room(a, setup);
    join(a, room, "Ann");
    join(b, room, "Bob");
    table t{{&a, &b}, {}};
    t.start(a);
    CHECK(a.view["game"]["expansions"] == json::array({"long_roads"}));
    for (const auto& m : record["moves"]) {
      ws_client* c = t.seats.at(m["seat"].get<int>());
      auto r = c->request({{"type", "move"}, {"move", m}});
      REQUIRE_MESSAGE(r["type"] == "move_accepted", r.dump());
      t.sync(r["seq"].get<std::uint64_t>());
    }
    CHECK(a.view["game"]["status"] == "finished");
    CHECK(a.view["game"]["scores"] == json::array({11, 0}));
    CHECK(b.view["game"]["scores"] == json::array({11, 0}));
  }
  {
    ws_client a(port), b(port);
    const auto room = create_room(a, {{"expansions", {"long_roads"}}, {"seed", "lr-ws"}});
    join(a, room, "Ann");
    join(b, room, "Bob");
    table t{{&a, &b}, {}};
    t.rng.seed(5);
    t.start(a);
    t.play_to_end();
    CHECK(t.moves > 60);
    CHECK(a.view["game"]["scores"] == b.view["game"]["scores"]);
  }
}

TEST_CASE(
    "long roads: a server that takes no seeds or scripts refuses rooms with the test's "
    "expansion") {
  auto config = test_config();
  config.allow_scripted_rooms = false;
  test_server server(config);
  ws_client a(server.port());
  auto refused = a.request(
      {{"type", "create_room"}, {"seats", 2}, {"setup", {{"expansions", {"long_roads"}}}}});
  CHECK(refused["type"] == "error");
  CHECK(refused["code"] == "bad_setup");
  CHECK(refused["message"].get<std::string>().find("long_roads") != std::string::npos);
  // The players' expansions are still offered there.
  CHECK(create_room(a, {{"expansions", {"hills_and_sheep"}}}).size() > 0);
}
