// A correspondence game across a server restart (the store of persistence_test.cpp): each clock
// comes back with the time it had when the server stopped; the downtime is not charged.
#include <unistd.h>

#include <filesystem>
#include <mutex>

#include "carcassonne/engine/forfeit.hpp"
#include "match_support.hpp"
#include "strand_queue.hpp"

using carcassonne::server::test::strand_queue;

using namespace carcassonne;
using namespace carcassonne::server;
using namespace carcassonne::testing;
namespace fs = std::filesystem;

namespace {

struct temp_db {
  fs::path dir = fs::temp_directory_path() / ("carcassonne-clock-" + std::to_string(::getpid()));
  temp_db() {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~temp_db() { fs::remove_all(dir); }
  std::string path() const { return (dir / "c.db").string(); }
};

}  // namespace

TEST_CASE("correspondence: a restart keeps each seat's time; downtime is not charged") {
  temp_db db_dir;
  std::string error;
  auto db = store::open({db_dir.path(), false}, error);
  REQUIRE_MESSAGE(db, error);
  strand_queue q;
  metrics stats;
  match_options o;
  o.clock = time_control::correspondence;
  o.per_move = std::chrono::hours(24);
  o.on_timeout = timeout_action::forfeit;
  auto timer = std::make_shared<test::fake_timer>();
  auto a = make_client(), b = make_client();
  auto r = std::make_unique<room>(match_settings(2, o), &stats, a);
  r->attach_store(db.get(), q.poster());
  r->attach_timer(timer);
  r->join(a, messages::join_as("Ann"), nullptr);
  r->join(b, messages::join_as("Bob"), nullptr);
  r->start(a, "s");
  q.pump(*db);
  timer->advance(std::chrono::hours(3));
  while (to_act(*r->game()) == 0) {
    r->move(a, messages::move_of(a->view["game"]["legal_moves"][0]), nullptr);
    q.pump(*db);
  }
  timer->advance(std::chrono::hours(5));  // seat 1 thinks for 5 hours; the server stops
  q.pump(*db);
  const json record = r->record();
  r.reset();
  q.queued.clear();

  auto rooms = db->unfinished_rooms(error);
  REQUIRE(rooms.size() == 1);
  auto back = room::restore(rooms[0], &stats, error);
  REQUIRE_MESSAGE(back, error);
  auto later = std::make_shared<test::fake_timer>();
  later->advance(std::chrono::hours(48));  // two days down
  back->attach_store(db.get(), q.poster());
  back->attach_timer(later);
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
  temp_db db_dir;
  std::string error;
  auto db = store::open({db_dir.path(), false}, error);
  REQUIRE_MESSAGE(db, error);
  strand_queue q;
  metrics stats;
  match_options o;
  o.clock = time_control::fischer;
  o.initial = std::chrono::minutes(10);
  o.increment = std::chrono::seconds(20);
  o.on_timeout = timeout_action::forfeit;
  auto timer = std::make_shared<test::fake_timer>();
  auto a = make_client(), b = make_client();
  auto r = std::make_unique<room>(match_settings(2, o), &stats, a);
  r->attach_store(db.get(), q.poster());
  r->attach_timer(timer);
  r->join(a, messages::join_as("Ann"), nullptr);
  r->join(b, messages::join_as("Bob"), nullptr);
  r->start(a, "s");
  q.pump(*db);
  const int running = to_act(*r->game());
  // 30 s of thought, less than the minute between checkpoints: only the stop can save them.
  timer->advance(std::chrono::seconds(30));
  r->save_clock();
  q.pump(*db);
  const std::string id = r->id();
  r.reset();
  q.queued.clear();

  auto rooms = db->unfinished_rooms(error);
  REQUIRE(rooms.size() == 1);
  auto back = room::restore(rooms[0], &stats, error);
  REQUIRE_MESSAGE(back, error);
  auto later = std::make_shared<test::fake_timer>();
  later->advance(std::chrono::hours(2));  // the server was down two hours
  back->attach_store(db.get(), q.poster());
  back->attach_timer(later);
  auto a2 = make_client();
  back->resume(a2, messages::resume_with(id, a->last("joined")["token"].get<std::string>()), "r");
  q.pump(*db);
  const json clock = a2->view["room"]["clock"];
  CHECK(clock["running"] == running);
  CHECK(clock["remaining_ms"][running] == 570'000);      // 10 min less the 30 s thought
  CHECK(clock["remaining_ms"][1 - running] == 600'000);  // the other seat's clock did not run
}
