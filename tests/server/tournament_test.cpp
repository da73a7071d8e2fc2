// A tournament's state and rules (competition/tournament.hpp), driven with a fake clock and made
// up results: registration and check-in, the director's actions, advance()'s timing, tables that
// cannot start, full Swiss, knockout and Swiss-then-knockout events, and the JSON forms.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "competition/tournament.hpp"

namespace tournament_test {

using namespace carcassonne::server::competition;
using nlohmann::json;
using matrix = std::vector<std::vector<double>>;

constexpr std::int64_t tt_start = 1'000'000;

json tt_room() {
  return {{"setup", json::object()},
          {"match", {{"clock", "fischer"}, {"initial_s", 60}, {"increment_s", 5}}}};
}

tournament tt_make(tournament_format format, int players, int rounds = 3) {
  tournament t;
  t.id = "t1";
  t.settings.name = "Test cup";
  t.settings.format = format;
  t.settings.rounds = rounds;
  t.settings.room = tt_room();
  t.settings.starts_ms = tt_start;
  t.settings.director = "dir";
  for (int i = 1; i <= players; ++i) {
    participant p;
    p.id = (i < 10 ? "p0" : "p") + std::to_string(i);
    p.name = "Player " + std::to_string(i);
    p.rating = 2000.0 - 10.0 * i;  // p01 the strongest
    REQUIRE_FALSE(register_player(t, p));
  }
  return t;
}

double tt_rating(const tournament& t, const std::string& id) {
  for (const auto& p : t.participants)
    if (p.id == id) return p.rating;
  FAIL("no participant " << id);
  return 0;
}

// The higher rated player of a table beats every lower rated one.
matrix tt_favourites_win(const tournament& t, const tournament_table& tb) {
  const auto n = tb.players.size();
  matrix m(n, std::vector<double>(n, 0));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j)
      if (i != j) m[i][j] = tt_rating(t, tb.players[i]) > tt_rating(t, tb.players[j]) ? 1 : 0;
  return m;
}

// Every table of the current round without a result gets a room and then `outcome`.
void tt_settle(tournament& t,
               const std::function<matrix(const tournament&, const tournament_table&)>& outcome =
                   tt_favourites_win) {
  REQUIRE_FALSE(t.rounds.empty());
  const int number = t.rounds.back().number;
  for (int i = 0; i < static_cast<int>(t.rounds.back().tables.size()); ++i) {
    const auto tb = t.rounds.back().tables[static_cast<std::size_t>(i)];
    if (tb.results) continue;
    table_started(t, {number, i}, "room-" + std::to_string(number) + "-" + std::to_string(i),
                  false);
    table_finished(t, {number, i}, outcome(t, tb));
  }
}

std::set<std::set<std::string>> tt_tables(const tournament_round& r) {
  std::set<std::set<std::string>> out;
  for (const auto& tb : r.tables) out.insert({tb.players.begin(), tb.players.end()});
  return out;
}

std::string tt_code(const maybe_error& e) {
  return e ? e->code : "";
}

