// ladder: measures the ladder's levels on a running server's own rating scale (docs/bots.md "The
// ladder"). It plays rated two-seat games between bot levels there, each a room of two bots made
// by a client that only watches and starts it: the server plays the bots, ends the games and rates
// them in its own database like any rated game (the bots' accounts "bot-<level>"). Then it reads
// every level's rating from GET /api/bots and prints one JSON line.
//
// Pairings: each level against the next one up and the one after (beginner-casual,
// beginner-intermediate, casual-intermediate, ...), game g takes pairing g mod P, with the seats
// swapped every other round. --rooms games run at once, each on its own connection and thread.
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <thread>

#include "carcassonne/app/commands.hpp"
#include "carcassonne/app/patched_view.hpp"
#include "carcassonne/engine/ladder.hpp"

namespace carcassonne::app {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using json = nlohmann::json;

struct ladder_options {
  std::string host = "127.0.0.1", port = "8080";
  int games = 0, rooms = 2;
  std::vector<std::string> levels;  // weakest first; default the ladder's
  std::vector<std::string> expansions;
};

struct pairing {
  std::string a, b;  // the weaker first
  int games = 0, wins_a = 0, wins_b = 0, draws = 0;
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t from = 0;
  while (from <= s.size()) {
    const auto comma = s.find(',', from);
    const auto part = s.substr(from, comma == std::string::npos ? std::string::npos : comma - from);
    if (!part.empty()) out.push_back(part);
    if (comma == std::string::npos) break;
    from = comma + 1;
  }
  return out;
}

const char* const usage =
    "usage: carcassonne ladder --games N [--host H] [--port P] [--rooms R] [--levels a,b,...] "
    "[--expansions a,b]\n";

bool parse_options(std::span<const std::string> args, ladder_options& o, std::ostream& err) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto& a = args[i];
    const bool has = i + 1 < args.size();
    try {
      if (a == "--games" && has)
        o.games = std::stoi(args[++i]);
      else if (a == "--rooms" && has)
        o.rooms = std::stoi(args[++i]);
      else if (a == "--host" && has)
        o.host = args[++i];
      else if (a == "--port" && has)
        o.port = args[++i];
      else if (a == "--levels" && has)
        o.levels = split(args[++i]);
      else if (a == "--expansions" && has)
        o.expansions = split(args[++i]);
      else
        return err << usage, false;
    } catch (const std::exception&) {
      return err << usage, false;
    }
  }
  if (o.levels.empty())
    for (const auto& step : ladder) o.levels.emplace_back(name_of(step.level));
  for (const auto& l : o.levels)
    if (!bot_level_from_name(l))
      return err << "carcassonne ladder: no bot level '" << l << "'\n", false;
  for (std::size_t i = 0; i < o.levels.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (o.levels[i] == o.levels[j])  // a level is not rated against itself
        return err << "carcassonne ladder: '" << o.levels[i] << "' is listed twice\n", false;
  if (o.games < 1 || o.rooms < 1 || o.levels.size() < 2) return err << usage, false;
  return true;
}

// One rated game of `a` (seat 0) against `b` (seat 1) on the server: the final scores.
json play_game(const ladder_options& o, const tcp::resolver::results_type& at, const std::string& a,
               const std::string& b) {
  net::io_context io;
  websocket::stream<beast::tcp_stream> ws(io);
  beast::get_lowest_layer(ws).connect(at);
  ws.handshake(o.host + ":" + o.port, "/ws");
  const auto send = [&ws](const json& m) { ws.write(net::buffer(m.dump())); };
  json create{{"type", "create_room"}, {"seats", 2},    {"public", false},
              {"name", "ladder"},      {"rated", true}, {"bots", json::array({a, b})},
              {"bot_pause_ms", 0}};
  if (!o.expansions.empty()) create["setup"] = {{"expansions", o.expansions}};
  send(create);
  patched_view view;
  std::string room;
  beast::flat_buffer buffer;
  for (;;) {
    buffer.clear();
    ws.read(buffer);
    const std::string text = beast::buffers_to_string(buffer.data());
    const json& m = view.parse(text);
    const std::string type = m.is_object() ? m.value("type", "") : "";
    if (type == "error") throw std::runtime_error("the server refused: " + text);
    if (type == "room_created") {
      room = m.at("room");
      send({{"type", "spectate"}, {"room", room}});
    } else if (type == "spectating") {
      send({{"type", "start"}});
    } else if (type == "snapshot" && m.contains("view")) {
      view.reset(m.at("view"));
    } else if (type == "patch" && view.holds()) {
      if (auto failed = view.apply_frame(text); !failed.empty())
        throw std::runtime_error("unreadable patch: " + failed);
    } else {
      continue;
    }
    const auto& v = view.value();
    if (view.holds() && v.contains("game") && v["game"].is_object() &&
        v["game"].value("status", "") == "finished") {
      json scores = v["game"]["scores"];
      beast::error_code ec;
      ws.close(websocket::close_code::normal, ec);
      return scores;
    }
  }
}

