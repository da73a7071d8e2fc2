// Fencing by lease generation (docs/scaling.md "Failover"): two store handles on one private
// PostgreSQL play two instances; once the newer generation takes a room, the older one's writes
// are refused (and only that room's), nothing refused is stored, and a room whose write was
// refused stops with room_moved instead of acknowledging the move.
#include <doctest/doctest.h>

#include "carcassonne/engine/rng.hpp"
#include "fake_client.hpp"
#include "store/store.hpp"
#include "store_backends.hpp"
#include "strand_queue.hpp"

using namespace carcassonne;
using namespace carcassonne::server;
using carcassonne::server::test::strand_queue;
using carcassonne::testing::make_client;
using namespace carcassonne::testing::messages;
using nlohmann::json;

namespace {

std::unique_ptr<store> open_url_store(const std::string& url) {
  std::string error;
  auto s = store::open({url, true}, error);
  REQUIRE_MESSAGE(s, error);
  return s;
}

write_result write(store& s, store_write w) {
  write_result out;
  s.submit(std::move(w), [&](write_result r) { out = r; });
  s.flush();
  return out;
}

}  // namespace

TEST_CASE("PostgreSQL fencing: an older lease generation's writes are refused, room by room") {
  auto* pg = carcassonne::testing::shared_postgres();
  if (!pg) return;
  const auto url = pg->fresh_database();
  auto old_owner = open_url_store(url), new_owner = open_url_store(url);

  CHECK(write(*old_owner, save_room_write{"r", room_state::playing, "{}", 1}).durable);
  CHECK(write(*old_owner, move_write{"r", 0, R"({"n":0})", "null", 1, 1}).durable);
  CHECK(write(*old_owner, save_room_write{"s", room_state::playing, "{}", 1}).durable);

  std::string error;
  REQUIRE_MESSAGE(new_owner->take_room("r", 2, error), error);
  CHECK(new_owner->take_room("r", 2, error));  // taking it again is harmless
  CHECK_FALSE(old_owner->take_room("r", 1, error));
  CHECK(error.find("newer lease generation") != std::string::npos);
  error.clear();
  CHECK(old_owner->recorded_generation("r", error) == 2u);
  CHECK(old_owner->recorded_generation("nowhere", error) == 0u);
  CHECK(error.empty());

  // One batch: the old owner's write of r is refused, its write of s still commits.
  write_result refused, other;
  old_owner->submit(move_write{"r", 1, R"({"n":"stale"})", "null", 2, 1},
                    [&](write_result r) { refused = r; });
  old_owner->submit(move_write{"s", 0, R"({"n":"s0"})", "null", 1, 1},
                    [&](write_result r) { other = r; });
  old_owner->flush();
  CHECK(refused.fenced);
  CHECK_FALSE(refused.durable);
  CHECK(other.durable);
  CHECK_FALSE(other.fenced);
  CHECK_FALSE(write(*old_owner, save_room_write{"r", room_state::finished, "{}", 1}).durable);
  CHECK(write(*old_owner, delete_room_write{"r", 1}).fenced);

  const auto fresh = write(*new_owner, move_write{"r", 1, R"({"n":1})", "null", 2, 2});
  CHECK(fresh.durable);
  error.clear();
  auto r = new_owner->load("r", error);
  REQUIRE_MESSAGE(r, error);
  CHECK(r->state == room_state::playing);  // the refused save and delete changed nothing
  REQUIRE(r->moves.size() == 2);
  CHECK(r->moves[1].move == json{{"n", 1}});  // the stale move is not there
  CHECK(old_owner->failures.load() == 0);     // a fenced write is not a database failure

  // Generation 0 (no cluster) is never fenced; SQLite ignores generations altogether.
  CHECK(write(*old_owner, save_room_write{"t", room_state::waiting, "{}", 0}).durable);
  auto ids = new_owner->unfinished_ids(error);
  CHECK(ids == std::vector<std::string>{"r", "s", "t"});
}

TEST_CASE("a room whose write is fenced off stops with room_moved and acknowledges nothing") {
  auto* pg = carcassonne::testing::shared_postgres();
  if (!pg) return;
  const auto url = pg->fresh_database();
  auto db = open_url_store(url), adopter = open_url_store(url);
  strand_queue q;
  metrics stats;
  auto a = make_client(), b = make_client();
  room_settings s;
  s.id = "fenced1";
  s.seats = 2;
  s.setup = json::object();
  s.seed = "fencing-test-seed";
  room r(s, &stats, a);
  r.set_lease_generation(3);
  r.attach_store(db.get(), q.poster());
  r.join(a, join_as("Ann"), nullptr);
  r.join(b, join_as("Bob"), nullptr);
  r.start(a, nullptr);
  q.pump(*db);
  REQUIRE(r.game());

  std::string error;
  REQUIRE_MESSAGE(adopter->take_room("fenced1", 4, error), error);  // another instance took it
  rng chooser(7);
  auto& mover = to_act(*r.game()) == 0 ? a : b;
  const auto& legal = mover->view["game"]["legal_moves"];
  REQUIRE(!legal.empty());
  const auto frames_before = mover->frames.size();
  r.move(mover, move_of(legal[chooser.below(legal.size())]), json("m1"));
  q.pump(*db);
  CHECK(mover->last("move_accepted").is_null());  // never acknowledged
  REQUIRE(mover->frames.size() == frames_before + 1);
  CHECK(mover->last_error() == "room_moved");
  CHECK(mover->room.empty());  // told to go, and out of the room
  CHECK(a->last_error() == "room_moved");
  CHECK(b->last_error() == "room_moved");
  CHECK(r.writes().stopped());

  auto stored = adopter->load("fenced1", error);
  REQUIRE(stored);
  CHECK(stored->moves.empty());  // the refused move is nowhere
  // A resume here is sent away too: the room lives on the other instance now.
  auto c = make_client();
  protocol::resume_msg m;
  m.room = "fenced1";
  m.token = "whatever";
  r.resume(c, m, json("again"));
  CHECK(c->last_error() == "room_moved");
}
