// Persistence end to end: records of finished games over HTTP and move by move over the
// protocol; a server killed with SIGKILL in the middle of several games (under load from the
// load tool) comes back on the same database, every seat resumes, every game finishes, and no
// accepted move is lost or applied twice; a database that is not one stops the start.
#include <fstream>
#include <map>

#include "carcassonne/app/commands.hpp"
#include "e2e_client.hpp"
#include "process.hpp"
#include "store/store.hpp"

using namespace e2e;

namespace {

carcassonne::server::config journal_config(const std::string& dir) {
  auto c = test_config();
  c.journal = true;
  c.data_dir = dir;
  return c;
}

// `carcassonne COMMAND FILE` of a record written to a file: what it prints (JSON), and its exit
// status in `status`.
json on_record(const std::string& command, const json& record, const std::string& dir,
               int& status) {
  const std::string file = dir + "/" + command + ".json", out = dir + "/" + command + ".out";
  std::ofstream(file) << record.dump();
  child_process p({command, file}, out);
  const auto ended = p.wait(std::chrono::seconds(30));
  REQUIRE(ended);
  status = *ended;
  return json::parse(p.output());
}

// `carcassonne replay` of a record: the final state as the command prints it.
json replay_command(const json& record, const std::string& dir) {
  int status = -1;
  json printed = on_record("replay", record, dir, status);
  REQUIRE_MESSAGE(status == 0, printed.dump());
  return printed;
}

}  // namespace

TEST_CASE(
    "e2e: a finished game's record is served once over, replays to its scores, and can be watched "
    "move by move") {
  temp_dir dir("carcassonne-e2e-record");
  std::string room;
  json final_scores, record;
  {
    test_server server(journal_config(dir.str()));
    const auto port = server.port();
    ws_client a(port), b(port), watcher(port);
    room = create_room(
        a, {{"seed", "e2e-record"}, {"expansions", json::array({"festival", "gifts"})}});
    join(a, room, "Ann");
    join(b, room, "Bob");
    CHECK(http_get(port, "/api/rooms/" + room + "/record").status == 409);
    table t{{&a, &b}, {}};
    t.start(a);
    t.play(10);
    // Before the end the record (it holds the seed) is refused, over HTTP and over the protocol.
    const auto early = http_get(port, "/api/rooms/" + room + "/record");
    CHECK(early.status == 409);
    CHECK(json::parse(early.body)["error"] == "not_finished");
    auto refused = watcher.request({{"type", "replay"}, {"room", room}, {"move", 0}});
    CHECK(refused["code"] == "not_finished");
    t.play_to_end();
    final_scores = a.view["game"]["scores"];

    const auto got = http_get(port, "/api/rooms/" + room + "/record");
    REQUIRE(got.status == 200);
    record = json::parse(got.body);
    CHECK(record["format"] == "carcassonne-record/1");
    CHECK(record["setup"]["seed"] == "e2e-record");
    CHECK(record["moves"].size() == static_cast<std::size_t>(t.moves));
    CHECK(replay_command(record, dir.str())["scores"] == final_scores);

    // Move by move: the start, a middle move with its events, the end; past the end is refused.
    auto first = watcher.request({{"type", "replay"}, {"room", room}, {"move", 0}});
    REQUIRE_MESSAGE(first["type"] == "replay", first.dump());
    CHECK(first["moves"] == t.moves);
    CHECK(first["game"]["status"] == "playing");
    CHECK(first["game"]["viewer"] == "spectator");
    CHECK(first["game"]["scores"] == json::array({0, 0}));
    CHECK_FALSE(first["events"].empty());  // the first draw
    auto middle = watcher.request({{"type", "replay"}, {"room", room}, {"move", 1}});
    CHECK(middle["game"]["board"].size() == first["game"]["board"].size() + 1);
    auto last = watcher.request({{"type", "replay"}, {"room", room}, {"move", t.moves}});
    CHECK(last["game"]["status"] == "finished");
    CHECK(last["game"]["scores"] == final_scores);
    CHECK(last["game"].dump().find("e2e-record") == std::string::npos);
    CHECK(watcher.request({{"type", "replay"}, {"room", room}, {"move", t.moves + 1}})["code"] ==
          "bad_message");
    CHECK(watcher.request({{"type", "replay"}, {"room", "nosuchroom"}})["code"] == "no_such_room");
  }
  // A new server on the same database serves the finished game from the store.
  test_server again(journal_config(dir.str()));
  const auto got = http_get(again.port(), "/api/rooms/" + room + "/record");
  REQUIRE(got.status == 200);
  CHECK(json::parse(got.body) == record);
  CHECK(http_get(again.port(), "/api/rooms/ffffffffff/record").status == 404);
  ws_client watcher(again.port());
  auto last =
      watcher.request({{"type", "replay"}, {"room", room}, {"move", record["moves"].size()}});
  CHECK(last["game"]["scores"] == final_scores);

  // `carcassonne backup` copies the database while this server runs; the copy holds the game.
  const std::string copy = dir.str() + "/copy.db";
  std::istringstream none;
  std::ostringstream out, err;
  const std::vector<std::string> args{"backup", copy, "--data-dir", dir.str()};
  REQUIRE_MESSAGE(carcassonne::app::run_command(args, none, out, err) == 0, err.str());
  CHECK(json::parse(out.str())["rooms"] == 1);
  std::string error;
  auto stored = carcassonne::server::store::open({copy, true}, error);
  REQUIRE_MESSAGE(stored, error);
  auto game = stored->load(room, error);
  REQUIRE(game);
  CHECK(game->state == carcassonne::server::room_state::finished);
  CHECK(game->moves.size() == record["moves"].size());
  std::ostringstream err2, err3;
  CHECK(carcassonne::app::run_command(args, none, out, err2) == 1);  // never over a file
  CHECK(err2.str().find("already exists") != std::string::npos);
  const std::vector<std::string> nowhere{"backup", dir.str() + "/x.db", "--data-dir",
                                         dir.str() + "/none"};
  CHECK(carcassonne::app::run_command(nowhere, none, out, err3) == 1);
  CHECK(err3.str().find("no database") != std::string::npos);
}

