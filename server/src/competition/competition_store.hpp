// Series and tournaments in the database (docs/hosting.md "Competition"): each one a document
// (its state as JSON text, written whole at every change: a change is rare, a few per round),
// in the same database as the rooms, SQLite or PostgreSQL, with the same SQL (store/sql.hpp).
//
// Writes are fenced by a version: save() writes version v only over version v - 1 (or a new row
// for v = 1), so two instances that both think they run a tournament (a failover under way) can
// never both write it: the second one's save fails with `stale` and it lets the tournament go.
//
// Thread-safe (one connection under a mutex; callers run it off the I/O threads).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace carcassonne::server::competition {

struct competition_doc {
  std::string id;
  std::string kind;   // "series" or "tournament"
  std::string state;  // JSON text
  bool finished = false;
  std::uint64_t version = 0;         // 1 for the first save, then +1 per save
  std::int64_t updated_ms = 0;       // wall clock, for listings
  std::vector<std::string> players;  // player ids taking part (profiles list them)
  // Notifications written with the save (store/notify_rows.hpp), never read back.
  std::vector<notice> notices;
  bool operator==(const competition_doc& o) const {
    return id == o.id && kind == o.kind && state == o.state && finished == o.finished &&
           version == o.version && updated_ms == o.updated_ms && players == o.players;
  }
};

class competition_store {
 public:
  // Opens the database at `location` (an SQLite file or a postgresql:// URL, as --journal),
  // creating the tables when missing; nothing with a message on error.
  static std::unique_ptr<competition_store> open(const std::string& location, std::string& error);
  virtual ~competition_store() = default;

  enum class saved { yes, stale, failed };
  // Writes `d` (its players replacing those stored) in one transaction, if the stored version
  // is d.version - 1 (none for 1); `stale` otherwise.
  virtual saved save(const competition_doc& d, std::string& error) = 0;
  virtual std::optional<competition_doc> load(const std::string& id, std::string& error) = 0;
  // Unfinished documents of a kind, oldest first (restart and failover); nothing on error.
  virtual std::optional<std::vector<competition_doc>> unfinished(const std::string& kind,
                                                                 std::string& error) = 0;
  // The newest documents of a kind (finished or not), newest first, a page of at most `limit`.
  virtual std::optional<std::vector<competition_doc>> recent(const std::string& kind, int limit,
                                                             int offset, std::string& error) = 0;
  // The documents a player takes part in, newest first, a page of at most `limit`.
  virtual std::optional<std::vector<competition_doc>> of_player(const std::string& player,
                                                                int limit, int offset,
                                                                std::string& error) = 0;
};

}  // namespace carcassonne::server::competition
