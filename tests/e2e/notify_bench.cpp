// A benchmark, not a test (skipped unless asked for: scripts/bench-notify.sh): notifications
// delivered by one instance, and the delay from a move to its webhook, with slow webhooks in the
// mix (docs/hosting.md "Notifications", its figures).
//
// GAMES correspondence games of two signed-in guests play at once on the in-process server
// (SQLite, --notify-batch-s 0). In a fast game both players' webhooks answer at once, and a
// player moves as soon as their "your turn" webhook arrives: the delay is from the move that gave
// them the turn being accepted to that webhook's arrival. In a slow game (one in SLOW_EVERY) both
// webhooks point at a port that takes connections and never answers (each delivery holds a sender
// until its 5 s deadline, then is retried), and its players move 2 s into their turn. Runs
// DURATION seconds; prints deliveries per second, the delay's p50/p90/p99/max, and the slow
// attempts.
//   build/tests/e2e_tests -tc="bench notify*" --no-skip
//   (environment: GAMES=100 SLOW_EVERY=10 DURATION=60)
#include <boost/asio.hpp>

#include "e2e_client.hpp"
#include "process.hpp"
#include "webhook_receiver.hpp"

using namespace e2e;

namespace {

int bench_env(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::atoi(v) : fallback;
}

// Notes, from the webhooks received, when each room's last delivery came.
class bench_hook {
 public:
  std::uint16_t port() const { return receiver_.port(); }
  // When the last delivery naming `room` arrived, and how many did.
  std::pair<steady::time_point, int> last(const std::string& room) {
    std::lock_guard lock(mutex_);
    const auto it = rooms_.find(room);
    return it == rooms_.end() ? std::pair{steady::time_point{}, 0} : it->second;
  }
  int total() {
    std::lock_guard lock(mutex_);
    return total_;
  }

 private:
  void note(const webhook_receiver::received& r) {
    const auto at = steady::now();
    const auto body = json::parse(r.body, nullptr, false);
    if (!body.is_object()) return;
    std::lock_guard lock(mutex_);
    for (const auto& e : body.value("events", json::array())) {
      auto& room = rooms_[e.value("room", std::string())];
      room.first = at;
      ++room.second;
      ++total_;
    }
  }

  std::mutex mutex_;
  std::map<std::string, std::pair<steady::time_point, int>> rooms_;
  int total_ = 0;
  webhook_receiver receiver_{[this](const webhook_receiver::received& r) { note(r); }};
};

json bench_guest(std::uint16_t port) {
  const auto r = http_post(port, "/api/guest", json::object());
  REQUIRE_MESSAGE(r.status == 201, r.body);
  return json::parse(r.body);
}

void bench_set_hook(std::uint16_t port, const std::string& session, const std::string& url) {
  const auto r =
      http_request(port, http::verb::put, "/api/me/notifications",
                   {{"Authorization", "Bearer " + session}, {"Content-Type", "application/json"}},
                   json{{"webhook", {{"url", url}}}}.dump());
  REQUIRE_MESSAGE(r.status == 200, r.body);
}

struct bench_game {
  std::unique_ptr<ws_client> a, b;
  std::unique_ptr<table> t;
  std::string room;
  bool slow = false;
  steady::time_point turn_began;  // the move that gave the turn was accepted
  int seen = 0;                   // deliveries of this room counted so far
};

}  // namespace

