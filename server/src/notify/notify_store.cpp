#include "notify/notify_store.hpp"

#include <algorithm>

#include "base/crypto.hpp"
#include "store/notify_rows.hpp"

namespace carcassonne::server::notify {

namespace {

using json = nlohmann::json;

const char* const schema = R"sql(
CREATE TABLE IF NOT EXISTS notify_prefs(
  player         TEXT PRIMARY KEY,
  events         TEXT NOT NULL,
  realtime_turns INTEGER NOT NULL,
  webhook_url    TEXT NOT NULL,
  webhook_secret TEXT NOT NULL,
  email          TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS push_subscriptions(
  id         TEXT PRIMARY KEY,
  player     TEXT NOT NULL,
  endpoint   TEXT NOT NULL,
  p256dh     TEXT NOT NULL,
  auth       TEXT NOT NULL,
  created_ms BIGINT NOT NULL,
  kinds_off  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS push_subscriptions_by_player ON push_subscriptions(player);
CREATE TABLE IF NOT EXISTS deliveries(
  id            TEXT PRIMARY KEY,
  player        TEXT NOT NULL,
  channel       TEXT NOT NULL,
  target        TEXT NOT NULL,
  notices       TEXT NOT NULL,
  attempts      INTEGER NOT NULL,
  next_ms       BIGINT NOT NULL,
  state         TEXT NOT NULL,
  claimed_by    TEXT NOT NULL,
  claimed_until BIGINT NOT NULL,
  last_error    TEXT NOT NULL,
  created_ms    BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS deliveries_due ON deliveries(state, next_ms);
CREATE TABLE IF NOT EXISTS server_secrets(
  name  TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
)sql";

subscription subscription_row(const sql::rows& r, std::size_t i) {
  subscription s{
      r.text(i, 0), r.text(i, 1), r.text(i, 2), r.text(i, 3), r.text(i, 4), r.integer(i, 5), {}};
  const auto off = json::parse(r.text(i, 6), nullptr, false);
  if (off.is_array())
    for (const auto& k : off)
      if (k.is_string()) s.kinds_off.insert(k.get<std::string>());
  return s;
}

json events_json(const preferences& p) {
  json e = json::object();
  for (const auto& k : kinds) {
    const auto it = p.events.find(k);
    e[k] = it == p.events.end() ? json::array() : json(it->second);
  }
  return e;
}

}  // namespace

preferences preferences::defaults() {
  preferences p;
  for (const auto& k : kinds) p.events[k] = {channels.begin(), channels.end()};
  return p;
}

bool preferences::wants(const std::string& kind, const std::string& channel) const {
  const auto it = events.find(kind);
  return it != events.end() && it->second.count(channel) != 0;
}

std::unique_ptr<notify_store> notify_store::open(const std::string& location, std::string& error) {
  auto db = sql::database::open(location, {notify_rows_schema, schema}, "the notifications' tables",
                                error);
  if (!db) return nullptr;
  // SQLite: the worker's commits are not synced one by one (WAL, synchronous NORMAL). A power
  // cut may roll back its last few: notices batched again, deliveries marked sent are sent again
  // with the same idempotency key. Never a notice lost: the rooms write those, synced.
  if (!db->with_connection(
          [](sql::connection& c, std::string& why) {
            return c.row_locks() || c.run("PRAGMA synchronous=NORMAL", {}, why).has_value();
          },
          error))
    return nullptr;
  return std::make_unique<notify_store>(std::move(db));
}

namespace {

std::optional<preferences> read_prefs(sql::connection& db, const std::string& player,
                                      std::string& why) {
  const auto r = db.run(
      "SELECT events, realtime_turns, webhook_url, webhook_secret, email FROM notify_prefs "
      "WHERE player = $1",
      {player}, why);
  if (!r) return std::nullopt;
  if (r->empty()) return preferences::defaults();
  preferences p;
  const auto e = json::parse(r->text(0, 0), nullptr, false);
  if (e.is_object())
    for (const auto& [k, list] : e.items())
      if (list.is_array())
        for (const auto& c : list)
          if (c.is_string()) p.events[k].insert(c.get<std::string>());
  p.realtime_turns = r->integer(0, 1) != 0;
  p.webhook_url = r->text(0, 2);
  p.webhook_secret = r->text(0, 3);
  p.email = r->text(0, 4);
  return p;
}

std::optional<std::vector<subscription>> read_subscriptions(sql::connection& db,
                                                            const std::string& player,
                                                            std::string& why) {
  const auto r = db.run(
      "SELECT id, player, endpoint, p256dh, auth, created_ms, kinds_off FROM push_subscriptions "
      "WHERE player = $1 ORDER BY created_ms, id",
      {player}, why);
  if (!r) return std::nullopt;
  std::vector<subscription> out;
  for (std::size_t i = 0; i < r->size(); ++i) out.push_back(subscription_row(*r, i));
  return out;
}

}  // namespace

std::optional<preferences> notify_store::prefs(const std::string& player, std::string& error) {
  std::optional<preferences> out;
  db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        out = read_prefs(db, player, why);
        return out.has_value();
      },
      error);
  return out;
}

bool notify_store::save_prefs(const std::string& player, const preferences& p, std::string& error) {
  return db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        return db
            .run(
                "INSERT INTO notify_prefs(player, events, realtime_turns, webhook_url, "
                "webhook_secret, email) VALUES($1, $2, $3, $4, $5, $6) ON CONFLICT(player) DO "
                "UPDATE SET events = excluded.events, realtime_turns = excluded.realtime_turns, "
                "webhook_url = excluded.webhook_url, webhook_secret = excluded.webhook_secret, "
                "email = excluded.email",
                {player, events_json(p).dump(), std::int64_t{p.realtime_turns}, p.webhook_url,
                 p.webhook_secret, p.email},
                why)
            .has_value();
      },
      error);
}

