// The order of a relayed room's stream on a watching instance (cluster/relay_feed.hpp): a
// snapshot first, then patches in seq order; a gap asks for a snapshot; an adopted room's
// snapshot (a seq above every one shown) moves everyone on; what an owner of an older lease
// generation publishes is dropped.
#include <doctest/doctest.h>

#include "cluster/relay_feed.hpp"

using carcassonne::server::frame_head;
using carcassonne::server::head_of;
using carcassonne::server::relay_feed;
using carcassonne::server::tagged;
using carcassonne::server::untag;
using action = relay_feed::action;

namespace relay_feed_test {

frame_head snapshot(std::uint64_t seq) {
  return {"snapshot", seq};
}
frame_head patch(std::uint64_t seq) {
  return {"patch", seq};
}

}  // namespace relay_feed_test

TEST_CASE("relay feed: a frame's type and seq from its first bytes, or parsed") {
  const auto p = head_of(R"({"type":"patch","room":"ab12","seq":17,"events":[],"patch":[]})");
  CHECK(p.type == "patch");
  REQUIRE(p.seq);
  CHECK(*p.seq == 17);
  const auto c = head_of(R"({"name":"Ann","room":"ab12","seat":0,"text":"hi","type":"chat"})");
  CHECK(c.type == "chat");
  CHECK_FALSE(c.seq);
  const auto e = head_of(R"({"code":"room_moved","message":"x","type":"error"})");
  CHECK(e.type == "error");
  CHECK_FALSE(carcassonne::server::relayed_type(e.type));
  CHECK(carcassonne::server::relayed_type("snapshot"));
  CHECK(head_of("not json").type.empty());
}

TEST_CASE("relay feed: snapshot, patches in order, duplicates dropped, a gap asks a snapshot") {
  using namespace relay_feed_test;
  relay_feed f;
  // Nothing before the first snapshot, which a first owner heard by a patch is asked for.
  CHECK(f.take(patch(4), 1) == action::ask_snapshot);
  CHECK(f.take(patch(5), 1) == action::drop);
  CHECK(f.take({"chat", std::nullopt}, 1) == action::drop);
  CHECK(f.take(snapshot(5), 1) == action::snapshot_all);
  CHECK(f.take(snapshot(5), 1) == action::snapshot_new);  // asked by a newcomer: the same view
  CHECK(f.take(patch(5), 1) == action::drop);
  CHECK(f.take(patch(6), 1) == action::to_live);
  CHECK(f.take({"chat", std::nullopt}, 1) == action::to_live);
  CHECK(f.take(snapshot(4), 1) == action::drop);  // stale
  CHECK(f.take(patch(8), 1) == action::ask_snapshot);
  CHECK_FALSE(f.in_step());
  CHECK(f.take(patch(9), 1) == action::drop);  // until the snapshot comes
  CHECK(f.take(snapshot(9), 1) == action::snapshot_all);
  CHECK(f.take(patch(10), 1) == action::to_live);
  // The owner dies; the adopter's link starts with its mark, then its snapshot, whatever its seq
  // (here the last one shown: the adopter's view of it may hold a move the dead owner had stored
  // but not shown yet).
  CHECK(f.take(head_of(relay_feed::start_mark), 1) == action::restart);
  CHECK(f.take(patch(11), 1) == action::drop);
  CHECK(f.take(snapshot(10), 1) == action::snapshot_all);
  CHECK(f.take(patch(11), 1) == action::to_live);
  CHECK(f.take(snapshot(75), 1) == action::snapshot_all);  // a snapshot ahead: everyone moves on
  CHECK(f.seq() == 75);
  CHECK(f.take(patch(76), 1) == action::to_live);
  f.lost();  // the subscription was lost: wait for a snapshot, whatever its seq
  CHECK(f.take(patch(77), 1) == action::drop);
  CHECK(f.take(snapshot(76), 1) == action::snapshot_all);
  // The owner lets the finished room go: the end, and nothing passed after it.
  CHECK(f.take(head_of(relay_feed::end_mark), 1) == action::end);
  CHECK_FALSE(f.in_step());
  CHECK(f.take(patch(77), 1) == action::drop);
}

TEST_CASE("relay feed: frames travel tagged with the owner's lease generation") {
  const auto t = tagged(12, R"({"type":"patch","seq":3})");
  CHECK(t == R"(12 {"type":"patch","seq":3})");
  const auto back = untag(t);
  REQUIRE(back);
  CHECK(back->generation == 12);
  CHECK(back->frame == R"({"type":"patch","seq":3})");
  CHECK_FALSE(untag(R"({"type":"patch","seq":3})"));  // untagged: not a room's frame
  CHECK_FALSE(untag("12"));
  CHECK_FALSE(untag("x 12"));
  CHECK(untag("0 ")->frame.empty());
}

TEST_CASE("relay feed: an owner that lost the lease is not heard beside the new one") {
  using namespace relay_feed_test;
  relay_feed f;
  CHECK(f.take(head_of(relay_feed::start_mark), 3) == action::restart);
  CHECK(f.take(snapshot(20), 3) == action::snapshot_all);
  CHECK(f.take(patch(21), 3) == action::to_live);
  // The room is adopted (generation 4) while its old owner, not knowing yet, still answers:
  // the new owner's mark and snapshot are taken, whatever comes of the old one after them.
  CHECK(f.take(head_of(relay_feed::start_mark), 4) == action::restart);
  CHECK(f.take(snapshot(21), 3) == action::drop);  // the old owner's answer to the same ask
  CHECK(f.take(patch(22), 3) == action::drop);
  CHECK(f.take(snapshot(21), 4) == action::snapshot_all);
  CHECK(f.take(patch(22), 3) == action::drop);  // same seq as the new owner's next: not taken
  CHECK(f.take({"chat", std::nullopt}, 3) == action::drop);
  CHECK(f.take(head_of(relay_feed::end_mark), 3) == action::drop);  // nor its end
  CHECK(f.take(patch(22), 4) == action::to_live);
  CHECK(f.seq() == 22);
  // A newer owner heard first by a patch (its mark lost): everyone waits for its snapshot.
  CHECK(f.take(patch(30), 5) == action::ask_snapshot);
  CHECK_FALSE(f.in_step());
  CHECK(f.take(patch(31), 5) == action::drop);
  CHECK(f.take(snapshot(31), 5) == action::snapshot_all);
  CHECK(f.take(patch(23), 4) == action::drop);
  CHECK(f.take(patch(32), 5) == action::to_live);
}
