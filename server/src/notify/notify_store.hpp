// The notifications' tables in the players' database (docs/hosting.md "Notifications"): each
// player's choices (which events go to which channel, a webhook with its secret, an e-mail
// address), the browsers' push subscriptions, the deliveries the worker makes of the outbox
// (store/notify_rows.hpp) and the server's secret for unsubscribe links. Same SQL on SQLite and
// PostgreSQL (store/sql_database.hpp); one call at a time, from any thread.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "store/sql_database.hpp"

namespace carcassonne::server::notify {

// The event kinds and channels (docs/protocol.md §23), exact strings.
inline const std::vector<std::string> kinds = {"your_turn", "undo_requested", "rematch_offered",
                                               "game_over", "tournament_round"};
inline const std::vector<std::string> channels = {"push", "webhook", "email"};

struct preferences {
  // kind -> channels. A player who never chose has every kind on every channel (a channel sends
  // only once set up: a subscription, a webhook, an address).
  std::map<std::string, std::set<std::string>> events;
  bool realtime_turns = false;  // your_turn of games with a real-time clock (fischer, per_decision)
  std::string webhook_url, webhook_secret, email;
  static preferences defaults();
  bool wants(const std::string& kind, const std::string& channel) const;
};

struct subscription {
  std::string id, player, endpoint, p256dh, auth;
  std::int64_t created_ms = 0;
  std::set<std::string> kinds_off;  // unsubscribed from this browser's notifications
};

// One delivery: everything pending for one player, on one channel, to one target (a push
// subscription's id; "" for webhook and e-mail). `id` is the idempotency key sent with it.
struct delivery_row {
  std::string id, player, channel, target;
  nlohmann::json notices;  // [{key, kind, room, data}]
  int attempts = 0;
};

// A notice read from the outbox.
struct outbox_notice {
  std::string key, player, kind, room;
  nlohmann::json data;
  std::int64_t created_ms = 0;
};

class notify_store {
 public:
  static std::unique_ptr<notify_store> open(const std::string& location, std::string& error);
  explicit notify_store(std::unique_ptr<sql::database> db) : db_(std::move(db)) {}

  // Preferences (nothing with `error` when the database fails).
  std::optional<preferences> prefs(const std::string& player, std::string& error);
  bool save_prefs(const std::string& player, const preferences& p, std::string& error);
  std::optional<std::vector<subscription>> subscriptions(const std::string& player,
                                                         std::string& error);
  bool add_subscription(const subscription& s, std::string& error);
  // Turns `kind` off for one subscription (its unsubscribe link); false without error when the
  // subscription is gone.
  bool subscription_kind_off(const std::string& id, const std::string& kind, std::string& error);
  // False without error when the player has no such subscription.
  bool remove_subscription(const std::string& player, const std::string& id, std::string& error);

  // The player's games (docs/protocol.md §23 /api/me/games): unfinished, and finished since
  // `finished_since_ms`.
  std::optional<nlohmann::json> my_games(const std::string& player, std::int64_t finished_since_ms,
                                         std::string& error);

  // The server's secret `name` (made once, shared by every instance of a cluster).
  std::optional<std::string> secret(const std::string& name, std::string& error);

  // ---- The worker's steps (worker.hpp) ----
  // Players whose oldest pending notice is at or before `due_ms`.
  std::optional<std::vector<std::string>> due_players(std::int64_t due_ms, int limit,
                                                      std::string& error);
  // In one transaction: the player's pending notices (locked on PostgreSQL) are handed to
  // `plan`, which says for each whether it is dropped and returns the deliveries to make;
  // they are inserted (an id already there is kept) and the notices marked.
  struct plan_result {
    std::vector<delivery_row> deliveries;
    std::set<std::string> dropped;  // notice keys
  };
  using plan_fn = std::function<plan_result(sql::connection&, const std::vector<outbox_notice>&,
                                            const preferences&, const std::vector<subscription>&)>;
  bool batch_player(const std::string& player, std::int64_t now_ms, const plan_fn& plan,
                    std::string& error);
  // The same for several players: in one transaction on SQLite, one each on PostgreSQL.
  bool batch_players(const std::vector<std::string>& players, std::int64_t now_ms,
                     const plan_fn& plan, std::string& error);
  // Claims up to `limit` due deliveries for `instance` until `until_ms` (a crashed instance's
  // claims run out and are taken again).
  std::optional<std::vector<delivery_row>> claim(const std::string& instance, std::int64_t now_ms,
                                                 std::int64_t until_ms, int limit,
                                                 std::string& error);
  // The outcome of a claimed delivery: done, dead (a dead letter) or gone (its push
  // subscription removed too), or pending again at `next_ms`.
  bool finish(const delivery_row& d, const std::string& instance, const std::string& state,
              int attempts, std::int64_t next_ms, const std::string& why, std::string& error);
  std::optional<subscription> subscription_by_id(const std::string& id, std::string& error);
  // The rows the worker is done with, older than `before_ms` (delivered, dropped; dead letters
  // are kept for the host).
  bool prune(std::int64_t before_ms, std::string& error);
  // Counts by state, for /metrics and tests: deliveries "done", "dead"..., notices "pending"...
  std::optional<std::map<std::string, std::int64_t>> delivery_counts(std::string& error);

  // A your_turn is stale when the seat is no longer to act since that turn.
  static bool turn_is_current(sql::connection& db, const outbox_notice& n, std::string& error,
                              bool& current);

 private:
  std::unique_ptr<sql::database> db_;
};

}  // namespace carcassonne::server::notify
