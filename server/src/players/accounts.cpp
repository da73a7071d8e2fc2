#include "players/accounts.hpp"

#include <spdlog/spdlog.h>
#include <boost/asio/post.hpp>

#include "base/crypto.hpp"
#include "oidc/oidc_client.hpp"
#include "players/bot_token.hpp"
#include "players/names.hpp"
#include "ratings/pools.hpp"

namespace carcassonne::server {

account_error accounts_storage_failed(const std::string& why) {
  spdlog::error("accounts: {}", why);
  return {503, "storage_failed", "the accounts' database cannot answer now"};
}

namespace {

const account_error bad_session{401, "bad_session",
                                "the session is unknown, expired or signed out: sign in again"};
const account_error bad_credentials{401, "bad_credentials", "the name or the password is wrong"};
const account_error banned{403, "banned", "this account is banned from the server"};

account_error too_many_attempts(long long wait) {
  return {429, "too_many_attempts",
          "too many failed sign-ins: try again in " + std::to_string(wait) + " s", wait};
}

std::int64_t wall_ms() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// (Built by appending: GCC 12 warns falsely about `"p" + std::string`.)
std::string guest_name(const std::string& id) {
  std::string name = "Guest ";
  name.append(id, 1, 4);
  return name;
}

std::string new_player_id() {
  std::string id = "p";
  id += random_hex(16);
  return id;
}

}  // namespace

nlohmann::json player_json(const player_account& p) {
  nlohmann::json j{{"id", p.id}, {"name", p.name}, {"guest", p.guest}, {"bot", p.bot}};
  if (p.banned) j["banned"] = true;
  return j;
}

accounts::accounts(std::unique_ptr<player_store> db, account_settings s)
    : db_(std::move(db)),
      settings_(std::move(s)),
      attempts_(settings_.per_address, settings_.per_name),
      guests_(settings_.guests_per_address, settings_.guests_per_address),
      pool_(static_cast<std::size_t>(std::max(1, settings_.workers))) {
  if (!settings_.now_ms) settings_.now_ms = wall_ms;
  if (!settings_.steady_now) settings_.steady_now = [] { return attempt_limits::clock::now(); };
  decoy_hash_ = hash_password(random_hex(32), settings_.cost).value_or("");
}

accounts::~accounts() {
  pool_.join();
}

void accounts::post(std::function<void()> work) {
  boost::asio::post(pool_, std::move(work));
}

bool accounts::try_post(std::function<void()> work) {
  if (waiting_.fetch_add(1) >= settings_.max_waiting) {
    waiting_.fetch_sub(1);
    return false;
  }
  boost::asio::post(pool_, [this, work = std::move(work)] {
    waiting_.fetch_sub(1);
    work();
  });
  return true;
}

outcome<signed_in> accounts::open_session(player_account p, std::string key) {
  const std::string token = random_hex(64);
  const auto now = now_ms();
  const auto expires =
      now +
      std::chrono::duration_cast<std::chrono::milliseconds>(settings_.session_lifetime).count();
  std::string error;
  if (!db_->create_session(sha256_hex(token), p.id, now, expires, error))
    return accounts_storage_failed(error);
  return signed_in{std::move(p), token, expires, std::move(key)};
}

outcome<signed_in> accounts::create_guest(const std::string& address) {
  if (!address.empty()) {
    if (const auto wait = guests_.wait(address, address, settings_.steady_now()); wait > 0)
      return account_error{
          429, "too_many_guests",
          "too many new players from your address: try again in " + std::to_string(wait) + " s",
          wait};
    guests_.failed(address, address, settings_.steady_now());  // counted, like a failed try
  }
  player_account p;
  p.id = new_player_id();
  p.name = guest_name(p.id);
  p.created_ms = now_ms();
  const std::string key = random_hex(64);
  std::string error;
  if (!db_->create_player(p, sha256_hex(key), error)) return accounts_storage_failed(error);
  return open_session(std::move(p), key);
}

outcome<signed_in> accounts::sign_in(const std::string& name, const std::string& password,
                                     const std::string& address) {
  if (password.size() > max_password)
    return account_error{400, "password_too_long", "a password has at most 128 bytes"};
  const std::string key = name_key(name);
  if (const auto wait = attempts_.wait(address, key, settings_.steady_now()); wait > 0)
    return too_many_attempts(wait);
  std::string error;
  auto p = db_->player_by_name(key, error);
  if (!p && !error.empty()) return accounts_storage_failed(error);
  std::optional<std::string> hash;
  if (p) {
    hash = db_->password_hash(p->id, error);
    if (!hash) return accounts_storage_failed(error);
  }
  // An unknown name costs the same argon2id as a known one: the time does not tell.
  const bool good =
      password_matches(password, p && !hash->empty() ? *hash : decoy_hash_) && p && !hash->empty();
  if (!good) {
    attempts_.failed(address, key, settings_.steady_now());
    return bad_credentials;
  }
  if (p->banned) return banned;
  if (password_needs_rehash(*hash, settings_.cost))
    if (auto fresh = hash_password(password, settings_.cost))
      db_->set_password(p->id, *fresh, error);  // best effort: the old hash still works
  return open_session(std::move(*p));
}

outcome<signed_in> accounts::sign_in_with_key(const std::string& player, const std::string& key,
                                              const std::string& address) {
  if (const auto wait = attempts_.wait(address, "#" + player, settings_.steady_now()); wait > 0)
    return too_many_attempts(wait);
  std::string error;
  auto p = db_->player_by_id(player, error);
  if (!p && !error.empty()) return accounts_storage_failed(error);
  std::optional<std::string> stored;
  if (p) {
    stored = db_->key_hash(p->id, error);
    if (!stored) return accounts_storage_failed(error);
  }
  if (!p || stored->empty() || !equal_constant_time(*stored, sha256_hex(key))) {
    attempts_.failed(address, "#" + player, settings_.steady_now());
    return account_error{401, "bad_credentials", "the player id or the key is wrong"};
  }
  if (p->banned) return banned;
  return open_session(std::move(*p));
}

outcome<signed_in> accounts::sign_in_with_identity(const oidc::identity& who) {
  std::string error;
  auto linked = db_->player_of_identity(who.issuer, who.subject, error);
  if (!linked && !error.empty()) return accounts_storage_failed(error);
  if (linked) {
    auto p = db_->player_by_id(*linked, error);
    if (!p)
      return accounts_storage_failed(error.empty() ? "linked player " + *linked + " is missing"
                                                   : error);
    if (p->banned) return banned;
    return open_session(std::move(*p));
  }
  player_account p;
  p.id = new_player_id();
  p.name = guest_name(p.id);
  p.created_ms = now_ms();
  if (!db_->create_player(p, "", error)) return accounts_storage_failed(error);
  // The provider's name when it is a valid name nobody has; a guest's name otherwise.
  if (!who.name.empty() && !check_name(who.name) &&
      db_->claim_name(p.id, who.name, name_key(who.name), "", error) == claim_result::done) {
    p.name = who.name;
    p.guest = false;
  }
  if (!db_->link_identity(who.issuer, who.subject, p.id, error))
    return accounts_storage_failed(error);
  return open_session(std::move(p));
}

outcome<player_account> accounts::authenticate(const std::string& session) {
  if (session.empty() || session.size() > 128) return bad_session;
  if (is_bot_token(session)) return authenticate_bot(session);
  std::string error;
  const auto s = db_->session(sha256_hex(session), error);
  if (!s && !error.empty()) return accounts_storage_failed(error);
  if (!s || s->revoked || s->expires_ms <= now_ms()) return bad_session;
  auto p = db_->player_by_id(s->player, error);
  if (!p && !error.empty()) return accounts_storage_failed(error);
  if (!p || p->deleted) return bad_session;
  if (p->banned) return banned;
  return std::move(*p);
}

outcome<player_account> accounts::claim(const std::string& session, const std::string& name,
                                        const std::string& password) {
  auto who = authenticate(session);
  if (!who) return who.error;
  if (auto why = check_name(name)) return account_error{400, why->code, why->message};
  if (auto why = check_password(password, name)) return account_error{400, why->code, why->message};
  const auto hash = hash_password(password, settings_.cost);
  if (!hash) return accounts_storage_failed("argon2id could not allocate its memory");
  std::string error;
  switch (db_->claim_name(who.value->id, name, name_key(name), *hash, error)) {
    case claim_result::done:
      break;
    case claim_result::name_taken:
      return account_error{409, "name_taken", "another player has that name (or one like it)"};
    case claim_result::not_a_guest:
      return account_error{409, "not_a_guest", "this player has a name already"};
    case claim_result::no_such_player:
      return bad_session;
    case claim_result::failed:
      return accounts_storage_failed(error);
  }
  auto p = std::move(*who.value);
  p.name = name;
  p.guest = false;
  return p;
}

outcome<bool> accounts::change_password(const std::string& session, const std::string& old_password,
                                        const std::string& new_password) {
  auto who = authenticate(session);
  if (!who) return who.error;
  std::string error;
  const auto hash = db_->password_hash(who.value->id, error);
  if (!hash) return accounts_storage_failed(error);
  if (!hash->empty() && !password_matches(old_password, *hash)) return bad_credentials;
  if (auto why = check_password(new_password, who.value->name))
    return account_error{400, why->code, why->message};
  const auto fresh = hash_password(new_password, settings_.cost);
  if (!fresh) return accounts_storage_failed("argon2id could not allocate its memory");
  if (!db_->set_password(who.value->id, *fresh, error)) return accounts_storage_failed(error);
  return true;
}

outcome<bool> accounts::sign_out(const std::string& session, bool everywhere) {
  std::string error;
  if (everywhere) {
    auto who = authenticate(session);
    if (!who) return who.error;
    if (!db_->revoke_sessions_of(who.value->id, error)) return accounts_storage_failed(error);
  } else if (!db_->revoke_session(sha256_hex(session), error)) {
    return accounts_storage_failed(error);
  }
  return true;
}

outcome<bool> accounts::delete_account(const std::string& session) {
  auto who = authenticate(session);
  if (!who) return who.error;
  std::string error;
  if (!db_->delete_player(who.value->id, error)) return accounts_storage_failed(error);
  return true;
}

bool accounts::ensure_bot_accounts(std::string& error) {
  for (std::size_t i = 0; i < bot_level_names.size(); ++i) {
    const std::string level(bot_level_names[i]);
    const std::string id = bot_player_id(static_cast<bot_level>(i));
    if (db_->player_by_id(id, error)) continue;
    if (!error.empty()) return false;
    player_account p;
    p.id = id;
    p.name = std::string("Bot (") + level + ")";
    p.guest = false;
    p.bot = true;
    p.created_ms = now_ms();
    if (!db_->create_player(p, "", error)) return false;
  }
  return true;
}

}  // namespace carcassonne::server
