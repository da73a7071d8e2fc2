// The room's parts that face the store and the views, on their own, without a room: its writes
// (lease generation, seq claims, frames held until durable, the stop), its stored meta (written
// and read back), the room part of its views (diffed as text, the clock alone under
// /room/clock) and its rematch state.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "match/rematch_state.hpp"
#include "room/room_meta.hpp"
#include "room/room_part.hpp"
#include "room/room_writes.hpp"

namespace {

namespace srv = carcassonne::server;
using carcassonne::bot_level;
using nlohmann::json;
using srv::client_link;
using srv::client_ptr;
using srv::frame_ptr;
using srv::move_write;
using srv::rematch_state;
using srv::room_part;
using srv::room_settings;
using srv::room_state;
using srv::room_writes;
using srv::save_room_write;
using srv::seat_slot;
using srv::store;
using srv::store_write;
using srv::write_result;

struct parts_link : client_link {
  std::vector<std::string> got;
  void deliver(frame_ptr f) override { got.push_back(*f); }
  void set_room(const std::string&, bool) override {}
};

frame_ptr parts_frame(std::string s) {
  return std::make_shared<const std::string>(std::move(s));
}

// A store stand-in: keeps what is submitted and answers when told; posting runs at once.
struct held_store {
  std::vector<store_write> writes;
  std::deque<store::done_fn> pending;
  room_writes::submitter submitter() {
    return [this](store_write w, store::done_fn done) {
      writes.push_back(std::move(w));
      pending.push_back(std::move(done));
    };
  }
  void answer(write_result r) {
    auto done = std::move(pending.front());
    pending.pop_front();
    done(r);
  }
};

room_writes::poster run_at_once() {
  return [](std::function<void()> f) { f(); };
}

std::uint64_t write_generation(const store_write& w) {
  return std::visit([](const auto& op) { return op.generation; }, w);
}

}  // namespace

TEST_CASE("room writes: stamped with the lease generation, a move's seq claimed, frames held") {
  held_store store;
  room_writes writes;
  int fenced = 0, failed = 0;
  writes.attach(store.submitter(), run_at_once(),
                {[&] { ++fenced; }, [&] { ++failed; }, [] { return std::size_t{1}; }});
  CHECK(writes.writing());
  writes.set_generation(7);
  auto ann = std::make_shared<parts_link>();
  writes.send(ann, parts_frame("before"));  // nothing pending: at once
  writes.write(move_write{"r1", writes.next_row(), "{}", "null", 12});
  writes.send(ann, parts_frame("answer"));
  writes.claim(5);  // lower than the move's: the claim stays
  CHECK(writes.claimed() == 12);
  CHECK(writes.rows() == 1);
  REQUIRE(store.writes.size() == 1);
  CHECK(write_generation(store.writes[0]) == 7);
  CHECK(writes.writes_pending());
  CHECK(ann->got == std::vector<std::string>{"before"});
  store.answer({true, false});
  CHECK(ann->got == std::vector<std::string>{"before", "answer"});
  CHECK_FALSE(writes.writes_pending());
  CHECK(fenced + failed == 0);
}

TEST_CASE("room writes: a fenced write tells the room, a failed one too; a stop holds nothing") {
  held_store store;
  room_writes writes;
  int fenced = 0, failed = 0;
  writes.attach(store.submitter(), run_at_once(),
                {[&] { ++fenced; }, [&] { ++failed; }, [] { return std::size_t{1}; }});
  auto ann = std::make_shared<parts_link>();
  writes.write(save_room_write{"r1", room_state::playing, "{}"});
  writes.write(save_room_write{"r1", room_state::playing, "{}"});
  writes.send(ann, parts_frame("held 1"));
  writes.send(ann, parts_frame("held 2"));
  store.answer({false, true});
  CHECK(fenced == 1);
  store.answer({false, false});
  CHECK(failed == 1);
  CHECK(ann->got.empty());  // neither write was stored: nothing it shows left
  std::vector<std::string> given_up;
  writes.stop([&](const client_ptr&, const frame_ptr& f) { given_up.push_back(*f); });
  CHECK(given_up == std::vector<std::string>{"held 1", "held 2"});
  CHECK(writes.stopped());
  CHECK_FALSE(writes.writing());
  writes.write(save_room_write{"r1", room_state::playing, "{}"});  // after the stop: nothing
  CHECK(store.writes.size() == 2);
  writes.send(ann, parts_frame("after"));  // nothing pending any more: it leaves
  CHECK(ann->got == std::vector<std::string>{"after"});
}

TEST_CASE("room writes: an answer after the stop changes nothing") {
  held_store store;
  room_writes writes;
  int calls = 0;
  writes.attach(store.submitter(), run_at_once(),
                {[&] { ++calls; }, [&] { ++calls; }, [] { return std::size_t{1}; }});
  writes.write(save_room_write{"r1", room_state::playing, "{}"});
  writes.stop([](const client_ptr&, const frame_ptr&) {});
  store.answer({false, false});
  CHECK(calls == 0);
}

