// Outside bots (docs/protocol.md "Outside bots") in the accounts service, on both databases: the
// upgrade's rules and refusals, the API token (hashed at rest, replaced, refused once its account
// is banned or deleted), the bot mark in leaderboards and game lists, and a database of the
// previous schema gaining the tokens' table at open.
#include <doctest/doctest.h>
#include <libpq-fe.h>
#include <sqlite3.h>

#include <limits>

#include "base/crypto.hpp"
#include "players/accounts.hpp"
#include "store/store.hpp"
#include "store_backends.hpp"

using namespace carcassonne::server;
using carcassonne::testing::store_backends;

namespace {

std::unique_ptr<accounts> ob_accounts(const std::string& location, std::int64_t& now) {
  std::string error;
  auto db = player_store::open(location, error);
  REQUIRE_MESSAGE(db, error);
  account_settings s;
  s.cost = {1, 8u << 10};  // cheap argon2id: the rules, not the hardness
  s.now_ms = [&now] { return now; };
  return std::make_unique<accounts>(std::move(db), s);
}

// A named player (not a guest): its session.
std::string ob_named(accounts& acc, const std::string& name) {
  auto guest = acc.create_guest();
  REQUIRE(guest);
  REQUIRE(acc.claim(guest.value->session, name, "tiles and meeples"));
  return guest.value->session;
}

// A rated duel between two players, stored as the room's end.
void ob_rated_game(const std::string& location, const std::string& room, const std::string& a,
                   const std::string& b) {
  std::string error;
  auto s = store::open({location, true}, error);
  REQUIRE_MESSAGE(s, error);
  write_result result;
  s->submit(save_room_write{room, room_state::finished, R"({"k":1})", 0,
                            game_end{5000, "duel", {{a, "a", 30, false}, {b, "b", 20, false}}}},
            [&](write_result r) { result = r; });
  s->flush();
  REQUIRE(result.durable);
}

}  // namespace

TEST_CASE("outside bots: a named account that never played rated becomes a bot, for good") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    const auto location = backend.fresh();
    std::int64_t now = 1'000'000;
    auto acc = ob_accounts(location, now);

    // A guest cannot; nor can a bad session. Nothing changes.
    auto guest = acc->create_guest();
    REQUIRE(guest);
    const auto refused = acc->make_bot(guest.value->session);
    CHECK(refused.error.code == "guest_account");
    CHECK(refused.error.status == 403);
    CHECK_FALSE(acc->authenticate(guest.value->session).value->bot);
    CHECK(acc->make_bot("nope").error.code == "bad_session");
    CHECK(acc->make_bot("bot_" + std::string(64, '0')).error.code == "bad_session");

    // A named player becomes a bot and gets its token, which signs it in; the session still does.
    const auto session = ob_named(*acc, "Robo Player");
    const auto made = acc->make_bot(session);
    REQUIRE_MESSAGE(made, made.error.code);
    CHECK(made.value->player.bot);
    CHECK(made.value->player.name == "Robo Player");
    const std::string token = made.value->token;
    CHECK(token.size() == 68);
    CHECK(token.starts_with("bot_"));
    CHECK(from_hex(token.substr(4)).has_value());
    const auto by_token = acc->authenticate(token);
    REQUIRE(by_token);
    CHECK(by_token.value->id == made.value->player.id);
    CHECK(by_token.value->bot);
    CHECK(acc->authenticate(session).value->bot);
    // Stored as its SHA-256 only.
    std::string error;
    CHECK(acc->store().player_of_bot_token(sha256_hex(token), error) == made.value->player.id);
    CHECK_FALSE(acc->store().player_of_bot_token(token, error));
    CHECK(error.empty());

    // Once only: by the session or by the token.
    const auto twice = acc->make_bot(token);
    CHECK(twice.error.code == "already_bot");
    CHECK(twice.error.status == 409);
    CHECK(acc->make_bot(session).error.code == "already_bot");

    // A new token replaces the old one; a person has none.
    const auto fresh = acc->new_bot_token(token);
    REQUIRE(fresh);
    CHECK(*fresh.value != token);
    CHECK(acc->authenticate(token).error.code == "bad_session");
    CHECK(acc->authenticate(*fresh.value).value->id == made.value->player.id);
    const auto person = ob_named(*acc, "Plain Person");
    CHECK(acc->new_bot_token(person).error.code == "not_a_bot");
    CHECK(acc->new_bot_token(guest.value->session).error.code == "not_a_bot");

    // Its rated games are rated like a person's: in the leaderboard and the game lists, marked.
    const auto person_id = acc->authenticate(person).value->id;
    ob_rated_game(location, "r1", made.value->player.id, person_id);
    const auto board = acc->leaderboard("duel", 0, 10);
    REQUIRE(board);
    REQUIRE((*board.value)["players"].size() == 2);
    CHECK((*board.value)["players"][0]["player"] ==
          nlohmann::json{{"id", made.value->player.id}, {"name", "Robo Player"}, {"bot", true}});
    CHECK((*board.value)["players"][1]["player"]["bot"] == false);
    const auto games = acc->games(person_id, 0, 0, 0, 10);
    REQUIRE(games);
    CHECK((*games.value)["games"][0]["seats"][0]["bot"] == true);
    CHECK((*games.value)["games"][0]["seats"][1]["bot"] == false);
    const auto profile = acc->profile(made.value->player.id);
    REQUIRE(profile);
    CHECK((*profile.value)["player"]["bot"] == true);
    CHECK((*profile.value)["ratings"][0]["games"] == 1);

    // The person has played a rated game now: too late to become a bot.
    const auto late = acc->make_bot(person);
    CHECK(late.error.code == "has_rated_games");
    CHECK(late.error.status == 409);
    CHECK_FALSE(acc->authenticate(person).value->bot);

    // A banned bot's token is refused as banned; a deleted one's is gone.
    REQUIRE(acc->store().set_banned(made.value->player.id, true, error));
    CHECK(acc->authenticate(*fresh.value).error.code == "banned");
    REQUIRE(acc->store().set_banned(made.value->player.id, false, error));
    CHECK(acc->authenticate(*fresh.value));
    REQUIRE(acc->delete_account(*fresh.value));
    CHECK(acc->authenticate(*fresh.value).error.code == "bad_session");
    CHECK_FALSE(acc->store().player_of_bot_token(sha256_hex(*fresh.value), error));
  }
}

TEST_CASE("outside bots: a database of the previous schema gains the tokens' table at open") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    const auto location = backend.fresh();
    std::int64_t now = 1'000'000;
    std::string session;
    {
      auto acc = ob_accounts(location, now);
      session = ob_named(*acc, "Early Player");
    }
    const char* const drop = "DROP TABLE bot_tokens";
    if (backend.name == "sqlite") {
      sqlite3* db = nullptr;
      REQUIRE(sqlite3_open(location.c_str(), &db) == SQLITE_OK);
      CHECK(sqlite3_exec(db, drop, nullptr, nullptr, nullptr) == SQLITE_OK);
      sqlite3_close(db);
    } else {
      PGconn* c = PQconnectdb(location.c_str());
      PGresult* r = PQexec(c, drop);
      CHECK(PQresultStatus(r) == PGRES_COMMAND_OK);
      PQclear(r);
      PQfinish(c);
    }
    auto acc = ob_accounts(location, now);
    const auto made = acc->make_bot(session);
    REQUIRE_MESSAGE(made, made.error.code);
    CHECK(acc->authenticate(made.value->token).value->bot);
  }
}
