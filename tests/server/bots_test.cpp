// Bots in rooms, without sockets: bot seats and their pause on a fake timer, searches held by
// the test, stale results dropped, bots-only games to the end, takeover and release, every
// refusal, and bot seats across a restart.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <mutex>

#include "bot_support.hpp"
#include "carcassonne/engine/rng.hpp"
#include "every_expansion.hpp"
#include "fake_client.hpp"
#include "fake_timer.hpp"
#include "room/room_meta.hpp"
#include "strand_queue.hpp"
#include "temp_dir.hpp"

using carcassonne::server::test::strand_queue;

using namespace carcassonne;
using namespace carcassonne::server;
using carcassonne::server::test::at_once;
using carcassonne::server::test::fake_timer;
using carcassonne::server::test::held_runner;
using carcassonne::testing::fake_client;
using carcassonne::testing::make_client;
using namespace carcassonne::testing::messages;
using nlohmann::json;
using std::chrono::milliseconds;
using std::chrono::seconds;

namespace {

room_settings settings(int seats, json setup = json::object()) {
  room_settings s;
  s.id = "b1";
  s.name = "bots";
  s.seats = seats;
  s.setup = std::move(setup);
  s.seed = "bots-test-seed";
  return s;
}

protocol::room_bot_settings bots(std::vector<std::optional<bot_level>> seats, int pause_ms = 1000,
                                 int takeover_after = 0) {
  protocol::room_bot_settings b;
  b.seats = std::move(seats);
  b.pause_ms = pause_ms;
  b.takeover_after = takeover_after;
  b.takeover_level = bot_level::random;
  return b;
}

// A room with its timer and held bot runner, as the lobby would set it up.
struct bot_room {
  metrics stats;
  std::shared_ptr<fake_timer> timer = std::make_shared<fake_timer>();
  held_runner runner;
  std::unique_ptr<room> r;
  bot_room(room_settings s, const protocol::room_bot_settings& b, const client_ptr& creator) {
    r = std::make_unique<room>(std::move(s), &stats, creator);
    r->set_bot_settings(b);
    r->attach_timer(timer);
    r->attach_bots(&runner, at_once(), {200, milliseconds(1000)});
  }
};

std::size_t moves_of(const room& r) {
  return r.record()["moves"].size();
}

// The human seat to act plays a random legal move from its view.
// `settle` runs before the answer is checked (a room with a store holds it until the commit).
void human_move(room& r, fake_client& c, rng& chooser, const json& id,
                const std::function<void()>& settle = {}) {
  const auto& legal = c.view["game"]["legal_moves"];
  REQUIRE(legal.is_array());
  auto self = std::shared_ptr<fake_client>(&c, [](fake_client*) {});
  r.move(self, move_of(legal[chooser.below(legal.size())]), id);
  if (settle) settle();
  REQUIRE_MESSAGE(c.last("move_accepted")["id"] == id, c.raw.back());
}

// Runs the room's bots until a human must act or the game is over; returns the bot moves.
int run_bots(bot_room& b, int human_seat = -1) {
  int moves = 0;
  while (!b.r->game()->finished && to_act(*b.r->game()) != human_seat) {
    const auto before = moves_of(*b.r);
    b.timer->advance(milliseconds(1000));
    REQUIRE(b.runner.run_all() == 1);
    REQUIRE(moves_of(*b.r) == before + 1);
    ++moves;
  }
  return moves;
}

}  // namespace

