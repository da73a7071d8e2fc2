// The room's parts on their own, without a room: the outbox that holds frames until the writes
// they show are durable, and a seat's resume window.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "room/outbox.hpp"
#include "room/resume_window.hpp"

namespace {

using carcassonne::server::client_link;
using carcassonne::server::frame_ptr;
using carcassonne::server::outbox;
using carcassonne::server::resume_window;

// Records what arrives, and how many hand-overs brought it.
struct recording_link : client_link {
  std::vector<std::string> got;
  int handovers = 0;
  void deliver(frame_ptr f) override {
    ++handovers;
    got.push_back(*f);
  }
  void deliver_all(std::vector<frame_ptr> frames) override {
    ++handovers;
    for (auto& f : frames) got.push_back(*f);
  }
  void set_room(const std::string&, bool) override {}
};

frame_ptr text_frame(std::string s) {
  return std::make_shared<const std::string>(std::move(s));
}

}  // namespace

TEST_CASE("outbox: a frame waits for every write issued before it, and frames keep their order") {
  auto a = std::make_shared<recording_link>(), b = std::make_shared<recording_link>();
  outbox box;
  box.send(a, text_frame("free"));  // nothing pending: at once
  CHECK(a->got == std::vector<std::string>{"free"});
  const auto w1 = box.issue();
  box.send(a, text_frame("answer 1"));
  box.send(b, text_frame("patch 1"));
  const auto w2 = box.issue();
  box.send(a, text_frame("patch 2"));
  CHECK(box.writes_pending());
  CHECK(box.held() == 3);
  box.durable(w1, 2);
  CHECK(a->got == std::vector<std::string>{"free", "answer 1"});
  CHECK(b->got == std::vector<std::string>{"patch 1"});
  // A frame sent while a later write is pending waits too, behind the held ones.
  box.send(b, text_frame("after"));
  CHECK(b->got.size() == 1);
  box.durable(w2, 2);
  CHECK(a->got == std::vector<std::string>{"free", "answer 1", "patch 2"});
  CHECK(b->got == std::vector<std::string>{"patch 1", "after"});
  CHECK_FALSE(box.writes_pending());
  CHECK(box.held() == 0);
}

TEST_CASE("outbox: the frames freed by one write reach each connection in one hand-over") {
  auto a = std::make_shared<recording_link>();
  outbox box;
  const auto w = box.issue();
  box.send(a, text_frame("answer"));
  box.send(a, text_frame("patch"));
  box.durable(w, 1);
  CHECK(a->got == std::vector<std::string>{"answer", "patch"});
  CHECK(a->handovers == 1);
}

TEST_CASE("outbox: durable out of order frees up to the highest write known durable") {
  auto a = std::make_shared<recording_link>();
  outbox box;
  const auto w1 = box.issue();
  box.send(a, text_frame("1"));
  const auto w2 = box.issue();
  box.send(a, text_frame("2"));
  box.durable(w2, 1);  // a later write durable means the earlier were committed first
  CHECK(a->got == std::vector<std::string>{"1", "2"});
  box.durable(w1, 1);  // a late report changes nothing
  CHECK(a->got.size() == 2);
}

TEST_CASE("outbox: giving up hands every held frame over once, oldest first, and holds none") {
  auto a = std::make_shared<recording_link>();
  outbox box;
  box.issue();
  box.send(a, text_frame("x"));
  box.send(a, text_frame("y"));
  std::vector<std::string> given;
  box.give_up([&](const auto& c, const frame_ptr& f) {
    CHECK(c == a);
    given.push_back(*f);
  });
  CHECK(given == std::vector<std::string>{"x", "y"});
  CHECK(a->got.empty());  // given up, not delivered
  CHECK_FALSE(box.writes_pending());
  box.send(a, text_frame("z"));  // nothing pending any more: at once
  CHECK(a->got == std::vector<std::string>{"z"});
}

