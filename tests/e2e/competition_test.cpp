// Quick play, series and tournaments end to end (docs/protocol.md §24): seekers paired and seated
// by player, refusals that change nothing, a Swiss tournament of 32 bots over 5 rounds checked
// against a recomputation of its own, a table that cannot start, and a best-of-3 series whose
// server is killed with SIGKILL mid-game.
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "carcassonne/app/commands.hpp"
#include "e2e_client.hpp"
#include "process.hpp"

using namespace e2e;

namespace competition_e2e {

carcassonne::server::config competition_config(const std::string& dir) {
  auto c = test_config();
  c.journal = true;
  c.data_dir = dir;
  c.competition_tick_ms = 50;
  c.competition_bot_pause_ms = 0;
  return c;
}

struct player {
  std::string id, session, name;
  std::unique_ptr<ws_client> ws;
};

// A new guest signed in on a WebSocket of its own.
player signed_in(std::uint16_t port) {
  const auto r = http_post(port, "/api/guest", json::object());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  const json g = json::parse(r.body);
  player p{g["player"]["id"], g["session"], g["player"]["name"], std::make_unique<ws_client>(port)};
  const auto who = p.ws->request({{"type", "authenticate"}, {"session", p.session}});
  REQUIRE_MESSAGE(who["type"] == "authenticated", who.dump());
  return p;
}

// The first frame of `c` (seen already or to come) that matches, after `from` frames.
json frame_where(ws_client& c, const std::function<bool(const json&)>& match,
                 const std::string& what, std::size_t from = 0) {
  for (std::size_t i = from; i < c.frames.size(); ++i)
    if (match(c.frames[i])) return c.frames[i];
  return c.wait_for(match, what);
}

json match_found(ws_client& c, std::size_t from = 0) {
  return frame_where(
      c, [](const json& m) { return m["type"] == "match_found"; }, "match_found", from);
}

json get_json(std::uint16_t port, const std::string& target) {
  const auto r = http_get(port, target);
  REQUIRE_MESSAGE(r.status == 200, target << ": " << r.body);
  return json::parse(r.body);
}

// The tournament as the WebSocket gives it, read until `done` holds (or the deadline).
json tournament_when(ws_client& c, const std::string& id,
                     const std::function<bool(const json&)>& done, std::chrono::seconds limit) {
  const auto deadline = steady::now() + limit;
  for (;;) {
    const auto r = c.request({{"type", "get_tournament"}, {"tournament", id}});
    REQUIRE_MESSAGE(r["type"] == "tournament", r.dump());
    if (done(r["tournament"])) return r["tournament"];
    REQUIRE_MESSAGE(steady::now() < deadline, "the tournament did not get there: " << r.dump());
    std::this_thread::sleep_for(milliseconds(100));  // the server's rounds run on real clocks
  }
}

// A tournament's room: Fischer 10 min + 10 s.
json timed_room() {
  return {{"setup", json::object()},
          {"match", {{"clock", "fischer"}, {"initial_s", 600}, {"increment_s", 10}}}};
}

std::int64_t wall_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// Reads until the client's view is the game of `room` (not the room it was in before).
void wait_game_of(ws_client& c, const std::string& room) {
  c.wait_view([&](const json& v) { return v["room"]["id"] == room && !v["game"].is_null(); },
              "the game of room " + room);
}

// Both seats resume the room by player and play it to the end with random legal moves.
void play_out(const std::string& room, std::vector<ws_client*> by_seat, std::uint64_t rng_seed) {
  table t;
  t.rng.seed(rng_seed);
  for (std::size_t s = 0; s < by_seat.size(); ++s) {
    const auto r = by_seat[s]->request({{"type", "resume"}, {"room", room}});
    REQUIRE_MESSAGE(r["type"] == "resumed", r.dump());
    CHECK(r["seat"] == s);
    t.seats.push_back(by_seat[s]);
  }
  for (auto* c : t.seats) wait_game_of(*c, room);
  t.play_to_end();
}

// Independent of the server's code: points, Buchholz and Sonneborn-Berger from the rounds'
// tables and byes as the tournament's JSON shows them (docs/protocol.md §24).
struct recomputed {
  double points = 0, buchholz = 0, sb = 0;
};
std::map<std::string, recomputed> recompute(const json& t) {
  std::map<std::string, recomputed> out;
  struct game {
    std::vector<std::string> players;
    std::vector<std::vector<double>> results;
  };
  std::vector<game> games;
  for (const auto& round : t["rounds"]) {
    if (round["knockout"].get<bool>()) continue;
    for (const auto& table : round["tables"]) {
      game g;
      g.players = table["players"].get<std::vector<std::string>>();
      const std::size_t k = g.players.size();
      if (table["void"].get<bool>()) {
        g.results.assign(k, std::vector<double>(k, 0.5));
      } else {
        REQUIRE_MESSAGE(table["results"].is_array(), table.dump());
        g.results = table["results"].get<std::vector<std::vector<double>>>();
      }
      games.push_back(std::move(g));
    }
    for (const auto& bye : round["byes"]) out[bye.get<std::string>()].points += 1.0;
  }
  for (const auto& g : games) {
    const double k1 = static_cast<double>(g.players.size() - 1);
    for (std::size_t i = 0; i < g.players.size(); ++i)
      for (std::size_t j = 0; j < g.players.size(); ++j)
        if (i != j) out[g.players[i]].points += g.results[i][j] / k1;
  }
  for (const auto& g : games) {
    const double k1 = static_cast<double>(g.players.size() - 1);
    for (std::size_t i = 0; i < g.players.size(); ++i)
      for (std::size_t j = 0; j < g.players.size(); ++j) {
        if (i == j) continue;
        const double mate = out[g.players[j]].points;
        out[g.players[i]].buchholz += mate;
        out[g.players[i]].sb += g.results[i][j] * mate / k1;
      }
  }
  return out;
}

}  // namespace competition_e2e