TEST_CASE("tournament: registration, check-in and withdrawal answer with their codes") {
  auto t = tt_make(tournament_format::swiss, 2);
  t.settings.max_players = 3;
  t.settings.check_in_ms = 60'000;
  participant p3{.id = "p03", .name = "Three"};
  CHECK(tt_code(register_player(t, p3)) == "");
  CHECK(tt_code(register_player(t, p3)) == "already_registered");
  CHECK(tt_code(register_player(t, {.id = "p04"})) == "tournament_full");
  CHECK(t.participants.size() == 3);

  CHECK(tt_code(withdraw(t, "nobody", tt_start - 1)) == "not_registered");
  CHECK(tt_code(withdraw(t, "p03", tt_start - 1)) == "");
  CHECK(t.participants.size() == 2);  // the seat is free again
  CHECK(tt_code(register_player(t, p3)) == "");

  CHECK(tt_code(check_in(t, "p01", tt_start - 60'001)) == "check_in_closed");  // not open yet
  CHECK(tt_code(check_in(t, "nobody", tt_start - 100)) == "not_registered");
  CHECK(tt_code(check_in(t, "p01", tt_start - 60'000)) == "");
  CHECK(t.participants[0].checked_in);
  CHECK(tt_code(check_in(t, "p02", tt_start)) == "check_in_closed");  // the start closes it

  CHECK(tt_code(check_in(t, "p02", tt_start - 1)) == "");
  CHECK(advance(t, tt_start).changed);
  CHECK(t.phase == tournament_phase::running);
  CHECK(tt_code(register_player(t, {.id = "p05"})) == "registration_closed");
  CHECK(tt_code(check_in(t, "p01", tt_start + 1)) == "check_in_closed");
  // p03 never checked in: out at the start.
  CHECK(t.participants[2].removed);
  CHECK(tt_code(withdraw(t, "p03", tt_start + 1)) == "not_registered");
  CHECK(tt_code(withdraw(t, "p02", tt_start + 1)) == "");
  CHECK(t.participants[1].removed);  // once running, a withdrawal is a removal
  CHECK(t.participants.size() == 3);
}

TEST_CASE("tournament: who did not check in is out at the start, and too few cancel it") {
  auto t = tt_make(tournament_format::swiss, 4);
  t.settings.check_in_ms = 60'000;
  REQUIRE_FALSE(register_player(t, {.id = "bot-greedy#1", .name = "Greedy", .bot = "greedy"}));
  for (const char* id : {"p01", "p02", "p04"}) REQUIRE_FALSE(check_in(t, id, tt_start - 10));
  auto s = advance(t, tt_start);
  CHECK(s.changed);
  CHECK(t.phase == tournament_phase::running);
  CHECK(t.participants[2].removed);        // p03
  CHECK_FALSE(t.participants[4].removed);  // a bot needs no check-in
  REQUIRE(t.rounds.size() == 1);
  CHECK(t.rounds[0].tables.size() == 2);
  for (const auto& tb : t.rounds[0].tables)
    CHECK(std::find(tb.players.begin(), tb.players.end(), "p03") == tb.players.end());
  CHECK(s.start == std::vector<table_ref>{{1, 0}, {1, 1}});

  auto few = tt_make(tournament_format::swiss, 4);
  few.settings.check_in_ms = 60'000;
  few.settings.min_players = 3;
  REQUIRE_FALSE(check_in(few, "p01", tt_start - 10));
  REQUIRE_FALSE(check_in(few, "p02", tt_start - 10));
  const auto before = few;
  s = advance(few, tt_start - 1);
  CHECK_FALSE(s.changed);
  CHECK(s.wake_ms == tt_start);
  CHECK(few == before);
  s = advance(few, tt_start);
  CHECK(s.changed);
  CHECK(few.phase == tournament_phase::cancelled);
  CHECK(few.rounds.empty());
  CHECK(s.start.empty());
  CHECK(s.wake_ms == 0);
  s = advance(few, tt_start + 100'000);
  CHECK_FALSE(s.changed);
  CHECK(tt_code(pause(few, "dir")) == "not_running");
}

TEST_CASE("tournament: only the director acts, each action refused with its code") {
  auto t = tt_make(tournament_format::swiss, 5, 2);
  CHECK(tt_code(pause(t, "p01")) == "not_director");
  CHECK(tt_code(resume(t, "p01", tt_start)) == "not_director");
  CHECK(tt_code(remove_player(t, "p01", "p02")) == "not_director");
  CHECK(tt_code(award_bye(t, "p01", "p02")) == "not_director");
  CHECK(tt_code(pause(t, "dir")) == "not_running");
  CHECK(tt_code(remove_player(t, "dir", "nobody")) == "no_such_player");
  CHECK(tt_code(award_bye(t, "dir", "p05")) == "");  // a bye in round 1
  CHECK(tt_code(remove_player(t, "dir", "p04")) == "");
  CHECK(t.participants.size() == 4);  // before the start an entry is just gone
  advance(t, tt_start);
  REQUIRE(t.rounds.size() == 1);
  // p05's bye, and one more: three left do not fill two tables.
  CHECK(std::find(t.rounds[0].byes.begin(), t.rounds[0].byes.end(), "p05") !=
        t.rounds[0].byes.end());
  CHECK(t.rounds[0].byes.size() == 2);
  CHECK(t.requested_byes.empty());
  CHECK(tt_code(resume(t, "dir", tt_start)) == "not_paused");
  CHECK(tt_code(pause(t, "dir")) == "");
  CHECK(t.paused);
  CHECK(tt_code(pause(t, "dir")) == "already_paused");
  CHECK(tt_code(remove_player(t, "dir", "p01")) == "");
  CHECK(tt_code(remove_player(t, "dir", "p01")) == "no_such_player");
  CHECK(tt_code(award_bye(t, "dir", "p01")) == "no_such_player");

  auto k = tt_make(tournament_format::knockout, 4);
  CHECK(tt_code(award_bye(k, "dir", "p01")) == "knockout_has_no_byes");
  auto sk = tt_make(tournament_format::swiss_knockout, 4, 1);
  sk.settings.top = 2;
  advance(sk, tt_start);
  // The one Swiss round is under way: the next round is the knockout's.
  CHECK(tt_code(award_bye(sk, "dir", "p01")) == "knockout_has_no_byes");
}

TEST_CASE("tournament: a pause holds the next round while the games under way go on") {
  auto t = tt_make(tournament_format::swiss, 4, 2);
  t.settings.round_gap_ms = 30'000;
  advance(t, tt_start);
  REQUIRE(tt_code(pause(t, "dir")) == "");
  tt_settle(t);
  auto s = advance(t, tt_start + 1000);
  CHECK(s.changed);
  CHECK(t.rounds[0].finished);  // results still count
  CHECK(t.next_round_ms == tt_start + 31'000);
  CHECK(s.wake_ms == 0);  // paused: nothing to wait for
  s = advance(t, tt_start + 100'000);
  CHECK(t.rounds.size() == 1);
  CHECK_FALSE(s.changed);
  REQUIRE(tt_code(resume(t, "dir", tt_start + 200'000)) == "");
  CHECK(t.next_round_ms == tt_start + 230'000);  // the round gap from the resumption
  s = advance(t, tt_start + 229'999);
  CHECK(t.rounds.size() == 1);
  CHECK(s.wake_ms == tt_start + 230'000);
  s = advance(t, tt_start + 230'000);
  CHECK(t.rounds.size() == 2);
  CHECK(s.start.size() == 2);
}

TEST_CASE("tournament: a bye the director awards lands in the next round's byes") {
  auto t = tt_make(tournament_format::swiss, 6, 3);
  t.settings.round_gap_ms = 0;
  advance(t, tt_start);
  REQUIRE(tt_code(award_bye(t, "dir", "p02")) == "");
  REQUIRE(tt_code(award_bye(t, "dir", "p02")) == "");  // once is enough
  CHECK(t.requested_byes == std::vector<std::string>{"p02"});
  tt_settle(t);
  advance(t, tt_start + 10);
  REQUIRE(t.rounds.size() == 2);
  const auto& byes = t.rounds[1].byes;
  CHECK(std::find(byes.begin(), byes.end(), "p02") != byes.end());
  CHECK(byes.size() == 2);  // five left: one more sits out
  CHECK(t.rounds[1].tables.size() == 2);
  CHECK(t.requested_byes.empty());
  const auto h = history_of(t);
  CHECK(std::count_if(h.byes.begin(), h.byes.end(), [](const bye& b) {
          return b.player == "p02" && b.round == 2 && b.points == 1.0;
        }) == 1);
}

TEST_CASE("tournament: advance() offers tables, retries those that failed, voids the late") {
  auto t = tt_make(tournament_format::swiss, 6, 2);
  t.settings.retry_ms = 5000;
  t.settings.void_after_ms = 20'000;
  t.settings.round_gap_ms = 30'000;
  auto s = advance(t, tt_start - 5);
  CHECK(s.wake_ms == tt_start);
  CHECK_FALSE(s.changed);
  s = advance(t, tt_start);
  CHECK(s.start == std::vector<table_ref>{{1, 0}, {1, 1}, {1, 2}});
  CHECK(s.wake_ms == tt_start + 5000);
  // Rooms under way are not asked for twice before retry_ms.
  s = advance(t, tt_start + 10);
  CHECK(s.start.empty());
  CHECK_FALSE(s.changed);
  CHECK(s.wake_ms == tt_start + 5000);
  table_started(t, {1, 0}, "room-a", false);
  table_started(t, {1, 2}, "series-c", true);
  table_failed(t, {1, 1}, tt_start + 1000);
  CHECK(t.rounds[0].tables[0].rooms == std::vector<std::string>{"room-a"});
  CHECK(t.rounds[0].tables[2].series == "series-c");
  s = advance(t, tt_start + 1500);
  CHECK(s.start.empty());
  CHECK(s.wake_ms == tt_start + 6000);
  s = advance(t, tt_start + 6000);
  CHECK(s.start == std::vector<table_ref>{{1, 1}});
  CHECK(s.wake_ms == tt_start + 11'000);
  table_failed(t, {1, 1}, tt_start + 17'000);
  s = advance(t, tt_start + 17'000);
  CHECK(s.wake_ms == tt_start + 20'000);  // the void deadline comes before the retry
  s = advance(t, tt_start + 20'000);
  CHECK(s.changed);
  CHECK(s.start.empty());
  const auto& voided = t.rounds[0].tables[1];
  CHECK(voided.void_table);
  CHECK(voided.results == matrix{{0, 0.5}, {0.5, 0}});
  CHECK_FALSE(t.rounds[0].finished);
  CHECK(s.wake_ms == 0);  // the others are playing: their results wake it
  // A room made too late changes nothing: the table stays void.
  table_finished(t, {1, 1}, {{0, 1}, {1, 0}});
  CHECK(voided.results == matrix{{0, 0.5}, {0.5, 0}});
  table_finished(t, {1, 0}, {{1, 0}});  // the wrong shape: no outcome
  CHECK_FALSE(t.rounds[0].tables[0].results);
  table_finished(t, {1, 0}, {{0, 1}, {0, 0}});
  table_finished(t, {1, 2}, {{0, 0.5}, {0.5, 0}});
  s = advance(t, tt_start + 25'000);
  CHECK(t.rounds[0].finished);
  CHECK(s.wake_ms == tt_start + 55'000);
  CHECK(t.next_round_ms == tt_start + 55'000);
  for (const auto& st : standings_of(t)) {
    const auto& p = voided.players;
    if (std::find(p.begin(), p.end(), st.id) != p.end()) CHECK(st.points == 0.5);
  }
}

TEST_CASE("tournament: a Swiss of 8 players over 3 rounds, driven by results") {
  auto t = tt_make(tournament_format::swiss, 8, 3);
  t.settings.round_gap_ms = 30'000;
  std::int64_t now = tt_start;
  auto s = advance(t, now);
  REQUIRE(t.rounds.size() == 1);
  // Round 1, one score group: the top half against the bottom half by rating.
  CHECK(tt_tables(t.rounds[0]) ==
        std::set<std::set<std::string>>{
            {"p01", "p05"}, {"p02", "p06"}, {"p03", "p07"}, {"p04", "p08"}});
  std::map<std::string, double> points;
  std::set<std::set<std::string>> met;
  for (int round = 1; round <= 3; ++round) {
    REQUIRE(static_cast<int>(t.rounds.size()) == round);
    const auto& r = t.rounds.back();
    CHECK_FALSE(r.knockout);
    CHECK(r.started_ms == now);
    CHECK(r.tables.size() == 4);
    CHECK(r.byes.empty());
    CHECK(s.start.size() == 4);
    for (const auto& tb : r.tables) {
      CHECK(met.insert({tb.players.begin(), tb.players.end()}).second);  // never twice
      const auto winner = tt_rating(t, tb.players[0]) > tt_rating(t, tb.players[1]) ? 0 : 1;
      points[tb.players[static_cast<std::size_t>(winner)]] += 1;
    }
    tt_settle(t);
    now += 60'000;
    s = advance(t, now);
    if (round < 3) {
      CHECK(t.rounds.back().finished);
      CHECK(s.wake_ms == now + 30'000);
      now += 30'000;
      s = advance(t, now);
    }
  }
  CHECK(t.phase == tournament_phase::finished);
  CHECK(t.champion == "p01");
  CHECK(s.wake_ms == 0);
  CHECK(s.start.empty());
  const auto standings = standings_of(t);
  REQUIRE(standings.size() == 8);
  CHECK(standings[0].id == "p01");
  CHECK(standings[0].points == 3);
  double total = 0;
  for (const auto& st : standings) {
    CHECK(st.points == points[st.id]);
    CHECK(st.games == 3);
    total += st.points;
  }
  CHECK(total == 12);  // 12 games, one point each
  CHECK_FALSE(advance(t, now + 1'000'000).changed);
}

TEST_CASE("tournament: the Swiss stage ends when only repeated pairings are left") {
  // Four players meet each other in three rounds: a fourth would repeat a pairing.
  auto t = tt_make(tournament_format::swiss, 4, 5);
  t.settings.round_gap_ms = 0;
  std::int64_t now = tt_start;
  advance(t, now);
  for (int round = 1; round <= 3; ++round) {
    REQUIRE(static_cast<int>(t.rounds.size()) == round);
    tt_settle(t);
    advance(t, now += 1000);
  }
  CHECK(t.phase == tournament_phase::finished);
  CHECK(t.rounds.size() == 3);
  CHECK(t.champion == "p01");

  // In a swiss_knockout the knockout starts instead.
  auto sk = tt_make(tournament_format::swiss_knockout, 4, 5);
  sk.settings.top = 2;
  sk.settings.round_gap_ms = 0;
  now = tt_start;
  advance(sk, now);
  for (int round = 1; round <= 3; ++round) {
    tt_settle(sk);
    advance(sk, now += 1000);
  }
  REQUIRE(sk.rounds.size() == 4);
  CHECK(sk.rounds[3].knockout);
  CHECK(tt_tables(sk.rounds[3]) ==
        std::set<std::set<std::string>>{{standings_of(sk)[0].id, standings_of(sk)[1].id}});

  // Everyone removed: no round can be made, and the tournament still ends.
  auto empty = tt_make(tournament_format::swiss, 2, 3);
  empty.settings.round_gap_ms = 0;
  advance(empty, tt_start);
  REQUIRE_FALSE(remove_player(empty, "dir", "p01"));
  REQUIRE_FALSE(remove_player(empty, "dir", "p02"));
  tt_settle(empty);
  advance(empty, tt_start + 1000);
  CHECK(empty.phase == tournament_phase::finished);
  CHECK(empty.champion == "");
  CHECK(standings_of(empty).size() == 2);  // their game stands
}

TEST_CASE("tournament: a removed player is paired no more, and their results stand") {
  auto t = tt_make(tournament_format::swiss, 4, 3);
  t.settings.round_gap_ms = 0;
  advance(t, tt_start);
  tt_settle(t);
  REQUIRE(tt_code(remove_player(t, "dir", "p01")) == "");
  advance(t, tt_start + 100);
  REQUIRE(t.rounds.size() == 2);
  for (const auto& tb : t.rounds[1].tables)
    CHECK(std::find(tb.players.begin(), tb.players.end(), "p01") == tb.players.end());
  CHECK(std::find(t.rounds[1].byes.begin(), t.rounds[1].byes.end(), "p01") ==
        t.rounds[1].byes.end());
  const auto standings = standings_of(t);
  const auto p01 = std::find_if(standings.begin(), standings.end(),
                                [](const standing& s) { return s.id == "p01"; });
  REQUIRE(p01 != standings.end());
  CHECK(p01->points == 1);
  CHECK(p01->games == 1);
}

TEST_CASE(
    "tournament: a knockout of 6: byes for the top seeds, ties and void tables to the "
    "better seed") {
  auto t = tt_make(tournament_format::knockout, 6);
  t.settings.round_gap_ms = 0;
  advance(t, tt_start);
  REQUIRE(t.rounds.size() == 1);
  const auto& r1 = t.rounds[0];
  CHECK(r1.knockout);
  CHECK(r1.bracket == std::vector<std::string>{"p01", "p02", "p03", "p04", "p05", "p06"});
  CHECK(std::set<std::string>(r1.byes.begin(), r1.byes.end()) ==
        std::set<std::string>{"p01", "p02"});
  CHECK(tt_tables(r1) == std::set<std::set<std::string>>{{"p03", "p06"}, {"p04", "p05"}});
  // p05 beats p04; p03 and p06 draw their series: the better seed, p03, goes on.
  tt_settle(t, [](const tournament&, const tournament_table& tb) {
    if (std::set<std::string>(tb.players.begin(), tb.players.end()) ==
        std::set<std::string>{"p03", "p06"})
      return matrix{{0, 0.5}, {0.5, 0}};
    return tb.players[0] == "p05" ? matrix{{0, 1}, {0, 0}} : matrix{{0, 0}, {1, 0}};
  });
  auto s = advance(t, tt_start + 1000);
  REQUIRE(t.rounds.size() == 2);
  CHECK(t.rounds[1].knockout);
  CHECK(tt_tables(t.rounds[1]) == std::set<std::set<std::string>>{{"p01", "p05"}, {"p02", "p03"}});
  CHECK(t.rounds[1].byes.empty());
  CHECK(s.start.size() == 2);
  // p05 beats p01; p02 v p03 never starts: void, and the better seed p02 goes on.
  for (int i = 0; i < 2; ++i) {
    const auto& tb = t.rounds[1].tables[static_cast<std::size_t>(i)];
    if (tb.players[0] != "p01" && tb.players[1] != "p01") continue;
    table_started(t, {2, i}, "room-final-four", false);
    table_finished(t, {2, i},
                   tb.players[0] == "p05" ? matrix{{0, 1}, {0, 0}} : matrix{{0, 0}, {1, 0}});
  }
  s = advance(t, tt_start + 1000 + t.settings.void_after_ms);
  REQUIRE(t.rounds.size() == 3);
  CHECK(tt_tables(t.rounds[2]) == std::set<std::set<std::string>>{{"p02", "p05"}});
  CHECK(t.phase == tournament_phase::running);
  tt_settle(t);  // p02, the higher rated, wins the final
  s = advance(t, tt_start + 200'000);
  CHECK(t.phase == tournament_phase::finished);
  CHECK(t.champion == "p02");
  CHECK(t.rounds.size() == 3);
  CHECK(s.wake_ms == 0);
}

TEST_CASE("tournament: a swiss_knockout seeds the Swiss stage's top 4 into a knockout") {
  auto t = tt_make(tournament_format::swiss_knockout, 6, 2);
  t.settings.top = 4;
  t.settings.round_gap_ms = 10'000;
  std::int64_t now = tt_start;
  advance(t, now);
  for (int round = 1; round <= 2; ++round) {
    tt_settle(t);
    now += 60'000;
    advance(t, now);
    CHECK(t.rounds.size() == static_cast<std::size_t>(round));
    CHECK(t.rounds.back().finished);
    now += 10'000;
    advance(t, now);
  }
  REQUIRE(t.rounds.size() == 3);
  const auto standings = standings_of(t);
  std::vector<std::string> top4;
  for (int i = 0; i < 4; ++i) top4.push_back(standings[static_cast<std::size_t>(i)].id);
  const auto& ko = t.rounds[2];
  CHECK(ko.knockout);
  CHECK(ko.number == 3);
  CHECK(ko.bracket == top4);
  CHECK(ko.byes.empty());
  CHECK(tt_tables(ko) == std::set<std::set<std::string>>{{top4[0], top4[3]}, {top4[1], top4[2]}});
  CHECK(history_of(t).games.size() == 6);  // the Swiss stage's games only
  tt_settle(t);
  now += 60'000;
  advance(t, now);
  now += 10'000;
  advance(t, now);
  REQUIRE(t.rounds.size() == 4);
  CHECK(t.rounds[3].tables.size() == 1);
  tt_settle(t);
  now += 60'000;
  advance(t, now);
  CHECK(t.phase == tournament_phase::finished);
  CHECK(t.champion == "p01");           // the favourite wins every game
  CHECK(standings_of(t) == standings);  // the knockout leaves the Swiss standings alone
}

TEST_CASE("tournament: the JSON form reads back exactly; damaged forms are refused") {
  auto t = tt_make(tournament_format::swiss_knockout, 7, 2);
  t.settings.best_of = 3;
  t.settings.check_in_ms = 600'000;
  t.participants[2].rating = 1612.345678901234;
  for (const char* id : {"p01", "p02", "p03", "p04", "p05"})
    REQUIRE_FALSE(check_in(t, id, tt_start - 10));
  advance(t, tt_start);
  REQUIRE(t.rounds.size() == 1);
  REQUIRE(t.rounds[0].tables.size() == 2);
  table_started(t, {1, 0}, "series-1", true);
  table_started(t, {1, 1}, "room-1", false);
  table_finished(t, {1, 1}, {{0, 0.5}, {0.5, 0}});
  REQUIRE_FALSE(award_bye(t, "dir", "p01"));
  REQUIRE_FALSE(pause(t, "dir"));
  const json j = to_json(t);
  CHECK(j["phase"] == "running");
  CHECK(j["settings"]["format"] == "swiss_knockout");
  CHECK(j["rounds"][0]["tables"][1]["results"] == json::parse("[[0,0.5],[0.5,0]]"));
  CHECK(j["rounds"][0]["tables"][0]["results"].is_null());
  CHECK(j["standings"].size() == 5);  // p06 and p07 did not check in: out
  auto back = tournament_from_json(json::parse(j.dump()));
  REQUIRE(back);
  CHECK(*back == t);
  CHECK(to_json(*back) == j);

  for (const char* key : {"id", "settings", "phase", "participants", "rounds", "champion"}) {
    auto broken = j;
    broken.erase(key);
    CHECK_FALSE(tournament_from_json(broken));
  }
  auto broken = j;
  broken["phase"] = "paused";
  CHECK_FALSE(tournament_from_json(broken));
  broken = j;
  broken["rounds"][0]["tables"][1]["results"] = json::parse("[[0,1]]");
  CHECK_FALSE(tournament_from_json(broken));
  broken = j;
  broken["rounds"][0]["number"] = 2;
  CHECK_FALSE(tournament_from_json(broken));
  broken = j;
  broken["settings"]["table_size"] = 9;
  CHECK_FALSE(tournament_from_json(broken));
  broken = j;
  broken["participants"][0]["rating"] = "high";
  CHECK_FALSE(tournament_from_json(broken));
  CHECK_FALSE(tournament_from_json(json::array()));
}

TEST_CASE("tournament: settings from a client are checked, each fault a bad_tournament") {
  const json good = {{"name", "Autumn cup"},
                     {"format", "swiss_knockout"},
                     {"rounds", 4},
                     {"top", 8},
                     {"table_size", 2},
                     {"best_of", 3},
                     {"max_players", 32},
                     {"min_players", 4},
                     {"room", tt_room()},
                     {"starts_ms", tt_start},
                     {"check_in_ms", 900'000},
                     {"round_gap_ms", 60'000},
                     {"rated", false}};
  tournament_error error;
  auto s = settings_from_json(good, error);
  REQUIRE_MESSAGE(s, error.message);
  CHECK(s->name == "Autumn cup");
  CHECK(s->format == tournament_format::swiss_knockout);
  CHECK(s->rounds == 4);
  CHECK(s->top == 8);
  CHECK(s->best_of == 3);
  CHECK(s->max_players == 32);
  CHECK(s->min_players == 4);
  CHECK(s->room == tt_room());
  CHECK(s->starts_ms == tt_start);
  CHECK(s->check_in_ms == 900'000);
  CHECK(s->round_gap_ms == 60'000);
  CHECK_FALSE(s->rated);
  CHECK(s->retry_ms == 5000);  // the defaults
  CHECK_FALSE(check_settings(*s, tt_start - 1));
  CHECK(tt_code(check_settings(*s, tt_start)) == "bad_tournament");  // not in the future

  const auto refused = [&](json j) {
    tournament_error e;
    const bool parsed = settings_from_json(j, e).has_value();
    INFO(j.dump());
    CHECK_FALSE(parsed);
    CHECK(e.code == "bad_tournament");
    CHECK_FALSE(e.message.empty());
    return e.message;
  };
  const auto with = [&](const char* key, json value) {
    auto j = good;
    if (value.is_null())
      j.erase(key);
    else
      j[key] = std::move(value);
    return j;
  };
  CHECK(refused(with("format", "league")) == "'format' is swiss, knockout or swiss_knockout");
  refused(with("rounds", 0));
  refused(with("rounds", 21));
  refused(with("rounds", 2.5));
  refused(with("top", 1));
  refused(with("top", 65));
  refused(with("table_size", 1));
  refused(with("table_size", 7));
  refused(with("best_of", 2));
  CHECK(refused(with("table_size", 3)) == "series ('best_of' above 1) are for tables of 2");
  refused(with("max_players", 1));
  refused(with("max_players", 257));
  refused(with("min_players", 33));
  refused(with("min_players", 1));
  refused(with("check_in_ms", 24 * 3'600'000 + 1));
  refused(with("check_in_ms", -1));
  refused(with("round_gap_ms", 3'600'001));
  refused(with("name", ""));
  refused(with("name", nullptr));
  refused(with("starts_ms", nullptr));
  refused(with("room", nullptr));
  refused(with("room", json::array()));
  refused(with("room", {{"setup", json::object()}}));
  refused(with("room", {{"match", {{"clock", "none"}}}}));
  refused(with("room", {{"match", {{"clock", "hourglass"}}}}));
  refused(with("room", {{"match", {{"clock", "fischer"}}}, {"seats", 2}}));
  CHECK(refused(with("prize", 100)) == "unknown tournament setting 'prize'");
  refused(json::array());
  auto minimal =
      settings_from_json({{"name", "Quick"},
                          {"room", {{"match", {{"clock", "per_decision"}, {"decision_s", 30}}}}},
                          {"starts_ms", 5}},
                         error);
  REQUIRE(minimal);
  CHECK(minimal->format == tournament_format::swiss);
  CHECK(minimal->table_size == 2);
  // Correspondence is a clock too.
  CHECK(settings_from_json(with("room", {{"match", {{"clock", "correspondence"}}}}), error));
}

}  // namespace tournament_test
