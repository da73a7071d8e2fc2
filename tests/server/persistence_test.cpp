// Persistence without sockets: the store (SQLite and PostgreSQL alike), frames held until their
// write is durable, and rooms rebuilt from the journal with their seats, tokens and answered move
// ids.
#include <doctest/doctest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>

#include "base/sha256.hpp"
#include "carcassonne/engine/rng.hpp"
#include "carcassonne/protocol/record.hpp"
#include "fake_client.hpp"
#include "room/stored_record.hpp"
#include "store_backends.hpp"
#include "strand_queue.hpp"
#include "temp_dir.hpp"

using carcassonne::server::test::strand_queue;
using carcassonne::server::test::temp_dir;

using namespace carcassonne;
using namespace carcassonne::server;
using carcassonne::testing::fake_client;
using carcassonne::testing::make_client;
using carcassonne::testing::store_backends;
using namespace carcassonne::testing::messages;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::unique_ptr<store> open_store(const std::string& path) {
  std::string error;
  auto s = store::open({path, true}, error);
  REQUIRE_MESSAGE(s, error);
  return s;
}

room_settings stored_settings(int seats) {
  room_settings s;
  s.id = "persist1";
  s.name = "persisted";
  s.seats = seats;
  s.setup = json{{"expansions", json::array({"hills_and_sheep"})}};
  s.seed = "persistence-test-seed";
  return s;
}

// One random legal move by the seat to act, answered only after the pump.
json play_one(room& r, std::vector<std::shared_ptr<fake_client>>& seats, rng& chooser,
              strand_queue& q, store& s, const json& id) {
  auto& c = seats.at(to_act(*r.game()));
  const auto& legal = c->view["game"]["legal_moves"];
  REQUIRE(!legal.empty());
  const json m = legal[chooser.below(legal.size())];
  const auto frames_before = c->frames.size();
  r.move(c, move_of(m), id);
  CHECK(c->frames.size() == frames_before);  // nothing leaves before the commit
  q.pump(s);
  REQUIRE_MESSAGE(c->last("move_accepted")["id"] == id, c->raw.back());
  return m;
}

// A two-seat room on a fresh store, started, its first writes committed.
struct started_game {
  std::unique_ptr<store> db;
  strand_queue q;
  metrics stats;
  std::shared_ptr<fake_client> a = make_client(), b = make_client();
  room r{stored_settings(2), &stats, a};

  explicit started_game(const std::string& location) : db(open_store(location)) {
    r.attach_store(db.get(), q.poster());
    r.join(a, join_as("Ann"), nullptr);
    r.join(b, join_as("Bob"), nullptr);
    r.start(a, nullptr);
    q.pump(*db);
  }
};

}  // namespace

TEST_CASE("sha256 test vectors (FIPS 180-4)") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("the store keeps rooms and journals across reopening, in order") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    const std::string location = backend.fresh();
    {
      auto s = open_store(location);
      s->submit(save_room_write{"a", room_state::playing, R"({"k":1})"}, nullptr);
      s->submit(save_room_write{"b", room_state::finished, R"({"k":2})"}, nullptr);
      for (int i = 0; i < 3; ++i)
        s->submit(
            move_write{"a", i, json{{"n", i}}.dump(), json(i * 10).dump(), std::uint64_t(100 + i)},
            nullptr);
      s->submit(save_room_write{"a", room_state::playing, R"({"k":3})"},
                nullptr);  // replaces the row
      s->submit(save_room_write{"c", room_state::waiting, R"({"k":4})"}, nullptr);
      s->submit(move_write{"c", 0, "{}", "null", 1}, nullptr);
      s->submit(delete_room_write{"c"}, nullptr);
      std::vector<int> done;
      std::mutex m;
      for (int i = 0; i < 5; ++i)
        s->submit(
            save_room_write{std::string("d").append(std::to_string(i)), room_state::waiting, "{}"},
            [&, i](bool ok) {
              CHECK(ok);
              std::lock_guard lock(m);
              done.push_back(i);
            });
      s->flush();
      CHECK(done == std::vector<int>{0, 1, 2, 3, 4});  // callbacks run in queue order
      CHECK(s->writes.load() == 14);
    }
    auto s = open_store(location);
    std::string error;
    auto rooms = s->unfinished_rooms(error);
    CHECK(error.empty());
    REQUIRE(rooms.size() == 6);  // a, then d0..d4; b is finished, c deleted
    CHECK(rooms[0].id == "a");
    CHECK(rooms[0].meta == json{{"k", 3}});
    REQUIRE(rooms[0].moves.size() == 3);
    CHECK(rooms[0].moves[2].move == json{{"n", 2}});
    CHECK(rooms[0].moves[2].client_id == 20);
    CHECK(rooms[0].moves[2].seq == 102);
    CHECK(rooms[1].id == "d0");
    auto b = s->load("b", error);
    REQUIRE(b);
    CHECK(b->state == room_state::finished);
    CHECK_FALSE(s->load("c", error));
  }
}