using namespace competition_e2e;

TEST_CASE("e2e quick play: seekers meet and sit by player; refusals change nothing") {
  temp_dir dir("carcassonne-e2e-quick");
  test_server server(competition_config(dir.str()));
  const auto port = server.port();

  ws_client anonymous(port);
  CHECK(anonymous.request({{"type", "seek"}})["code"] == "sign_in_required");
  auto a = signed_in(port);
  auto b = signed_in(port);
  for (const json& bad :
       {json{{"seats", 7}}, json{{"expansions", {"no_such_expansion"}}},
        json{{"best_of", 3}, {"seats", 3}}, json{{"best_of", 2}}, json{{"colour", "red"}},
        json{{"time_control", "bullet"}}, json{{"bots_after_s", -1}}}) {
    json m = bad;
    m["type"] = "seek";
    CHECK_MESSAGE(a.ws->request(m)["code"] == "bad_seek", m.dump());
  }
  CHECK(a.ws->request({{"type", "cancel_seek"}})["code"] == "no_seek");

  // A seeker who leaves leaves the queue: the next two seekers meet each other.
  {
    auto gone = signed_in(port);
    const auto r = gone.ws->request({{"type", "seek"}, {"time_control", "blitz"}});
    REQUIRE_MESSAGE(r["type"] == "seeking", r.dump());
    gone.ws->drop();
    anonymous.drop();
    REQUIRE(eventually(
        [&] { return metric(http_get(port, "/metrics").body, "carcassonne_connections") == 2; }));
  }
  auto r = a.ws->request({{"type", "seek"}, {"time_control", "blitz"}, {"seats", 2}});
  REQUIRE_MESSAGE(r["type"] == "seeking", r.dump());
  CHECK(r["prefs"] == json{{"seats", 2}, {"time_control", "blitz"}});
  CHECK(r["rating"] == 1500.0);
  CHECK(a.ws->request({{"type", "seek"}})["code"] == "already_seeking");
  r = b.ws->request({{"type", "seek"}, {"time_control", "blitz"}});
  REQUIRE_MESSAGE(r["type"] == "seeking", r.dump());
  const json found_a = match_found(*a.ws), found_b = match_found(*b.ws);
  CHECK(found_a["room"] == found_b["room"]);
  CHECK(found_a["seat"] == 0);  // the longer waiting seeker sits first
  CHECK(found_b["seat"] == 1);
  CHECK(found_a["players"] == json{a.name, b.name});
  CHECK(found_a["time_control"] == "blitz");
  CHECK(found_a["rated"] == true);
  const std::string room = found_a["room"];

  // Another player cannot take their seat; they resume it without a token and play it out.
  auto c = signed_in(port);
  CHECK(c.ws->request({{"type", "resume"}, {"room", room}})["code"] == "bad_token");
  play_out(room, {a.ws.get(), b.ws.get()}, 7);
  CHECK(a.ws->view["room"]["match"]["clock"] == "fischer");
  const auto record = get_json(port, "/api/rooms/" + room + "/record");
  CHECK(record["setup"]["players"][0]["player"] == a.id);
  CHECK(record["setup"]["players"][1]["player"] == b.id);
  // Rated: the profile shows the game in the duel pool.
  REQUIRE(eventually([&] {
    const auto p = json::parse(http_get(port, "/api/players/" + a.id).body);
    return p.contains("ratings") && !p["ratings"].empty();
  }));

  // Nobody near: a seeker who accepts bots gets them after the wait it chose, unrated.
  CHECK(a.ws->request({{"type", "leave"}})["type"] == "left");
  r = a.ws->request({{"type", "seek"}, {"seats", 3}, {"bots_after_s", 1}});
  REQUIRE_MESSAGE(r["type"] == "seeking", r.dump());
  const auto with_bots = match_found(*a.ws, a.ws->frames.size());
  CHECK(with_bots["seat"] == 0);
  CHECK(with_bots["players"].size() == 3);
  CHECK(with_bots["rated"] == false);
  r = a.ws->request({{"type", "resume"}, {"room", with_bots["room"]}});
  REQUIRE_MESSAGE(r["type"] == "resumed", r.dump());

  // A cancelled seek is gone.
  CHECK(c.ws->request({{"type", "seek"}})["type"] == "seeking");
  CHECK(c.ws->request({{"type", "cancel_seek"}})["type"] == "seek_cancelled");
  CHECK(c.ws->request({{"type", "cancel_seek"}})["code"] == "no_seek");
}