TEST_CASE("a bot seat is named and marked, plays after the pause, and its move is journaled") {
  auto ann = make_client(), watcher = make_client();
  bot_room b(settings(2), bots({std::nullopt, bot_level::random}), ann);
  auto& r = *b.r;
  r.join(ann, join_as("Ann"), nullptr);
  r.spectate(watcher, nullptr);
  CHECK(ann->last("joined")["seat"] == 0);
  const json seat1 = ann->view["room"]["seats"][1];
  CHECK(seat1["bot"] == "random");
  CHECK(seat1["name"] == "Random bot 2");
  CHECK(seat1["connected"] == true);
  CHECK(ann->view["room"]["bots"]["pause_ms"] == 1000);
  CHECK_FALSE(ann->view["room"]["seats"][0].contains("bot"));
  const auto summary = r.listing().summary().to_json();
  CHECK(summary["taken"] == 2);
  CHECK(summary["players"] == json::array({"Ann", "Random bot 2"}));
  CHECK(summary["bots"] ==
        json::array({{{"seat", 1}, {"name", "Random bot 2"}, {"level", "random"}}}));

  r.start(ann, "s");
  REQUIRE(r.game());
  rng chooser(3);
  CHECK(b.timer->pending() == 0);  // the human starts: no bot is due
  while (to_act(*r.game()) == 0) human_move(r, *ann, chooser, json(moves_of(r)));
  // Now the bot's turn: nothing before the pause is over, and nothing on this thread after it
  // until the search comes back.
  const auto seq = r.seq();
  b.timer->advance(milliseconds(999));
  CHECK(b.runner.jobs.empty());
  b.timer->advance(milliseconds(1));
  REQUIRE(b.runner.jobs.size() == 1);
  CHECK(b.runner.jobs[0].first.info.seat == 1);
  CHECK(b.runner.jobs[0].first.playouts == 200);
  CHECK(r.seq() == seq);
  const auto before = r.record()["moves"].size();
  b.runner.run_all();
  CHECK(r.seq() == seq + 1);
  const json rec = r.record();
  REQUIRE(rec["moves"].size() == before + 1);
  CHECK(rec["moves"].back()["seat"] == 1);
  CHECK(b.stats.bot_moves.load() == 1);
  CHECK(ann->seq == r.seq());
  CHECK(watcher->seq == r.seq());
  CHECK_FALSE(ann->gap);
  // A human and a bot play the game out.
  while (!r.game()->finished) {
    if (to_act(*r.game()) == 0)
      human_move(r, *ann, chooser, json(moves_of(r)));
    else
      run_bots(b, 0);
  }
  CHECK(ann->view["game"]["status"] == "finished");
  CHECK(b.timer->pending() == 0);
  CHECK(b.runner.jobs.empty());
}

TEST_CASE("a bots-only game runs to the end while a spectator watches") {
  for (const json& setup :
       {json::object(), json{{"expansions", carcassonne::testing::every_expansion()}}}) {
    CAPTURE(setup);
    auto creator = make_client();
    bot_room b(settings(4, setup),
               bots({bot_level::random, bot_level::greedy, bot_level::strong, bot_level::random}),
               creator);
    auto& r = *b.r;
    r.spectate(creator, nullptr);
    CHECK(r.listing().summary().taken == 4);
    r.start(creator, "s");
    REQUIRE(r.game());
    const int moves = run_bots(b);
    CHECK(moves > 70);
    CHECK(r.game()->finished);
    CHECK(b.stats.bot_moves.load() == moves);
    CHECK(r.record()["moves"].size() == static_cast<std::size_t>(moves));
    CHECK(creator->view["game"]["status"] == "finished");
    CHECK_FALSE(creator->gap);
    CHECK(creator->seq == r.seq());
    CHECK(b.timer->pending() == 0);
  }
}

TEST_CASE("a bot's result for an older position is dropped") {
  auto ann = make_client(), bob = make_client();
  bot_room b(settings(2), bots({}), ann);
  auto& r = *b.r;
  r.join(ann, join_as("Ann"), nullptr);
  r.join(bob, join_as("Bob"), nullptr);
  r.start(ann, nullptr);
  // A clock asks a bot to play for Ann; Ann moves herself before the search comes back.
  r.play_for_seat(0, bot_level::random);
  REQUIRE(b.runner.jobs.size() == 1);
  r.play_for_seat(1, bot_level::random);  // not Bob's turn: ignored
  CHECK(b.runner.jobs.size() == 1);
  rng chooser(1);
  human_move(r, *ann, chooser, "m0");
  const auto seq = r.seq();
  const auto moves = r.record()["moves"].size();
  b.runner.run_all();
  CHECK(r.seq() == seq);
  CHECK(r.record()["moves"].size() == moves);
  CHECK(b.stats.bot_results_dropped.load() == 1);
  CHECK(b.stats.bot_moves.load() == 0);

  // A spectator arriving changes the room's seq, not the position: the move still counts.
  const int seat = to_act(*r.game());
  r.play_for_seat(seat, bot_level::random);
  auto watcher = make_client();
  r.spectate(watcher, nullptr);
  b.runner.run_all();
  CHECK(r.record()["moves"].size() == moves + 1);
  CHECK(r.record()["moves"].back()["seat"] == seat);
  CHECK(b.stats.bot_moves.load() == 1);
}

