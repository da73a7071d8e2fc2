// At most one patch a second for the spectators' count (room/patch_throttle.hpp): the part alone
// on a fake timer, then a crowd of spectators arriving in a room.
#include <doctest/doctest.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "fake_client.hpp"
#include "fake_timer.hpp"
#include "room/patch_throttle.hpp"
#include "room_support.hpp"

namespace {

using carcassonne::server::patch_throttle;
using carcassonne::server::test::fake_timer;
using std::chrono::milliseconds;

// A throttle whose patches are counted and shown, as the room's broadcast shows them.
struct counted_patches {
  int sent = 0;
  patch_throttle throttle{[this] {
    ++sent;
    throttle.shown();
  }};
};

int patches_of(const carcassonne::testing::fake_client& c) {
  int n = 0;
  for (const auto& f : c.frames) n += f["type"] == "patch";
  return n;
}

}  // namespace

TEST_CASE("patch_throttle: the first change goes at once, the next ones together a second later") {
  auto timer = std::make_shared<fake_timer>();
  counted_patches p;
  p.throttle.set_timer(timer);
  p.throttle.changed();
  CHECK(p.sent == 1);
  for (int i = 0; i < 50; ++i) p.throttle.changed();  // a crowd within the same second
  CHECK(p.sent == 1);
  CHECK(p.throttle.pending());
  timer->advance(milliseconds(999));
  CHECK(p.sent == 1);
  timer->advance(milliseconds(1));
  CHECK(p.sent == 2);
  timer->advance(milliseconds(5000));  // quiet: the next change goes at once again
  p.throttle.changed();
  CHECK(p.sent == 3);
}

TEST_CASE("patch_throttle: a patch sent for another reason shows the change, nothing waits") {
  auto timer = std::make_shared<fake_timer>();
  counted_patches p;
  p.throttle.set_timer(timer);
  p.throttle.changed();
  p.throttle.changed();
  REQUIRE(p.throttle.pending());
  timer->advance(milliseconds(300));
  p.throttle.shown();  // a move's patch carried the count
  CHECK_FALSE(p.throttle.pending());
  timer->advance(milliseconds(5000));
  CHECK(p.sent == 1);
  CHECK(timer->pending() == 0);
}

TEST_CASE("patch_throttle: without a timer every change goes at once") {
  counted_patches p;
  for (int i = 0; i < 3; ++i) p.throttle.changed();
  CHECK(p.sent == 3);
}

TEST_CASE("patch_throttle: 200 spectators arriving cost each member a few patches, not 200") {
  using namespace carcassonne::testing;
  auto timer = std::make_shared<fake_timer>();
  carcassonne::server::metrics stats;
  auto ann = make_client();
  carcassonne::server::room r(test_room_settings("crowd", 2, "crowd-seed"), &stats, ann);
  r.attach_timer(timer);
  r.join(ann, messages::join_as("Ann"), "j");
  std::vector<std::shared_ptr<fake_client>> crowd;
  for (int i = 0; i < 200; ++i) {
    crowd.push_back(make_client());
    r.spectate(crowd.back(), "w");
    timer->advance(milliseconds(10));  // two seconds of arrivals
  }
  timer->advance(milliseconds(1000));
  // The count as it is, for everyone: the last patch showed all 200.
  CHECK(ann->view["room"]["spectators"] == 200);
  CHECK(crowd.front()->view["room"]["spectators"] == 200);
  CHECK(crowd.back()->view["room"]["spectators"] == 200);
  CHECK_FALSE(ann->gap);
  CHECK_FALSE(crowd.front()->gap);
  CHECK(patches_of(*ann) <= 4);  // one at the first arrival, then one a second
  CHECK(patches_of(*crowd.front()) <= 4);
  r.snapshot(crowd[100], "check");
  CHECK(crowd[100]->last("snapshot")["view"] == crowd[100]->view);

  // Leaving is counted the same way; a seat's change still goes at once.
  for (int i = 0; i < 50; ++i) r.leave(crowd[static_cast<std::size_t>(i)], "l");
  timer->advance(milliseconds(1000));
  CHECK(ann->view["room"]["spectators"] == 150);
  auto bob = make_client();
  const int before = patches_of(*ann);
  r.join(bob, messages::join_as("Bob"), "j");
  CHECK(patches_of(*ann) == before + 1);
  CHECK(ann->view["room"]["seats"][1]["name"] == "Bob");
}
