// The accounts service on a real SQLite file with fake clocks: sessions that expire and are
// signed out, a guest's key, and the bound on requests waiting for the workers.
#include <doctest/doctest.h>

#include <future>

#include "players/accounts.hpp"
#include "temp_dir.hpp"

using namespace carcassonne::server;

namespace {

struct accounts_fixture {
  test::temp_dir dir{"carcassonne-accounts"};
  std::int64_t now = 1'000'000;
  attempt_limits::clock::time_point steady{};
  std::unique_ptr<accounts> acc;
  explicit accounts_fixture(int workers = 2, int max_waiting = 256) {
    std::string error;
    auto db = player_store::open((dir.path / "carcassonne.db").string(), error);
    REQUIRE_MESSAGE(db, error);
    account_settings s;
    s.session_lifetime = std::chrono::hours(1);
    s.cost = {1, 8u << 10};  // cheap argon2id: the rules, not the hardness
    s.workers = workers;
    s.max_waiting = max_waiting;
    s.now_ms = [this] { return now; };
    s.steady_now = [this] { return steady; };
    acc = std::make_unique<accounts>(std::move(db), s);
  }
};

}  // namespace

TEST_CASE("accounts service: a session expires, signs out, and a guest's key signs in again") {
  accounts_fixture f;
  auto guest = f.acc->create_guest();
  REQUIRE(guest);
  const auto session = guest.value->session;
  CHECK(guest.value->expires_ms == f.now + 3'600'000);
  CHECK(f.acc->authenticate(session).value->id == guest.value->player.id);

  f.now += 3'600'000;  // the hour is over
  CHECK(f.acc->authenticate(session).error.code == "bad_session");

  auto again = f.acc->sign_in_with_key(guest.value->player.id, guest.value->key, "10.0.0.1");
  REQUIRE(again);
  CHECK(f.acc->authenticate(again.value->session));
  CHECK(f.acc->sign_out(again.value->session, false));
  CHECK(f.acc->authenticate(again.value->session).error.code == "bad_session");
  CHECK_FALSE(f.acc->authenticate(std::string(200, 'a')));
}

TEST_CASE("accounts service: claimed names sign in, wrong tries run out and come back") {
  accounts_fixture f;
  auto guest = f.acc->create_guest();
  REQUIRE(f.acc->claim(guest.value->session, "Dana Player", "tiles and meeples"));
  CHECK(f.acc->sign_in("dana player", "tiles and meeples", "10.0.0.1"));
  for (int i = 0; i < 10; ++i)
    CHECK(f.acc->sign_in("Dana Player", "wrong " + std::to_string(i), "10.0.0.1").error.code ==
          "bad_credentials");
  const auto limited = f.acc->sign_in("Dana Player", "tiles and meeples", "10.0.0.2");
  CHECK(limited.error.code == "too_many_attempts");
  CHECK(limited.error.retry_after == 60);
  f.steady += std::chrono::seconds(60);  // one try is given back
  CHECK(f.acc->sign_in("Dana Player", "tiles and meeples", "10.0.0.2"));
}

TEST_CASE("accounts service: at most max_waiting requests wait for the workers") {
  accounts_fixture f(1, 2);
  std::promise<void> started, release;
  auto released = release.get_future().share();
  REQUIRE(f.acc->try_post([&] {
    started.set_value();
    released.wait();
  }));
  started.get_future().wait();  // the worker is busy: what follows waits
  std::atomic<int> ran{0};
  CHECK(f.acc->try_post([&] { ++ran; }));
  CHECK(f.acc->try_post([&] { ++ran; }));
  CHECK_FALSE(f.acc->try_post([&] { ++ran; }));  // refused at once, never run
  release.set_value();
  std::promise<void> last;
  f.acc->post([&] { last.set_value(); });
  last.get_future().wait();
  CHECK(ran == 2);
  std::promise<void> again;    // waited for: it must not run after this test's end
  CHECK(f.acc->try_post([&] {  // room again
    ++ran;
    again.set_value();
  }));
  again.get_future().wait();
  CHECK(ran == 3);
}

TEST_CASE("accounts service: guests per address are budgeted, an exempt address is not") {
  accounts_fixture f;
  for (int i = 0; i < 20; ++i) REQUIRE(f.acc->create_guest("10.0.0.9"));
  const auto refused = f.acc->create_guest("10.0.0.9");
  CHECK(refused.error.code == "too_many_guests");
  CHECK(refused.error.status == 429);
  CHECK(refused.error.retry_after == 180);
  CHECK(f.acc->create_guest("10.0.0.10"));  // another address has its own
  CHECK(f.acc->create_guest(""));           // exempt
  f.steady += std::chrono::seconds(180);
  CHECK(f.acc->create_guest("10.0.0.9"));
}