TEST_CASE(
    "e2e: a game with take-backs and forfeits: its record, from memory and from the store once "
    "the room is empty, is the same, replays to the end and verifies") {
  temp_dir dir("carcassonne-e2e-undo-record");
  test_server server(journal_config(dir.str()));
  const auto port = server.port();
  ws_client a(port), b(port), c(port);
  auto made = a.request({{"type", "create_room"}, {"seats", 3}, {"match", {{"undo", "free"}}}});
  REQUIRE_MESSAGE(made["type"] == "room_created", made.dump());
  const std::string room = made["room"].get<std::string>();
  join(a, room, "Ann");
  join(b, room, "Bob");
  join(c, room, "Cid");
  table t{{&a, &b, &c}, {}};
  t.start(a);
  // A tile's first placement is taken back where it can be, and another move played instead.
  int taken_back = 0;
  std::size_t undone_with = 0;  // the board's size after the last placement taken back
  for (int i = 0; i < 40; ++i) {
    ws_client* mover = t.seats.at(t.acting());
    t.step();
    const auto board = t.game()["board"].size();
    if (board == undone_with) continue;
    auto r = mover->request({{"type", "undo"}});
    if (r["type"] == "undone") {
      undone_with = board;
      ++taken_back;
      --t.moves;
      mover->wait_type("patch");
      t.sync(mover->seq);
    }
  }
  REQUIRE(taken_back > 3);
  // Cid resigns, then Bob: the game ends when the turn of the last seat in play does.
  REQUIRE(c.request({{"type", "resign"}})["type"] == "resigned");
  REQUIRE(b.request({{"type", "resign"}})["type"] == "resigned");
  t.sync(b.seq);
  t.play_to_end();
  const json final_scores = a.view["game"]["scores"];
  const auto live = http_get(port, "/api/rooms/" + room + "/record");
  REQUIRE(live.status == 200);
  const json record = json::parse(live.body);
  CHECK(record["moves"].size() == static_cast<std::size_t>(t.moves) + 2);  // and two forfeits
  CHECK(replay_command(record, dir.str())["scores"] == final_scores);
  int verified = -1;
  CHECK(on_record("verify", record, dir.str(), verified)["verified"] == true);
  CHECK(verified == 0);

  // Everyone leaves: the finished room leaves memory, and the store serves its record.
  for (ws_client* seat : {&a, &b, &c}) seat->request({{"type", "leave"}});
  REQUIRE(eventually([&] { return server.get().stats().rooms.load() == 0; }));
  const auto got = http_get(port, "/api/rooms/" + room + "/record");
  REQUIRE(got.status == 200);
  const json stored = json::parse(got.body);
  CHECK(stored == record);
  CHECK(replay_command(stored, dir.str())["scores"] == final_scores);
  ws_client watcher(port);
  auto last =
      watcher.request({{"type", "replay"}, {"room", room}, {"move", record["moves"].size()}});
  REQUIRE_MESSAGE(last["type"] == "replay", last.dump());
  CHECK(last["game"]["scores"] == final_scores);
}

