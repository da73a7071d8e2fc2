// loadtest --rate: a fixed offered load. Each room sends a move at most every rooms/rate
// seconds, so the moves of the measured part are bounded by its length times the rate,
// whatever the machine's speed (a closed loop plays hundreds of moves a second here).
#include <sstream>

#include "carcassonne/app/commands.hpp"
#include "e2e_client.hpp"

using namespace e2e;

TEST_CASE("e2e: loadtest --rate paces the moves; a negative rate is refused") {
  test_server server;
  const std::vector<std::string> args{"--port",     std::to_string(server.port()),
                                      "--rooms",    "2",
                                      "--players",  "2",
                                      "--duration", "2",
                                      "--rate",     "10"};
  std::ostringstream out, err;
  REQUIRE_MESSAGE(carcassonne::app::run_loadtest(args, out, err) == 0, err.str());
  const auto report = json::parse(out.str());
  INFO(report.dump());
  CHECK(report["rate"] == 10.0);
  CHECK(report["errors"] == 0);
  CHECK(report["seq_gaps"] == 0);
  const int moves = report["moves"].get<int>();
  CHECK(moves > 0);
  // 1.6 s measured at 10 moves a second over both rooms: 16, plus one per room at the edge.
  CHECK(moves <= 18);

  std::ostringstream out2, err2;
  const std::vector<std::string> bad{"--port", std::to_string(server.port()), "--rate", "-5"};
  CHECK(carcassonne::app::run_loadtest(bad, out2, err2) == 1);
  CHECK(err2.str().find("rate >= 0") != std::string::npos);
}

TEST_CASE("e2e: loadtest --match creates its rooms with those match options") {
  test_server server;
  const auto run = [&](const std::string& match) {
    const std::vector<std::string> args{"--port",     std::to_string(server.port()),
                                        "--rooms",    "2",
                                        "--players",  "2",
                                        "--duration", "2",
                                        "--match",    match};
    std::ostringstream out, err;
    const int status = carcassonne::app::run_loadtest(args, out, err);
    INFO(err.str());
    auto report = json::parse(out.str());
    report["status"] = status;
    return report;
  };
  const auto clocked = run(R"({"clock":"fischer","initial_s":600,"increment_s":20})");
  INFO(clocked.dump());
  CHECK(clocked["status"] == 0);
  CHECK(clocked["errors"] == 0);
  CHECK(clocked["moves"].get<int>() > 0);
  // The server reads them: a clock it does not know is its refusal.
  const auto refused = run(R"({"clock":"hourglass"})");
  CHECK(refused["status"] != 0);
  CHECK(refused["errors"].get<int>() > 0);
  CHECK(refused["first_error"].get<std::string>().find("bad_match_options") != std::string::npos);
  const std::vector<std::string> not_object{
      "--port", std::to_string(server.port()), "--rooms", "1", "--duration", "1", "--match", "[1]"};
  std::ostringstream out, err;
  CHECK(carcassonne::app::run_loadtest(not_object, out, err) == 1);
}

TEST_CASE("e2e: loadtest --spectators watches each room; every measured move reaches them all") {
  test_server server;
  const std::vector<std::string> args{"--port",
                                      std::to_string(server.port()),
                                      "--rooms",
                                      "2",
                                      "--players",
                                      "2",
                                      "--duration",
                                      "2",
                                      "--rate",
                                      "10",
                                      "--spectators",
                                      "5",
                                      "--spectator-threads",
                                      "2",
                                      "--spectator-delay",
                                      "1"};
  std::ostringstream out, err;
  REQUIRE_MESSAGE(carcassonne::app::run_loadtest(args, out, err) == 0, err.str());
  const auto report = json::parse(out.str());
  INFO(report.dump());
  CHECK(report["errors"] == 0);
  const auto& s = report["spectators"];
  CHECK(s["per_room"] == 5);
  CHECK(s["spectating_answers"].get<int>() >= 10);  // 5 in each room, more when a game ends
  CHECK(s["ended_by_server"] == 0);
  CHECK(s["moves_seen_by_none"] == 0);
  // At least one patch of each measured move to each of the 10: frames and their bytes.
  CHECK(s["frames"].get<int>() >= 10 * report["moves"].get<int>() / 2);
  CHECK(s["bytes"].get<double>() > s["frames"].get<double>() * 50);
  const auto& l = s["latency_to_last_ms"];
  CHECK(l["p50"].get<double>() > 0);
  CHECK(l["p50"].get<double>() <= l["p99"].get<double>());
  CHECK(l["p99"].get<double>() <= l["max"].get<double>());
  // Admission: all 10 in, none failed; each one connected, then upgraded, then spectating.
  const auto& a = s.at("admitted");
  CHECK(a.at("spectators") == 10);
  CHECK(a.at("of") == 10);
  CHECK(a.at("connect_failures") == 0);
  CHECK(a.at("handshake_failures") == 0);
  const double p50 = a.at("p50_ms").get<double>(), p99 = a.at("p99_ms").get<double>(),
               all_in = a.at("max_ms").get<double>();
  CHECK(p50 > 0);
  CHECK(p50 <= p99);
  CHECK(p99 <= all_in);
  CHECK(a.at("per_second").get<double>() == doctest::Approx(10 * 1000 / all_in));
  const auto& connected = a.at("connected_ms");
  const auto& upgraded = a.at("upgraded_ms");
  CHECK(connected.at("p50").get<double>() <= connected.at("p99").get<double>());
  CHECK(connected.at("p99").get<double>() <= connected.at("max").get<double>());
  CHECK(upgraded.at("p50").get<double>() <= upgraded.at("p99").get<double>());
  CHECK(upgraded.at("p99").get<double>() <= upgraded.at("max").get<double>());
  CHECK(connected.at("max").get<double>() <= upgraded.at("max").get<double>());
  CHECK(upgraded.at("max").get<double>() <= all_in);
  CHECK(upgraded.at("p50").get<double>() <= p50);

  std::ostringstream out2, err2;
  const std::vector<std::string> bad{"--port", std::to_string(server.port()), "--spectators", "-1"};
  CHECK(carcassonne::app::run_loadtest(bad, out2, err2) == 1);
}
