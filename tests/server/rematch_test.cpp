// Rematch (docs/protocol.md §21, docs/fairness.md "Rematches"): its seed comes from a secret
// committed to when the finished game ended and the nonces sent with the acceptances; a seat away
// when the rematch room is made gets its seat there when it comes back, also after the finished
// room was rebuilt from its stored meta.
#include "fairness/fairness.hpp"
#include "match_support.hpp"

using namespace carcassonne;
using namespace carcassonne::server;
using namespace carcassonne::testing;

namespace {

const std::string rematch_first_secret(64, 'a');

json rematch_deck(std::vector<std::string> tiles) {
  return json{{"script", {{"deck", tiles}}}};
}

void rematch_answer(table& t, int seat, bool accept, const std::string& nonce, const json& id) {
  protocol::match_msg m;
  m.what = protocol::match_msg::kind::rematch;
  m.accept = accept;
  m.nonce = nonce;
  t.r->match_action(t.seats.at(seat), m, id);
}

// A spawner that keeps the rooms it makes, started as the lobby starts them.
struct rematch_rooms {
  std::vector<std::unique_ptr<room>> made;
  room_hooks::spawner spawner() {
    return [this](room_settings s, std::vector<seat_init> seats) {
      s.id = "m" + std::to_string(made.size() + 2);
      made.push_back(room::rematch_room(std::move(s), seats, nullptr));
      made.back()->start_rematch();
      return made.back()->id();
    };
  }
};

// Clients resumed into `r` with `tokens` (seat order) play first legal moves to the end.
void rematch_play_out(room& r, const std::vector<std::string>& tokens) {
  std::vector<std::shared_ptr<fake_client>> cs;
  for (const auto& token : tokens) {
    cs.push_back(make_client());
    r.resume(cs.back(), messages::resume_with(r.id(), token), "res");
    REQUIRE(cs.back()->last("resumed")["seat"] == static_cast<int>(cs.size() - 1));
  }
  for (int i = 0; i < 500 && !r.game()->finished; ++i) {
    auto& c = cs.at(to_act(*r.game()));
    const auto& legal = c->view["game"]["legal_moves"];
    REQUIRE(!legal.empty());
    r.move(c, messages::move_of(legal[0]), nullptr);
  }
  REQUIRE(r.game()->finished);
}

}  // namespace

TEST_CASE(
    "rematch: its seed comes from a secret committed at the end and the acceptances' nonces") {
  table t(3, match_options{}, json::object(), rematch_first_secret);
  rematch_rooms rooms;
  t.r->attach_hooks({.spawn = rooms.spawner()});
  CHECK(t.seats[0]->view["room"]["fairness"]["rematch_commitment"].is_null());
  for (int i = 0; i < 500 && !t.game().finished; ++i) t.play_first();
  REQUIRE(t.game().finished);
  // Shown with the end, before anyone can offer: the server cannot pick it after the nonces.
  const json shown = t.seats[1]->view["room"]["fairness"]["rematch_commitment"];
  REQUIRE(shown.is_string());
  CHECK(shown.get<std::string>().size() == 64);
  CHECK(shown != t.seats[1]->view["room"]["fairness"]["commitment"]);

  rematch_answer(t, 0, true, "n0", "r0");
  CHECK(t.seats[2]->view["room"]["rematch"]["nonces"] == json::array({"n0", nullptr, nullptr}));
  rematch_answer(t, 1, false, "ignored", "r1");
  rematch_answer(t, 2, true, "Zm9vYmFy+/==", "r2");
  REQUIRE(rooms.made.size() == 1);
  CHECK(t.seats[0]->view["room"]["rematch"]["nonces"] ==
        json::array({"n0", nullptr, "Zm9vYmFy+/=="}));
  room& next = *rooms.made[0];
  const json meta = json::parse(next.stored_meta());
  const auto secret = meta["secret"].get<std::string>();
  CHECK(fairness::commitment_of(secret) == shown);
  CHECK(next.record()["setup"]["seed"] == fairness::derive_seed(secret, {"n0", "Zm9vYmFy+/=="}));

  rematch_play_out(next, {t.seats[0]->last("rematch_ready")["token"].get<std::string>(),
                          t.seats[2]->last("rematch_ready")["token"].get<std::string>()});
  const json record = *next.listing().finished_record();
  CHECK(record["fairness"]["commitment"] == shown);
  CHECK(record["fairness"]["nonces"] == json::array({"n0", "Zm9vYmFy+/=="}));
  bool malformed = false;
  const json verdict = fairness::verify(record, malformed);
  CHECK_MESSAGE(verdict["verified"] == true, verdict.dump());
  // The rematch's own rematch has a secret of its own.
  CHECK(json::parse(next.stored_meta())["rematch_secret"] != secret);
}