std::optional<std::vector<subscription>> notify_store::subscriptions(const std::string& player,
                                                                     std::string& error) {
  std::optional<std::vector<subscription>> out;
  db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        out = read_subscriptions(db, player, why);
        return out.has_value();
      },
      error);
  return out;
}

std::optional<subscription> notify_store::subscription_by_id(const std::string& id,
                                                             std::string& error) {
  std::optional<subscription> out;
  db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        const auto r = db.run(
            "SELECT id, player, endpoint, p256dh, auth, created_ms, kinds_off FROM "
            "push_subscriptions WHERE id = $1",
            {id}, why);
        if (!r) return false;
        if (!r->empty()) out = subscription_row(*r, 0);
        return true;
      },
      error);
  return out;
}

bool notify_store::add_subscription(const subscription& s, std::string& error) {
  return db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        // The same endpoint subscribed again (a page reloaded) replaces the old row.
        return db.run("DELETE FROM push_subscriptions WHERE endpoint = $1", {s.endpoint}, why) &&
               db.run(
                   "INSERT INTO push_subscriptions(id, player, endpoint, p256dh, auth, "
                   "created_ms, kinds_off) VALUES($1, $2, $3, $4, $5, $6, '[]')",
                   {s.id, s.player, s.endpoint, s.p256dh, s.auth, s.created_ms}, why);
      },
      error);
}

bool notify_store::subscription_kind_off(const std::string& id, const std::string& kind,
                                         std::string& error) {
  return db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        if (!db.begin_write(why)) return false;
        const auto r = db.run(
            db.row_locks() ? "SELECT kinds_off FROM push_subscriptions WHERE id = $1 FOR UPDATE"
                           : "SELECT kinds_off FROM push_subscriptions WHERE id = $1",
            {id}, why);
        bool ok = r.has_value() && !r->empty();
        if (ok) {
          auto off = json::parse(r->text(0, 0), nullptr, false);
          if (!off.is_array()) off = json::array();
          if (std::find(off.begin(), off.end(), json(kind)) == off.end()) off.push_back(kind);
          ok = db.run("UPDATE push_subscriptions SET kinds_off = $2 WHERE id = $1",
                      {id, off.dump()}, why)
                   .has_value();
        }
        if (ok && db.commit(why)) return true;
        db.rollback();
        return false;
      },
      error);
}

