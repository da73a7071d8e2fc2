// Outside bots (accounts.hpp, docs/protocol.md "Outside bots"): an account its owner turns into a
// bot account, for good, while it has played no rated game; its API token; signing in by it.
#include "base/crypto.hpp"
#include "players/accounts.hpp"
#include "players/bot_token.hpp"

#include <spdlog/spdlog.h>

namespace carcassonne::server {

namespace {

const account_error bad_token{401, "bad_session",
                              "the bot token is unknown or was replaced by a newer one"};

}  // namespace

std::string new_bot_token_text() {
  std::string token(bot_token_prefix);
  token += random_hex(64);
  return token;
}

outcome<player_account> accounts::authenticate_bot(const std::string& token) {
  std::string error;
  const auto id = db_->player_of_bot_token(sha256_hex(token), error);
  if (!id && !error.empty()) return accounts_storage_failed(error);
  if (!id) return bad_token;
  auto p = db_->player_by_id(*id, error);
  if (!p && !error.empty()) return accounts_storage_failed(error);
  if (!p || p->deleted || !p->bot) return bad_token;
  if (p->banned) return account_error{403, "banned", "this account is banned from the server"};
  return std::move(*p);
}

outcome<bot_upgrade> accounts::make_bot(const std::string& session) {
  auto who = authenticate(session);
  if (!who) return who.error;
  const auto token = new_bot_token_text();
  std::string error;
  switch (db_->make_bot(who.value->id, sha256_hex(token), now_ms(), error)) {
    case make_bot_result::done:
      break;
    case make_bot_result::guest:
      return account_error{403, "guest_account",
                           "a guest cannot become a bot: claim a name first (POST /api/me/name)"};
    case make_bot_result::already_bot:
      return account_error{409, "already_bot", "this account is a bot account already"};
    case make_bot_result::rated_games:
      return account_error{409, "has_rated_games",
                           "an account that has played rated games cannot become a bot"};
    case make_bot_result::no_such_player:
      return account_error{401, "bad_session",
                           "the session is unknown, expired or signed out: sign in again"};
    case make_bot_result::failed:
      return accounts_storage_failed(error);
  }
  auto p = std::move(*who.value);
  p.bot = true;
  return bot_upgrade{std::move(p), token};
}

outcome<std::string> accounts::new_bot_token(const std::string& session) {
  auto who = authenticate(session);
  if (!who) return who.error;
  if (!who.value->bot)
    return account_error{409, "not_a_bot", "only a bot account has an API token"};
  const auto token = new_bot_token_text();
  std::string error;
  if (!db_->set_bot_token(who.value->id, sha256_hex(token), now_ms(), error))
    return accounts_storage_failed(error);
  return token;
}

}  // namespace carcassonne::server