TEST_CASE("bench notify: deliveries per second and move-to-webhook delay" * doctest::skip()) {
  const int games = bench_env("GAMES", 100), slow_every = bench_env("SLOW_EVERY", 10),
            seconds = bench_env("DURATION", 60);
  temp_dir dir("carcassonne-bench-notify");
  auto c = test_config();
  c.journal = true;
  c.data_dir = dir.str();
  c.notify_batch_s = 0;
  c.notify_allow_private = true;
  c.max_connections_per_address = 100000;
  c.max_public_rooms_per_address = 100000;
  test_server server(c);
  const auto port = server.port();
  bench_hook hook;
  // The slow webhook: a listening socket nobody accepts on (the kernel completes connections
  // into its backlog; no answer ever comes).
  boost::asio::io_context io;
  boost::asio::ip::tcp::acceptor black_hole(io, {boost::asio::ip::make_address("127.0.0.1"), 0});
  black_hole.listen(4096);
  const auto fast_url = "http://127.0.0.1:" + std::to_string(hook.port()) + "/hook";
  const auto slow_url =
      "http://127.0.0.1:" + std::to_string(black_hole.local_endpoint().port()) + "/hook";

  std::vector<bench_game> all(static_cast<std::size_t>(games));
  for (int i = 0; i < games; ++i) {
    auto& g = all[static_cast<std::size_t>(i)];
    g.slow = slow_every > 0 && i % slow_every == slow_every - 1;
    const json ann = bench_guest(port), bob = bench_guest(port);
    for (const auto& p : {ann, bob})
      bench_set_hook(port, p["session"].get<std::string>(), g.slow ? slow_url : fast_url);
    g.a = std::make_unique<ws_client>(port);
    g.b = std::make_unique<ws_client>(port);
    REQUIRE(g.a->request({{"type", "authenticate"}, {"session", ann["session"]}})["type"] ==
            "authenticated");
    REQUIRE(g.b->request({{"type", "authenticate"}, {"session", bob["session"]}})["type"] ==
            "authenticated");
    auto made = g.a->request({{"type", "create_room"},
                              {"seats", 2},
                              {"name", "Bench " + std::to_string(i)},
                              {"match", {{"clock", "correspondence"}, {"move_hours", 24}}}});
    REQUIRE_MESSAGE(made["type"] == "room_created", made.dump());
    g.room = made["room"];
    REQUIRE(g.a->request({{"type", "join"}, {"room", g.room}})["type"] == "joined");
    REQUIRE(g.b->request({{"type", "join"}, {"room", g.room}})["type"] == "joined");
    g.t = std::make_unique<table>(table{{g.a.get(), g.b.get()}, {}});
    g.t->rng.seed(static_cast<std::uint64_t>(i) + 1);
  }
  // Every game starts; the first seat's "your turn" is the first delivery of each.
  for (auto& g : all) {
    g.t->start(*g.a);
    g.turn_began = steady::now();
  }

  std::vector<double> delays;  // seconds, fast games only
  int slow_turns = 0, moves = 0;
  const int hook_before = hook.total();
  const auto t0 = steady::now();
  while (seconds_since(t0) < seconds) {
    bool moved = false;
    for (auto& g : all) {
      if (g.t->finished()) continue;
      if (g.slow) {
        if (steady::now() - g.turn_began < milliseconds(2000)) continue;
        ++slow_turns;
      } else {
        const auto [at, count] = hook.last(g.room);
        if (count == g.seen) continue;  // its turn's webhook has not come yet
        g.seen = count;
        delays.push_back(std::chrono::duration<double>(at - g.turn_began).count());
      }
      // The whole turn (a tile, then its figure decision): the next player's notice follows it.
      const int mover = g.t->acting();
      do {
        g.t->step();
        ++moves;
      } while (!g.t->finished() && g.t->acting() == mover);
      moved = true;
      g.turn_began = steady::now();
    }
    if (!moved) std::this_thread::sleep_for(milliseconds(1));  // a benchmark polls its receiver
  }
  const double elapsed = seconds_since(t0);
  const int delivered = hook.total() - hook_before;
  std::sort(delays.begin(), delays.end());
  const auto at = [&](double q) {
    return delays.empty() ? 0.0
                          : delays[std::min(delays.size() - 1,
                                            static_cast<std::size_t>(q * double(delays.size())))];
  };
  std::printf(
      "bench notify: %d games (%d slow), %.0f s: %d moves, %d webhooks delivered to the fast "
      "receiver (%.1f per second), %d slow turns; move-to-webhook delay p50 %.0f ms, p90 %.0f ms, "
      "p99 %.0f ms, max %.0f ms (%zu samples)\n",
      games, slow_every > 0 ? games / slow_every : 0, elapsed, moves, delivered,
      delivered / elapsed, slow_turns, 1000 * at(0.50), 1000 * at(0.90), 1000 * at(0.99),
      1000 * (delays.empty() ? 0.0 : delays.back()), delays.size());
  CHECK(!delays.empty());
}
