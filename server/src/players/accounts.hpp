// Accounts (docs/protocol.md "Accounts", docs/hosting.md "Accounts"): guests, claimed names with
// passwords, OpenID Connect identities, sessions, and the reads behind profiles, leaderboards and
// the records API.
//
// A guest is a durable player id and a key (32 random bytes, hex) that the client keeps; the key
// signs the guest in again anywhere. A claimed name comes with a password (argon2id). Signing in
// gives a session: a random token, stored as its SHA-256 only, that expires and can be revoked,
// and that every instance of a cluster checks against the database.
//
// Every function blocks (the database, argon2id): the server calls them on the accounts' worker
// pool (`post`), never on an I/O thread. Errors are values with a stable code and an HTTP status.
#pragma once
#include <boost/asio/thread_pool.hpp>
#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "carcassonne/engine/bot.hpp"
#include "players/attempt_limits.hpp"
#include "players/password_hash.hpp"
#include "players/player_store.hpp"

namespace carcassonne::server {

namespace oidc {
struct identity;
}

struct account_error {
  int status = 400;  // the HTTP status that carries it
  std::string code, message;
  long long retry_after = 0;  // seconds, with too_many_attempts
};

// The players' database did not answer: logged with `why`, refused storage_failed (503).
account_error accounts_storage_failed(const std::string& why);

template <class T>
struct outcome {
  std::optional<T> value;
  account_error error;
  outcome(T v) : value(std::move(v)) {}              // NOLINT: implicit on purpose
  outcome(account_error e) : error(std::move(e)) {}  // NOLINT: implicit on purpose
  explicit operator bool() const { return value.has_value(); }
};

struct signed_in {
  player_account player;
  std::string session;  // the token: given to the client once, never stored
  std::int64_t expires_ms = 0;
  std::string key;  // a new guest's key (only when the guest was just made)
};

struct account_settings {
  std::chrono::seconds session_lifetime{std::chrono::hours(24 * 30)};
  password_cost cost;
  int workers = 2;  // threads hashing passwords and reading the database
  // Requests waiting for a worker at most: a flood of sign-ins is refused (too_busy), not queued
  // without end, so that it delays the other sign-ins by a bounded time.
  int max_waiting = 256;
  attempt_limits::budget per_address{20, std::chrono::seconds(30)};
  attempt_limits::budget per_name{10, std::chrono::seconds(60)};
  // Guests made per address: a page makes one per browser, a script cannot fill the database.
  attempt_limits::budget guests_per_address{20, std::chrono::seconds(180)};
  // Clocks: the wall clock for sessions' expiry, the steady one for the attempt limits (tests
  // give fakes).
  std::function<std::int64_t()> now_ms;
  std::function<attempt_limits::clock::time_point()> steady_now;
  int vacation_days_per_year = 21;  // docs/protocol.md §21 "Vacation"
};

// An account just made a bot's: the player as it is now, and its API token (given once, never
// stored: only its SHA-256 is).
struct bot_upgrade {
  player_account player;
  std::string token;
};

// A player's vacation after a change: whose, the row, and its JSON for GET /api/me.
struct vacation_change {
  std::string player;
  vacation_row row;
  nlohmann::json doc;
};

class accounts {
 public:
  accounts(std::unique_ptr<player_store> db, account_settings s);
  ~accounts();  // waits for the work under way
  accounts(const accounts&) = delete;
  accounts& operator=(const accounts&) = delete;

  // Runs `work` on the worker pool.
  void post(std::function<void()> work);
  // The same unless `max_waiting` requests wait already: then false, and `work` is dropped.
  bool try_post(std::function<void()> work);
  player_store& store() { return *db_; }

  // A new guest for a client at `address` (too_many_guests past the budget of guests per address;
  // "" is an exempt address, which has none).
  outcome<signed_in> create_guest(const std::string& address = {});
  outcome<signed_in> sign_in(const std::string& name, const std::string& password,
                             const std::string& address);
  outcome<signed_in> sign_in_with_key(const std::string& player, const std::string& key,
                                      const std::string& address);
  // The identity a provider vouched for: its linked player, else a new one (named after the
  // identity when that name is free and valid, else as a guest is).
  outcome<signed_in> sign_in_with_identity(const oidc::identity& who);
  // The player of a session, or of a bot's API token (bot_accounts.cpp): bad_session (unknown,
  // expired, revoked), banned.
  outcome<player_account> authenticate(const std::string& session);

  outcome<player_account> claim(const std::string& session, const std::string& name,
                                const std::string& password);
  outcome<bool> change_password(const std::string& session, const std::string& old_password,
                                const std::string& new_password);
  outcome<bool> sign_out(const std::string& session, bool everywhere);
  outcome<bool> delete_account(const std::string& session);

  // Reads (JSON as docs/protocol.md "Accounts" shows them).
  outcome<nlohmann::json> profile(const std::string& player);
  outcome<nlohmann::json> leaderboard(const std::string& pool, std::int64_t offset,
                                      std::int64_t limit);
  outcome<nlohmann::json> games(const std::string& player, std::int64_t from_ms, std::int64_t to_ms,
                                std::int64_t offset, std::int64_t limit);

  // Vacation (accounts_vacation.cpp, docs/protocol.md §21): the player's as GET /api/me shows it;
  // starting (or extending) one by `days` (bad_days, too_many_days), ending it; and for rooms,
  // when the player's vacation ends (Unix ms; 0: not on vacation now), nothing on error.
  outcome<nlohmann::json> vacation_of(const std::string& player);
  outcome<vacation_change> start_vacation(const std::string& session, int days);
  outcome<vacation_change> end_vacation(const std::string& session);
  std::optional<std::int64_t> vacation_until(const std::string& player, std::string& error);
  std::int64_t wall_now_ms() const { return now_ms(); }

  // Outside bots (bot_accounts.cpp, docs/protocol.md "Outside bots"). The session's player becomes
  // a bot account, for good, and gets its API token (guest_account, already_bot,
  // has_rated_games); a bot account's new token replaces its old one (not_a_bot).
  outcome<bot_upgrade> make_bot(const std::string& session);
  outcome<std::string> new_bot_token(const std::string& session);

  // The bots' accounts, one per level ("bot-random", ..., "bot-expert"), made when missing.
  bool ensure_bot_accounts(std::string& error);
  // Every bot level with its place on the ladder and its account's ratings (bot_levels.cpp,
  // GET /api/bots).
  outcome<nlohmann::json> bot_levels();

 private:
  outcome<signed_in> open_session(player_account p, std::string key = {});
  outcome<player_account> authenticate_bot(const std::string& token);
  std::int64_t now_ms() const { return settings_.now_ms(); }

  std::unique_ptr<player_store> db_;
  account_settings settings_;
  attempt_limits attempts_;
  attempt_limits guests_;   // guests made, per address (both keys are the address)
  std::string decoy_hash_;  // verified against when a name is unknown: the same time either way
  std::atomic<int> waiting_{0};
  boost::asio::thread_pool pool_;
};

// The JSON of a player for clients: {"id","name","guest","bot"} (and "banned" when banned).
nlohmann::json player_json(const player_account& p);

// A bot level's account ("bot-greedy"), and the level as GET /api/bots lists it with those ratings.
std::string bot_player_id(bot_level level);
nlohmann::json bot_level_json(bot_level level, const std::vector<rating_row>& rows);

}  // namespace carcassonne::server
