// The SQLite implementation of the store (store.hpp): one file in WAL mode, a writer connection
// used by the writer thread only and a reader connection behind a mutex.
#pragma once
#include <sqlite3.h>

#include "carcassonne/server/store.hpp"

namespace carcassonne::server {

class sqlite_store final : public store {
 public:
  static std::unique_ptr<store> open(const store_options& options, std::string& error);
  ~sqlite_store() override;

  std::vector<stored_room> unfinished_rooms(std::string& error) override;
  std::optional<stored_room> load(const std::string& id, std::string& error) override;
  std::vector<std::string> finished_ids(std::size_t limit) override;

 private:
  sqlite_store() = default;
  // Single instance: nothing is ever fenced.
  bool commit_batch(const std::vector<const store_write*>& batch, std::vector<char>& fenced,
                    std::string& error) override;
  bool apply(const store_write& w);
  std::optional<stored_room> read_room(sqlite3_stmt* row, std::string& error);

  struct write_statements;  // prepared once, used by the writer thread only
  std::unique_ptr<write_statements> statements_;
  sqlite3* write_db_ = nullptr;
  sqlite3* read_db_ = nullptr;
  std::mutex read_mutex_;
};

}  // namespace carcassonne::server