TEST_CASE("takeover: a player away on their own decision is played for, until they resume") {
  auto ann = make_client(), bob = make_client();
  bot_room b(settings(2), bots({}, 500, 30), ann);
  auto& r = *b.r;
  r.join(ann, join_as("Ann"), nullptr);
  r.join(bob, join_as("Bob"), nullptr);
  const std::string bob_token = bob->last("joined")["token"];
  CHECK(ann->view["room"]["bots"]["takeover_after"] == 30);
  r.start(ann, nullptr);
  rng chooser(2);
  while (to_act(*r.game()) == 0) human_move(r, *ann, chooser, json(moves_of(r)));

  // Bob goes away on his turn: 30 s later a bot plays for him, and the view says so.
  r.disconnected(bob);
  b.timer->advance(seconds(29));
  CHECK_FALSE(ann->view["room"]["seats"][1].contains("played_by"));
  CHECK(b.runner.jobs.empty());
  b.timer->advance(seconds(1));
  CHECK(ann->view["room"]["seats"][1]["played_by"] == "random");
  CHECK(ann->view["room"]["seats"][1]["connected"] == false);
  CHECK(b.stats.bot_takeovers.load() == 1);
  b.timer->advance(milliseconds(500));
  REQUIRE(b.runner.run_all() == 1);
  CHECK(r.record()["moves"].back()["seat"] == 1);
  // It keeps playing his turns while he is away.
  while (to_act(*r.game()) == 1) {
    b.timer->advance(milliseconds(500));
    REQUIRE(b.runner.run_all() == 1);
  }
  while (to_act(*r.game()) == 0) human_move(r, *ann, chooser, json(moves_of(r)));
  CHECK(b.stats.bot_takeovers.load() == 1);
  b.timer->advance(milliseconds(500));
  REQUIRE(b.runner.jobs.size() == 1);  // a search for Bob is under way...

  // ...when Bob comes back: the search is dropped, the seat is his again.
  auto bob2 = make_client();
  const auto moves = r.record()["moves"].size();
  r.resume(bob2, resume_with("b1", bob_token), nullptr);
  CHECK_FALSE(bob2->view["room"]["seats"][1].contains("played_by"));
  CHECK_FALSE(ann->view["room"]["seats"][1].contains("played_by"));
  b.runner.run_all();
  CHECK(r.record()["moves"].size() == moves);
  CHECK(b.stats.bot_results_dropped.load() == 1);
  human_move(r, *bob2, chooser, "bob-back");
  CHECK(r.record()["moves"].size() == moves + 1);

  // Back within the delay: no takeover at all.
  while (to_act(*r.game()) == 0) human_move(r, *ann, chooser, json(moves_of(r)));
  r.disconnected(bob2);
  b.timer->advance(seconds(20));
  auto bob3 = make_client();
  r.resume(bob3, resume_with("b1", bob_token), nullptr);
  b.timer->advance(seconds(60));
  CHECK(b.runner.jobs.empty());
  CHECK(b.stats.bot_takeovers.load() == 1);
}