TEST_CASE("room meta: written as text, read back to the same room") {
  room_settings s;
  s.id = "r9";
  s.name = "Ann's \"room\"";
  s.is_public = false;
  s.rated = false;
  s.seats = 3;
  s.spectator_delay = 2;
  s.max_spectators = 10;
  s.setup = json{{"expansions", json::array({"gifts"})}};
  s.seed = "seed";
  s.secret = std::string(64, 'a');
  s.rematch_secret = std::string(64, 'b');
  std::vector<seat_slot> seats(3);
  seats[0].taken = true;
  seats[0].name = "Ann";
  seats[0].token_hash = "h0";
  seats[0].nonce = "n0";
  seats[0].player = "p0";
  seats[2].taken = true;
  seats[2].name = "Greedy bot 3";
  seats[2].bot = bot_level::greedy;
  carcassonne::protocol::room_bot_settings bots;
  bots.pause_ms = 250;
  bots.takeover_after = 30;
  bots.takeover_level = bot_level::strong;
  const rematch_state rematch;
  const auto rest = srv::meta_rest_text({s, seats, 0, bots, rematch, R"({"seed":"x"})"});
  const auto meta = json::parse(srv::meta_text("null", 64, rest));
  CHECK(meta["record_setup"] == json{{"seed", "x"}});
  CHECK(meta["rematch"].is_null());
  CHECK(meta["seat_list"][1].is_null());
  CHECK_FALSE(meta["seat_list"][2].contains("player"));

  std::string error;
  const auto read = srv::read_meta(meta, "r9", error);
  REQUIRE(read);
  CHECK(read->settings.name == s.name);
  CHECK_FALSE(read->settings.is_public);
  CHECK_FALSE(read->settings.rated);
  CHECK(read->settings.seats == 3);
  CHECK(read->settings.spectator_delay == 2);
  CHECK(read->settings.max_spectators == 10);
  CHECK(read->settings.setup == s.setup);
  CHECK(read->settings.secret == s.secret);
  CHECK(read->settings.rematch_secret == s.rematch_secret);
  CHECK(read->seq == 64);
  CHECK(read->creator_seat == 0);
  REQUIRE(read->seats.size() == 3);
  CHECK(read->seats[0].player == "p0");
  CHECK(read->seats[0].nonce == "n0");
  CHECK_FALSE(read->seats[1].taken);
  CHECK(read->seats[2].bot == bot_level::greedy);
  CHECK(read->has_bots);
  CHECK(read->bots.pause_ms == 250);
  CHECK(read->bots.takeover_level == bot_level::strong);
  // Written again from what was read: the same text.
  CHECK(srv::meta_rest_text({read->settings, read->seats, read->creator_seat, read->bots, rematch,
                             R"({"seed":"x"})"}) == rest);

  CHECK_FALSE(srv::read_meta(meta, "another", error));
  CHECK(error == "the stored seats do not match the room");
}

TEST_CASE("room part: unchanged is no patch; the clock alone is diffed under /room/clock") {
  room_settings s;
  s.id = "r1";
  s.name = "A";
  const room_part fixed(s);
  CHECK(fixed.fixed_text() == R"("id":"r1","name":"A","options":{},"public":true)");
  CHECK(fixed.expansions_text() == "[]");

  room_part part(s);
  const std::string before = R"({"clock":{"ms":[100,200]},"name":"A"})";
  part.reset(before, std::nullopt);
  std::string ops;
  CHECK_FALSE(part.update(before, {9, 26}, std::nullopt, ops));
  CHECK(ops.empty());
  // The first change after a reset diffs the whole part (where its clock was is not known).
  const std::string after = R"({"clock":{"ms":[90,200]},"name":"A"})";
  CHECK(part.update(after, {9, 25}, std::nullopt, ops));
  CHECK(json::parse("[" + ops + "]") ==
        json::diff(json::parse(before), json::parse(after), "/room"));
  // Then only the clock changes: its operations are under /room/clock.
  ops.clear();
  const std::string later = R"({"clock":{"ms":[80,200]},"name":"A"})";
  CHECK(part.update(later, {9, 25}, std::nullopt, ops));
  CHECK(ops == R"({"op":"replace","path":"/room/clock/ms/0","value":80})");
  CHECK(part.text() == later);
  // Something besides the clock: the whole part is diffed.
  ops.clear();
  const std::string renamed = R"({"clock":{"ms":[80,200]},"name":"B"})";
  CHECK(part.update(renamed, {9, 25}, std::nullopt, ops));
  CHECK(ops == R"({"op":"replace","path":"/room/name","value":"B"})");
}

TEST_CASE("rematch state: shown from the offer on, stored once its room is made") {
  rematch_state r("c0ffee");
  CHECK(r.commitment() == "c0ffee");
  CHECK_FALSE(r.shown());
  std::string stored;
  r.append_stored(stored);
  CHECK(stored == "null");
  auto& offer = r.open(2);
  offer.answer(0, true, "n0");
  CHECK(r.shown());
  CHECK(r.view(2) == json{{"accepted", {0}},
                          {"declined", json::array()},
                          {"nonces", {"n0", nullptr}},
                          {"room", nullptr}});
  stored.clear();
  r.append_stored(stored);
  CHECK(stored == "null");  // no room yet: nothing to keep
  offer.answer(1, true, "n1");
  r.decide("r2");
  stored.clear();
  r.append_stored(stored);
  rematch_state back("c0ffee");
  back.restore(json{{"rematch", json::parse(stored)}}, 2);
  CHECK(back.room() == "r2");
  REQUIRE(back.offer());
  CHECK(back.offer()->accepted(1));
  CHECK(back.view(2) == r.view(2));
  r.lapse();
  CHECK(r.shown());  // its room stays shown
  CHECK(r.view(2)["accepted"] == json::array());
}