TEST_CASE("resume window: covers a resume only when it holds every patch up to now") {
  resume_window w;
  CHECK_FALSE(w.covers(0, 0));  // empty: a rebuilt room has none
  for (std::uint64_t seq = 5; seq <= 8; ++seq)
    w.remember(seq, text_frame("p" + std::to_string(seq)));
  CHECK(w.covers(4, 8));        // patches 5..8 are all there
  CHECK(w.covers(8, 8));        // nothing missed
  CHECK_FALSE(w.covers(3, 8));  // patch 4 is not kept
  CHECK_FALSE(w.covers(6, 9));  // the window does not reach the present
  CHECK_FALSE(w.covers(9, 8));  // a seq from the future
  std::vector<std::string> after;
  for (const auto& f : w.after(6)) after.push_back(*f);
  CHECK(after == std::vector<std::string>{"p7", "p8"});
}

TEST_CASE("resume window: keeps at most its patches and bytes, and a frame too large is a gap") {
  resume_window w;
  for (std::uint64_t seq = 1; seq <= resume_window::patches + 2; ++seq)
    w.remember(seq, text_frame("p"));
  const std::uint64_t last = resume_window::patches + 2;
  CHECK(w.covers(last - resume_window::patches, last));
  CHECK_FALSE(w.covers(last - resume_window::patches - 1, last));
  CHECK(w.after(0).size() == resume_window::patches);

  // Bytes: frames of 5 KB, at most 12 KB kept, so two.
  resume_window big;
  for (std::uint64_t seq = 1; seq <= 4; ++seq)
    big.remember(seq, text_frame(std::string(5 * 1024, 'x')));
  CHECK(big.after(0).size() == 2);
  CHECK(big.covers(2, 4));
  CHECK_FALSE(big.covers(1, 4));

  big.remember(5, text_frame(std::string(resume_window::frame_max + 1, 'x')));
  CHECK(big.empty());  // a resume from before it needs a snapshot
  CHECK_FALSE(big.covers(4, 5));
}

#include "match/rematch_offer.hpp"
#include "match/undo_vote.hpp"

TEST_CASE("undo vote: the last acceptance grants it, a single refusal declines it") {
  using carcassonne::server::undo_vote;
  undo_vote v(1, 0b1101);  // seat 1 asks; seats 0, 2 and 3 must answer
  CHECK(v.asker() == 1);
  CHECK(v.waiting_seats() == std::vector<int>{0, 2, 3});
  CHECK_FALSE(v.waits_for(1));
  CHECK(v.answer(0, true) == undo_vote::verdict::waiting);
  CHECK_FALSE(v.waits_for(0));
  CHECK(v.answer(3, true) == undo_vote::verdict::waiting);
  CHECK(v.waiting_seats() == std::vector<int>{2});
  CHECK(v.answer(2, true) == undo_vote::verdict::granted);

  undo_vote no(0, 0b110);
  CHECK(no.answer(1, true) == undo_vote::verdict::waiting);
  CHECK(no.answer(2, false) == undo_vote::verdict::declined);
}

TEST_CASE("rematch offer: answers, places in the rematch, lapse, and the stored form") {
  using carcassonne::server::rematch_offer;
  rematch_offer o(4);
  o.answer(2, true, "n2");
  o.answer(0, true, "n0");
  CHECK(o.answered(2));
  CHECK_FALSE(o.answered(1));
  CHECK_FALSE(o.settled());
  o.answer(1, false, "ignored");
  CHECK_FALSE(o.settled());
  o.decline_unanswered();  // time is up: seat 3 declines
  CHECK(o.settled());
  CHECK(o.accepted_seats() == nlohmann::json{0, 2});
  CHECK(o.declined_seats() == nlohmann::json{1, 3});
  CHECK(o.nonces_sent() == nlohmann::json{"n0", nullptr, "n2", nullptr});
  CHECK(o.place_of(0) == 0);
  CHECK(o.place_of(2) == 1);  // the accepting seats, in order

  o.set_untold(0b100);  // seat 2 was away when the rematch's room was made
  CHECK_FALSE(o.tell(0));
  CHECK(o.tell(2));
  CHECK_FALSE(o.tell(2));  // told once

  o.set_untold(0b001);
  const auto stored = o.stored("r2");
  CHECK(
      stored.dump() ==
      R"({"accepted":[0,2],"declined":[1,3],"nonces":["n0","","n2",""],"room":"r2","untold":[0]})");
  auto back = rematch_offer::from_stored(stored, 4);
  CHECK(back.stored("r2") == stored);
  CHECK(back.tell(0));
}

