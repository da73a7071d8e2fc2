// The room's own events (docs/protocol.md §8 "Room events"): the exact events of every patch a
// take-back, a timeout, a forfeit or a rematch offer makes, the same for every seat and
// spectator; bots accept take-backs at once; `history` tells timeouts and forfeits; a restart
// ends an open request; the clock rules around timeouts and take-backs (§21).
#include "carcassonne/engine/forfeit.hpp"
#include "match_support.hpp"
#include "strand_queue.hpp"
#include "temp_dir.hpp"

using namespace carcassonne;
using namespace carcassonne::server;
using namespace carcassonne::testing;
using kind = protocol::match_msg::kind;

namespace events_test {

json deck(std::vector<std::string> tiles) {
  return json{{"script", {{"deck", tiles}}}};
}
// BA/C closing the start tile's city: the figure step waits, the placement can be taken back.
json close_city() {
  return json{{"type", "place_tile"}, {"x", 0}, {"y", -1}, {"rotation", 180}};
}
json seat_ev(const char* type, int seat) {
  return json{{"type", type}, {"seat", seat}};
}
json answered(int seat, bool accept) {
  return json{{"type", "undo_answered"}, {"seat", seat}, {"accept", accept}};
}
json declined(int seat, const char* reason) {
  return json{{"type", "undo_declined"}, {"seat", seat}, {"reason", reason}};
}
json forfeited(int seat, const char* reason) {
  return json{{"type", "forfeited"}, {"seat", seat}, {"reason", reason}};
}

// The events of the room's last patch, checked to be one change that every client (seats and
// `also`) got with the same events.
json last_events(const table& t, const std::vector<std::shared_ptr<fake_client>>& also = {}) {
  const json first = t.seats[0]->last("patch");
  REQUIRE(first.is_object());
  CHECK(first["seq"] == t.r->seq());
  for (const auto& c : t.seats) {
    CHECK(c->last("patch")["seq"] == first["seq"]);
    CHECK(c->last("patch")["events"] == first["events"]);
    CHECK_FALSE(c->gap);
  }
  for (const auto& c : also) CHECK(c->last("patch")["events"] == first["events"]);
  return first["events"];
}

// Test cases inside the namespace: its helpers hide any of the same name elsewhere in the
// unity build.

TEST_CASE("room events: a take-back asked, answered, done or declined, patch by patch") {
  table t(2, match_options{}, deck({"BA/C", "BA/RFr", "BA/RFr"}));
  auto watcher = make_client();
  t.r->spectate(watcher, nullptr);
  t.r->move(t.seats[0], messages::move_of(close_city()), "m1");
  CHECK(last_events(t)[0]["type"] == "tile_placed");

  auto seq = t.r->seq();
  t.act(0, kind::undo, true, "u1");
  CHECK(t.r->seq() == seq + 1);  // a request is a change
  CHECK(last_events(t, {watcher}) == json::array({seat_ev("undo_requested", 0)}));
  t.act(1, kind::undo_answer, true, "y");
  CHECK(t.r->seq() == seq + 2);
  CHECK(last_events(t, {watcher}) == json::array({answered(1, true), seat_ev("undo_done", 0)}));

  // Refused.
  t.r->move(t.seats[0], messages::move_of(close_city()), "m2");
  t.act(0, kind::undo, true, "u2");
  seq = t.r->seq();
  t.act(1, kind::undo_answer, false, "n");
  CHECK(t.r->seq() == seq + 1);
  CHECK(last_events(t) == json::array({answered(1, false), declined(0, "refused")}));
  // Not answered in time.
  t.act(0, kind::undo, true, "u3");
  t.timer->advance(60s);
  CHECK(last_events(t) == json::array({declined(0, "no_answer")}));
  // The asker moves on meanwhile: the request ends before the move's own events.
  t.act(0, kind::undo, true, "u4");
  t.r->move(t.seats[0], messages::move_of({{"type", "pass"}}), "p");
  const json moved = last_events(t);
  CHECK(moved[0] == declined(0, "moved"));
  CHECK(moved[1]["type"] == "feature_completed");
  // Refusals make no change and no event.
  seq = t.r->seq();
  t.act(1, kind::undo_answer, true, "late");
  CHECK(t.seats[1]->last_error() == "no_undo_request");
  CHECK(t.r->seq() == seq);
}

TEST_CASE("room events: with undo free, undo_done alone") {
  match_options free_undo;
  free_undo.undo = undo_mode::free;
  table t(2, free_undo, deck({"BA/C", "BA/RFr"}));
  t.r->move(t.seats[0], messages::move_of(close_city()), nullptr);
  t.act(0, kind::undo, true, "u");
  CHECK(t.seats[0]->last("undone")["id"] == "u");
  CHECK(last_events(t) == json::array({seat_ev("undo_done", 0)}));
}

TEST_CASE("room events: bots accept a take-back at once") {
  // Seat 1 is a bot: the request is asked, the bot's answer and the take-back in one patch, and
  // the asker is answered `undone`.
  auto timer = std::make_shared<server::test::fake_timer>();
  server::metrics stats;
  protocol::room_bot_settings b;
  b.seats = {std::nullopt, bot_level::random};
  auto ann = make_client();
  server::room r(match_settings(2, match_options{}, deck({"BA/C", "BA/RFr", "BA/RFr"})), &stats,
                 ann);
  r.set_bot_settings(b);
  r.attach_timer(timer);
  r.join(ann, messages::join_as("Ann"), nullptr);
  r.start(ann, "s");
  REQUIRE(r.game());
  const game_state start = *r.game();
  r.move(ann, messages::move_of(close_city()), "m");
  const auto seq = r.seq();
  protocol::match_msg undo;
  undo.what = kind::undo;
  r.match_action(ann, undo, "u");
  CHECK(ann->last("undone")["id"] == "u");
  CHECK(r.seq() == seq + 1);
  CHECK(ann->last("patch")["events"] ==
        json::array({seat_ev("undo_requested", 0), answered(1, true), seat_ev("undo_done", 0)}));
  CHECK(*r.game() == start);
  CHECK(r.record()["moves"].empty());

  // Three seats, one a bot: the bot has answered, the request waits for the person alone.
  protocol::room_bot_settings b3;
  b3.seats = {std::nullopt, bot_level::greedy, std::nullopt};
  auto cid = make_client(), dee = make_client();
  server::room r3(match_settings(3, match_options{}, deck({"BA/C", "BA/RFr", "BA/RFr"})), &stats,
                  cid);
  r3.set_bot_settings(b3);
  r3.attach_timer(timer);
  r3.join(cid, messages::join_as("Cid"), nullptr);
  r3.join(dee, messages::join_as("Dee"), nullptr);
  r3.start(cid, "s");
  REQUIRE(r3.game());
  r3.move(cid, messages::move_of(close_city()), "m");
  r3.match_action(cid, undo, "u");
  CHECK(cid->last("undo_requested")["id"] == "u");
  CHECK(dee->last("patch")["events"] ==
        json::array({seat_ev("undo_requested", 0), answered(1, true)}));
  CHECK(dee->view["room"]["undo_request"] == json{{"seat", 0}, {"waiting", json::array({2})}});
  protocol::match_msg yes;
  yes.what = kind::undo_answer;
  yes.accept = true;
  r3.match_action(dee, yes, "y");
  CHECK(dee->last("patch")["events"] == json::array({answered(2, true), seat_ev("undo_done", 0)}));
  CHECK(r3.record()["moves"].empty());
}

TEST_CASE("room events: resign, and a resign that ends an open take-back request") {
  table t(3, match_options{}, deck({"BA/C", "BA/RFr", "BA/RFr", "BA/RFr"}));
  t.r->move(t.seats[0], messages::move_of(close_city()), nullptr);
  t.act(0, kind::undo);
  const auto seq = t.r->seq();
  t.act(2, kind::resign, true, "bye");
  CHECK(t.r->seq() == seq + 1);
  CHECK(last_events(t) == json::array({forfeited(2, "resign"), declined(0, "forfeit")}));
  CHECK_FALSE(t.seats[0]->view["room"].contains("undo_request"));
}

TEST_CASE("room events: a timeout that forfeits, one a bot plays, seats away") {
  match_options o;
  o.clock = time_control::fischer;
  o.initial = 10s;
  o.increment = 0s;
  o.on_timeout = timeout_action::forfeit;
  {
    table t(3, o);
    t.timer->advance(10s);
    const json events = last_events(t);
    // The engine places the forfeited seat's tile (the least legal placement) and passes its
    // figure step; then the next turn.
    CHECK(events == json::parse(R"([{"seat":0,"type":"timed_out"},
      {"reason":"timeout","seat":0,"type":"forfeited"},
      {"rotation":90,"seat":0,"tile":"BA/CFc+","type":"tile_placed","x":0,"y":-1},
      {"seat":1,"type":"turn_started"},{"seat":1,"tile":"BA/RrC","type":"tile_drawn"}])"));
  }
  {
    // The asker's time runs out while its request is open: the bot's move ends it.
    o.on_timeout = timeout_action::bot;
    table t(2, o, deck({"BA/C", "BA/RFr", "BA/RFr"}));
    t.r->move(t.seats[0], messages::move_of(close_city()), nullptr);
    t.act(0, kind::undo);
    t.timer->advance(10s);
    const json events = last_events(t);
    // The greedy bot deploys on the city it closed, which scores.
    CHECK(events == json::parse(R"([{"seat":0,"type":"timed_out"},
      {"reason":"moved","seat":0,"type":"undo_declined"},
      {"feature":"city0","figure":"meeple","kind":"city","seat":0,"type":"figure_deployed","x":0,"y":-1},
      {"feature":"city0","kind":"city","owners":[0],"points":4,"type":"feature_completed","x":0,"y":-1},
      {"feature":"city0","final":false,"kind":"city","points":4,"seat":0,"type":"points","x":0,"y":-1},
      {"feature":"city0","figure":"meeple","kind":"city","seat":0,"type":"figure_returned","x":0,"y":-1},
      {"seat":1,"type":"turn_started"},{"seat":1,"tile":"BA/RFr","type":"tile_drawn"}])"));
  }
  {
    match_options away;
    away.away_limit = 30s;
    table t(2, away);
    t.r->disconnected(t.seats[0]);
    t.r->disconnected(t.seats[1]);
    t.timer->advance(30s);
    REQUIRE(t.game().finished);
    // Nobody is connected to hear it: the record's history tells it.
    auto late = make_client();
    t.r->spectate(late, nullptr);
    protocol::history_msg h;
    t.r->history(late, h, "h");
    const json entries = late->last("history")["entries"];
    REQUIRE(entries.size() == 2);
    CHECK(entries[1]["events"] == json::parse(R"([{"reason":"away","seat":0,"type":"forfeited"},
      {"reason":"away","seat":1,"type":"forfeited"},
      {"rotation":90,"seat":0,"tile":"BA/CFc+","type":"tile_placed","x":0,"y":-1},
      {"type":"game_finished"}])"));
  }
}

TEST_CASE("room events: history tells a timeout's move and a forfeit, not a take-back") {
  match_options o;
  o.clock = time_control::per_decision;
  o.per_move = 30s;
  o.undo = undo_mode::free;
  table t(3, o);
  t.timer->advance(30s);  // seat 0's tile, placed by a bot
  const json live = last_events(t);
  t.play_turn();  // seat 0's figure step
  t.act(1, kind::resign);
  protocol::history_msg h;
  t.r->history(t.seats[2], h, "h");
  const json entries = t.seats[2]->last("history")["entries"];
  REQUIRE(entries.size() == 4);
  CHECK(entries[1]["events"] == live);
  CHECK(entries[1]["events"][0] == seat_ev("timed_out", 0));
  CHECK(entries[3]["events"][0] == forfeited(1, "resign"));
}

TEST_CASE("room events: a rematch offer") {
  table t(2, match_options{}, deck({"BA/RFr"}));
  t.play_turn();
  REQUIRE(t.game().finished);
  const auto seq = t.r->seq();
  t.act(1, kind::rematch, true, "r");
  CHECK(t.r->seq() == seq + 1);
  CHECK(last_events(t) == json::array({seat_ev("rematch_offered", 1)}));
  t.act(0, kind::rematch, false, "no");
  CHECK(last_events(t) == json::array());
}

TEST_CASE("an open take-back request ends at a restart: the rebuilt room has none") {
  server::test::temp_dir dir{"carcassonne-undo-restart"};
  std::string error;
  auto db = store::open({dir.db(), false}, error);
  REQUIRE_MESSAGE(db, error);
  server::test::strand_queue q;
  server::metrics stats;
  auto a = make_client(), b = make_client();
  auto r = std::make_unique<room>(
      match_settings(2, match_options{}, deck({"BA/C", "BA/RFr", "BA/RFr"})), &stats, a);
  r->attach_store(db.get(), q.poster());
  r->attach_timer(std::make_shared<server::test::fake_timer>());
  r->join(a, messages::join_as("Ann"), nullptr);
  r->join(b, messages::join_as("Bob"), nullptr);
  r->start(a, "s");
  r->move(a, messages::move_of(close_city()), nullptr);
  protocol::match_msg undo;
  undo.what = kind::undo;
  r->match_action(a, undo, "u");
  q.pump(*db);
  REQUIRE(b->view["room"].contains("undo_request"));
  r.reset();  // the server stops
  q.queued.clear();
  auto rooms = db->unfinished_rooms(error);
  REQUIRE(rooms.size() == 1);
  auto back = room::restore(rooms[0], &stats, error);
  REQUIRE_MESSAGE(back, error);
  back->attach_store(db.get(), q.poster());
  back->attach_timer(std::make_shared<server::test::fake_timer>());
  auto a2 = make_client();
  back->resume(a2, messages::resume_with("m1", a->last("joined")["token"].get<std::string>()), "r");
  q.pump(*db);
  CHECK_FALSE(a2->last("snapshot")["view"]["room"].contains("undo_request"));
  CHECK(back->record()["moves"].size() == 1);  // the tile stays placed
  back->match_action(a2, undo, "u2");          // and may be asked for again
  q.pump(*db);
  CHECK(a2->last("undo_requested")["id"] == "u2");
  CHECK(a2->last("patch")["events"] == json::array({seat_ev("undo_requested", 0)}));
}

match_options events_fischer(std::chrono::seconds initial, std::chrono::seconds increment,
                             timeout_action on_timeout) {
  match_options o;
  o.clock = time_control::fischer;
  o.initial = initial;
  o.increment = increment;
  o.on_timeout = on_timeout;
  return o;
}

TEST_CASE("Fischer: a timed-out turn gets its increment when the clock leaves the seat") {
  {
    table t(3, events_fischer(10s, 5s, timeout_action::forfeit));
    t.timer->advance(10s);
    REQUIRE(has_forfeited(t.game(), 0));
    CHECK(t.clock() == json{{"remaining_ms", {5000, 10000, 10000}}, {"running", 1}});
  }
  {
    // The bot places the tile at 0 s left; the figure step times out at once too; then the
    // clock leaves the seat.
    table t(2, events_fischer(10s, 5s, timeout_action::bot));
    t.timer->advance(10s);
    CHECK(t.clock() == json{{"remaining_ms", {5000, 10000}}, {"running", 1}});
    CHECK(t.r->record()["moves"].size() == 2);
  }
}

TEST_CASE("per_decision: a seat that does not decide shows a whole decision's time") {
  match_options o;
  o.clock = time_control::per_decision;
  o.per_move = 30s;
  table t(3, o);
  // A spectator arriving is a change: its patch shows the clocks as of then.
  t.timer->advance(7s);
  t.r->spectate(make_client(), nullptr);
  CHECK(t.clock() == json{{"remaining_ms", {23000, 30000, 30000}}, {"running", 0}});
  t.play_turn();
  t.timer->advance(4s);
  t.r->spectate(make_client(), nullptr);
  CHECK(t.clock() == json{{"remaining_ms", {30000, 26000, 30000}}, {"running", 1}});
}

TEST_CASE("the asker's clock runs during a take-back request, and a take-back gives none back") {
  table t(2, events_fischer(60s, 5s, timeout_action::forfeit), deck({"BA/C", "BA/RFr", "BA/RFr"}));
  t.timer->advance(10s);
  t.r->move(t.seats[0], messages::move_of(close_city()), nullptr);
  t.act(0, kind::undo);
  t.timer->advance(20s);
  t.act(1, kind::undo_answer, true);
  CHECK(t.clock() == json{{"remaining_ms", {30000, 60000}}, {"running", 0}});
  // The request is no pause: the asker's time runs out while it is open.
  t.r->move(t.seats[0], messages::move_of(close_city()), nullptr);
  t.act(0, kind::undo);
  t.timer->advance(30s);
  CHECK(has_forfeited(t.game(), 0));
}

TEST_CASE("a wrongly typed match field is bad_match_options") {
  for (const json& bad : {json("fischer"), json{{"initial_s", "600"}}, json{{"undo", true}},
                          json{{"clock", 1}}, json{{"answer_s", 60.5}}}) {
    CAPTURE(bad);
    const auto parsed = match_options_from_json(bad);
    CHECK_FALSE(parsed.ok());
    CHECK(parsed.error.code == "bad_match_options");
  }
}

}  // namespace events_test
