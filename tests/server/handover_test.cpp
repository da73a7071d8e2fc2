// The hand-over of frames to connections in bounded steps (room/handover.hpp), and the outbox
// that feeds it, without a room and without a network: fake connections write what they get into
// one log, and a fake strand queues the posted steps, which the tests run one at a time.
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "room/handover.hpp"
#include "room/outbox.hpp"

namespace {

using carcassonne::server::client_link;
using carcassonne::server::client_ptr;
using carcassonne::server::frame_ptr;
using carcassonne::server::handover;
using carcassonne::server::outbox;

// Everything every connection got, in the order it was handed over: "name:frame".
struct ho_log {
  std::vector<std::string> lines;
  std::vector<std::string> of(const std::string& name) const {  // one connection's frames
    std::vector<std::string> got;
    const auto prefix = name + ":";
    for (const auto& l : lines)
      if (l.compare(0, prefix.size(), prefix) == 0) got.push_back(l.substr(prefix.size()));
    return got;
  }
};

struct ho_link : client_link {
  ho_link(ho_log& l, std::string n) : log(l), name(std::move(n)) {}
  ho_log& log;
  std::string name;
  int handovers = 0;
  void deliver(frame_ptr f) override {
    ++handovers;
    log.lines.push_back(name + ":" + *f);
  }
  void deliver_all(std::vector<frame_ptr> frames) override {
    ++handovers;
    for (auto& f : frames) log.lines.push_back(name + ":" + *f);
  }
  void set_room(const std::string&, bool) override {}
};

// The room's strand: posted functions wait here until the test runs them, oldest first.
struct ho_strand {
  std::vector<std::function<void()>> queued;
  handover::poster poster() {
    return [this](std::function<void()> f) { queued.push_back(std::move(f)); };
  }
  void post(std::function<void()> f) { queued.push_back(std::move(f)); }
  bool run_one() {
    if (queued.empty()) return false;
    auto f = std::move(queued.front());
    queued.erase(queued.begin());
    f();
    return true;
  }
};

frame_ptr ho_frame(const std::string& s) {
  return std::make_shared<const std::string>(s);
}

std::vector<client_ptr> ho_links(ho_log& log, const std::string& prefix, int n) {
  std::vector<client_ptr> made;
  for (int i = 0; i < n; ++i)
    made.push_back(std::make_shared<ho_link>(log, prefix + std::to_string(i)));
  return made;
}

std::vector<handover::group> ho_patch(const std::vector<client_ptr>& to, const std::string& f) {
  std::vector<handover::group> groups;
  for (const auto& c : to) groups.push_back({c, {ho_frame(f)}});
  return groups;
}

}  // namespace

TEST_CASE("handover: a patch to more connections than a step leaves a step at a time") {
  ho_log log;
  ho_strand strand;
  handover out(3);
  out.attach(strand.poster());
  const auto s = ho_links(log, "s", 8);
  out.send_all(ho_patch(s, "p1"));
  CHECK(log.lines == std::vector<std::string>{"s0:p1", "s1:p1", "s2:p1"});
  CHECK(out.waiting() == 5);
  REQUIRE(strand.queued.size() == 1);  // one step on its way, not one per connection
  CHECK(strand.run_one());
  CHECK(log.lines.size() == 6);
  CHECK(log.lines.back() == "s5:p1");
  REQUIRE(strand.queued.size() == 1);
  CHECK(strand.run_one());
  CHECK(log.lines.size() == 8);
  CHECK(log.lines.back() == "s7:p1");
  CHECK(out.waiting() == 0);
  CHECK(strand.queued.empty());  // nothing left: no step posted
  CHECK_FALSE(out.waits(s[7].get()));
}

TEST_CASE("handover: the room's other work runs between steps, and the players' frames go first") {
  ho_log log;
  ho_strand strand;
  handover out(2);
  out.attach(strand.poster());
  const auto players = ho_links(log, "player", 2);
  const auto s = ho_links(log, "s", 6);
  auto everyone = players;
  everyone.insert(everyone.end(), s.begin(), s.end());
  out.send_all(ho_patch(everyone, "p1"));  // the players first, as the outbox orders them
  CHECK(log.lines == std::vector<std::string>{"player0:p1", "player1:p1"});
  CHECK(strand.run_one());  // s0, s1
  // A player's move arrives (a read completion, then the room's handler): it runs before the
  // rest of the spectators' hand-over, and its patch reaches both players at once.
  strand.post([&] { out.send_all(ho_patch(everyone, "p2")); });
  CHECK(strand.run_one());  // s2, s3 (posted before the move)
  CHECK(strand.run_one());  // the move
  CHECK(log.of("player0") == std::vector<std::string>{"p1", "p2"});
  CHECK(log.of("player1") == std::vector<std::string>{"p1", "p2"});
  // s0 and s1 had nothing waiting: the step's budget was the players'. Every spectator's p2
  // waits behind its p1.
  CHECK(log.lines.size() == 8);
  CHECK(log.of("s4").empty());
  while (strand.run_one()) {
  }
  for (int i = 0; i < 6; ++i)
    CHECK(log.of("s" + std::to_string(i)) == std::vector<std::string>{"p1", "p2"});
  CHECK(out.waiting() == 0);
}

