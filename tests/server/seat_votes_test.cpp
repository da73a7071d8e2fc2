// The seats' votes without a room (room/seat_votes.hpp): a take-back asked, answered, declined
// or timed out; a rematch offered, answered by every seat and settled into a new room, with the
// tokens told to the seats here and to a seat that resumes later.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

#include "fake_client.hpp"
#include "fake_timer.hpp"
#include "room/seat_votes.hpp"

namespace {

using namespace carcassonne::server;
using carcassonne::testing::fake_client;
using nlohmann::json;

// Seats: Ann (connected), Bo (gone), a greedy bot. What the hooks were asked is kept.
struct votes_room {
  room_settings settings;
  std::vector<seat_slot> seats{3};
  std::shared_ptr<fake_client> ann = std::make_shared<fake_client>();
  std::vector<json> events;
  std::vector<std::string> notices;  // "seat:kind:key"
  int changed = 0, take_backs = 0, metas = 0, notice_writes = 0;
  std::vector<seat_init> spawned;
  room_settings spawned_settings;
  std::shared_ptr<test::fake_timer> timer = std::make_shared<test::fake_timer>();
  std::unique_ptr<seat_votes> votes;

  votes_room() {
    settings.id = "r1";
    settings.seats = 3;
    settings.match.undo = undo_mode::consent;
    settings.rematch_secret = "next-secret";
    const char* names[] = {"Ann", "Bo", "bot"};
    for (int i = 0; i < 3; ++i) {
      seats[i].taken = true;
      seats[i].name = names[i];
      seats[i].token = std::string("tok-") + names[i];
      seats[i].token_hash = std::string("hash-") + names[i];
    }
    seats[0].client = ann;
    seats[2].bot = carcassonne::bot_level::greedy;
    seat_votes::hooks h;
    h.event = [this](const json& e) { events.push_back(e); };
    h.changed = [this] { ++changed; };
    h.notice = [this](int seat, const char* kind, const std::string& key) {
      notices.push_back(std::to_string(seat) + ":" + kind + ":" + key);
    };
    h.write_notices = [this] { ++notice_writes; };
    h.save_meta = [this] { ++metas; };
    h.take_back = [this] { ++take_backs; };
    h.spawn = [this](room_settings s, std::vector<seat_init> next) {
      spawned_settings = std::move(s);
      spawned = std::move(next);
      return std::string("r2");
    };
    h.send = [](const client_ptr& c, const json& m) {
      c->deliver(std::make_shared<const std::string>(m.dump()));
    };
    votes = std::make_unique<seat_votes>(settings, seats, std::move(h));
    votes->set_timer(timer);
  }
  // Ann asks; Bo must answer, the bot accepts at once.
  seat_votes::undo_ask ann_asks() const { return {1, 0b010, 0b100, 7}; }
};

std::string code_of(const seat_votes::refusal& r) {
  return r ? r->code : "";
}

}  // namespace

TEST_CASE("seat_votes: a take-back waits for the persons asked, and goes once they all accept") {
  votes_room r;
  std::vector<std::string> replies;
  const auto reply = [&](const char* type) { replies.push_back(type); };
  CHECK(code_of(r.votes->ask_undo(0, {0, 0b010, 0, 7}, reply)) == "nothing_to_undo");
  CHECK(code_of(r.votes->ask_undo(0, r.ann_asks(), reply)).empty());
  CHECK(replies == std::vector<std::string>{"undo_requested"});
  CHECK(r.events == std::vector<json>{{{"type", "undo_requested"}, {"seat", 0}},
                                      {{"type", "undo_answered"}, {"seat", 2}, {"accept", true}}});
  CHECK(r.notices == std::vector<std::string>{"1:undo_requested:u7"});
  CHECK(r.notice_writes == 1);
  REQUIRE(r.votes->undo());
  CHECK(r.votes->undo()->waiting_seats() == std::vector<int>{1});
  CHECK(code_of(r.votes->ask_undo(0, r.ann_asks(), reply)) == "undo_pending");
  int answered = 0;
  CHECK(code_of(r.votes->answer_undo(0, true, [&] { ++answered; })) == "not_asked");
  CHECK(r.take_backs == 0);
  CHECK(code_of(r.votes->answer_undo(1, true, [&] { ++answered; })).empty());
  CHECK(answered == 1);
  CHECK(r.take_backs == 1);
  CHECK_FALSE(r.votes->undo());
  CHECK(r.timer->pending() == 0);  // its answer timer went with it
  CHECK(code_of(r.votes->answer_undo(1, true, [&] { ++answered; })) == "no_undo_request");
}

