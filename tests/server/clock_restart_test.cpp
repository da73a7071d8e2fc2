// A correspondence game across a server restart (the store of persistence_test.cpp): each clock
// comes back with the time it had when the server stopped; the downtime is not charged.
#include <filesystem>
#include <mutex>
#include <tuple>

#include "carcassonne/engine/forfeit.hpp"
#include "match_support.hpp"
#include "room/room_meta.hpp"
#include "strand_queue.hpp"
#include "temp_dir.hpp"

using carcassonne::server::test::strand_queue;

using namespace carcassonne;
using namespace carcassonne::server;
using namespace carcassonne::testing;
namespace fs = std::filesystem;

namespace {

// A two-seat match room on a fresh store, Ann and Bob seated and the game started; stop_and_restart
// drops the room as a stopped server would and rebuilds it from the store `down` later.
struct restart_fixture {
  test::temp_dir dir{"carcassonne-clock"};
  std::string error;
  std::unique_ptr<store> db;
  strand_queue q;
  metrics stats;
  std::shared_ptr<test::fake_timer> timer = std::make_shared<test::fake_timer>();
  std::shared_ptr<fake_client> a = make_client(), b = make_client();
  std::unique_ptr<room> r;

  explicit restart_fixture(const match_options& o) {
    db = store::open({dir.db(), false}, error);
    REQUIRE_MESSAGE(db, error);
    r = std::make_unique<room>(match_settings(2, o), &stats, a);
    r->attach_store(db.get(), q.poster());
    r->attach_timer(timer);
    r->join(a, messages::join_as("Ann"), nullptr);
    r->join(b, messages::join_as("Bob"), nullptr);
    r->start(a, "s");
    q.pump(*db);
  }

  // The room rebuilt on a new timer that has run `down` (the server's downtime).
  std::unique_ptr<room> stop_and_restart(std::shared_ptr<test::fake_timer>& later,
                                         std::chrono::hours down) {
    r.reset();
    q.queued.clear();
    auto rooms = db->unfinished_rooms(error);
    REQUIRE(rooms.size() == 1);
    auto back = room::restore(rooms[0], &stats, error);
    REQUIRE_MESSAGE(back, error);
    later = std::make_shared<test::fake_timer>();
    later->advance(down);
    back->attach_store(db.get(), q.poster());
    back->attach_timer(later);
    return back;
  }
};

}  // namespace

TEST_CASE("correspondence: a restart keeps each seat's time; downtime is not charged") {
  match_options o;
  o.clock = time_control::correspondence;
  o.per_move = std::chrono::hours(24);
  o.on_timeout = timeout_action::forfeit;
  restart_fixture f(o);  // below, short names for its parts
  auto [r, a, b, q, db, timer, error] = std::tie(f.r, f.a, f.b, f.q, f.db, f.timer, f.error);
  timer->advance(std::chrono::hours(3));
  while (to_act(*r->game()) == 0) {
    r->move(a, messages::move_of(a->view["game"]["legal_moves"][0]), nullptr);
    q.pump(*db);
  }
  timer->advance(std::chrono::hours(5));  // seat 1 thinks for 5 hours; the server stops
  q.pump(*db);
  const json record = r->record();
  std::shared_ptr<test::fake_timer> later;
  auto back = f.stop_and_restart(later, std::chrono::hours(48));  // two days down
  CHECK(back->record() == record);
  auto b2 = make_client();
  back->resume(b2, messages::resume_with("m1", b->last("joined")["token"].get<std::string>()), "r");
  q.pump(*db);
  const json clock = b2->view["room"]["clock"];
  CHECK(clock["running"] == 1);
  CHECK(clock["remaining_ms"] == json::array({24 * 3600 * 1000, 19 * 3600 * 1000}));
  // The 19 hours left run out after the restart, not before.
  later->advance(std::chrono::hours(19) - std::chrono::seconds(1));
  CHECK_FALSE(has_forfeited(*back->game(), 1));
  later->advance(std::chrono::seconds(1));
  q.pump(*db);
  CHECK(has_forfeited(*back->game(), 1));
  CHECK(back->game()->finished);  // one seat left: the game ends
  CHECK(back->record()["moves"].back()["type"] == "forfeit");
  check_replays(*back);
  // The finished game is archived with its forfeit.
  auto done = db->load("m1", error);
  REQUIRE(done);
  CHECK(done->state == room_state::finished);
}

TEST_CASE("a stop writes the running clock: the restart gives back none of the time thought") {
  match_options o;
  o.clock = time_control::fischer;
  o.initial = std::chrono::minutes(10);
  o.increment = std::chrono::seconds(20);
  o.on_timeout = timeout_action::forfeit;
  restart_fixture f(o);  // below, short names for its parts
  auto [r, a, q, db, timer] = std::tie(f.r, f.a, f.q, f.db, f.timer);
  const int running = to_act(*r->game());
  // 30 s of thought, less than the minute between checkpoints: only the stop can save them.
  timer->advance(std::chrono::seconds(30));
  r->save_clock();
  q.pump(*db);
  const std::string id = r->id();
  std::shared_ptr<test::fake_timer> later;
  auto back = f.stop_and_restart(later, std::chrono::hours(2));  // the server was down two hours
  auto a2 = make_client();
  back->resume(a2, messages::resume_with(id, a->last("joined")["token"].get<std::string>()), "r");
  q.pump(*db);
  const json clock = a2->view["room"]["clock"];
  CHECK(clock["running"] == running);
  CHECK(clock["remaining_ms"][running] == 570'000);      // 10 min less the 30 s thought
  CHECK(clock["remaining_ms"][1 - running] == 600'000);  // the other seat's clock did not run
}

TEST_CASE(
    "a clocked move: its meta write is the whole meta, its patches make the snapshot's view") {
  match_options o;
  o.clock = time_control::fischer;
  o.initial = std::chrono::minutes(10);
  o.increment = std::chrono::seconds(20);
  o.on_timeout = timeout_action::forfeit;
  restart_fixture f(o);
  auto [r, a, b, q, db, timer] = std::tie(f.r, f.a, f.b, f.q, f.db, f.timer);
  std::string& error = f.error;  // not a binding: doctest's message macros capture it
  for (int i = 0; i < 6; ++i) {
    timer->advance(std::chrono::seconds(7 + i));
    const auto& mover = to_act(*r->game()) == 0 ? a : b;
    r->move(mover, messages::move_of(mover->view["game"]["legal_moves"][0]), nullptr);
    q.pump(*db);
    auto stored = db->load(r->id(), error);
    REQUIRE_MESSAGE(stored, error);
    json fresh = json::parse(r->stored_meta());
    // Written before the move's patch: it claims from the patch's seq on, one before what a
    // write now claims.
    CHECK(stored->meta["seq"] == r->seq() - 1 + seq_reserve);
    CHECK(fresh["seq"] == r->seq() + seq_reserve);
    stored->meta.erase("seq");
    fresh.erase("seq");
    CHECK(stored->meta == fresh);
    CHECK(stored->meta["clock"].is_object());
    CHECK(stored->meta["record_setup"] == r->record()["setup"]);
    // The patches of a clocked move (its clock diffed alone) make the view a snapshot gives.
    const json patched = a->view;
    r->snapshot(a, "s");
    q.pump(*db);
    CHECK(a->last("snapshot")["view"] == patched);
    CHECK(patched["room"]["clock"]["remaining_ms"].size() == 2);
    // The room's summary (published with every clocked move) keeps its match.
    CHECK(r->listing().summary().match["clock"] == "fischer");
    CHECK(r->listing().summary().match["increment_s"] == 20);
  }
}
