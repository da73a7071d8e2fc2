// A finished game as the ratings see it (room/game_end.hpp), without a room: which games are
// rated, in which pool, and who lost by leaving.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "carcassonne/engine/forfeit.hpp"
#include "carcassonne/engine/game.hpp"
#include "room/game_end.hpp"

namespace {

namespace cs = carcassonne::server;

carcassonne::game_state game_of(int seats) {
  carcassonne::game_setup setup;
  setup.seats = seats;
  setup.seed = "game-end-test";
  auto g = carcassonne::new_game(setup);
  REQUIRE(g.ok());
  return std::move(g.value());
}

cs::room_settings fair_room(int seats) {
  cs::room_settings s;
  s.seats = seats;
  s.secret = std::string(64, 'a');
  s.setup = cs::json::object();
  return s;
}

std::vector<cs::seat_slot> seated(const std::vector<std::string>& players) {
  std::vector<cs::seat_slot> seats(players.size());
  for (std::size_t i = 0; i < players.size(); ++i) {
    seats[i].taken = true;
    seats[i].name = "seat " + std::to_string(i);
    seats[i].player = players[i];
  }
  return seats;
}

}  // namespace

TEST_CASE("game_end: a fair room of different players is rated in its pool, forfeits marked") {
  auto game = game_of(2);
  REQUIRE(static_cast<bool>(carcassonne::forfeit(game, 0b10)));  // seat 1 resigned
  const auto e = cs::game_end_of(fair_room(2), seated({"p-ann", "p-bob"}), game, 1234);
  CHECK(e.pool == "duel");
  CHECK(e.finished_ms == 1234);
  REQUIRE(e.seats.size() == 2);
  CHECK(e.seats[0].player == "p-ann");
  CHECK(e.seats[0].name == "seat 0");
  CHECK_FALSE(e.seats[0].forfeited);
  CHECK(e.seats[1].forfeited);

  auto with_expansions = fair_room(2);
  with_expansions.setup["expansions"] = {"hills_sheep"};
  CHECK(cs::game_end_of(with_expansions, seated({"p-ann", "p-bob"}), game, 0).pool ==
        "duel_expansions");
  auto three = game_of(3);
  CHECK(cs::game_end_of(fair_room(3), seated({"a", "b", "c"}), three, 0).pool == "multi");
}

TEST_CASE(
    "game_end: not rated when a seat is a guest, one player holds two seats, the deck was "
    "chosen, or the room is unrated") {
  const auto game = game_of(2);
  CHECK(cs::game_end_of(fair_room(2), seated({"p-ann", ""}), game, 0).pool.empty());
  CHECK(cs::game_end_of(fair_room(2), seated({"p-ann", "p-ann"}), game, 0).pool.empty());
  auto seeded = fair_room(2);
  seeded.secret.clear();  // a seeded or scripted deck: the creator's choice
  CHECK(cs::game_end_of(seeded, seated({"p-ann", "p-bob"}), game, 0).pool.empty());
  auto unrated = fair_room(2);
  unrated.rated = false;
  CHECK(cs::game_end_of(unrated, seated({"p-ann", "p-bob"}), game, 0).pool.empty());
}

TEST_CASE(
    "game_end: a bot's seat is rated as its level, and leaving with the last person is not "
    "its defeat") {
  auto game = game_of(2);
  auto seats = seated({"p-ann", ""});
  seats[1].bot = carcassonne::bot_level::greedy;
  REQUIRE(static_cast<bool>(
      carcassonne::forfeit(game, 0b11)));  // the person left, and the bot with them
  const auto e = cs::game_end_of(fair_room(2), seats, game, 0);
  CHECK(e.pool == "duel");
  CHECK(e.seats[1].player == "bot-greedy");
  CHECK(e.seats[0].forfeited);
  CHECK_FALSE(e.seats[1].forfeited);
}