#include "carcassonne/protocol/json_codec.hpp"
#include "table/game_journal.hpp"

namespace {

// The state as far as a player can tell: whose turn, the placed tiles, scores and moves offered.
std::string position_of(const carcassonne::game_state& g) {
  std::string out = std::to_string(carcassonne::to_act(g)) + "|";
  for (const auto& m : carcassonne::legal_actions(g)) out += carcassonne::protocol::move_text(m, g);
  return out;
}

}  // namespace

TEST_CASE("game journal: stored entries rebuild the game; an undo marker takes moves back") {
  using namespace carcassonne;
  using carcassonne::server::apply_stored_entry;
  using carcassonne::server::game_at_start;
  using carcassonne::server::game_journal;
  const nlohmann::json setup = {{"players", {{{"name", "A"}}, {{"name", "B"}}}},
                                {"seed", "journal-test"}};
  auto live = game_at_start(setup);
  REQUIRE(live);
  // The live game: the first legal move each time, journaled as the room stores it.
  std::vector<nlohmann::json> entries;
  std::vector<std::string> positions{position_of(*live)};
  // Ten moves at least, ending on one that drew and scored nothing (it may be taken back).
  for (bool undoable = false; entries.size() < 10 || !undoable;) {
    const auto m = legal_actions(*live).front();
    entries.push_back(protocol::move_to_json(m, *live));
    event_log events;
    REQUIRE(apply_in_place(*live, m, &events));
    undoable = !reveals_or_scores(events);
    positions.push_back(position_of(*live));
    REQUIRE(entries.size() < 100);
  }

  auto g = game_at_start(setup);
  game_journal journal;
  for (const auto& e : entries)
    REQUIRE(apply_stored_entry(setup, e, server::undo_mode::consent, *g, journal).empty());
  CHECK(journal.moves.size() == entries.size());
  CHECK(position_of(*g) == positions.back());

  // A marker takes back as many moves as the undo steps allow, and the game is replayed.
  REQUIRE_FALSE(journal.undo_steps.empty());
  {
    const nlohmann::json marker = {{"type", "undo"}, {"count", 1}};
    REQUIRE(apply_stored_entry(setup, marker, server::undo_mode::consent, *g, journal).empty());
    CHECK(journal.moves.size() == entries.size() - 1);
    CHECK(position_of(*g) == positions[positions.size() - 2]);
  }
  // More than the steps kept: refused, nothing changed.
  const auto before = position_of(*g);
  const nlohmann::json too_many = {{"type", "undo"}, {"count", 99}};
  CHECK(apply_stored_entry(setup, too_many, server::undo_mode::consent, *g, journal) ==
        "an undo marker without the moves to take back");
  CHECK(position_of(*g) == before);

  // Take-backs off: no move is kept for them.
  auto off = game_at_start(setup);
  game_journal none;
  for (const auto& e : entries)
    REQUIRE(apply_stored_entry(setup, e, server::undo_mode::off, *off, none).empty());
  CHECK(none.undo_steps.empty());

  // replay() from the texts gives the same game; a bad move names itself and changes nothing.
  auto again = game_at_start(setup);
  REQUIRE(server::replay(setup, none.moves, *again).empty());
  CHECK(position_of(*again) == positions.back());
  auto broken = none.moves;
  broken[3] = R"({"seat":0,"type":"place_tile","x":99,"y":99,"rotation":0})";
  const auto why = server::replay(setup, broken, *again);
  INFO(why);
  CHECK(why.starts_with("move 3: "));
  CHECK(position_of(*again) == positions.back());
}
