// The players' tables in the server's database (docs/hosting.md "Accounts"): accounts, their
// credentials, sessions, linked OpenID Connect identities, and the reads behind profiles,
// leaderboards and the records API. One interface, two databases: the SQLite file or the
// PostgreSQL database of the store (store.hpp), on connections of its own.
//
// Every call blocks on the database: call it from the accounts' worker threads, never from an I/O
// thread. Thread-safe. Errors are values: a call that fails returns nothing (or false) and says why
// in `error`; a refusal the caller must tell apart (a name taken) is its own answer. A read that
// finds no row returns nothing with `error` left empty.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "players/vacation.hpp"
#include "ratings/glicko2.hpp"

namespace carcassonne::server {

struct player_account {
  std::string id;     // "p" + 16 hex digits, from the CSPRNG; never reused
  std::string name;   // display name (a guest's is "Guest " + 4 hex digits of its id)
  bool guest = true;  // no claimed name yet
  bool bot = false;   // a bot level's account ("bot-greedy", ...) or an outside bot's
                      // (docs/protocol.md "Outside bots")
  bool banned = false;
  bool deleted = false;  // deleted by its player: the name is "deleted player", no credential
  std::int64_t created_ms = 0;
};

struct player_session {
  std::string player;
  std::int64_t expires_ms = 0;
  bool revoked = false;
};

struct rating_row {
  std::string pool;
  ratings::rating value;
  std::int64_t games = 0;
  bool operator==(const rating_row&) const = default;
};

struct rating_point {  // one game's change, for a profile's history
  std::string room;
  std::int64_t at_ms = 0;
  ratings::rating after;
  bool operator==(const rating_point&) const = default;
};

struct leaderboard_row {
  std::string player, name;
  bool bot = false;
  ratings::rating value;
  std::int64_t games = 0;
};

// A finished game as the index of games keeps it (written by the store when the game ends).
struct game_summary {
  std::string room;
  std::int64_t finished_ms = 0;
  std::string pool;  // its pool ("" unrated)
  bool rated = false;
  struct seat {
    std::string player;  // "" a seat without an account
    std::string name;
    int score = 0;
    bool forfeited = false;
    bool bot = false;  // the player's account is a bot's (read with the current names)
  };
  std::vector<seat> seats;
};

enum class claim_result { done, name_taken, no_such_player, not_a_guest, failed };

// Turning an account into a bot account (player_store_bots.cpp).
enum class make_bot_result { done, no_such_player, guest, already_bot, rated_games, failed };

class player_store {
 public:
  // Opens the players' tables of the database at `location` (an SQLite file or a postgresql://
  // URL, as store_options::path), creating them when missing (and the store's tables of finished
  // games and ratings, store/game_index.hpp, which its pages read), before or after the store.
  static std::unique_ptr<player_store> open(const std::string& location, std::string& error);
  virtual ~player_store() = default;

  // Accounts. `name_key` is the name's comparison form (players/names.hpp): unique among claimed
  // names, so "Ann" and "ann" cannot both be taken.
  virtual bool create_player(const player_account& p, const std::string& key_hash,
                             std::string& error) = 0;
  virtual std::optional<player_account> player_by_id(const std::string& id, std::string& error) = 0;
  virtual std::optional<player_account> player_by_name(const std::string& name_key,
                                                       std::string& error) = 0;
  // The stored hashes ("" when none): the guest key's SHA-256 (hex), the password's argon2id
  // string.
  virtual std::optional<std::string> key_hash(const std::string& id, std::string& error) = 0;
  virtual std::optional<std::string> password_hash(const std::string& id, std::string& error) = 0;
  // A guest takes a name and a password: it is no longer a guest.
  virtual claim_result claim_name(const std::string& id, const std::string& name,
                                  const std::string& name_key, const std::string& password_hash,
                                  std::string& error) = 0;
  virtual bool set_password(const std::string& id, const std::string& password_hash,
                            std::string& error) = 0;
  // Moderation (`carcassonne admin`). rename: name_taken when another player has the name.
  virtual claim_result rename(const std::string& id, const std::string& name,
                              const std::string& name_key, std::string& error) = 0;
  // A ban also revokes the player's sessions.
  virtual bool set_banned(const std::string& id, bool banned, std::string& error) = 0;
  // The player's own deletion: name "deleted player", credentials, identities and sessions gone;
  // the games stay (their seats show the new name). A deleted account cannot be claimed, renamed
  // or given a password (no_such_player).
  virtual bool delete_player(const std::string& id, std::string& error) = 0;