bool notify_store::remove_subscription(const std::string& player, const std::string& id,
                                       std::string& error) {
  sql::connection::outcome out;
  const bool ok = db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        return db
            .run("DELETE FROM push_subscriptions WHERE id = $1 AND player = $2", {id, player}, why,
                 &out)
            .has_value();
      },
      error);
  return ok && out.changed > 0;
}

std::optional<json> notify_store::my_games(const std::string& player,
                                           std::int64_t finished_since_ms, std::string& error) {
  std::optional<json> out;
  db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        const auto r = db.run(
            "SELECT room, seat, name, state, acting, clock, deadline_ms, seats, vacation, "
            "updated_ms FROM seated_games WHERE player = $1 AND (state <> 'finished' OR "
            "updated_ms >= $2)",
            {player, finished_since_ms}, why);
        if (!r) return false;
        json games = json::array();
        for (std::size_t i = 0; i < r->size(); ++i) {
          const auto seat = r->integer(i, 1), acting = r->integer(i, 4);
          const auto deadline = r->integer(i, 6);
          json seats = json::parse(r->text(i, 7), nullptr, false);
          json vacation = json::parse(r->text(i, 8), nullptr, false);
          games.push_back({{"room", r->text(i, 0)},
                           {"name", r->text(i, 2)},
                           {"state", r->text(i, 3)},
                           {"seat", seat},
                           {"seats", seats.is_array() ? seats : json::array()},
                           {"to_act", acting >= 0 && acting == seat},
                           {"acting", acting >= 0 ? json(acting) : json()},
                           {"clock", r->text(i, 5)},
                           {"deadline_ms", deadline > 0 ? json(deadline) : json()},
                           {"vacation", vacation.is_array() ? vacation : json::array()},
                           {"updated_ms", r->integer(i, 9)}});
        }
        // Whose turn it is first, then the nearest deadline, then the latest change.
        std::stable_sort(games.begin(), games.end(), [](const json& a, const json& b) {
          const bool ta = a["to_act"], tb = b["to_act"];
          if (ta != tb) return ta;
          const auto deadline = [](const json& g) {
            return g["deadline_ms"].is_null() ? INT64_MAX : g["deadline_ms"].get<std::int64_t>();
          };
          if (deadline(a) != deadline(b)) return deadline(a) < deadline(b);
          return a["updated_ms"].get<std::int64_t>() > b["updated_ms"].get<std::int64_t>();
        });
        out = json{{"games", std::move(games)}};
        return true;
      },
      error);
  return out;
}

std::optional<std::string> notify_store::secret(const std::string& name, std::string& error) {
  std::optional<std::string> out;
  const auto fresh = random_hex(64);
  db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        if (!db.run("INSERT INTO server_secrets(name, value) VALUES($1, $2) ON CONFLICT(name) DO "
                    "NOTHING",
                    {name, fresh}, why))
          return false;
        const auto r = db.run("SELECT value FROM server_secrets WHERE name = $1", {name}, why);
        if (!r || r->empty()) return false;
        out = r->text(0, 0);
        return true;
      },
      error);
  return out;
}

std::optional<std::vector<std::string>> notify_store::due_players(std::int64_t due_ms, int limit,
                                                                  std::string& error) {
  std::optional<std::vector<std::string>> out;
  db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        const auto r = db.run(
            "SELECT player FROM notifications WHERE state = 'pending' GROUP BY player HAVING "
            "MIN(created_ms) <= $1 ORDER BY MIN(created_ms) LIMIT $2",
            {due_ms, std::int64_t{limit}}, why);
        if (!r) return false;
        out.emplace();
        for (std::size_t i = 0; i < r->size(); ++i) out->push_back(r->text(i, 0));
        return true;
      },
      error);
  return out;
}