json get_json(const ladder_options& o, const tcp::resolver::results_type& at,
              const std::string& target) {
  net::io_context io;
  beast::tcp_stream stream(io);
  stream.connect(at);
  http::request<http::empty_body> req{http::verb::get, target, 11};
  req.set(http::field::host, o.host + ":" + o.port);
  http::write(stream, req);
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  http::read(stream, buffer, res);
  beast::error_code ec;
  stream.socket().shutdown(tcp::socket::shutdown_both, ec);
  if (res.result() != http::status::ok)
    throw std::runtime_error(target + ": " + std::to_string(res.result_int()) + " " + res.body());
  return json::parse(res.body());
}

}  // namespace

int run_ladder(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  ladder_options o;
  if (!parse_options(args, o, err)) return 1;
  std::vector<pairing> pairings;
  for (std::size_t gap = 1; gap <= 2; ++gap)
    for (std::size_t i = 0; i + gap < o.levels.size(); ++i)
      pairings.push_back({o.levels[i], o.levels[i + gap]});
  net::io_context io;
  tcp::resolver resolver(io);
  beast::error_code ec;
  const auto at = resolver.resolve(o.host, o.port, ec);
  if (ec) return err << "carcassonne ladder: cannot resolve " << o.host << ":" << o.port << "\n", 1;

  // The ratings' games before: the games' ends are rated in the server's own transactions, so the
  // table is read once they all are (each game adds one to both its levels).
  const std::string pool = o.expansions.empty() ? "duel" : "duel_expansions";
  const auto rated_games = [&] {
    long long n = 0;
    const json bots = get_json(o, at, "/api/bots");
    for (const auto& l : bots.at("levels"))
      for (const auto& r : l.at("ratings"))
        if (r.at("pool") == pool) n += r.at("games").get<long long>();
    return n;
  };
  long long rated_before = 0;
  try {
    rated_before = rated_games();
  } catch (const std::exception& e) {
    return err << "carcassonne ladder: the ratings cannot be read: " << e.what() << "\n", 2;
  }
  std::atomic<int> next{0};
  std::mutex mutex;
  std::string failure;
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::thread> workers;
  for (int t = 0; t < std::min(o.rooms, o.games); ++t)
    workers.emplace_back([&] {
      for (int g = next++; g < o.games; g = next++) {
        const auto p = static_cast<std::size_t>(g) % pairings.size();
        const bool swapped = (static_cast<std::size_t>(g) / pairings.size()) % 2 == 1;
        const auto& first = swapped ? pairings[p].b : pairings[p].a;
        const auto& second = swapped ? pairings[p].a : pairings[p].b;
        try {
          const json scores = play_game(o, at, first, second);
          const int s_first = scores.at(0), s_second = scores.at(1);
          const int s_a = swapped ? s_second : s_first, s_b = swapped ? s_first : s_second;
          std::lock_guard lock(mutex);
          auto& pr = pairings[p];
          ++pr.games;
          (s_a > s_b ? pr.wins_a : s_a < s_b ? pr.wins_b : pr.draws) += 1;
        } catch (const std::exception& e) {
          std::lock_guard lock(mutex);
          if (failure.empty()) failure = e.what();
          next = o.games;  // the others stop after their game
        }
      }
    });
  for (auto& w : workers) w.join();
  if (!failure.empty()) return err << "carcassonne ladder: " << failure << "\n", 2;

  json levels = json::array(), results = json::array();
  try {
    for (int tries = 0; rated_games() < rated_before + 2LL * o.games; ++tries) {
      if (tries == 100) throw std::runtime_error("the server has not rated every game after 10 s");
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    const json bots = get_json(o, at, "/api/bots");
    for (const auto& name : o.levels)
      for (const auto& l : bots.at("levels"))
        if (l.at("level") == name) {
          json row{{"level", name}, {"ladder", l.at("ladder")}, {"summary", l.at("summary")}};
          for (const auto& r : l.at("ratings"))
            if (r.at("pool") == pool)
              for (const char* k : {"rating", "deviation", "games"}) row[k] = r.at(k);
          levels.push_back(std::move(row));
        }
  } catch (const std::exception& e) {
    return err << "carcassonne ladder: the ratings cannot be read: " << e.what() << "\n", 2;
  }
  for (const auto& p : pairings)
    results.push_back({{"levels", {p.a, p.b}},
                       {"games", p.games},
                       {"wins", {p.wins_a, p.wins_b}},
                       {"draws", p.draws}});
  out << json{{"games", o.games},
              {"seconds",
               std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count()},
              {"pool", pool},
              {"levels", std::move(levels)},
              {"pairings", std::move(results)}}
             .dump()
      << "\n";
  return 0;
}

}  // namespace carcassonne::app