TEST_CASE("e2e Swiss: 32 bots over 5 rounds, checked against a recomputation") {
  temp_dir dir("carcassonne-e2e-swiss");
  auto config = competition_config(dir.str());
  // A bot's game lasts over 2 s (a pause before each of its 140-odd moves): the director's pause
  // lands while round 1 is played.
  config.competition_bot_pause_ms = 20;
  test_server server(config);
  const auto port = server.port();
  auto director = signed_in(port);
  auto stranger = signed_in(port);

  json settings{{"name", "Autumn Swiss"},
                {"format", "swiss"},
                {"rounds", 5},
                {"table_size", 2},
                {"max_players", 64},
                {"round_gap_ms", 0},
                {"room", timed_room()},
                {"starts_ms", wall_ms() + 3'600'000}};
  auto made = director.ws->request({{"type", "create_tournament"}, {"tournament", settings}});
  REQUIRE_MESSAGE(made["type"] == "tournament_created", made.dump());
  const std::string id = made["tournament"]["id"];
  CHECK(made["tournament"]["settings"]["director"] == director.id);
  const auto act = [&](player& who, json m) {
    m["type"] = "tournament";
    m["tournament"] = id;
    return who.ws->request(m);
  };
  auto r = act(director, {{"action", "add_bots"}, {"count", 32}, {"level", "random"}});
  REQUIRE_MESSAGE(r["type"] == "tournament_updated", r.dump());
  CHECK(r["tournament"]["participants"].size() == 32);
  // Refusals: a second registration, a director's action by someone else.
  CHECK(act(stranger, {{"action", "register"}})["type"] == "tournament_updated");
  CHECK(act(stranger, {{"action", "register"}})["code"] == "already_registered");
  CHECK(act(stranger, {{"action", "withdraw"}})["type"] == "tournament_updated");
  CHECK(act(stranger, {{"action", "start"}})["code"] == "not_director");
  CHECK(act(stranger, {{"action", "pause"}})["code"] == "not_director");
  CHECK(act(stranger, {{"action", "fly"}})["code"] == "bad_message");
  // Members of the wrong type are refused (they once ended the server's process), and the
  // server goes on answering.
  CHECK(act(stranger, {{"action", "register"}, {"player", 5}})["code"] == "bad_message");
  CHECK(act(director, {{"action", "add_bots"}, {"count", "3"}})["code"] == "bad_message");
  CHECK(act(director, {{"action", "add_bots"}, {"count", 1}, {"level", 2}})["code"] ==
        "bad_message");
  CHECK(act(director, {{"action", "bye"}, {"player", json::array()}})["code"] == "bad_message");
  CHECK(stranger.ws->request({{"type", "get_tournament"}, {"tournament", "nope"}})["code"] ==
        "no_such_tournament");

  // Started now, paused at once: round 1 is played, round 2 waits for the director.
  r = act(director, {{"action", "start"}});
  REQUIRE_MESSAGE(r["tournament"]["phase"] == "running", r.dump());
  CHECK(act(director, {{"action", "pause"}})["type"] == "tournament_updated");
  CHECK(act(stranger, {{"action", "register"}})["code"] == "registration_closed");
  auto t = tournament_when(
      *director.ws, id, [](const json& j) { return j["rounds"][0]["finished"] == true; },
      std::chrono::seconds(120));
  CHECK(t["rounds"].size() == 1);
  // One player removed, another given a bye: 31 play on, one bye a round.
  const std::string removed = t["participants"][4]["id"], rested = t["participants"][9]["id"];
  CHECK(act(director, {{"action", "remove"}, {"player", removed}})["type"] == "tournament_updated");
  CHECK(act(director, {{"action", "bye"}, {"player", rested}})["type"] == "tournament_updated");
  CHECK(act(director, {{"action", "resume"}})["type"] == "tournament_updated");
  t = tournament_when(
      *director.ws, id, [](const json& j) { return j["phase"] == "finished"; },
      std::chrono::seconds(300));

  // Pairings: every player still in exactly once a round, nobody met twice, byes as ruled.
  REQUIRE(t["rounds"].size() == 5);
  std::set<std::pair<std::string, std::string>> met;
  std::set<std::string> had_bye;
  for (const auto& round : t["rounds"]) {
    const int n = round["number"];
    std::multiset<std::string> seen;
    for (const auto& table : round["tables"]) {
      REQUIRE(table["players"].size() == 2);
      CHECK_FALSE(table["void"].get<bool>());
      CHECK(table["rooms"].size() == 1);
      const std::string p = table["players"][0], q = table["players"][1];
      const auto key = std::minmax(p, q);
      CHECK_MESSAGE(met.insert({key.first, key.second}).second, p << " met " << q << " again");
      seen.insert(p);
      seen.insert(q);
    }
    for (const auto& bye : round["byes"]) {
      seen.insert(bye.get<std::string>());
      CHECK_MESSAGE(had_bye.insert(bye.get<std::string>()).second, "a second bye: " << bye);
    }
    CHECK(seen.size() == (n == 1 ? 32u : 31u));
    CHECK(std::set<std::string>(seen.begin(), seen.end()).size() == seen.size());
    if (n > 1) CHECK(seen.count(removed) == 0);
    CHECK(round["byes"].size() == (n == 1 ? 0u : 1u));
    if (n == 2) CHECK(round["byes"] == json{rested});
  }
  // Standings: the same points and tie-breaks, in the documented order.
  const auto mine = recompute(t);
  const auto& standings = t["standings"];
  REQUIRE(standings.size() == 32);
  std::map<std::string, double> rating;
  for (const auto& p : t["participants"]) rating[p["id"]] = p["rating"];
  for (std::size_t i = 0; i < standings.size(); ++i) {
    const auto& s = standings[i];
    const auto& m = mine.at(s["id"]);
    CAPTURE(s.dump());
    CHECK(s["rank"] == i + 1);
    CHECK(s["points"].get<double>() == doctest::Approx(m.points));
    CHECK(s["buchholz"].get<double>() == doctest::Approx(m.buchholz));
    CHECK(s["sonneborn_berger"].get<double>() == doctest::Approx(m.sb));
    if (i == 0) continue;
    const auto& p = standings[i - 1];
    const auto key = [&](const json& x) {
      return std::make_tuple(-x["points"].get<double>(), -x["buchholz"].get<double>(),
                             -x["sonneborn_berger"].get<double>(),
                             -rating[x["id"].get<std::string>()], x["id"].get<std::string>());
    };
    CHECK(key(p) < key(s));
  }
  double total = 0;
  for (const auto& [player_id, m] : mine) total += m.points;
  CHECK(total == doctest::Approx(16 + 4 * (15 + 1)));  // a point a game, and a point a bye
  CHECK(t["champion"] == standings[0]["id"]);
  // Every game's record is there, its seats the table's players.
  std::map<std::string, std::string> names;
  for (const auto& p : t["participants"]) names[p["id"]] = p["name"];
  for (const auto& round : t["rounds"])
    for (const auto& table : round["tables"]) {
      const auto record =
          get_json(port, "/api/rooms/" + table["rooms"][0].get<std::string>() + "/record");
      CHECK(record["setup"]["players"][0]["name"] == names[table["players"][0]]);
      CHECK(record["setup"]["players"][1]["name"] == names[table["players"][1]]);
    }
  // The listing and the HTTP document agree with the WebSocket's.
  const auto listed = get_json(port, "/api/tournaments");
  REQUIRE(listed["tournaments"].size() == 1);
  CHECK(listed["tournaments"][0]["phase"] == "finished");
  CHECK(get_json(port, "/api/tournaments/" + id)["tournament"]["standings"] == standings);
}