bool notify_store::turn_is_current(sql::connection& db, const outbox_notice& n, std::string& error,
                                   bool& current) {
  const auto r =
      db.run("SELECT acting, turn, state FROM seated_games WHERE room = $1 AND seat = $2",
             {n.room, n.data.value("seat", std::int64_t{-1})}, error);
  if (!r) return false;
  current = !r->empty() && r->text(0, 2) == "playing" &&
            r->integer(0, 0) == n.data.value("seat", std::int64_t{-1}) &&
            r->integer(0, 1) == n.data.value("turn", std::int64_t{-1});
  return true;
}

bool notify_store::batch_player(const std::string& player, std::int64_t now_ms, const plan_fn& plan,
                                std::string& error) {
  return batch_players({player}, now_ms, plan, error);
}

bool notify_store::batch_players(const std::vector<std::string>& players, std::int64_t now_ms,
                                 const plan_fn& plan, std::string& error) {
  // PostgreSQL: a transaction per player, whose notices it locks (instances batching at once
  // never wait on each other's whole lists). SQLite has one writer: every player in one commit.
  bool shared = false;
  if (!db_->with_connection(
          [&](sql::connection& db, std::string&) { return shared = db.row_locks(), true; }, error))
    return false;
  if (shared && players.size() > 1) {
    for (const auto& player : players)
      if (!batch_players({player}, now_ms, plan, error)) return false;
    return true;
  }
  return db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        if (!db.begin_write(why)) return false;
        const auto one = [&](const std::string& player) {
          // FOR UPDATE: two instances batching one player take turns; the second finds the
          // notices batched already.
          const auto r = db.run(
              db.row_locks()
                  ? "SELECT key, player, kind, room, data, created_ms FROM notifications WHERE "
                    "player = $1 AND state = 'pending' ORDER BY created_ms, key FOR UPDATE"
                  : "SELECT key, player, kind, room, data, created_ms FROM notifications WHERE "
                    "player = $1 AND state = 'pending' ORDER BY created_ms, key",
              {player}, why);
          if (!r) return false;
          std::vector<outbox_notice> notices;
          for (std::size_t i = 0; i < r->size(); ++i) {
            auto data = json::parse(r->text(i, 4), nullptr, false);
            notices.push_back({r->text(i, 0), r->text(i, 1), r->text(i, 2), r->text(i, 3),
                               data.is_object() ? std::move(data) : json::object(),
                               r->integer(i, 5)});
          }
          if (notices.empty()) return true;
          const auto p = read_prefs(db, player, why);
          const auto subs = p ? read_subscriptions(db, player, why) : std::nullopt;
          if (!subs) return false;
          const auto planned = plan(db, notices, *p, *subs);
          for (const auto& d : planned.deliveries)
            if (!db.run("INSERT INTO deliveries(id, player, channel, target, notices, attempts, "
                        "next_ms, state, claimed_by, claimed_until, last_error, created_ms) "
                        "VALUES($1, $2, $3, $4, $5, 0, $6, 'pending', '', 0, '', $6) ON "
                        "CONFLICT(id) DO NOTHING",
                        {d.id, d.player, d.channel, d.target, d.notices.dump(), now_ms}, why))
              return false;
          for (const auto& n : notices)
            if (!db.run("UPDATE notifications SET state = $2 WHERE key = $1",
                        {n.key, std::string(planned.dropped.count(n.key) ? "dropped" : "batched")},
                        why))
              return false;
          return true;
        };
        const auto work = [&] { return std::all_of(players.begin(), players.end(), one); };
        if (work() && db.commit(why)) return true;
        db.rollback();
        return false;
      },
      error);
}

