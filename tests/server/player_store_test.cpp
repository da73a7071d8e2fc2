// The player store (players/player_store.hpp) on both databases: accounts, claimed names,
// moderation, deletion, sessions and OpenID Connect identities.
#include <doctest/doctest.h>

#include <limits>

#include "players/player_store.hpp"
#include "store/store.hpp"
#include "store_backends.hpp"

using namespace carcassonne::server;
using carcassonne::testing::store_backends;

namespace {

std::unique_ptr<player_store> ps_open(const std::string& location) {
  std::string error;
  auto s = player_store::open(location, error);
  REQUIRE_MESSAGE(s, error);
  return s;
}

player_account ps_guest(const std::string& id, std::int64_t created_ms = 1000) {
  player_account p;
  p.id = id;
  p.name = "Guest " + id.substr(1, 4);
  p.created_ms = created_ms;
  return p;
}

void ps_create(player_store& s, const player_account& p, const std::string& key_hash) {
  std::string error;
  REQUIRE_MESSAGE(s.create_player(p, key_hash, error), error);
}

}  // namespace

TEST_CASE("player store: accounts are created, read by id and by name, and claimed") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    auto s = ps_open(backend.fresh());
    std::string error;
    ps_create(*s, ps_guest("p0000000000000001", 1234), "key1");
    ps_create(*s, ps_guest("p0000000000000002"), "key2");
    player_account bot;
    bot.id = "bot-greedy";
    bot.name = "Greedy bot";
    bot.guest = false;
    bot.bot = true;
    ps_create(*s, bot, "");

    auto a = s->player_by_id("p0000000000000001", error);
    REQUIRE_MESSAGE(a, error);
    CHECK(a->name == "Guest 0000");
    CHECK(a->guest);
    CHECK_FALSE(a->bot);
    CHECK_FALSE(a->banned);
    CHECK_FALSE(a->deleted);
    CHECK(a->created_ms == 1234);
    auto b = s->player_by_id("bot-greedy", error);
    REQUIRE(b);
    CHECK(b->bot);
    CHECK_FALSE(b->guest);
    CHECK(s->key_hash("p0000000000000001", error) == "key1");
    CHECK(s->password_hash("p0000000000000001", error) == "");
    CHECK_FALSE(s->player_by_id("p00000000000000ff", error));
    CHECK(error.empty());  // not found is no failure
    CHECK_FALSE(s->create_player(ps_guest("p0000000000000001"), "again", error));
    CHECK_FALSE(error.empty());  // an id is never given twice
    error.clear();

    CHECK(s->claim_name("p0000000000000001", "Ann", "ann", "hash-a", error) == claim_result::done);
    auto ann = s->player_by_name("ann", error);
    REQUIRE_MESSAGE(ann, error);
    CHECK(ann->id == "p0000000000000001");
    CHECK(ann->name == "Ann");
    CHECK_FALSE(ann->guest);
    CHECK(s->password_hash("p0000000000000001", error) == "hash-a");
    CHECK(s->claim_name("p0000000000000002", "ANN", "ann", "hash-b", error) ==
          claim_result::name_taken);
    CHECK(error.empty());
    CHECK(s->player_by_id("p0000000000000002", error)->guest);  // unchanged
    CHECK(s->claim_name("p0000000000000001", "Anna", "anna", "hash-c", error) ==
          claim_result::not_a_guest);
    CHECK(s->claim_name("p00000000000000ff", "Zed", "zed", "hash-z", error) ==
          claim_result::no_such_player);
    CHECK(s->claim_name("p0000000000000002", "Bob", "bob", "hash-b", error) == claim_result::done);
    CHECK(s->set_password("p0000000000000002", "hash-b2", error));
    CHECK(s->password_hash("p0000000000000002", error) == "hash-b2");
    CHECK_FALSE(s->set_password("p00000000000000ff", "x", error));
  }
}

TEST_CASE("player store: rename and ban") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    auto s = ps_open(backend.fresh());
    std::string error;
    for (const char* id : {"p0000000000000001", "p0000000000000002", "p0000000000000003"})
      ps_create(*s, ps_guest(id), "k");
    REQUIRE(s->claim_name("p0000000000000001", "Ann", "ann", "h", error) == claim_result::done);
    REQUIRE(s->claim_name("p0000000000000002", "Bob", "bob", "h", error) == claim_result::done);

    CHECK(s->rename("p0000000000000002", "Ann", "ann", error) == claim_result::name_taken);
    CHECK(error.empty());
    CHECK(s->rename("p0000000000000002", "Robert", "robert", error) == claim_result::done);
    CHECK_FALSE(s->player_by_name("bob", error));
    CHECK(s->player_by_name("robert", error)->name == "Robert");
    CHECK(s->rename("p0000000000000001", "ANN", "ann", error) == claim_result::done);  // its own
    CHECK(s->player_by_name("ann", error)->name == "ANN");
    // A guest renamed shows the name but does not reserve it.
    CHECK(s->rename("p0000000000000003", "Ann", "ann", error) == claim_result::name_taken);
    CHECK(s->rename("p0000000000000003", "Carl", "carl", error) == claim_result::done);
    auto carl = s->player_by_id("p0000000000000003", error);
    CHECK(carl->name == "Carl");
    CHECK(carl->guest);
    CHECK_FALSE(s->player_by_name("carl", error));
    CHECK(s->rename("p00000000000000ff", "X", "x", error) == claim_result::no_such_player);

    REQUIRE(s->create_session("t1", "p0000000000000001", 1000, 5000, error));
    CHECK(s->set_banned("p0000000000000001", true, error));
    CHECK(s->player_by_id("p0000000000000001", error)->banned);
    CHECK(s->session("t1", error)->revoked);  // a ban signs the player out
    CHECK(s->set_banned("p0000000000000001", false, error));
    CHECK_FALSE(s->player_by_id("p0000000000000001", error)->banned);
    CHECK_FALSE(s->set_banned("p00000000000000ff", true, error));
    CHECK_FALSE(error.empty());
  }
}

