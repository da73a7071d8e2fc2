// Every frame of seeded rooms played with seeded moves, in the order the room sent them: base and
// expansion mixes (all five together too), spectators with and without delay, joins, leaves,
// resumes, chat, snapshots, fairness nonces, bot settings, clocks and undo. Each client's patched
// view must equal its snapshot at the end. With CARCASSONNE_FRAMES_OUT=FILE the frames are also
// appended to FILE (one "room client frame" line each): two builds' files compared with `cmp`
// show that a change to the broadcast path left every byte as it was.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include "carcassonne/engine/rng.hpp"
#include "every_expansion.hpp"
#include "fake_timer.hpp"
#include "room_support.hpp"

using namespace carcassonne;
using namespace carcassonne::server;
using namespace carcassonne::testing;
using namespace std::chrono_literals;
using kind = protocol::match_msg::kind;

namespace {

std::vector<std::string> frame_log;  // every frame of every scenario, in sending order

struct recording_client : fake_client {
  std::string label;
  explicit recording_client(std::string l) : label(std::move(l)) {}
  void deliver(frame_ptr f) override {
    std::string line = label;
    line += ' ';
    line += *f;
    const auto token = line.find(R"("token":")");  // random: masked, to compare runs
    if (token != std::string::npos) line.erase(token + 9, 31)[token + 9] = '*';
    frame_log.push_back(std::move(line));
    fake_client::deliver(std::move(f));
  }
};

// Appends the frames so far to $CARCASSONNE_FRAMES_OUT, if set (delete it before a run).
void write_out() {
  CHECK(frame_log.size() > 100);
  if (const char* path = std::getenv("CARCASSONNE_FRAMES_OUT")) {
    std::ofstream out(path, std::ios::binary | std::ios::app);
    for (const auto& f : frame_log) out << f << '\n';
    CHECK(out.good());
  }
  frame_log.clear();
}

std::shared_ptr<recording_client> client(const std::string& room, const std::string& name) {
  return std::make_shared<recording_client>(room + " " + name);
}

// A room, its seats (joined in order), its spectators, and what the test does between moves.
struct scene {
  std::shared_ptr<test::fake_timer> timer = std::make_shared<test::fake_timer>();
  metrics stats;
  std::vector<std::shared_ptr<fake_client>> seats;
  std::vector<std::shared_ptr<fake_client>> watchers;
  std::unique_ptr<room> r;
  int last_mover = -1;

  scene(room_settings s, int watchers_at_start) {
    for (int i = 0; i < s.seats; ++i) seats.push_back(client(s.id, "seat" + std::to_string(i)));
    for (int i = 0; i < watchers_at_start; ++i)
      watchers.push_back(client(s.id, "watcher" + std::to_string(i)));
    r = std::make_unique<room>(std::move(s), &stats, seats[0]);
    r->attach_timer(timer);
  }
  void join_all() {
    for (std::size_t i = 0; i < seats.size(); ++i)
      r->join(seats[i], messages::join_as(std::string("P").append(std::to_string(i))), "j");
    for (auto& w : watchers) r->spectate(w, "w");
  }
  void act(int seat, kind what, bool accept) {
    protocol::match_msg m;
    m.what = what;
    m.accept = accept;
    r->match_action(seats[seat], m, "act");
  }
  // Seeded moves from each seat's own view; `between(n)` runs before move n.
  template <class F>
  void play(std::uint64_t seed, F&& between) {
    rng chooser(seed);
    int n = 0;
    while (r->game() && !r->game()->finished) {
      between(n);
      if (r->game()->finished) break;
      last_mover = to_act(*r->game());
      auto& c = seats[last_mover];
      const auto& legal = c->view["game"]["legal_moves"];
      REQUIRE(legal.is_array());
      REQUIRE(!legal.empty());
      r->move(c, messages::move_of(legal[chooser.below(legal.size())]), n);
      ++n;
      timer->advance(1700ms);  // clocks tick between moves
    }
  }
  // Every client that is still in the room followed it without a gap to its snapshot.
  void check_views() {
    std::vector<std::shared_ptr<fake_client>> all = seats;
    all.insert(all.end(), watchers.begin(), watchers.end());
    for (auto& c : all) {
      if (c->room.empty()) continue;
      CAPTURE(c->raw.size());
      CHECK_FALSE(c->gap);
      const json held = c->view;
      r->snapshot(c, "end");
      CHECK(c->last("snapshot")["view"] == held);
    }
    write_out();
  }
};

room_settings settings(const std::string& id, int seats, json setup, int delay) {
  return test_room_settings(id, seats, "frames-" + id, std::move(setup), delay, "Room " + id);
}

void expansion_game(const std::string& id, int seats, json expansions, int delay,
                    std::uint64_t seed) {
  scene s(settings(id, seats, {{"expansions", std::move(expansions)}}, delay), 1);
  s.join_all();
  s.r->start(s.seats[0], "go");
  auto late = client(id, "late");
  s.play(seed, [&](int n) {
    if (n == 12) {
      s.r->spectate(late, "late");
      s.watchers.push_back(late);
    }
    if (n == 25) s.r->chat(s.seats[1], protocol::chat_msg{"hello \"all\" \xc3\xa9"}, "c");
    if (n == 30) s.r->snapshot(s.seats[0], "mid");
  });
  s.check_views();
}

}  // namespace

