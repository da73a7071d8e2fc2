// `carcassonne admin ACTION PLAYER [ARG] [--data-dir DIR | --store URL]`: moderation against the
// server's database, while the server runs or not (docs/hosting.md "Accounts"). PLAYER is a
// player id or a claimed name. One JSON line on success.
#include <cstdlib>
#include <ostream>

#include <nlohmann/json.hpp>

#include "base/config.hpp"
#include "base/crypto.hpp"
#include "carcassonne/app/commands.hpp"
#include "players/accounts.hpp"
#include "players/names.hpp"
#include "players/password_hash.hpp"
#include "store/store.hpp"

namespace carcassonne::app {

namespace {

constexpr const char* admin_usage =
    "usage: carcassonne admin ACTION PLAYER [ARG] [--data-dir DIR | --store URL]\n"
    "  show PLAYER             the player's account\n"
    "  ban PLAYER              no sign-in, no session, no seat from now on\n"
    "  unban PLAYER\n"
    "  rename PLAYER NAME      a claimed name (the rules of docs/protocol.md \"Accounts\")\n"
    "  reset-password PLAYER   a new random password, printed once; every session ends\n"
    "  sign-out PLAYER         every session of the player ends\n"
    "PLAYER: a player id (p...) or a claimed name. DIR: CARCASSONNE_DATA_DIR, default data.\n";

std::optional<server::player_account> find_player(server::player_store& db, const std::string& who,
                                                  std::string& error) {
  if (auto p = db.player_by_id(who, error)) return p;
  if (!error.empty()) return std::nullopt;
  return db.player_by_name(server::name_key(who), error);
}

}  // namespace

int run_admin(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  server::config c;
  if (const char* dir = std::getenv("CARCASSONNE_DATA_DIR"); dir && *dir) c.data_dir = dir;
  if (const char* url = std::getenv("CARCASSONNE_STORE"); url && *url) c.store_url = url;
  std::vector<std::string> words;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--data-dir" && i + 1 < args.size())
      c.data_dir = args[++i];
    else if (args[i] == "--store" && i + 1 < args.size())
      c.store_url = args[++i];
    else
      words.push_back(args[i]);
  }
  const auto fail = [&](const std::string& why) {
    err << "carcassonne admin: " << why << "\n";
    return 1;
  };
  if (words.size() < 2) return err << admin_usage, 1;
  const std::string& action = words[0];
  const bool takes_arg = action == "rename";
  if (words.size() != (takes_arg ? 3u : 2u)) return err << admin_usage, 1;

  std::string error;
  auto db = server::player_store::open(c.store_location(), error);
  if (!db) return fail("cannot open " + server::redacted_url(c.store_location()) + ": " + error);
  auto p = find_player(*db, words[1], error);
  if (!p) return fail(error.empty() ? "no player '" + words[1] + "'" : error);

  nlohmann::json done{{"player", server::player_json(*p)}, {"action", action}};
  if (action == "show") {
  } else if (action == "ban" || action == "unban") {
    if (!db->set_banned(p->id, action == "ban", error) ||
        (action == "ban" && !db->revoke_sessions_of(p->id, error)))
      return fail(error);
  } else if (action == "rename") {
    const std::string& name = words[2];
    if (auto why = server::check_name(name)) return fail(why->message);
    switch (db->rename(p->id, name, server::name_key(name), error)) {
      case server::claim_result::done:
        done["name"] = name;
        break;
      case server::claim_result::name_taken:
        return fail("another player has that name");
      default:
        return fail(error.empty() ? "the player cannot be renamed" : error);
    }
  } else if (action == "reset-password") {
    const std::string password = server::random_hex(20);
    const auto hash = server::hash_password(password);
    if (!hash || !db->set_password(p->id, *hash, error) || !db->revoke_sessions_of(p->id, error))
      return fail(error.empty() ? "argon2id could not allocate its memory" : error);
    done["password"] = password;
  } else if (action == "sign-out") {
    if (!db->revoke_sessions_of(p->id, error)) return fail(error);
  } else {
    return err << admin_usage, 1;
  }
  out << done.dump() << "\n";
  return 0;
}

}  // namespace carcassonne::app
