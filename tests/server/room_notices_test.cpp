// What a room writes for the notifications (room/room_notices.cpp): your_turn to the account of
// the seat the decision passes to (not for a seat's second decision in a row, never a bot's or a
// guest seat's), undo_requested to the seats asked, game_over to every seated account,
// rematch_offered to the others; "my games" rows following the turn; nothing again after a
// restart.
#include "match_support.hpp"
#include "notify/notify_store.hpp"
#include "strand_queue.hpp"
#include "temp_dir.hpp"

using namespace carcassonne;
using namespace carcassonne::server;
using namespace carcassonne::testing;
using kind = protocol::match_msg::kind;

namespace {

struct rn_table {
  server::test::temp_dir dir{"carcassonne-room-notices"};
  std::unique_ptr<store> db;
  std::unique_ptr<notify::notify_store> notes;
  server::test::strand_queue q;
  server::metrics stats;
  std::shared_ptr<server::test::fake_timer> timer = std::make_shared<server::test::fake_timer>();
  std::vector<std::shared_ptr<fake_client>> seats{make_client(), make_client(), make_client()};
  std::unique_ptr<room> r;

  rn_table() {
    std::string error;
    db = store::open({dir.db(), false}, error);
    REQUIRE_MESSAGE(db, error);
    notes = notify::notify_store::open(dir.db(), error);
    REQUIRE_MESSAGE(notes, error);
    match_options o;
    o.clock = time_control::correspondence;
    o.per_move = std::chrono::hours(24);
    o.undo = undo_mode::consent;
    r = std::make_unique<room>(
        match_settings(3, o, json{{"script", {{"deck", {"BA/C", "BA/RFr", "BA/RFr", "BA/RFr"}}}}}),
        &stats, seats[0]);
    r->attach_store(db.get(), q.poster());
    r->attach_timer(timer);
    // Ann and Bob have accounts; the third seat is a guest without one.
    r->join(seats[0], messages::join_as("Ann"), nullptr, "p-ann");
    r->join(seats[1], messages::join_as("Bob"), nullptr, "p-bob");
    r->join(seats[2], messages::join_as("Cid"), nullptr);
    pump();
    r->start(seats[0], "start");
    pump();
  }
  void pump() { q.pump(*db); }
  int acting() const { return to_act(*r->game()); }
  void play_first() {
    auto& c = seats.at(static_cast<std::size_t>(acting()));
    const auto& legal = c->view["game"]["legal_moves"];
    REQUIRE(!legal.empty());
    r->move(c, messages::move_of(legal[0]), nullptr);
    pump();
  }
  void play_turn() {
    const int seat = acting();
    while (!r->game()->finished && acting() == seat) play_first();
  }
  // The notices written, as "kind:player", in key order.
  std::vector<std::string> notices() {
    std::string error;
    std::vector<std::string> out;
    auto players = notes->due_players(INT64_MAX, 100, error);
    REQUIRE_MESSAGE(players, error);
    for (const auto& p : *players)
      REQUIRE(notes->batch_player(
          p, 0,
          [&](sql::connection&, const std::vector<notify::outbox_notice>& ns,
              const notify::preferences&, const std::vector<notify::subscription>&) {
            notify::notify_store::plan_result keep;
            for (const auto& n : ns) {
              out.push_back(n.kind + ":" + n.player + "@" +
                            std::to_string(n.data.value("seat", -1)));
              keep.dropped.insert(n.key);
            }
            return keep;
          },
          error));
    std::sort(out.begin(), out.end());
    return out;
  }
  nlohmann::json games(const std::string& player) {
    std::string error;
    auto g = notes->my_games(player, 0, error);
    REQUIRE_MESSAGE(g, error);
    return (*g)["games"];
  }
};

}  // namespace

TEST_CASE("room notices: your turn on each change of seat, to accounts only; my games follow") {
  rn_table t;
  CHECK(t.notices() == std::vector<std::string>{"your_turn:p-ann@0"});
  auto ann = t.games("p-ann");
  REQUIRE(ann.size() == 1);
  CHECK(ann[0]["to_act"] == true);
  CHECK(ann[0]["clock"] == "correspondence");
  CHECK(ann[0]["seats"][2]["player"].is_null());
  CHECK(t.games("p-bob")[0]["to_act"] == false);

  t.play_first();  // Ann's tile: her figure step follows, still her turn
  CHECK(t.acting() == 0);
  CHECK(t.notices().empty());
  t.play_turn();
  CHECK(t.acting() == 1);
  CHECK(t.notices() == std::vector<std::string>{"your_turn:p-bob@1"});
  CHECK(t.games("p-bob")[0]["to_act"] == true);
  CHECK(t.games("p-bob")[0]["deadline_ms"].is_number());
  t.play_turn();  // the guest seat's turn: nobody to tell
  CHECK(t.acting() == 2);
  CHECK(t.notices().empty());
  CHECK(t.games("p-bob")[0]["acting"] == 2);
}

TEST_CASE("room notices: a take-back asks the others; the end tells everyone; a rematch offer") {
  rn_table t;
  (void)t.notices();
  t.play_first();  // Ann placed her tile: it may be taken back
  protocol::match_msg undo;
  undo.what = kind::undo;
  t.r->match_action(t.seats[0], undo, "u");
  t.pump();
  // Bob is asked (the guest seat too, but has no account).
  CHECK(t.notices() == std::vector<std::string>{"undo_requested:p-bob@1"});
  protocol::match_msg no;
  no.what = kind::undo_answer;
  no.accept = false;
  t.r->match_action(t.seats[1], no, "n");
  t.pump();
  while (!t.r->game()->finished) t.play_first();
  const auto end = t.notices();
  CHECK(std::count(end.begin(), end.end(), "game_over:p-ann@0") == 1);
  CHECK(std::count(end.begin(), end.end(), "game_over:p-bob@1") == 1);
  CHECK(t.games("p-ann")[0]["state"] == "finished");
  CHECK(t.games("p-ann")[0]["acting"].is_null());

  protocol::match_msg rematch;
  rematch.what = kind::rematch;
  rematch.accept = true;
  t.r->match_action(t.seats[0], rematch, "r");
  t.pump();
  CHECK(t.notices() == std::vector<std::string>{"rematch_offered:p-bob@1"});
}

TEST_CASE("room notices: a room rebuilt after a restart tells nobody again") {
  rn_table t;
  t.play_turn();
  CHECK(t.notices() == std::vector<std::string>{"your_turn:p-ann@0", "your_turn:p-bob@1"});
  t.r.reset();
  t.q.queued.clear();
  std::string error;
  auto rooms = t.db->unfinished_rooms(error);
  REQUIRE(rooms.size() == 1);
  auto back = room::restore(rooms[0], &t.stats, error);
  REQUIRE_MESSAGE(back, error);
  back->attach_store(t.db.get(), t.q.poster());
  back->attach_timer(std::make_shared<server::test::fake_timer>());
  back->save_clock();  // a write of the rebuilt room
  t.pump();
  CHECK(t.notices().empty());
  CHECK(t.games("p-bob")[0]["to_act"] == true);
}
