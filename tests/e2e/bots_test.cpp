// Bots over real sockets: a human plays a whole game against a bot seat, and a bots-only game,
// set up with add_bot, runs to the end while its creator watches; the lobby and /metrics show
// the bots; a bots-only room its creator left leaves memory at its end.
#include <sstream>

#include "carcassonne/app/commands.hpp"
#include "e2e_client.hpp"
#include "lobby/lobby.hpp"
#include "process.hpp"

using namespace e2e;

TEST_CASE("e2e: a human against a bot seat, to the end; the bot's seat is not the human's") {
  test_server server;
  const auto port = server.port();
  ws_client a(port), s(port);
  auto made = a.request({{"type", "create_room"},
                         {"seats", 2},
                         {"bots", {nullptr, "random"}},
                         {"bot_pause_ms", 0},
                         {"setup", {{"seed", "e2e-bots"}}}});
  REQUIRE_MESSAGE(made["type"] == "room_created", made.dump());
  const std::string room = made["room"];
  join(a, room, "Ann");
  spectate(s, room);
  a.wait_view([](const json& v) { return v["room"]["spectators"] == 1; }, "the spectator");
  CHECK(a.view["room"]["seats"][1]["bot"] == "random");
  CHECK(a.view["room"]["seats"][1]["name"] == "Random bot 2");
  auto r = a.request({{"type", "start"}});
  REQUIRE_MESSAGE(r["type"] == "started", r.dump());

  // A move for the bot's seat is refused, whoever's turn it is.
  auto refused = a.request({{"type", "move"}, {"move", {{"type", "pass"}, {"seat", 1}}}});
  CHECK(refused["code"] == "not_your_seat");

  std::mt19937_64 chooser(3);
  int mine = 0;
  for (int i = 0; i < 2000; ++i) {
    a.wait_view(
        [](const json& v) {
          return !v["game"].is_null() &&
                 (v["game"]["status"] == "finished" || v["game"]["awaiting"]["seat"] == 0);
        },
        "Ann's turn or the end");
    if (a.view["game"]["status"] == "finished") break;
    const json& legal = a.view["game"]["legal_moves"];
    REQUIRE(!legal.empty());
    auto m = a.request({{"type", "move"}, {"move", legal[chooser() % legal.size()]}});
    REQUIRE_MESSAGE(m["type"] == "move_accepted", m.dump());
    a.wait_seq(m["seq"].get<std::uint64_t>());  // the answer comes before its patch
    ++mine;
  }
  REQUIRE(a.view["game"]["status"] == "finished");
  s.wait_seq(a.seq);
  CHECK(s.view["game"]["status"] == "finished");
  CHECK_FALSE(a.gap);
  CHECK_FALSE(s.gap);
  check_view_is_snapshot(a);

  const auto m = http_get(port, "/metrics");
  const double all = metric(m.body, "carcassonne_moves_accepted_total");
  CHECK(metric(m.body, "carcassonne_bot_moves_total") == all - mine);
  CHECK(all - mine > 30);
  CHECK(metric(m.body, "carcassonne_requests_rejected_total{code=\"not_your_seat\"}") == 1);

  const json rooms = json::parse(http_get(port, "/api/rooms").body)["rooms"];
  REQUIRE(rooms.size() == 1);
  CHECK(rooms[0]["players"] == json::array({"Ann", "Random bot 2"}));
  CHECK(rooms[0]["bots"] ==
        json::array({{{"seat", 1}, {"name", "Random bot 2"}, {"level", "random"}}}));
}

