// The table's parts without a room: what delayed spectators see (table/delayed_view.hpp), a
// recorded game's journal handed to the part, its view compared with the game replayed to the
// same move; and the table that holds the game (table/game_table.hpp).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "carcassonne/protocol/view.hpp"
#include "table/delayed_view.hpp"
#include "table/game_journal.hpp"
#include "table/game_table.hpp"

namespace {

using carcassonne::server::delayed_view;

struct delayed_record {
  nlohmann::json setup;
  std::vector<std::string> moves;  // record form, as a room journals them
};

delayed_record road_tie() {
  std::ifstream in(std::string(CARCASSONNE_SOURCE_DIR) + "/tests/records/ex01_road_tie.json");
  const auto r = nlohmann::json::parse(in);
  delayed_record out{r.at("setup"), {}};
  for (const auto& m : r.at("moves")) out.moves.push_back(m.dump());
  return out;
}

const std::vector<std::string> delayed_names{"Ann", "Bo"};

// The public view of the game after its first `n` moves, made afresh.
std::string view_after(const delayed_record& r, std::size_t n) {
  auto g = carcassonne::server::game_at_start(r.setup);
  REQUIRE(g);
  const std::vector<std::string> first(r.moves.begin(), r.moves.begin() + static_cast<long>(n));
  REQUIRE(carcassonne::server::replay(r.setup, first, *g).empty());
  return carcassonne::protocol::public_doc(*g, delayed_names).text();
}

}  // namespace

TEST_CASE(
    "delayed_view: spectators follow the journal `delay` moves behind, all of it at the end") {
  const auto r = road_tie();
  REQUIRE(r.moves.size() == 18);
  auto start = carcassonne::server::game_at_start(r.setup);
  REQUIRE(start);
  delayed_view v(3);
  v.start(*start);
  REQUIRE(v.active());

  std::vector<std::string> journal(r.moves.begin(), r.moves.begin() + 2);
  v.follow(journal, false, delayed_names, nullptr);
  CHECK(v.moves() == 0);  // fewer moves than the delay: the start
  CHECK(v.doc().text() == view_after(r, 0));

  journal.assign(r.moves.begin(), r.moves.begin() + 10);
  std::string ops;
  v.follow(journal, false, delayed_names, &ops);
  CHECK(v.moves() == 7);
  CHECK(v.doc().text() == view_after(r, 7));
  CHECK(ops.find(R"("path":"/game/)") != std::string::npos);  // the diff, under /game

  std::string none;
  v.follow(journal, false, delayed_names, &none);
  CHECK(none.empty());  // nothing moved: nothing to diff

  v.follow(r.moves, true, delayed_names, nullptr);  // over: the spectators see it all
  CHECK(v.moves() == 18);
  CHECK(v.doc().text() == view_after(r, 18));
}

TEST_CASE("delayed_view: a take-back behind the spectators replays them from the start") {
  const auto r = road_tie();
  auto start = carcassonne::server::game_at_start(r.setup);
  REQUIRE(start);
  delayed_view v(1);
  v.start(*start);
  std::vector<std::string> journal(r.moves.begin(), r.moves.begin() + 6);
  v.follow(journal, false, delayed_names, nullptr);
  CHECK(v.moves() == 5);
  CHECK_FALSE(v.ahead_of(6));

  journal.resize(4);  // two moves taken back: the spectators saw one of them
  CHECK(v.ahead_of(4));
  v.take_back(*start, journal, false);
  CHECK(v.moves() == 3);
  v.follow(journal, false, delayed_names, nullptr);
  CHECK(v.doc().text() == view_after(r, 3));
}

TEST_CASE("delayed_view: without a delay it follows nothing") {
  const auto r = road_tie();
  auto start = carcassonne::server::game_at_start(r.setup);
  REQUIRE(start);
  delayed_view v(0);
  v.start(*start);
  CHECK_FALSE(v.active());
  CHECK_FALSE(v.ahead_of(0));
  v.follow(r.moves, true, delayed_names, nullptr);
  CHECK(v.moves() == 0);
}

TEST_CASE("game_table: started, played to its end, its record and what spectators see") {
  std::ifstream in(std::string(CARCASSONNE_SOURCE_DIR) + "/tests/records/full_2p_seeded.json");
  const auto whole = nlohmann::json::parse(in);
  REQUIRE(whole.at("expect").at("status") == "finished");
  delayed_record r{whole.at("setup"), {}};
  for (const auto& m : whole.at("moves")) r.moves.push_back(m.dump());
  carcassonne::server::game_table table(2);
  CHECK(table.setup().is_null());
  auto start = carcassonne::server::game_at_start(r.setup);
  REQUIRE(start);
  table.start(*start, delayed_names, r.setup.dump(), R"({"start":1})");
  CHECK_FALSE(table.finished());
  CHECK(table.setup() == r.setup);
  CHECK(table.delayed.active());
  CHECK(&table.spectator_doc() == &table.delayed.doc());  // with a delay: the delayed view
  for (const auto& m : r.moves) table.journal.moves.push_back(m);
  REQUIRE(carcassonne::server::replay(r.setup, table.journal.moves, *table.game).empty());
  CHECK(table.finished());

  const auto plain = table.record("", {"n0", "n1"});
  CHECK(plain.setup == r.setup.dump());
  CHECK(plain.moves == r.moves);
  CHECK(plain.nonces.empty());  // no secret: no fairness section
  CHECK(plain.outcomes.empty());
  const auto fair = table.record(std::string(64, 'a'), {"n0", "n1"});
  CHECK(fair.nonces == std::vector<std::string>{"n0", "n1"});
  CHECK(fair.outcomes == std::vector<std::string>{R"({"start":1})"});

  carcassonne::server::game_table live(0);
  live.start(*start, delayed_names, r.setup.dump(), "[]");
  CHECK_FALSE(live.delayed.active());
  CHECK(&live.spectator_doc() == &live.public_view);  // no delay: what the seats see
}