TEST_CASE("frames: a base game with joins, leaves, a resume, chat and spectators") {
  scene s(settings("base", 4, json::object(), 0), 1);
  s.join_all();
  s.r->start(s.seats[0], "go");
  auto late = client("base", "late");
  const auto token = s.seats[2]->last("joined")["token"].get<std::string>();
  auto back = client("base", "seat2-back");
  bool away = false;
  s.play(101, [&](int n) {
    if (n == 5) s.r->spectate(late, "late");
    if (n == 9 && to_act(*s.r->game()) != 2) {
      s.r->disconnected(s.seats[2]);
      away = true;
    }
    if (away && (n == 14 || to_act(*s.r->game()) == 2)) {  // back before its turn
      s.r->resume(back, messages::resume_with("base", token), "back");
      s.seats[2] = back;
      away = false;
    }
    if (n == 20) s.r->leave(late, "bye");
    if (n == 22) s.r->chat(s.seats[0], protocol::chat_msg{"gg"}, "c");
  });
  s.check_views();
}

TEST_CASE("frames: all five expansions, spectators with and without delay") {
  const json five = carcassonne::testing::every_expansion();
  expansion_game("five0", 4, five, 0, 202);
  expansion_game("five3", 4, five, 3, 203);
  expansion_game("five5p", 5, five, 2, 204);
}

TEST_CASE("frames: each expansion alone and a few pairs") {
  int delay = 0;
  std::uint64_t seed = 300;
  for (const json& mix :
       {json{"hills_and_sheep"}, json{"gifts"}, json{"peasant_revolts"}, json{"easter"},
        json{"festival"}, json{"gifts", "easter"}, json{"hills_and_sheep", "festival"}}) {
    expansion_game("mix" + std::to_string(seed), 2 + static_cast<int>(seed % 3), mix, delay, seed);
    delay = delay ? 0 : 2;
    ++seed;
  }
}

TEST_CASE("frames: fairness nonces, bot settings, clocks and undo in the room part") {
  {
    auto st = settings("fair", 2, json::object(), 0);
    st.seed.clear();
    st.secret = std::string(64, 'a');
    scene s(std::move(st), 1);
    s.join_all();
    s.r->nonce(s.seats[0], protocol::nonce_msg{"n0"}, "n");
    s.r->nonce(s.seats[1], protocol::nonce_msg{"n1"}, "n");
    s.r->start(s.seats[0], "go");
    s.play(401, [](int) {});
    s.check_views();
  }
  {
    scene s(settings("bots", 3, json::object(), 1), 1);
    protocol::room_bot_settings b;
    b.seats.resize(3);
    b.takeover_after = 30;
    s.r->set_bot_settings(b);
    s.r->join(s.seats[0], messages::join_as("P0"), "j");
    protocol::add_bot_msg add;
    add.seat = 2;
    s.r->add_bot(s.seats[0], add, "add");
    s.r->remove_bot(s.seats[0], protocol::remove_bot_msg{2}, "rm");
    s.r->join(s.seats[1], messages::join_as("P1"), "j");
    s.r->join(s.seats[2], messages::join_as("P2"), "j");
    s.r->spectate(s.watchers[0], "w");
    s.r->start(s.seats[0], "go");
    s.play(402, [](int) {});
    s.check_views();
  }
  {
    auto st = settings("clock", 2, json::object(), 0);
    st.match.clock = time_control::fischer;
    st.match.initial = 600s;
    st.match.increment = 5s;
    scene s(std::move(st), 1);
    s.join_all();
    s.r->start(s.seats[0], "go");
    s.play(403, [&](int n) {
      if (n == 3 || n == 11) {
        const int seat = s.last_mover;
        s.act(seat, kind::undo, true);
        s.act(1 - seat, kind::undo_answer, n == 3);
      }
    });
    s.check_views();
  }
}