TEST_CASE("room states are stored as the protocol's words; an unknown word is a clear error") {
  for (const auto st : {room_state::waiting, room_state::playing, room_state::finished})
    CHECK(room_state_from_string(to_string(st)) == st);
  CHECK(to_string(room_state::waiting) == "waiting");
  CHECK(to_string(room_state::playing) == "playing");
  CHECK(to_string(room_state::finished) == "finished");
  CHECK_FALSE(room_state_from_string("Finished"));
  CHECK_FALSE(room_state_from_string(""));
  temp_dir dir;
  {
    auto s = open_store(dir.db());
    s->submit(save_room_write{"a", room_state::playing, "{}"}, nullptr);
    s->submit(save_room_write{"b", room_state::finished, "{}"}, nullptr);
    s->flush();
  }
  sqlite3* db = nullptr;
  REQUIRE(sqlite3_open(dir.db().c_str(), &db) == SQLITE_OK);
  std::vector<std::string> words;
  sqlite3_exec(
      db, "SELECT state FROM rooms ORDER BY id",
      [](void* out, int, char** values, char**) {
        static_cast<std::vector<std::string>*>(out)->push_back(values[0]);
        return 0;
      },
      &words, nullptr);
  CHECK(words == std::vector<std::string>{"playing", "finished"});
  REQUIRE(sqlite3_exec(db, "UPDATE rooms SET state = 'paused' WHERE id = 'a'", nullptr, nullptr,
                       nullptr) == SQLITE_OK);
  sqlite3_close(db);
  auto s = open_store(dir.db());
  std::string error;
  CHECK_FALSE(s->load("a", error));
  CHECK(error == "room a: unknown state paused");
  error.clear();
  auto b = s->load("b", error);
  REQUIRE(b);
  CHECK(b->state == room_state::finished);
}

TEST_CASE("a file that is not a database, or from a newer server, is a clear error at open") {
  temp_dir dir;
  {
    std::ofstream f(dir.db(), std::ios::binary);
    f << std::string(8192, 'x');
  }
  std::string error;
  CHECK_FALSE(store::open({dir.db(), true}, error));
  CHECK(error.find(dir.db()) != std::string::npos);
  CHECK(error.find("not a database") != std::string::npos);

  fs::remove(dir.db());
  { auto s = open_store(dir.db()); }
  {  // a later schema
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(dir.db().c_str(), &db) == SQLITE_OK);
    sqlite3_exec(db, "PRAGMA user_version=99", nullptr, nullptr, nullptr);
    sqlite3_close(db);
  }
  error.clear();
  CHECK_FALSE(store::open({dir.db(), true}, error));
  CHECK(error.find("newer server") != std::string::npos);

  error.clear();  // a directory where the file should be
  fs::remove(dir.db());
  fs::create_directories(dir.db());
  CHECK_FALSE(store::open({dir.db(), true}, error));
  CHECK(error.find("cannot open") != std::string::npos);
}