TEST_CASE("seat_votes: a take-back is declined by a refusal or by no answer in time") {
  votes_room r;
  const auto reply = [](const char*) {};
  CHECK_FALSE(r.votes->ask_undo(0, r.ann_asks(), reply));
  CHECK_FALSE(r.votes->answer_undo(1, false, [] {}));
  CHECK(r.events.back() == json{{"type", "undo_declined"}, {"seat", 0}, {"reason", "refused"}});
  CHECK(r.take_backs == 0);

  CHECK_FALSE(r.votes->ask_undo(0, r.ann_asks(), reply));
  r.timer->advance(r.settings.match.answer_time - std::chrono::seconds(1));
  CHECK(r.votes->undo());
  r.timer->advance(std::chrono::seconds(1));
  CHECK_FALSE(r.votes->undo());
  CHECK(r.events.back() == json{{"type", "undo_declined"}, {"seat", 0}, {"reason", "no_answer"}});
  CHECK(r.changed == 1);
  CHECK(r.take_backs == 0);
}

TEST_CASE("seat_votes: with nobody to ask, or with undo free, the move goes back at once") {
  for (const auto mode : {undo_mode::consent, undo_mode::free}) {
    votes_room r;
    r.settings.match.undo = mode;
    std::vector<std::string> replies;
    const auto reply = [&](const char* type) { replies.push_back(type); };
    const seat_votes::undo_ask bots_only{1, 0, 0b100, 3};
    const auto asked = mode == undo_mode::consent ? bots_only : r.ann_asks();
    CHECK_FALSE(r.votes->ask_undo(0, asked, reply));
    CHECK(replies == std::vector<std::string>{"undone"});
    CHECK(r.take_backs == 1);
    CHECK(r.notices.empty());
    CHECK(r.events.size() == (mode == undo_mode::consent ? 2u : 0u));
  }
  votes_room off;
  off.settings.match.undo = undo_mode::off;
  CHECK(code_of(off.votes->ask_undo(0, off.ann_asks(), [](const char*) {})) == "undo_off");
}

TEST_CASE(
    "seat_votes: a rematch accepted by every seat is a new room; each seat learns its place") {
  votes_room r;
  int replies = 0;
  const auto reply = [&] { ++replies; };
  CHECK(code_of(r.votes->answer_rematch(1, false, "", reply)) == "no_rematch_offer");
  CHECK_FALSE(r.votes->answer_rematch(0, true, "n-ann", reply));
  CHECK(r.events.back() == json{{"type", "rematch_offered"}, {"seat", 0}});
  CHECK(r.notices ==
        std::vector<std::string>{"1:rematch_offered:rematch", "2:rematch_offered:rematch"});
  CHECK(r.votes->rematch().room().empty());  // Bo has not answered
  CHECK(code_of(r.votes->answer_rematch(0, true, "n-ann", reply)) == "already_answered");
  CHECK_FALSE(r.votes->answer_rematch(1, true, "n-bo", reply));
  CHECK(replies == 2);
  CHECK(r.votes->rematch().room() == "r2");
  REQUIRE(r.spawned.size() == 3);
  CHECK(r.spawned[0].token_hash == "hash-Ann");
  CHECK(r.spawned[0].nonce == "n-ann");
  CHECK(r.spawned[1].nonce == "n-bo");
  CHECK(r.spawned[2].bot == carcassonne::bot_level::greedy);
  CHECK(r.spawned_settings.secret == "next-secret");
  CHECK(r.spawned_settings.rematch_secret.empty());
  CHECK(r.metas == 1);  // where the seats went, before anyone is told
  REQUIRE(r.ann->frames.size() == 1);
  CHECK(r.ann->frames[0] ==
        json{{"type", "rematch_ready"}, {"room", "r2"}, {"seat", 0}, {"token", "tok-Ann"}});
  CHECK(code_of(r.votes->answer_rematch(1, true, "n-bo", reply)) == "rematch_done");

  // Bo was gone: told at its next resume, and the store learns it was told.
  auto bo = std::make_shared<fake_client>();
  r.votes->resume(bo, 1, "tok-Bo");
  REQUIRE(bo->frames.size() == 1);
  CHECK(bo->frames[0]["seat"] == 1);
  CHECK(bo->frames[0]["token"] == "tok-Bo");
  CHECK(r.metas == 2);
  r.votes->resume(bo, 1, "tok-Bo");  // told again, written once
  CHECK(bo->frames.size() == 2);
  CHECK(r.metas == 2);
}

TEST_CASE("seat_votes: a rematch not answered in time lapses with fewer than two who accepted") {
  votes_room r;
  r.seats[2].bot.reset();  // three persons
  r.seats[2].name = "Cy";
  CHECK_FALSE(r.votes->answer_rematch(0, true, "n-ann", [] {}));
  r.timer->advance(r.settings.match.answer_time);
  CHECK(r.changed == 1);
  CHECK(r.spawned.empty());
  CHECK_FALSE(r.votes->rematch().offer());  // a new offer may be made
  CHECK_FALSE(r.votes->answer_rematch(1, true, "n-bo", [] {}));
  CHECK(r.votes->rematch().offer());
}