TEST_CASE(
    "e2e: SIGKILL mid-game under load; a restart on the same database resumes every seat and loses "
    "no move") {
  temp_dir dir("carcassonne-e2e-kill");
  const auto port = free_port();
  const std::vector<std::string> serve{"serve",
                                       "--address",
                                       "127.0.0.1",
                                       "--port",
                                       std::to_string(port),
                                       "--data-dir",
                                       dir.str(),
                                       "--allow-scripted",
                                       "true",
                                       "--message-rate",
                                       "100000",
                                       "--message-burst",
                                       "100000",
                                       "--log-level",
                                       "warn",
                                       "--threads",
                                       "2"};
  auto server = std::make_unique<child_process>(serve, dir.str() + "/server1.log");
  REQUIRE_MESSAGE(wait_listening(port, std::chrono::seconds(10)), server->output());
  child_process load({"loadtest", "--port", std::to_string(port), "--rooms", "16",
                      "--clients-per-room", "3", "--duration", "60"},
                     dir.str() + "/load.log");

  // Four games of different sizes and expansions, each with its own clients.
  struct game : seated_game {
    json setup;
    int seats = 2;
  };
  std::vector<game> games;
  games.push_back({{}, {{"seed", "kill-1"}}, 2});
  games.push_back({{}, {{"seed", "kill-2"}, {"expansions", json::array({"hills_and_sheep"})}}, 3});
  games.push_back(
      {{}, {{"seed", "kill-3"}, {"expansions", json::array({"peasant_revolts", "gifts"})}}, 4});
  games.push_back(
      {{}, {{"seed", "kill-4"}, {"expansions", json::array({"easter", "festival"})}}, 2});
  std::mt19937_64 rng(42);

  for (auto& g : games) {
    for (int s = 0; s < g.seats; ++s) g.clients.push_back(std::make_unique<ws_client>(port));
    g.room = create_room(*g.clients[0], g.setup, g.seats);
    for (int s = 0; s < g.seats; ++s) {
      std::string name = "P";  // built in two steps: GCC 12 warns falsely (-Wrestrict) on "P" + ...
      name += std::to_string(s);
      g.tokens.push_back(join(*g.clients[s], g.room, name));
    }
    g.start();
  }
  for (int round = 0; round < 25; ++round)
    for (auto& g : games)
      if (!g.finished()) g.step(rng);
  // The last moves are sent and not waited for: the server dies with them in flight.
  static int next_id = 900000;
  for (auto& g : games) g.send_in_flight(rng, ++next_id);
  // The load tool's games were running too.
  std::size_t ours = 0;
  for (auto& g : games) ours += g.accepted.size();
  CHECK(metric(http_get(port, "/metrics").body, "carcassonne_moves_accepted_total") >
        static_cast<double>(ours));
  server->signal(SIGKILL);
  REQUIRE(server->wait(std::chrono::seconds(10)) == 128 + SIGKILL);
  load.signal(SIGKILL);
  load.wait(std::chrono::seconds(10));
  const auto load_out = load.output();
  INFO("load tool: " << load_out);

  // The same database, the same port: every seat resumes with its token, on a new connection.
  server = std::make_unique<child_process>(serve, dir.str() + "/server2.log");
  REQUIRE_MESSAGE(wait_listening(port, std::chrono::seconds(20)), server->output());
  int stored_in_flight = 0;
  for (auto& g : games) {
    g.clients.clear();
    for (int s = 0; s < g.seats; ++s) {
      g.clients.push_back(std::make_unique<ws_client>(port));
      auto r =
          g.clients[s]->request({{"type", "resume"}, {"room", g.room}, {"token", g.tokens[s]}});
      REQUIRE_MESSAGE(r["type"] == "resumed", r.dump());
      CHECK(r["seat"] == s);
    }
    g.sync(g.clients.back()->seq);
    // The view resumes at the last accepted move, or one further if the move in flight was
    // stored before the kill. Sent again with its id, it is accepted once either way.
    const auto seq_before = g.clients.at(g.in_flight["move"]["seat"].get<std::size_t>())->seq;
    const auto r = g.resend_in_flight();
    // A stored move is answered from before the kill: its seq is not after the snapshot's.
    stored_in_flight += r["seq"].get<std::uint64_t>() <= seq_before;
  }
  MESSAGE(stored_in_flight << " of " << games.size()
                           << " moves in flight had been stored before the kill");
  for (int i = 0; i < 2000; ++i) {
    bool any = false;
    for (auto& g : games)
      if (!g.finished()) g.step(rng), any = true;
    if (!any) break;
  }

  for (auto& g : games) {
    CAPTURE(g.room);
    REQUIRE(g.finished());
    const auto got = http_get(port, "/api/rooms/" + g.room + "/record");
    REQUIRE(got.status == 200);
    const json record = json::parse(got.body);
    g.check_record(record);  // every accepted move in the journal, once, in order, nothing else
    CHECK(replay_command(record, dir.str())["scores"] == g.clients[0]->view["game"]["scores"]);
  }
  const auto m = http_get(port, "/metrics");
  CHECK(metric(m.body, "carcassonne_journal_failures_total") == 0);
  CHECK(metric(m.body, "carcassonne_journal_commits_total") > 0);
  server->signal(SIGTERM);
  const auto stopped = server->wait(std::chrono::seconds(20));
  CHECK_MESSAGE(stopped == 0, server->output());
}