TEST_CASE("a room holds every frame until its write is durable, and comes back from the journal") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    const std::string location = backend.fresh();
    auto db = open_store(location);
    strand_queue q;
    metrics stats;
    auto a = make_client(), b = make_client(), watcher = make_client();
    auto r = std::make_unique<room>(stored_settings(3), &stats, a);
    r->attach_store(db.get(), q.poster());

    r->join(a, join_as("Ann"), "j1");
    CHECK(a->frames.empty());  // the token leaves only once the seat is stored
    q.pump(*db);
    const std::string token_a = a->last("joined")["token"].get<std::string>();
    r->join(b, join_as("Bob"), "j2");
    q.pump(*db);
    const std::string token_b = b->last("joined")["token"].get<std::string>();
    r->spectate(watcher, nullptr);
    r->start(a, "s");
    q.pump(*db);
    REQUIRE(r->game() != nullptr);
    // The database never holds a token.
    std::string error;
    auto stored = db->load("persist1", error);
    REQUIRE(stored);
    CHECK(stored->meta.dump().find(token_a) == std::string::npos);
    CHECK(stored->meta["seat_list"][0]["token_sha256"] == sha256_hex(token_a));

    std::vector<std::shared_ptr<fake_client>> seats{a, b};
    rng chooser(5);
    for (int i = 0; i < 30; ++i)
      play_one(*r, seats, chooser, q, *db, json(std::string("m").append(std::to_string(i))));
    CHECK_FALSE(a->gap);
    CHECK_FALSE(watcher->gap);

    // A move committed whose answer never left: the server dies between the commit and the send.
    auto& mover = seats.at(to_act(*r->game()));
    const auto& legal = mover->view["game"]["legal_moves"];
    const json last_move = legal[0];
    const json last_id = "m-last";
    r->move(mover, move_of(last_move), last_id);
    db->flush();
    const json record = r->record();
    const int scores0 = r->game()->players[0].score;
    const std::size_t moves = record["moves"].size();
    CHECK(moves == 31);
    r.reset();         // gone, with its held frames
    q.queued.clear();  // and its strand: the callbacks of the dead room never run

    auto rooms = db->unfinished_rooms(error);
    REQUIRE(rooms.size() == 1);
    auto back = room::restore(rooms[0], &stats, error);
    REQUIRE_MESSAGE(back, error);
    back->attach_store(db.get(), q.poster());
    CHECK(back->record() == record);
    CHECK(back->game()->players[0].score == scores0);
    CHECK(back->listing().summary().taken == 2);

    // A wrong token is refused; the right ones resume with a snapshot of the restored game.
    auto intruder = make_client(), a2 = make_client(), b2 = make_client();
    back->resume(intruder, resume_with("persist1", token_a + "x"), "r0");
    q.pump(*db);
    CHECK(intruder->last_error() == "bad_token");
    back->resume(a2, resume_with("persist1", token_a), "r1");
    back->resume(b2, resume_with("persist1", token_b), "r2");
    q.pump(*db);
    REQUIRE(a2->last("resumed")["seat"] == 0);
    REQUIRE(b2->last("resumed")["seat"] == 1);
    CHECK(a2->view["game"]["scores"] == json::array({scores0, back->game()->players[1].score}));

    // The move sent again with the same id is answered as accepted, not applied twice.
    std::vector<std::shared_ptr<fake_client>> seats2{a2, b2};
    auto& mover2 = seats2.at(last_move["seat"].get<int>());
    back->move(mover2, move_of(last_move), last_id);
    q.pump(*db);
    CHECK(mover2->last("move_accepted")["id"] == last_id);
    CHECK(back->record()["moves"].size() == moves);

    // The game goes on to the end; then the room is stored as finished with its whole journal.
    for (int i = 0; i < 1000 && !back->game()->finished; ++i)
      play_one(*back, seats2, chooser, q, *db, json(std::string("n").append(std::to_string(i))));
    REQUIRE(back->game()->finished);
    CHECK_FALSE(a2->gap);
    REQUIRE(back->listing().finished_record());
    CHECK(*back->listing().finished_record() == back->record());
    auto done = db->load("persist1", error);
    REQUIRE(done);
    CHECK(done->state == room_state::finished);
    CHECK(done->moves.size() == back->record()["moves"].size());
    CHECK(db->unfinished_rooms(error).empty());

    // The finished record replays to the same scores.
    auto parsed = protocol::parse_record(back->record().dump());
    REQUIRE(parsed.ok());
    auto g = new_game(parsed.value->setup);
    REQUIRE(g.ok());
    for (const auto& m : parsed.value->moves) {
      auto mv = protocol::move_from_json(m, g.value());
      REQUIRE(mv.ok());
      REQUIRE(apply_in_place(g.value(), *mv.value));
    }
    for (int s = 0; s < 2; ++s) CHECK(g.value().players[s].score == back->game()->players[s].score);
  }
}