TEST_CASE("e2e tournament: a table that cannot start is void by rule, and the event ends") {
  temp_dir dir("carcassonne-e2e-void");
  auto config = competition_config(dir.str());
  config.max_rooms = 2;
  // A bot's game lasts over 2 s (a pause before each of its 140-odd moves): no room is freed
  // before the third table's second is up.
  config.competition_bot_pause_ms = 20;
  test_server server(config);
  const auto port = server.port();
  auto director = signed_in(port);
  json settings{{"name", "Too big"},     {"format", "swiss"},    {"rounds", 1},
                {"table_size", 2},       {"round_gap_ms", 0},    {"retry_ms", 100},
                {"void_after_ms", 1000}, {"room", timed_room()}, {"starts_ms", wall_ms() + 60'000},
                {"featured", 1},         {"featured_delay", 3}};
  auto made = director.ws->request({{"type", "create_tournament"}, {"tournament", settings}});
  REQUIRE_MESSAGE(made["type"] == "tournament_created", made.dump());
  const std::string id = made["tournament"]["id"];
  const auto act = [&](json m) {
    m["type"] = "tournament";
    m["tournament"] = id;
    return director.ws->request(m);
  };
  // Bad settings are refused whole.
  settings["table_size"] = 7;
  CHECK(director.ws->request({{"type", "create_tournament"}, {"tournament", settings}})["code"] ==
        "bad_tournament");
  CHECK(act({{"action", "add_bots"}, {"count", 6}, {"level", "random"}})["type"] ==
        "tournament_updated");
  CHECK(act({{"action", "start"}})["type"] == "tournament_updated");
  // The top board is watched with the spectator delay, the other without.
  json playing;
  REQUIRE(eventually([&] {
    playing = director.ws->request({{"type", "list_rooms"}, {"state", "playing"}})["rooms"];
    return playing.size() == 2;
  }));
  std::multiset<int> delays;
  for (const auto& room : playing) delays.insert(room["spectator_delay"].get<int>());
  CHECK(delays == std::multiset<int>{0, 3});
  // Three tables, room for two: the third is tried again, then void; the event still ends.
  const auto t = tournament_when(
      *director.ws, id, [](const json& j) { return j["phase"] == "finished"; },
      std::chrono::seconds(120));
  int void_tables = 0;
  for (const auto& table : t["rounds"][0]["tables"]) void_tables += table["void"].get<bool>();
  CHECK(void_tables == 1);
  CHECK(act({{"action", "pause"}})["code"] == "not_running");
}

TEST_CASE("e2e series: best of 3, its server killed with SIGKILL mid-game, carries on") {
  temp_dir dir("carcassonne-e2e-series");
  const auto port = free_port();
  const std::vector<std::string> serve{"serve",
                                       "--address",
                                       "127.0.0.1",
                                       "--port",
                                       std::to_string(port),
                                       "--data-dir",
                                       dir.str(),
                                       "--log-level",
                                       "warn",
                                       "--competition-tick-ms",
                                       "50",
                                       "--message-rate",
                                       "100000",
                                       "--message-burst",
                                       "100000"};
  auto process = std::make_unique<child_process>(serve, dir.str() + "/server1.log");
  REQUIRE_MESSAGE(wait_listening(port, std::chrono::seconds(10)), process->output());
  auto a = signed_in(port);
  auto b = signed_in(port);
  REQUIRE(a.ws->request({{"type", "seek"}, {"best_of", 3}})["type"] == "seeking");
  REQUIRE(b.ws->request({{"type", "seek"}, {"best_of", 3}})["type"] == "seeking");
  const json first = match_found(*a.ws);
  REQUIRE(first.contains("series"));
  const std::string series = first["series"];
  CHECK(first["game"] == 1);
  CHECK(first["best_of"] == 3);
  // The seats of game 1 (the seeker who waited longer first), then alternating.
  const bool a_first = first["seat"] == 0;
  const auto in_order = [&](bool a_sits_first) {
    return a_sits_first ? std::vector<ws_client*>{a.ws.get(), b.ws.get()}
                        : std::vector<ws_client*>{b.ws.get(), a.ws.get()};
  };
  play_out(first["room"], in_order(a_first), 11);

  // Game 2: the other player sits first.
  const json second = frame_where(
      *a.ws, [](const json& m) { return m["type"] == "match_found" && m["game"] == 2; }, "game 2");
  CHECK(second["seat"] == (a_first ? 1 : 0));
  const std::string room2 = second["room"];
  for (auto* c : {a.ws.get(), b.ws.get()}) CHECK(c->request({{"type", "leave"}})["type"] == "left");
  {
    table t;
    for (auto* c : in_order(!a_first)) {
      const auto r = c->request({{"type", "resume"}, {"room", room2}});
      REQUIRE_MESSAGE(r["type"] == "resumed", r.dump());
      t.seats.push_back(c);
    }
    for (auto* c : t.seats) wait_game_of(*c, room2);
    t.play(30);
    REQUIRE_FALSE(t.finished());
  }
  process->signal(SIGKILL);
  REQUIRE(process->wait(std::chrono::seconds(10)) == 128 + SIGKILL);

  // The same database: the players sign in again on new connections and finish the series.
  process = std::make_unique<child_process>(serve, dir.str() + "/server2.log");
  REQUIRE_MESSAGE(wait_listening(port, std::chrono::seconds(20)), process->output());
  for (auto* p : {&a, &b}) {
    p->ws = std::make_unique<ws_client>(port);
    REQUIRE(p->ws->request({{"type", "authenticate"}, {"session", p->session}})["type"] ==
            "authenticated");
  }
  play_out(room2, in_order(!a_first), 12);
  // Game 2's result is stored at the service's next tick; only then is it known whether game 3
  // follows (a 2-0 series ends without one).
  json doc;
  REQUIRE(eventually([&] {
    doc = get_json(port, "/api/series/" + series)["series"];
    return doc["games"].size() >= 2 && doc["games"][1].contains("result");
  }));
  if (!doc["finished"].get<bool>()) {
    const json third = frame_where(
        *a.ws, [](const json& m) { return m["type"] == "match_found" && m["game"] == 3; },
        "game 3");
    CHECK(third["seat"] == (a_first ? 0 : 1));
    for (auto* c : {a.ws.get(), b.ws.get()})
      CHECK(c->request({{"type", "leave"}})["type"] == "left");
    play_out(third["room"], in_order(a_first), 13);
  }
  REQUIRE(eventually([&] {
    doc = get_json(port, "/api/series/" + series)["series"];
    return doc["finished"].get<bool>();
  }));
  // The series' games are the index's: each game's scores, by series player (player 0 is who sat
  // first in game 1), and the result.
  CHECK(doc["players"][0] == (a_first ? a.id : b.id));
  double points[2] = {0, 0};
  for (const auto& g : doc["games"]) {
    const auto games = get_json(port, "/api/games?player=" + a.id + "&limit=10")["games"];
    const auto it = std::find_if(games.begin(), games.end(),
                                 [&](const json& x) { return x["room"] == g["room"]; });
    REQUIRE(it != games.end());
    const int p0_seat = g["first"] == 0 ? 0 : 1;  // where series player 0 sat
    const int score0 = (*it)["seats"][p0_seat]["score"];
    const int score1 = (*it)["seats"][1 - p0_seat]["score"];
    CHECK(g["scores"] == json{score0, score1});
    const double r = score0 > score1 ? 1.0 : score0 < score1 ? 0.0 : 0.5;
    points[0] += r;
    points[1] += 1 - r;
  }
  CHECK(doc["points"] == json{points[0], points[1]});
  CHECK(doc["games"].size() == (points[0] == 2.0 || points[1] == 2.0 ? doc["games"].size() : 3u));
  if (points[0] != points[1]) CHECK(doc["winner"] == (points[0] > points[1] ? 0 : 1));
  // Each game was rated on its own, and the series shows in both players' profiles.
  const auto mine = get_json(port, "/api/players/" + a.id + "/competitions")["competitions"];
  REQUIRE(mine.size() == 1);
  CHECK(mine[0]["id"] == series);
  CHECK(get_json(port, "/api/players/" + b.id + "/competitions")["competitions"][0]["id"] ==
        series);
}

TEST_CASE("e2e Swiss then knockout: 8 bots, best-of-3 series at every table, a champion") {
  temp_dir dir("carcassonne-e2e-knockout");
  test_server server(competition_config(dir.str()));
  const auto port = server.port();
  auto director = signed_in(port);
  json settings{{"name", "Winter Cup"},
                {"format", "swiss_knockout"},
                {"rounds", 2},
                {"top", 4},
                {"table_size", 2},
                {"best_of", 3},
                {"round_gap_ms", 0},
                {"room", timed_room()},
                {"starts_ms", wall_ms() + 60'000}};
  auto made = director.ws->request({{"type", "create_tournament"}, {"tournament", settings}});
  REQUIRE_MESSAGE(made["type"] == "tournament_created", made.dump());
  const std::string id = made["tournament"]["id"];
  const auto act = [&](json m) {
    m["type"] = "tournament";
    m["tournament"] = id;
    return director.ws->request(m);
  };
  REQUIRE(act({{"action", "add_bots"}, {"count", 8}, {"level", "random"}})["type"] ==
          "tournament_updated");
  REQUIRE(act({{"action", "start"}})["type"] == "tournament_updated");
  const auto t = tournament_when(
      *director.ws, id, [](const json& j) { return j["phase"] == "finished"; },
      std::chrono::seconds(300));

  // Two Swiss rounds of 4 series, then the top 4 in a bracket: 1 v 4, 2 v 3, then the final.
  REQUIRE(t["rounds"].size() == 4);
  for (int r = 0; r < 4; ++r) CHECK(t["rounds"][r]["knockout"] == (r >= 2));
  const auto& standings = t["standings"];
  std::vector<std::string> seeds;
  for (int i = 0; i < 4; ++i) seeds.push_back(standings[i]["id"]);
  const auto& semis = t["rounds"][2]["tables"];
  REQUIRE(semis.size() == 2);
  const auto pair_of = [](const json& table) {
    return std::set<std::string>{table["players"][0], table["players"][1]};
  };
  CHECK(pair_of(semis[0]) == std::set<std::string>{seeds[0], seeds[3]});
  CHECK(pair_of(semis[1]) == std::set<std::string>{seeds[1], seeds[2]});
  // A knockout table's winner: the series' winner, a drawn series the better seed.
  const auto seed_of = [&](const json& player) {
    return std::find(seeds.begin(), seeds.end(), player.get<std::string>()) - seeds.begin();
  };
  const auto winner_of = [&](const json& table) {
    const double r = table["results"][0][1];
    if (r != 0.5) return table["players"][r > 0.5 ? 0 : 1];
    return table["players"][seed_of(table["players"][0]) < seed_of(table["players"][1]) ? 0 : 1];
  };
  // Every table is a series whose result is the table's; the winners meet in the final.
  for (const auto& round : t["rounds"])
    for (const auto& table : round["tables"]) {
      REQUIRE_FALSE(table["series"].get<std::string>().empty());
      const auto s = get_json(port, "/api/series/" + table["series"].get<std::string>())["series"];
      CHECK(s["finished"] == true);
      CHECK(s["tournament"] == id);
      CHECK(s["games"].size() >= 2);
      CHECK(s["games"].size() <= 3);
      const double r0 = s["winner"].is_null() ? 0.5 : s["winner"] == 0 ? 1.0 : 0.0;
      CHECK(s["players"][0] == table["players"][0]);  // the table's first player sat first
      CHECK(table["results"][0][1].get<double>() == r0);
      CHECK(table["results"][1][0].get<double>() == 1.0 - r0);
    }
  const auto& final_table = t["rounds"][3]["tables"][0];
  CHECK(pair_of(final_table) == std::set<std::string>{winner_of(semis[0]), winner_of(semis[1])});
  CHECK(t["champion"] == winner_of(final_table));
}