TEST_CASE("bot refusals: clear errors, nothing changed") {
  auto ann = make_client(), bob = make_client(), watcher = make_client();
  bot_room b(settings(3), bots({std::nullopt, bot_level::random}), ann);
  auto& r = *b.r;
  r.join(ann, join_as("Ann"), nullptr);
  r.join(bob, join_as("Bob"), nullptr);
  r.spectate(watcher, nullptr);
  const auto unchanged = [&](const char* code, const std::shared_ptr<fake_client>& who,
                             auto&& act) {
    const auto seq = r.seq();
    const auto summary = r.listing().summary().to_json();
    act();
    CHECK_MESSAGE(who->last_error() == code, who->raw.back());
    CHECK(r.seq() == seq);
    CHECK(r.listing().summary().to_json() == summary);
  };
  protocol::add_bot_msg add;
  add.level = bot_level::greedy;
  protocol::remove_bot_msg rm;
  unchanged("room_full", ann, [&] { r.add_bot(ann, add, 1); });
  unchanged("not_creator", bob, [&] { r.remove_bot(bob, rm, 2); });
  rm.seat = 0;
  unchanged("not_a_bot", ann, [&] { r.remove_bot(ann, rm, 3); });
  rm.seat = 5;
  unchanged("no_such_seat", ann, [&] { r.remove_bot(ann, rm, 4); });
  add.seat = 2;
  unchanged("seat_taken", ann, [&] { r.add_bot(ann, add, 5); });
  add.seat = 4;
  unchanged("no_such_seat", ann, [&] { r.add_bot(ann, add, 6); });

  // The creator takes the bot away and puts another one on its seat.
  rm.seat = 1;
  r.remove_bot(ann, rm, 7);
  CHECK(ann->last("bot_removed")["seat"] == 1);
  CHECK(ann->view["room"]["seats"][1]["name"].is_null());
  CHECK_FALSE(ann->view["room"].contains("bots"));
  add.seat.reset();
  unchanged("not_creator", watcher, [&] { r.add_bot(watcher, add, 8); });
  r.add_bot(ann, add, 9);
  CHECK(ann->last("bot_added") == json{{"type", "bot_added"},
                                       {"id", 9},
                                       {"room", "b1"},
                                       {"seat", 1},
                                       {"name", "Greedy bot 2"},
                                       {"level", "greedy"}});
  CHECK(watcher->view["room"]["seats"][1]["bot"] == "greedy");

  r.start(ann, nullptr);
  REQUIRE(r.game());
  unchanged("already_started", ann, [&] { r.add_bot(ann, add, 10); });
  rm.seat = 1;
  unchanged("already_started", ann, [&] { r.remove_bot(ann, rm, 11); });

  // Nobody moves for the bot's seat: the engine's seat 1 is the bot (seats renumbered).
  CHECK(ann->view["room"]["seats"][1]["bot"] == "greedy");
  rng chooser(4);
  while (to_act(*r.game()) != 1) {
    auto& c = to_act(*r.game()) == 0 ? *ann : *bob;
    human_move(r, c, chooser, json(moves_of(r)));
    if (to_act(*r.game()) != 1) continue;
  }
  const json legal_for_bot = [&] {
    game_state g = *r.game();
    return protocol::move_to_json(legal_actions(g).front(), g);
  }();
  unchanged("not_your_seat", ann, [&] { r.move(ann, move_of(legal_for_bot), 12); });
  unchanged("not_your_seat", bob, [&] { r.move(bob, move_of(legal_for_bot), 13); });
  unchanged("not_seated", watcher, [&] { r.move(watcher, move_of(legal_for_bot), 14); });
}