TEST_CASE("take-backs in the journal: the room rebuilt from it is the live one, state and record") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    auto db = open_store(backend.fresh());
    strand_queue q;
    metrics stats;
    auto s = stored_settings(2);
    s.match.undo = undo_mode::free;
    auto a = make_client(), b = make_client();
    auto r = std::make_unique<room>(s, &stats, a);
    r->attach_store(db.get(), q.poster());
    r->join(a, join_as("Ann"), nullptr);
    r->join(b, join_as("Bob"), nullptr);
    r->start(a, nullptr);
    q.pump(*db);
    std::vector<std::shared_ptr<fake_client>> seats{a, b};
    rng chooser(11);
    protocol::match_msg undo;
    undo.what = protocol::match_msg::kind::undo;
    // Each seat takes back what it can after each move, then plays another random move.
    int taken_back = 0;
    for (int i = 0; i < 60 && !r->game()->finished; ++i) {
      const auto seat = to_act(*r->game());
      const game_state before = *r->game();
      play_one(*r, seats, chooser, q, *db, json("m" + std::to_string(i)));
      if (r->game()->finished) break;
      r->match_action(seats[seat], undo, json("u" + std::to_string(i)));
      q.pump(*db);
      if (seats[seat]->last("undone")["id"] == "u" + std::to_string(i)) {
        CHECK(*r->game() == before);
        ++taken_back;
      }
    }
    REQUIRE(taken_back > 5);
    const json record = r->record();
    const game_state live = *r->game();
    r.reset();
    q.queued.clear();
    std::string error;
    auto rooms = db->unfinished_rooms(error);
    REQUIRE(rooms.size() == 1);
    auto back = room::restore(rooms[0], &stats, error);
    REQUIRE_MESSAGE(back, error);
    CHECK(*back->game() == live);
    CHECK(back->record() == record);
    CHECK(stored_record(rooms[0]) == record);  // what a finished room's record is served as
  }
}

TEST_CASE("a stored journal that does not replay is an error naming the room and the move") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    started_game g(backend.fresh());
    auto& [db, q, stats, a, b, r] = g;
    // A move that the engine refuses, written behind the room's back.
    db->submit(
        move_write{
            "persist1", 0,
            json{{"seat", 1}, {"type", "place_tile"}, {"x", 5}, {"y", 5}, {"rotation", 0}}.dump(),
            "null", 9},
        nullptr);
    db->flush();
    std::string error;
    auto rooms = db->unfinished_rooms(error);
    REQUIRE(rooms.size() == 1);
    CHECK_FALSE(room::restore(rooms[0], &stats, error));
    CHECK(error.find("room persist1: journal move 0") != std::string::npos);
  }
}

TEST_CASE("a commit that fails acknowledges nothing: the move is refused and the room stops") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    started_game g(backend.fresh());
    auto& [db, q, stats, a, b, r] = g;
    // Move 0 is already in the journal (written behind the room's back): the room's own write of
    // its first move fails on the primary key, and so does the whole transaction.
    db->submit(move_write{"persist1", 0, "{}", "null", 1}, nullptr);
    db->flush();
    std::vector<std::shared_ptr<fake_client>> seats{a, b};
    auto& mover = seats.at(to_act(*r.game()));
    const auto seq_before = r.seq();
    r.move(mover, move_of(mover->view["game"]["legal_moves"][0]), "first");
    q.pump(*db);
    CHECK(db->failures.load() == 1);
    // The answer is a refusal with the move's id; no patch showed the move to anyone.
    const auto answer = std::find_if(mover->frames.begin(), mover->frames.end(), [](const json& f) {
      return f.value("id", json()) == "first";
    });
    REQUIRE(answer != mover->frames.end());
    CHECK((*answer)["code"] == "storage_failed");
    for (const auto& c : seats) {
      CHECK(c->frames.back()["code"] == "room_moved");  // sent away, to resume
      CHECK_FALSE(c->frames.back().contains("id"));
      for (const auto& f : c->frames)
        CHECK_FALSE((f["type"] == "patch" && f["seq"].get<std::uint64_t>() > seq_before));
    }
    CHECK(r.writes().stopped());
    // The room's later writes are refused untried, until it is readmitted (rebuilt).
    bool later = true;
    db->submit(save_room_write{"persist1", room_state::playing, "{}"},
               [&](bool ok) { later = ok; });
    db->flush();
    CHECK_FALSE(later);
    db->readmit("persist1");
    db->submit(save_room_write{"persist1", room_state::playing, "{}"},
               [&](bool ok) { later = ok; });
    db->flush();
    CHECK(later);
  }
}

TEST_CASE("a room rebuilt from the store starts above every seq it showed") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    started_game g(backend.fresh());
    auto& [db, q, stats, a, b, r] = g;
    // Changes that write nothing (spectators arriving and leaving) raise seq past what the last
    // write stored: the stored meta must still claim them.
    for (int i = 0; i < 150; ++i) {
      auto watcher = make_client();
      r.spectate(watcher, nullptr);
      r.disconnected(watcher);
      q.pump(*db);
    }
    const auto shown = a->seq;
    CHECK(shown >= 300);
    std::string error;
    auto rooms = db->unfinished_rooms(error);
    REQUIRE(rooms.size() == 1);
    auto back = room::restore(rooms[0], &stats, error);
    REQUIRE_MESSAGE(back, error);
    CHECK(back->seq() >= shown);
  }
}
