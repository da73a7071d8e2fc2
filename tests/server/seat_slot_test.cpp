// The plain reads over one room seat (room/seat_slot.hpp), without a room.
#include <doctest/doctest.h>

#include "room/seat_slot.hpp"

using carcassonne::bot_level;
using carcassonne::server::seat_slot;

TEST_CASE("seat_slot: who moves for a seat, whom to tell, and its player id") {
  seat_slot guest;
  guest.taken = true;
  guest.name = "Ann";
  CHECK_FALSE(carcassonne::server::controller_of(guest));
  CHECK(carcassonne::server::account_of(guest) == nullptr);
  CHECK(carcassonne::server::player_of(guest).empty());

  seat_slot member = guest;
  member.player = "p-42";
  REQUIRE(carcassonne::server::account_of(member) != nullptr);
  CHECK(*carcassonne::server::account_of(member) == "p-42");
  CHECK(carcassonne::server::player_of(member) == "p-42");
  member.played_by = bot_level::strong;  // away: a bot plays for it, the account is still told
  CHECK(carcassonne::server::controller_of(member) == bot_level::strong);
  CHECK(carcassonne::server::account_of(member) != nullptr);

  seat_slot bot;
  bot.taken = true;
  bot.bot = bot_level::greedy;
  CHECK(carcassonne::server::controller_of(bot) == bot_level::greedy);
  CHECK(carcassonne::server::account_of(bot) == nullptr);
  CHECK(carcassonne::server::player_of(bot) == "bot-greedy");

  seat_slot empty_seat;
  empty_seat.player = "p-1";  // a free seat tells nobody
  CHECK(carcassonne::server::account_of(empty_seat) == nullptr);
}
