// A resume with last_seq (docs/protocol.md §12): the patches the seat missed, when the room still
// has them all, else a snapshot; either way the client's view ends as the room's.
#include <doctest/doctest.h>

#include "carcassonne/engine/rng.hpp"
#include "room_support.hpp"

using namespace carcassonne;
using namespace carcassonne::server;
using carcassonne::testing::fake_client;
using carcassonne::testing::make_client;
using carcassonne::testing::test_room_settings;
using namespace carcassonne::testing::messages;
using nlohmann::json;

namespace {

// A started two-seat room; Ann's token.
struct resume_table {
  std::shared_ptr<fake_client> a = make_client(), b = make_client();
  room r{test_room_settings("resume1", 2, "resume-window-seed"), nullptr, a};
  std::string token;
  rng chooser{9};

  resume_table() {
    r.join(a, join_as("Ann"), nullptr);
    token = a->last("joined")["token"].get<std::string>();
    r.join(b, join_as("Bob"), nullptr);
    r.start(a, nullptr);
  }
  // One random legal move by whoever is to act, n times.
  void play(int n) {
    for (int i = 0; i < n && !r.game()->finished; ++i) {
      const int seat = to_act(*r.game());
      auto& c = seat == 0 ? a : b;
      const auto& legal = c->view["game"]["legal_moves"];
      REQUIRE(!legal.empty());
      r.move(c, move_of(legal[chooser.below(legal.size())]), nullptr);
    }
  }
  // Bob moves while Ann is away (with Ann to act, Bob cannot: then nothing is played).
  int play_bob(int n) {
    int played = 0;
    for (; played < n && !r.game()->finished && to_act(*r.game()) == 1; ++played) {
      const auto& legal = b->view["game"]["legal_moves"];
      r.move(b, move_of(legal[chooser.below(legal.size())]), nullptr);
    }
    return played;
  }
};

// The view a fresh snapshot gives the seat now.
json snapshot_of(room& r, const std::shared_ptr<fake_client>& c) {
  r.snapshot(c, "check");
  return c->last("snapshot")["view"];
}

}  // namespace

TEST_CASE("resume with last_seq: the missed patches, not a snapshot, and the view is the room's") {
  resume_table t;
  t.play(6);
  // Ann's connection drops while patches are on their way: her client saw up to `seen`.
  auto old = t.a;
  const json view_then = old->view;
  const auto seen = old->seq;
  t.r.disconnected(old);
  // A few more changes while she is away (her own departure is one of them).
  t.play_bob(3);
  REQUIRE(t.r.seq() > seen);
  auto back = make_client();
  back->view = view_then;  // the client keeps its view and applies what comes
  back->seq = seen;
  auto m = resume_with("resume1", t.token);
  m.last_seq = seen;
  t.r.resume(back, m, "r1");
  CHECK(back->last("resumed")["seq"] == t.r.seq() - 1);  // before its own presence patch
  CHECK(back->last("snapshot").is_null());
  CHECK_FALSE(back->gap);
  CHECK(back->seq == t.r.seq());
  CHECK(back->view == snapshot_of(t.r, back));
}

TEST_CASE("resume with last_seq: too far behind, or from before the window, gets a snapshot") {
  resume_table t;
  t.play(2);
  auto old = t.a;
  const auto seen = old->seq;
  t.r.disconnected(old);
  // More changes than the window holds: spectators arriving.
  auto spectators = std::vector<std::shared_ptr<fake_client>>{};
  for (std::size_t i = 0; i < resume_window::patches + 2; ++i) {
    spectators.push_back(make_client());
    t.r.spectate(spectators.back(), nullptr);
  }
  auto back = make_client();
  auto m = resume_with("resume1", t.token);
  m.last_seq = seen;
  t.r.resume(back, m, "r1");
  REQUIRE_FALSE(back->last("snapshot").is_null());
  CHECK(back->view == snapshot_of(t.r, back));

  // A last_seq from the future (another room's, a server's before a restart) is no shortcut.
  auto other = make_client();
  m.last_seq = t.r.seq() + 5;
  t.r.resume(other, m, "r2");
  CHECK_FALSE(other->last("snapshot").is_null());
}
