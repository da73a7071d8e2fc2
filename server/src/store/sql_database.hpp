// A connection of its own to the store's database, for a part's statements in the same SQL on
// both databases (sql.hpp): the players' tables, the competitions'. On the SQLite file, WAL lets
// its reads run beside the store's writer and its writes wait for the writer's lock up to
// busy_timeout; on PostgreSQL, the connection is made again when PostgreSQL ended it (a restart,
// an administrator) and the call retried once on the new one. One call at a time (a mutex).
#pragma once
#include <functional>
#include <initializer_list>
#include <memory>
#include <string>

#include "store/sql.hpp"

namespace carcassonne::server::sql {

class database {
 public:
  // Opens `location` (an SQLite file, made with its folder when missing, or a postgresql:// URL)
  // and creates the tables of `schemas` in one transaction (on PostgreSQL under the store's schema
  // lock: servers starting together create them one after the other). Nothing on error, with a
  // message naming the database and `tables` ("the players' tables").
  static std::unique_ptr<database> open(const std::string& location,
                                        std::initializer_list<const char*> schemas,
                                        const std::string& tables, std::string& error);
  virtual ~database() = default;

  // Runs `work` on the connection, one call at a time; false (with `error`) when it failed.
  using work_fn = std::function<bool(connection&, std::string&)>;
  virtual bool with_connection(const work_fn& work, std::string& error) = 0;
};

}  // namespace carcassonne::server::sql