TEST_CASE("a bot's move is journaled before any frame shows it; bot seats survive a restart") {
  const test::temp_dir dir("carcassonne-bots");
  std::string error;
  auto db = store::open({dir.db(), false}, error);
  REQUIRE_MESSAGE(db, error);
  strand_queue q;
  metrics stats;
  auto timer = std::make_shared<fake_timer>();
  held_runner runner;
  auto ann = make_client();
  auto r = std::make_unique<room>(settings(2), &stats, ann);
  r->set_bot_settings(bots({std::nullopt, bot_level::random}, 250));
  r->attach_store(db.get(), q.poster());
  r->attach_timer(timer);
  r->attach_bots(&runner, at_once(), {});
  r->join(ann, join_as("Ann"), nullptr);
  q.pump(*db);
  const std::string token = ann->last("joined")["token"];
  r->start(ann, nullptr);
  q.pump(*db);
  rng chooser(9);
  while (to_act(*r->game()) == 0) {
    human_move(*r, *ann, chooser, json(moves_of(*r)), [&] { q.pump(*db); });
  }
  timer->advance(milliseconds(250));
  const auto frames = ann->frames.size();
  REQUIRE(runner.run_all() == 1);
  CHECK(ann->frames.size() == frames);  // held until the move is in the journal
  q.pump(*db);
  CHECK(ann->frames.size() == frames + 1);
  const auto stored = db->load("b1", error);
  REQUIRE(stored);
  REQUIRE(stored->moves.size() == moves_of(*r));
  CHECK(stored->moves.back().move["seat"] == 1);
  CHECK(stored->meta["bots"]["seats"] == json::array({nullptr, "random"}));
  CHECK(stored->meta["bots"]["pause_ms"] == 250);

  // The server restarts: the room comes back with its bot, which keeps playing its seat.
  const auto moves = moves_of(*r);
  r.reset();
  q.queued.clear();
  auto rooms = db->unfinished_rooms(error);
  REQUIRE(rooms.size() == 1);
  auto back = room::restore(rooms[0], &stats, error);
  REQUIRE_MESSAGE(back, error);
  back->attach_store(db.get(), q.poster());
  back->attach_timer(timer);
  back->attach_bots(&runner, at_once(), {});
  CHECK(moves_of(*back) == moves);
  auto ann2 = make_client();
  back->resume(ann2, resume_with("b1", token), nullptr);
  q.pump(*db);
  CHECK(ann2->view["room"]["seats"][1]["bot"] == "random");
  CHECK(ann2->view["room"]["bots"]["pause_ms"] == 250);
  while (!back->game()->finished) {
    if (to_act(*back->game()) == 0) {
      human_move(*back, *ann2, chooser, json(moves_of(*back)), [&] { q.pump(*db); });
    } else {
      timer->advance(milliseconds(250));
      REQUIRE(runner.run_all() == 1);
    }
    q.pump(*db);
  }
  CHECK(ann2->view["game"]["status"] == "finished");
  back.reset();
  db.reset();
}

TEST_CASE("the stored meta, written as text, reads back what the room holds") {
  // Names that need escaping (quote, backslash, control characters) or are not ASCII.
  const std::string odd = "A \"q\" \\ \n\t\x01 é 字";
  auto ann = make_client();
  auto s = settings(3, json{{"expansions", json::array({"gifts"})}});
  s.name = odd;
  s.secret = "s3cret";
  bot_room b(s, bots({std::nullopt, std::nullopt, bot_level::greedy}, 750, 2), ann);
  b.r->join(ann, join_as(odd), nullptr);
  const json meta = json::parse(b.r->stored_meta());
  CHECK(meta["id"] == "b1");
  CHECK(meta["name"] == odd);
  CHECK(meta["public"] == true);
  CHECK(meta["seats"] == 3);
  CHECK(meta["spectator_delay"] == 0);
  CHECK(meta["seed"] == "bots-test-seed");
  CHECK(meta["secret"] == "s3cret");
  REQUIRE(meta["seat_list"].size() == 3);
  CHECK(meta["seat_list"][0]["name"] == odd);
  CHECK(meta["seat_list"][0]["token_sha256"].get<std::string>().size() == 64);
  CHECK(meta["seat_list"][1].is_null());
  CHECK(meta["seat_list"][2]["name"].is_string());  // the bot's seat is taken
  CHECK(meta["creator_seat"] == 0);
  CHECK(meta["bots"] == json{{"seats", {nullptr, nullptr, "greedy"}},
                             {"pause_ms", 750},
                             {"takeover_after", 2},
                             {"takeover_level", "random"}});
  CHECK(meta["match"] == s.match.to_json());
  CHECK(meta["record_setup"].is_null());  // before the start
  CHECK(meta["setup"] == s.setup);
  CHECK(meta["seq"] == b.r->seq() + seq_reserve);
}