TEST_CASE("e2e: a bots-only room set up with add_bot runs to the end while its creator watches") {
  // A small search: the sanitizer build plays this whole game too, within the client's timeout.
  auto cfg = test_config();
  cfg.bot_playouts = 64;
  cfg.bot_think_ms = 200;
  test_server server(cfg);
  const auto port = server.port();
  ws_client c(port), other(port);
  auto made = c.request(
      {{"type", "create_room"}, {"seats", 3}, {"bot_pause_ms", 0}, {"setup", json::object()}});
  REQUIRE(made["type"] == "room_created");
  const std::string room = made["room"];
  spectate(c, room);
  spectate(other, room);
  for (const char* level : {"greedy", "strong", "random"}) {
    auto added = c.request({{"type", "add_bot"}, {"level", level}});
    REQUIRE_MESSAGE(added["type"] == "bot_added", added.dump());
  }
  CHECK(c.request({{"type", "add_bot"}, {"level", "random"}})["code"] == "room_full");
  CHECK(other.request({{"type", "remove_bot"}, {"seat", 0}})["code"] == "not_creator");
  CHECK(c.request({{"type", "remove_bot"}, {"seat", 2}})["type"] == "bot_removed");
  CHECK(c.request({{"type", "add_bot"}, {"level", "random"}, {"seat", 2}})["type"] == "bot_added");
  c.wait_view(
      [](const json& v) {
        const json& seats = v["room"]["seats"];
        return seats.size() > 2 && seats[2].value("bot", json()) == "random";
      },
      "the third bot");
  auto r = c.request({{"type", "start"}});
  REQUIRE_MESSAGE(r["type"] == "started", r.dump());
  CHECK(c.request({{"type", "add_bot"}, {"level", "random"}})["code"] == "already_started");
  c.wait_view([](const json& v) { return v["room"]["state"] == "finished"; }, "the end");
  other.wait_seq(c.seq);
  CHECK(other.view["game"]["status"] == "finished");
  CHECK_FALSE(c.gap);
  CHECK_FALSE(other.gap);
  const auto m = http_get(port, "/metrics");
  CHECK(metric(m.body, "carcassonne_bot_moves_total") ==
        metric(m.body, "carcassonne_moves_accepted_total"));
  CHECK(metric(m.body, "carcassonne_games_finished_total") == 1);
}

TEST_CASE("e2e: loadtest beside bots-only rooms: the bot rooms play and finish with no error") {
  test_server server;  // bots at normal priority (test_config): the run lasts 3 s
  const std::vector<std::string> args{"--port",
                                      std::to_string(server.port()),
                                      "--rooms",
                                      "1",
                                      "--clients-per-room",
                                      "2",
                                      "--duration",
                                      "3",
                                      "--bot-rooms",
                                      "2",
                                      "--bot-seats",
                                      "2",
                                      "--bot-level",
                                      "random",
                                      "--bot-pause-ms",
                                      "0"};
  std::ostringstream out, err;
  REQUIRE_MESSAGE(carcassonne::app::run_loadtest(args, out, err) == 0, err.str());
  const auto report = json::parse(out.str());
  INFO(report.dump());
  CHECK(report["errors"] ==
        0);  // a bots room once failed its start with "a game has 2 to 6 players"
  CHECK(report["seq_gaps"] == 0);
  CHECK(report["view_mismatches"] == 0);
  CHECK(report["moves"].get<int>() > 0);
  CHECK(report["bot_games_finished"].get<int>() > 0);
}

TEST_CASE("e2e: a bots-only room whose creator left leaves memory when its game ends") {
  temp_dir dir("carcassonne-e2e-bots-abandoned");
  auto cfg = test_config();
  cfg.journal = true;
  cfg.data_dir = dir.str();
  test_server server(cfg);
  const auto port = server.port();
  ws_client c(port);
  // A pause per bot move, so that the game is still being played when the creator leaves.
  auto made = c.request({{"type", "create_room"},
                         {"seats", 2},
                         {"bots", {"random", "random"}},
                         {"bot_pause_ms", 20},
                         {"setup", json::object()}});
  REQUIRE_MESSAGE(made["type"] == "room_created", made.dump());
  const std::string room = made["room"];
  spectate(c, room);
  REQUIRE(c.request({{"type", "start"}})["type"] == "started");
  REQUIRE(c.request({{"type", "leave"}})["type"] == "left");
  const json listed = json::parse(http_get(port, "/api/rooms").body)["rooms"];
  REQUIRE(listed.size() == 1);
  REQUIRE_MESSAGE(listed[0]["state"] == "playing", "the game ended before the creator left");

  // Nobody is connected to the room when its game ends: it goes once its record is stored...
  CHECK(eventually([&] { return server.get().rooms().size() == 0; }));
  CHECK(server.get().rooms().find(room) == nullptr);
  const auto m = http_get(port, "/metrics");
  CHECK(metric(m.body, "carcassonne_games_finished_total") == 1);
  CHECK(metric(m.body, "carcassonne_rooms") == 0);
  // ...and the store serves it from then on.
  const auto record = http_get(port, "/api/rooms/" + room + "/record");
  REQUIRE(record.status == 200);
  CHECK(json::parse(record.body)["moves"].size() > 30);
}
