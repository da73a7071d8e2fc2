// The PostgreSQL implementation of the store (store.hpp), with libpq: a writer connection used by
// the writer thread only and a reader connection behind a mutex, each reconnected when lost. The
// same tables as SQLite's; several servers may share one database (docs/scaling.md).
#pragma once
#include <libpq-fe.h>

#include "store/store.hpp"

namespace carcassonne::server {

class postgres_store final : public store {
 public:
  static std::unique_ptr<store> open(const store_options& options, std::string& error);
  ~postgres_store() override;

  std::vector<stored_room> unfinished_rooms(std::string& error) override;
  std::optional<stored_room> load(const std::string& id, std::string& error) override;
  std::vector<std::string> unfinished_ids(std::string& error) override;
  bool take_room(const std::string& room, std::uint64_t generation, std::string& error) override;
  std::uint64_t recorded_generation(const std::string& room, std::string& error) override;

 private:
  postgres_store() = default;
  bool commit_batch(const std::vector<const store_write*>& batch, std::vector<char>& fenced,
                    std::string& error) override;
  bool probe(std::string& error) override;
  // One attempt at commit_batch; `committing`: COMMIT was sent (a failure may have committed).
  bool try_commit(const std::vector<const store_write*>& batch, std::vector<char>& fenced,
                  std::string& error, bool& committing);
  int fence(const std::string& room, std::uint64_t generation, std::string& error);
  bool apply(const store_write& w, std::string& error);
  bool ready_to_write(std::string& error);  // connected, statements prepared
  bool ready_to_read(std::string& error);
  std::vector<stored_room> read_rooms(const char* rooms_sql, const char* moves_sql,
                                      const std::string* id, std::string& error);

  std::string url_;
  bool full_sync_ = true;
  PGconn* write_conn_ = nullptr;
  bool prepared_ = false;  // the writer's statements exist on write_conn_
  PGconn* read_conn_ = nullptr;
  std::mutex read_mutex_;
};

}  // namespace carcassonne::server