TEST_CASE("handover: a later frame never overtakes an earlier one for the same connection") {
  ho_log log;
  ho_strand strand;
  handover out(2);
  out.attach(strand.poster());
  const auto s = ho_links(log, "s", 5);
  out.send_all(ho_patch(s, "p1"));  // s0, s1 now; s2..s4 wait
  CHECK(out.waits(s[3].get()));
  // A single frame (an answer) for a waiting connection waits behind its patch; for one with
  // nothing waiting it leaves at once.
  out.send(s[3], ho_frame("answer"));
  out.send(s[0], ho_frame("answer"));
  CHECK(log.of("s0") == std::vector<std::string>{"p1", "answer"});
  CHECK(log.of("s3").empty());
  // A second patch: s0 and s1 get it now (within the batch's step), the others behind their p1.
  out.send_all(ho_patch(s, "p2"));
  CHECK(log.of("s1") == std::vector<std::string>{"p1", "p2"});
  CHECK(log.of("s2").empty());
  while (strand.run_one()) {
  }
  CHECK(log.of("s2") == std::vector<std::string>{"p1", "p2"});
  CHECK(log.of("s3") == std::vector<std::string>{"p1", "answer", "p2"});
  CHECK(log.of("s4") == std::vector<std::string>{"p1", "p2"});
}

TEST_CASE("handover: a spectator arriving mid-way gets its snapshot, then only later patches") {
  ho_log log;
  ho_strand strand;
  handover out(2);
  out.attach(strand.poster());
  auto s = ho_links(log, "s", 4);
  out.send_all(ho_patch(s, "p1"));  // s2, s3 wait
  // One arrives (not among p1's connections) and one of the waiting leaves: the leaver's p1 and
  // its answer keep their order; the newcomer's snapshot does not wait for anyone.
  const auto newcomer = std::make_shared<ho_link>(log, "new");
  out.send(newcomer, ho_frame("snapshot"));
  CHECK(log.lines.back() == "new:snapshot");
  out.send(s[3], ho_frame("left"));
  const auto leaver = s[3];
  s.pop_back();
  s.push_back(newcomer);
  out.send_all(ho_patch(s, "p2"));
  while (strand.run_one()) {
  }
  CHECK(log.of("new") == std::vector<std::string>{"snapshot", "p2"});
  CHECK(log.of("s3") == std::vector<std::string>{"p1", "left"});
  CHECK(log.of("s2") == std::vector<std::string>{"p1", "p2"});
  CHECK(leaver.use_count() == 1);  // the hand-over keeps no connection it is done with
}

TEST_CASE("handover: flush hands everything waiting over now, in order; without a poster at once") {
  ho_log log;
  ho_strand strand;
  handover out(1);
  out.attach(strand.poster());
  const auto s = ho_links(log, "s", 3);
  out.send_all(ho_patch(s, "p1"));
  out.send(s[2], ho_frame("bye"));
  out.flush();
  CHECK(log.lines == std::vector<std::string>{"s0:p1", "s1:p1", "s2:p1", "s2:bye"});
  CHECK(out.waiting() == 0);
  while (strand.run_one()) {  // the step posted before finds nothing
  }
  CHECK(log.lines.size() == 4);

  ho_log at_once;
  handover plain(1);  // no poster: a room without a strand hands everything over in the call
  plain.send_all(ho_patch(ho_links(at_once, "t", 4), "p"));
  CHECK(at_once.lines.size() == 4);
  CHECK(plain.waiting() == 0);
}

TEST_CASE("outbox: a durable write's frames leave in first-appearance order, a step at a time") {
  ho_log log;
  ho_strand strand;
  outbox box(2);
  box.pace(strand.poster());
  const auto players = ho_links(log, "player", 2);
  const auto s = ho_links(log, "s", 4);
  const auto w = box.issue();
  box.send(players[1], ho_frame("answer"));
  box.send(players[0], ho_frame("seat patch"));
  box.send(players[1], ho_frame("seat patch"));
  box.send_all(s, ho_frame("public patch"));
  CHECK(box.held() == 7);
  CHECK(log.lines.empty());
  box.durable(w, 6);
  // The mover's answer and patch in one hand-over, the other player's, then a step's worth.
  CHECK(log.lines ==
        std::vector<std::string>{"player1:answer", "player1:seat patch", "player0:seat patch"});
  CHECK(std::static_pointer_cast<ho_link>(players[1])->handovers == 1);
  CHECK(box.waiting() == 4);
  // Nothing is pending any more, but a frame for a spectator still waiting goes behind its patch.
  box.send(s[3], ho_frame("chat"));
  box.send(players[0], ho_frame("chat"));
  CHECK(log.lines.back() == "player0:chat");
  while (strand.run_one()) {
  }
  CHECK(log.of("s3") == std::vector<std::string>{"public patch", "chat"});
  CHECK(log.of("s0") == std::vector<std::string>{"public patch"});
  CHECK(log.lines.size() == 9);
}

TEST_CASE("outbox: giving up hands the free frames over first, then gives the held ones up") {
  ho_log log;
  ho_strand strand;
  outbox box(1);
  box.pace(strand.poster());
  const auto s = ho_links(log, "s", 3);
  const auto w = box.issue();
  box.send_all(s, ho_frame("p1"));
  box.durable(w, 3);  // s0 now; s1, s2 wait for steps
  box.issue();
  box.send(s[2], ho_frame("answer"));
  std::vector<std::string> given;
  box.give_up([&](const client_ptr&, const frame_ptr& f) { given.push_back(*f); });
  CHECK(log.lines == std::vector<std::string>{"s0:p1", "s1:p1", "s2:p1"});
  CHECK(given == std::vector<std::string>{"answer"});
  CHECK(box.waiting() == 0);
  CHECK_FALSE(box.writes_pending());
}