std::optional<std::vector<delivery_row>> notify_store::claim(const std::string& instance,
                                                             std::int64_t now_ms,
                                                             std::int64_t until_ms, int limit,
                                                             std::string& error) {
  std::optional<std::vector<delivery_row>> out;
  db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        // SKIP LOCKED: instances claiming at once take different rows, none waits.
        const auto r = db.run(
            db.row_locks()
                ? "UPDATE deliveries SET claimed_by = $1, claimed_until = $2 WHERE id IN (SELECT "
                  "id FROM deliveries WHERE state = 'pending' AND next_ms <= $3 AND "
                  "claimed_until <= $3 ORDER BY next_ms LIMIT $4 FOR UPDATE SKIP LOCKED) "
                  "RETURNING id, player, channel, target, notices, attempts"
                : "UPDATE deliveries SET claimed_by = $1, claimed_until = $2 WHERE id IN (SELECT "
                  "id FROM deliveries WHERE state = 'pending' AND next_ms <= $3 AND "
                  "claimed_until <= $3 ORDER BY next_ms LIMIT $4) "
                  "RETURNING id, player, channel, target, notices, attempts",
            {instance, until_ms, now_ms, std::int64_t{limit}}, why);
        if (!r) return false;
        out.emplace();
        for (std::size_t i = 0; i < r->size(); ++i) {
          auto notices = json::parse(r->text(i, 4), nullptr, false);
          out->push_back({r->text(i, 0), r->text(i, 1), r->text(i, 2), r->text(i, 3),
                          notices.is_array() ? std::move(notices) : json::array(),
                          static_cast<int>(r->integer(i, 5))});
        }
        return true;
      },
      error);
  return out;
}

bool notify_store::finish(const delivery_row& d, const std::string& instance,
                          const std::string& state, int attempts, std::int64_t next_ms,
                          const std::string& why_failed, std::string& error) {
  return db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        // Only while the claim is still this instance's: after it ran out another may have it.
        if (!db.run("UPDATE deliveries SET state = $3, attempts = $4, next_ms = $5, "
                    "last_error = $6, claimed_by = '', claimed_until = 0 WHERE id = $1 AND "
                    "claimed_by = $2",
                    {d.id, instance, state, std::int64_t{attempts}, next_ms, why_failed}, why))
          return false;
        return state != "gone" || d.channel != "push" ||
               db.run("DELETE FROM push_subscriptions WHERE id = $1", {d.target}, why);
      },
      error);
}

bool notify_store::prune(std::int64_t before_ms, std::string& error) {
  return db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        return db.run("DELETE FROM notifications WHERE state <> 'pending' AND created_ms < $1",
                      {before_ms}, why) &&
               db.run("DELETE FROM deliveries WHERE state IN ('done', 'gone') AND created_ms < $1",
                      {before_ms}, why) &&
               db.run("DELETE FROM seated_games WHERE state = 'finished' AND updated_ms < $1",
                      {before_ms}, why);
      },
      error);
}

std::optional<std::map<std::string, std::int64_t>> notify_store::delivery_counts(
    std::string& error) {
  std::optional<std::map<std::string, std::int64_t>> out;
  db_->with_connection(
      [&](sql::connection& db, std::string& why) {
        const auto d = db.run("SELECT state, COUNT(*) FROM deliveries GROUP BY state", {}, why);
        const auto n =
            d ? db.run("SELECT state, COUNT(*) FROM notifications GROUP BY state", {}, why)
              : std::nullopt;
        if (!d || !n) return false;
        out.emplace();
        for (std::size_t i = 0; i < d->size(); ++i)
          (*out)["deliveries_" + d->text(i, 0)] = d->integer(i, 1);
        for (std::size_t i = 0; i < n->size(); ++i)
          (*out)["notices_" + n->text(i, 0)] = n->integer(i, 1);
        return true;
      },
      error);
  return out;
}

}  // namespace carcassonne::server::notify