  // OpenID Connect identities: (issuer, subject) -> player.
  virtual std::optional<std::string> player_of_identity(const std::string& issuer,
                                                        const std::string& subject,
                                                        std::string& error) = 0;
  virtual bool link_identity(const std::string& issuer, const std::string& subject,
                             const std::string& player, std::string& error) = 0;

  // Sessions, by the SHA-256 (hex) of their token: the token itself is never stored.
  virtual bool create_session(const std::string& token_hash, const std::string& player,
                              std::int64_t created_ms, std::int64_t expires_ms,
                              std::string& error) = 0;
  virtual std::optional<player_session> session(const std::string& token_hash,
                                                std::string& error) = 0;
  virtual bool revoke_session(const std::string& token_hash, std::string& error) = 0;
  virtual bool revoke_sessions_of(const std::string& player, std::string& error) = 0;

  // Reads for pages. Pages are `offset`/`limit`; `total` is the count of the whole list.
  virtual std::optional<std::vector<rating_row>> ratings_of(const std::string& player,
                                                            std::string& error) = 0;
  // The player's last `limit` points in `pool`, newest first.
  virtual std::optional<std::vector<rating_point>> rating_history(const std::string& player,
                                                                  const std::string& pool,
                                                                  std::int64_t limit,
                                                                  std::string& error) = 0;
  // Established ratings (not provisional) first by rating, then provisional ones by rating; equal
  // ratings by player id. A player without an account is listed with the name "".
  virtual std::optional<std::vector<leaderboard_row>> leaderboard(const std::string& pool,
                                                                  std::int64_t offset,
                                                                  std::int64_t limit,
                                                                  std::int64_t& total,
                                                                  std::string& error) = 0;
  // Finished games, newest first (ties by room, descending): of one player (player != ""), and/or
  // finished in [from, to) (to_ms 0: no end). Seats show their players' current names.
  virtual std::optional<std::vector<game_summary>> games(const std::string& player,
                                                         std::int64_t from_ms, std::int64_t to_ms,
                                                         std::int64_t offset, std::int64_t limit,
                                                         std::int64_t& total,
                                                         std::string& error) = 0;
  // One finished game of the index, by room (seats with the names they had); `found` false when
  // the room has not ended (or is unknown). Nothing on error.
  virtual std::optional<game_summary> finished_game(const std::string& room, bool& found,
                                                    std::string& error) = 0;

  // Outside bots (player_store_bots.cpp, docs/protocol.md "Outside bots"). make_bot turns a named
  // account that never played a rated game (no row of `ratings`) into a bot account and stores
  // its first API token's SHA-256, in one transaction; it never turns back. set_bot_token replaces
  // a bot's token (the old one stops working); false with `error` when the player is no bot.
  // player_of_bot_token: the bot whose token has this SHA-256 (nothing, `error` empty: none).
  virtual make_bot_result make_bot(const std::string& id, const std::string& token_hash,
                                   std::int64_t now_ms, std::string& error) = 0;
  virtual bool set_bot_token(const std::string& id, const std::string& token_hash,
                             std::int64_t now_ms, std::string& error) = 0;
  virtual std::optional<std::string> player_of_bot_token(const std::string& token_hash,
                                                         std::string& error) = 0;

  // Vacations (players/vacation.hpp; player_store_vacations.cpp), a table of their own. The
  // player's row as stored (an empty row when the player never took one); nothing on error.
  virtual std::optional<vacation_row> vacation(const std::string& player, std::string& error) = 0;
  // Reads the player's row in a write transaction (locked on PostgreSQL), lets `change` edit it
  // and writes it back when `change` returns true; false only on a failure (with `error`).
  virtual bool update_vacation(const std::string& player,
                               const std::function<bool(vacation_row&)>& change,
                               std::string& error) = 0;
};

}  // namespace carcassonne::server