TEST_CASE("e2e: with the journal on, a move's answer and its patch leave in one write") {
  temp_dir dir("carcassonne-e2e-gather");
  test_server server(journal_config(dir.str()));
  const auto port = server.port();
  ws_client a(port), b(port);
  const auto room = create_room(a, {{"seed", "e2e-gather"}});
  join(a, room, "Ann");
  join(b, room, "Bob");
  table t{{&a, &b}, {}};
  t.start(a);
  const auto writes = [&] {
    return metric(http_get(port, "/metrics").body, "carcassonne_socket_writes_total");
  };
  for (int i = 0; i < 6; ++i) {
    const double before = writes();
    t.step();  // both clients have read everything the move made: its writes have all started
    // Held until the commit, the mover's two frames leave together; the other seat's patch.
    CHECK(writes() - before == 2);
  }
}

TEST_CASE("e2e: a database that is not one stops the server at start with a clear error") {
  temp_dir dir("carcassonne-e2e-corrupt");
  std::ofstream(dir.str() + "/carcassonne.db") << std::string(10000, '#');
  child_process server({"serve", "--port", "0", "--data-dir", dir.str()},
                       dir.str() + "/server.log");
  const auto status = server.wait(std::chrono::seconds(10));
  REQUIRE(status);
  CHECK(*status == 1);
  CHECK(server.output().find("carcassonne.db") != std::string::npos);
  CHECK(server.output().find("not a database") != std::string::npos);
}

TEST_CASE("e2e: the server says at start which malloc it runs on: jemalloc where it is linked") {
  temp_dir dir("carcassonne-e2e-allocator");
  const auto port = free_port();
  child_process server(
      {"serve", "--address", "127.0.0.1", "--port", std::to_string(port), "--data-dir", dir.str()},
      dir.str() + "/server.log");
  REQUIRE_MESSAGE(wait_listening(port, std::chrono::seconds(10)), server.output());
  server.signal(SIGTERM);
  const auto status = server.wait(std::chrono::seconds(15));
  REQUIRE(status);
  CHECK(*status == 0);
  const auto log = server.output();
  // Built with CARCASSONNE_JEMALLOC (the default): the executable's malloc is jemalloc's. A
  // sanitizer build keeps the sanitizer's (which the lookup reports as the C library's).
  const std::string expected =
      CARCASSONNE_JEMALLOC_LINKED ? "memory allocator: jemalloc " : "memory allocator: the C";
  CHECK_MESSAGE(log.find(expected) != std::string::npos, log);
}