TEST_CASE("player store: sessions come back expired or revoked as they are") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    auto s = ps_open(backend.fresh());
    std::string error;
    ps_create(*s, ps_guest("p0000000000000001"), "k");
    ps_create(*s, ps_guest("p0000000000000002"), "k");
    REQUIRE(s->create_session("hash-1", "p0000000000000001", 1000, 2000, error));
    REQUIRE(s->create_session("hash-2", "p0000000000000001", 1000, 9000, error));
    REQUIRE(s->create_session("hash-3", "p0000000000000002", 1000, 9000, error));
    CHECK_FALSE(s->create_session("hash-1", "p0000000000000002", 1, 2, error));  // a token is one

    auto one = s->session("hash-1", error);
    REQUIRE(one);
    CHECK(one->player == "p0000000000000001");
    CHECK(one->expires_ms == 2000);  // the caller compares with its clock: expired at 2000
    CHECK_FALSE(one->revoked);
    CHECK(s->revoke_session("hash-1", error));
    CHECK(s->session("hash-1", error)->revoked);
    CHECK_FALSE(s->session("hash-2", error)->revoked);
    CHECK(s->revoke_sessions_of("p0000000000000001", error));
    CHECK(s->session("hash-2", error)->revoked);
    CHECK_FALSE(s->session("hash-3", error)->revoked);  // another player's
    error.clear();
    CHECK_FALSE(s->session("unknown", error));
    CHECK(error.empty());
  }
}

TEST_CASE("player store: OpenID Connect identities link to one player") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    auto s = ps_open(backend.fresh());
    std::string error;
    ps_create(*s, ps_guest("p0000000000000001"), "k");
    ps_create(*s, ps_guest("p0000000000000002"), "k");
    CHECK_FALSE(s->player_of_identity("https://id.example", "sub-1", error));
    CHECK(error.empty());
    REQUIRE(s->link_identity("https://id.example", "sub-1", "p0000000000000001", error));
    CHECK(s->link_identity("https://id.example", "sub-1", "p0000000000000001", error));  // again
    CHECK(s->player_of_identity("https://id.example", "sub-1", error) == "p0000000000000001");
    CHECK_FALSE(s->link_identity("https://id.example", "sub-1", "p0000000000000002", error));
    CHECK(s->player_of_identity("https://id.example", "sub-1", error) == "p0000000000000001");
    CHECK_FALSE(s->player_of_identity("https://other.example", "sub-1", error));
  }
}

TEST_CASE("player store: a deleted player loses name and credentials, and keeps the games") {
  for (const auto& backend : store_backends()) {
    INFO("store: " << backend.name);
    const auto location = backend.fresh();
    std::string error;
    auto db = store::open({location, true}, error);
    REQUIRE_MESSAGE(db, error);
    auto s = ps_open(location);
    ps_create(*s, ps_guest("p0000000000000001"), "k1");
    ps_create(*s, ps_guest("p0000000000000002"), "k2");
    REQUIRE(s->claim_name("p0000000000000001", "Ann", "ann", "h", error) == claim_result::done);
    REQUIRE(s->create_session("t1", "p0000000000000001", 1, 9, error));
    REQUIRE(s->link_identity("iss", "sub", "p0000000000000001", error));
    game_end end{
        5000,
        "",
        {{"p0000000000000001", "Ann", 12, false}, {"p0000000000000002", "Guest", 9, false}}};
    bool durable = false;
    db->submit(save_room_write{"g1", room_state::finished, "{}", 0, end},
               [&](write_result r) { durable = r.durable; });
    db->flush();
    REQUIRE(durable);

    REQUIRE_MESSAGE(s->delete_player("p0000000000000001", error), error);
    auto gone = s->player_by_id("p0000000000000001", error);
    REQUIRE(gone);
    CHECK(gone->deleted);
    CHECK(gone->name == "deleted player");
    CHECK_FALSE(s->player_by_name("ann", error));
    CHECK(s->key_hash("p0000000000000001", error) == "");
    CHECK(s->password_hash("p0000000000000001", error) == "");
    CHECK_FALSE(s->session("t1", error));
    CHECK_FALSE(s->player_of_identity("iss", "sub", error));
    CHECK(s->claim_name("p0000000000000001", "Ann2", "ann2", "h", error) ==
          claim_result::no_such_player);
    // The name is free again; the game stays, its seat showing the player's name now.
    CHECK(s->claim_name("p0000000000000002", "Ann", "ann", "h", error) == claim_result::done);
    std::int64_t total = 0;
    auto games = s->games("p0000000000000001", 0, std::numeric_limits<std::int64_t>::max(), 0, 10,
                          total, error);
    REQUIRE_MESSAGE(games, error);
    CHECK(total == 1);
    REQUIRE(games->size() == 1);
    REQUIRE(games->at(0).seats.size() == 2);
    CHECK(games->at(0).seats[0].player == "p0000000000000001");
    CHECK(games->at(0).seats[0].name == "deleted player");
    CHECK(games->at(0).seats[0].score == 12);
    CHECK(games->at(0).seats[1].name == "Ann");  // the other seat's current name
    CHECK_FALSE(s->delete_player("p00000000000000ff", error));
  }
}