TEST_CASE("rematch: a seat away when the room is made keeps its token there and learns on resume") {
  table t(2, match_options{}, rematch_deck({"BA/RFr"}));
  rematch_rooms rooms;
  t.r->attach_hooks({.spawn = rooms.spawner()});
  const auto ann = t.seats[0]->last("joined")["token"].get<std::string>();
  t.play_turn();
  REQUIRE(t.game().finished);
  rematch_answer(t, 0, true, "", "offer");
  t.r->disconnected(t.seats[0]);
  rematch_answer(t, 1, true, "", "yes");
  REQUIRE(rooms.made.size() == 1);
  room& next = *rooms.made[0];
  CHECK(t.seats[0]->last("rematch_ready").is_null());
  CHECK(t.seats[1]->last("rematch_ready")["seat"] == 1);
  // What the store keeps of the finished room, taken before Ann comes back.
  stored_room stored{t.r->id(), room_state::finished, json::parse(t.r->stored_meta()), {}};
  const json record = t.r->record();  // kept: a range over a temporary's member dangles
  for (const auto& m : record["moves"]) stored.moves.push_back({m, nullptr, 0});

  auto back = make_client();
  t.r->resume(back, messages::resume_with("m1", ann), "again");
  const json ready = back->last("rematch_ready");
  CHECK(ready == json{{"type", "rematch_ready"}, {"room", "m2"}, {"seat", 0}, {"token", ann}});
  auto there = make_client();
  next.resume(there, messages::resume_with("m2", ann), "there");
  CHECK(there->last("resumed")["seat"] == 0);
  CHECK(there->view["game"]["status"] == "playing");
  // Told again at every resume here: a rematch_ready lost with its connection is never the last.
  auto later = make_client();
  t.r->resume(later, messages::resume_with("m1", ann), "later");
  CHECK(later->last("resumed")["seat"] == 0);
  CHECK(later->last("rematch_ready")["token"] == ann);

  // The finished room rebuilt from the store (it left memory meanwhile) knows it too.
  std::string error;
  auto rebuilt = room::restore(stored, nullptr, error);
  REQUIRE_MESSAGE(rebuilt, error);
  auto after_restart = make_client();
  rebuilt->resume(after_restart, messages::resume_with("m1", ann), "r");
  CHECK(after_restart->last("rematch_ready")["token"] == ann);
  CHECK(after_restart->view["room"]["rematch"]["room"] == "m2");
  rematch_answer(t, 1, true, "", "late");
  CHECK(t.seats[1]->last_error() == "rematch_done");
}

TEST_CASE("rematch: an offer that fails is gone, and the next rematch is a new offer") {
  table t(2, match_options{}, rematch_deck({"BA/RFr"}));
  rematch_rooms rooms;
  t.r->attach_hooks({.spawn = rooms.spawner()});
  rematch_answer(t, 0, true, "", "early");
  CHECK(t.seats[0]->last_error() == "game_not_over");
  t.play_turn();
  REQUIRE(t.game().finished);
  const auto seq = t.r->seq();
  rematch_answer(t, 0, true, "", "offer");
  CHECK(t.r->seq() == seq + 1);  // an offer is a change: it raises seq
  CHECK(t.seats[1]->view["room"]["rematch"]["accepted"] == json::array({0}));
  rematch_answer(t, 1, false, "", "no");
  CHECK(rooms.made.empty());
  CHECK_FALSE(t.seats[1]->view["room"].contains("rematch"));
  rematch_answer(t, 1, true, "", "offer again");
  CHECK(t.seats[0]->view["room"]["rematch"]["accepted"] == json::array({1}));
  CHECK(t.seats[0]->view["room"]["rematch"]["declined"] == json::array());
  // No answer within answer_s declines.
  t.timer->advance(match_options{}.answer_time);
  CHECK(rooms.made.empty());
  CHECK_FALSE(t.seats[0]->view["room"].contains("rematch"));
}

TEST_CASE("rematch: bots accept an offer at once and sit in the rematch at their level") {
  auto ann = make_client();
  room r(match_settings(2, match_options{}, json::object(), rematch_first_secret), nullptr, ann);
  rematch_rooms rooms;
  r.attach_hooks({.spawn = rooms.spawner()});
  r.join(ann, messages::join_as("Ann"), nullptr);
  protocol::add_bot_msg bot;
  bot.level = bot_level::greedy;
  r.add_bot(ann, bot, "b1");
  r.start(ann, "start");
  REQUIRE(r.game() != nullptr);
  // Ann resigns: one seat is left in play, and the game ends with her turn.
  protocol::match_msg resign;
  resign.what = protocol::match_msg::kind::resign;
  r.match_action(ann, resign, "resign");
  REQUIRE(r.game()->finished);
  const json bot_name = ann->view["room"]["seats"][1]["name"];

  protocol::match_msg offer;
  offer.what = protocol::match_msg::kind::rematch;
  offer.accept = true;
  offer.nonce = "n0";
  r.match_action(ann, offer, "offer");
  // The bot's acceptance came with the offer: the rematch is made at once, Ann told.
  REQUIRE(rooms.made.size() == 1);
  const json ready = ann->last("rematch_ready");
  REQUIRE(ready.is_object());
  CHECK(ready["seat"] == 0);
  CHECK(ann->view["room"]["rematch"]["accepted"] == json::array({0, 1}));
  auto& next = *rooms.made[0];
  REQUIRE(next.game() != nullptr);
  auto back = make_client();
  next.resume(back, messages::resume_with(next.id(), ready["token"].get<std::string>()), "res");
  REQUIRE(back->last("resumed")["seat"] == 0);
  const json seats = back->view["room"]["seats"];
  CHECK(seats[1]["bot"] == "greedy");
  CHECK(seats[1]["name"] == bot_name);
  CHECK(seats[1]["connected"] == true);
}
