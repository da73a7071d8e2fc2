// The order of a relayed room's stream on a watching instance (cluster/relay_feed.hpp): a
// snapshot first, then patches in seq order; a gap asks for a snapshot; an adopted room's
// snapshot (a seq above every one shown) moves everyone on.
#include <doctest/doctest.h>

#include "cluster/relay_feed.hpp"

using carcassonne::server::frame_head;
using carcassonne::server::head_of;
using carcassonne::server::relay_feed;
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
  CHECK(f.take(patch(4)) == action::drop);  // nothing before the first snapshot
  CHECK(f.take({"chat", std::nullopt}) == action::drop);
  CHECK(f.take(snapshot(5)) == action::snapshot_all);
  CHECK(f.take(snapshot(5)) == action::snapshot_new);  // asked by a newcomer: the same view
  CHECK(f.take(patch(5)) == action::drop);
  CHECK(f.take(patch(6)) == action::to_live);
  CHECK(f.take({"chat", std::nullopt}) == action::to_live);
  CHECK(f.take(snapshot(4)) == action::drop);  // stale
  CHECK(f.take(patch(8)) == action::ask_snapshot);
  CHECK_FALSE(f.in_step());
  CHECK(f.take(patch(9)) == action::drop);  // until the snapshot comes
  CHECK(f.take(snapshot(9)) == action::snapshot_all);
  CHECK(f.take(patch(10)) == action::to_live);
  // The owner dies; the adopter's link starts with its mark, then its snapshot, whatever its seq
  // (here the last one shown: the adopter's view of it may hold a move the dead owner had stored
  // but not shown yet).
  CHECK(f.take(head_of(relay_feed::start_mark)) == action::restart);
  CHECK(f.take(patch(11)) == action::drop);
  CHECK(f.take(snapshot(10)) == action::snapshot_all);
  CHECK(f.take(patch(11)) == action::to_live);
  CHECK(f.take(snapshot(75)) == action::snapshot_all);  // a snapshot ahead: everyone moves on
  CHECK(f.seq() == 75);
  CHECK(f.take(patch(76)) == action::to_live);
  f.lost();  // the subscription was lost: wait for a snapshot, whatever its seq
  CHECK(f.take(patch(77)) == action::drop);
  CHECK(f.take(snapshot(76)) == action::snapshot_all);
  // The owner lets the finished room go: the end, and nothing passed after it.
  CHECK(f.take(head_of(relay_feed::end_mark)) == action::end);
  CHECK_FALSE(f.in_step());
  CHECK(f.take(patch(77)) == action::drop);
}
