#include "store/store_sqlite.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>

#include "base/background_thread.hpp"

namespace carcassonne::server {

using namespace sqlite;

namespace {

sqlite3* open_connection(const std::string& path, int flags, std::string& error) {
  sqlite3* db = nullptr;
  const int rc = sqlite3_open_v2(path.c_str(), &db, flags | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    error = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    sqlite3_close(db);
    return nullptr;
  }
  sqlite3_busy_timeout(db, 5000);
  return db;
}

}  // namespace

std::unique_ptr<store> sqlite_store::open(const store_options& options, std::string& error) {
  const auto fail = [&](const std::string& what) {
    error = "database " + options.path + ": " + what;
    return nullptr;
  };
  std::error_code ec;
  const auto dir = std::filesystem::path(options.path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (ec) return fail("cannot create the directory " + dir.string() + ": " + ec.message());

  std::unique_ptr<sqlite_store> s(new sqlite_store());
  std::string why;
  s->write_db_ = open_connection(options.path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, why);
  if (!s->write_db_) return fail("cannot open: " + why);
  // The first statements read the file: a file that is not a database fails here.
  const auto mode = scalar(s->write_db_, "PRAGMA journal_mode=WAL", why);
  if (!mode)
    return fail(why +
                " (not an SQLite database, or damaged: restore a backup, or move the file away "
                "to start with an empty server)");
  if (*mode != "wal") return fail("cannot switch to WAL mode (journal_mode is " + *mode + ")");
  const auto version_text = scalar(s->write_db_, "PRAGMA user_version", why);
  if (!version_text) return fail(why);
  const int version = std::stoi(*version_text);
  if (version > schema_version)
    return fail("written by a newer server (schema " + *version_text + ", this server knows " +
                std::to_string(schema_version) + "): upgrade the server");
  // What a start reads and a running server rewrites, checked before anything is: the rooms and
  // the games in progress (schema 1 kept them in `moves`). The rest, every finished game, is
  // checked after the start, beside the server: reading all of a file of 1 GB took 19 s here
  // when it was not in memory (docs/hosting.md).
  if (version > 0)
    for (const char* table : {"rooms", version == 1 ? "moves" : "journal"}) {
      const auto sql = "PRAGMA quick_check(" + std::string(table) + ")";
      const auto check = scalar(s->write_db_, sql.c_str(), why);
      if (!check || *check != "ok")
        return fail("damaged: quick_check says '" + (check ? *check : why) +
                    "' (restore a backup)");
    }
  if (!exec(s->write_db_,
            options.full_sync ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL", &why) ||
      !set_up_schema(s->write_db_, version, why))
    return fail("cannot set up the schema: " + why);

  // A game's journal rows are spread over the pages of everything written while it was played
  // (at 1,000 rooms, about a page per move): with SQLite's default 2 MB cache, ending a game read
  // most of them back from the file. The cache fills only as far as the file is used.
  if (!exec(s->write_db_, "PRAGMA cache_size=-32768", &why)) return fail(why);
  if (!s->prepare_writes(why)) return fail("cannot read the journal: " + why);
  s->path_ = options.path;
  if (!s->still_in_place(why)) return fail(why);
  s->read_db_ = open_connection(options.path, SQLITE_OPEN_READONLY, why);
  if (!s->read_db_) return fail("cannot open for reading: " + why);
  s->start_writer();
  s->start_database_check(options.path);
  return s;
}

namespace {
std::optional<std::pair<dev_t, ino_t>> file_at(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return std::pair{st.st_dev, st.st_ino};
}
}  // namespace

void sqlite_store::keep_shm_whole() {
  const std::string shm = path_ + "-shm";
  struct stat st {};
  if (::stat(shm.c_str(), &st) != 0) return;
  const std::int64_t seen = shm_size_.load();
  if (st.st_size >= seen) {
    shm_size_.store(st.st_size);
    return;
  }
  // Zeros where the cut was: SQLite finds no valid index there and rebuilds it from the -wal.
  spdlog::error(
      "database: {} was cut from {} to {} bytes under the running server: its size is "
      "given back (SQLite rebuilds what it held from the -wal)",
      shm, seen, static_cast<std::int64_t>(st.st_size));
  if (::truncate(shm.c_str(), static_cast<off_t>(seen)) != 0)
    spdlog::error("database: {} could not be given its size back: {}", shm, std::strerror(errno));
}

bool sqlite_store::still_in_place(std::string& error) {
  keep_shm_whole();
  // The files as first seen: a stat each per commit (about a microsecond), against losing every
  // game at the next start to a file deleted under a running server.
  for (auto [name, known] : {std::pair{path_, &file_}, std::pair{path_ + "-wal", &wal_}}) {
    const auto now = file_at(name);
    if (!*known) {
      if (now)
        *known = file_id{now->first, now->second};
      else if (known == &file_)
        return error = name + " is gone", false;
      continue;
    }
    if (!now || !(file_id{now->first, now->second} == **known))
      return error = name + " was deleted or replaced while the server ran: nothing more is " +
                     "written to it (restore the file, or restart the server: docs/hosting.md)",
             false;
  }
  return true;
}

bool sqlite_store::probe(std::string& error) {
  if (!still_in_place(error)) return false;
  // A write of the file's header page, as a commit would write: it fails while the disk is full
  // or the files cannot be written.
  const auto version = scalar(write_db_, "PRAGMA user_version", error);
  if (!version) return false;
  if (!exec(write_db_, "BEGIN IMMEDIATE", &error)) return false;
  if (!exec(write_db_, ("PRAGMA user_version=" + *version).c_str(), &error) ||
      !exec(write_db_, "COMMIT", &error)) {
    exec(write_db_, "ROLLBACK");
    return false;
  }
  return true;
}

void sqlite_store::start_database_check(const std::string& path) {
  std::string why;
  check_db_ = open_connection(path, SQLITE_OPEN_READONLY, why);
  if (!check_db_) {
    spdlog::warn("database {}: the check after the start cannot open it: {}", path, why);
    return;
  }
  check_ = std::thread([this, path] {
    run_in_background("database check");  // a long read beside the server: woken, waits its turn
    const auto t0 = std::chrono::steady_clock::now();
    std::string error;
    const auto result = scalar(check_db_, "PRAGMA quick_check", error);
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (result && *result == "ok") {
      database_check = 1;
      spdlog::info("database {}: checked ({:.1f} s): sound", path, seconds);
    } else if (sqlite3_errcode(check_db_) == SQLITE_INTERRUPT) {
      spdlog::info("database {}: the check was stopped with the server", path);
    } else {
      database_check = -1;
      spdlog::error(
          "database {}: damaged: quick_check says '{}': the rooms in play are sound (checked at "
          "start), but stored games may not be; restore a backup when the server can stop",
          path, result ? *result : error);
    }
  });
}

void sqlite_store::await_database_check() {
  if (check_.joinable()) check_.join();
}

namespace {

// One snapshot for several statements on the reader: a game that ends meanwhile is read either
// all from the journal or all from `games`.
struct read_transaction {
  sqlite3* db;
  explicit read_transaction(sqlite3* d) : db(d) { exec(db, "BEGIN"); }
  ~read_transaction() { exec(db, "COMMIT"); }
  read_transaction(const read_transaction&) = delete;
  read_transaction& operator=(const read_transaction&) = delete;
};

// Appends the journal row in columns `first`.. (n, move, client_id, seq) of `q` to `r`'s moves.
bool append_row(stored_room& r, sqlite3_stmt* q, int first, std::string& error) {
  return append_entry(r, sqlite3_column_int64(q, first),
                      static_cast<std::uint64_t>(sqlite3_column_int64(q, first + 3)),
                      nlohmann::json::parse(text_column(q, first + 2), nullptr, false),
                      nlohmann::json::parse(text_column(q, first + 1), nullptr, false), error);
}

}  // namespace

// The room in `row` (id, state, meta), with its moves when its game has ended (read_journal_of
// reads a game in progress).
std::optional<stored_room> sqlite_store::read_room(sqlite3_stmt* row, std::string& error) {
  stored_room r;
  r.id = text_column(row, 0);
  const auto state = room_state_from_string(text_column(row, 1));
  if (!state)
    return error = "room " + r.id + ": unknown state " + text_column(row, 1), std::nullopt;
  r.state = *state;
  r.meta = nlohmann::json::parse(text_column(row, 2), nullptr, false);
  if (r.meta.is_discarded() || !r.meta.is_object())
    return error = "room " + r.id + ": unreadable meta", std::nullopt;
  if (r.state != room_state::finished) return r;
  statement q(read_db_, "SELECT moves FROM games WHERE room = ?1");
  if (!q) return error = sqlite3_errmsg(read_db_), std::nullopt;
  bind_text(q.s, 1, r.id);
  const int rc = sqlite3_step(q.s);
  if (rc == SQLITE_ROW && !append_game_moves(r, text_column(q.s, 0), error)) return std::nullopt;
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) return error = sqlite3_errmsg(read_db_), std::nullopt;
  return r;
}

// A game in progress's journal rows: a scan of the journal (which holds games in progress and
// ended ones not yet trimmed), for the one room the server does not hold already.
bool sqlite_store::read_journal_of(stored_room& r, std::string& error) {
  statement q(read_db_, "SELECT n, move, client_id, seq FROM journal WHERE room = ?1 ORDER BY id");
  if (!q) return error = sqlite3_errmsg(read_db_), false;
  bind_text(q.s, 1, r.id);
  int rc;
  while ((rc = sqlite3_step(q.s)) == SQLITE_ROW)
    if (!append_row(r, q.s, 0, error)) return false;
  if (rc != SQLITE_DONE) return error = sqlite3_errmsg(read_db_), false;
  return true;
}

std::vector<stored_room> sqlite_store::unfinished_rooms(std::string& error) {
  std::lock_guard lock(read_mutex_);
  keep_shm_whole();
  read_transaction snapshot(read_db_);
  std::vector<stored_room> out;
  statement q(read_db_, "SELECT id, state, meta FROM rooms WHERE state <> 'finished' ORDER BY ord");
  if (!q) return error = sqlite3_errmsg(read_db_), out;
  int rc;
  while ((rc = sqlite3_step(q.s)) == SQLITE_ROW) {
    auto r = read_room(q.s, error);
    if (!r) return {};
    out.push_back(std::move(*r));
  }
  if (rc != SQLITE_DONE) return error = sqlite3_errmsg(read_db_), std::vector<stored_room>{};
  // Then the journal in one pass, each row to its room (rows of ended games are skipped).
  std::unordered_map<std::string, stored_room*> by_id;
  for (auto& r : out) by_id.emplace(r.id, &r);
  statement j(read_db_, "SELECT room, n, move, client_id, seq FROM journal ORDER BY id");
  if (!j) return error = sqlite3_errmsg(read_db_), std::vector<stored_room>{};
  while ((rc = sqlite3_step(j.s)) == SQLITE_ROW) {
    const auto room = by_id.find(text_column(j.s, 0));
    if (room != by_id.end() && !append_row(*room->second, j.s, 1, error)) return {};
  }
  if (rc != SQLITE_DONE) return error = sqlite3_errmsg(read_db_), std::vector<stored_room>{};
  return out;
}

std::optional<stored_room> sqlite_store::load(const std::string& id, std::string& error) {
  std::lock_guard lock(read_mutex_);
  keep_shm_whole();
  read_transaction snapshot(read_db_);
  statement q(read_db_, "SELECT id, state, meta FROM rooms WHERE id = ?1");
  if (!q) return error = sqlite3_errmsg(read_db_), std::nullopt;
  bind_text(q.s, 1, id);
  const int rc = sqlite3_step(q.s);
  if (rc == SQLITE_DONE) return std::nullopt;
  if (rc != SQLITE_ROW) return error = sqlite3_errmsg(read_db_), std::nullopt;
  auto r = read_room(q.s, error);
  if (r && r->state != room_state::finished && !read_journal_of(*r, error)) return std::nullopt;
  return r;
}

bool store::backup(const std::string& source, const std::string& dest, std::size_t& rooms,
                   std::string& error) {
  if (std::filesystem::exists(dest))
    return error = dest + " already exists: choose a new file", false;
  std::string why;
  sqlite3* from = open_connection(source, SQLITE_OPEN_READONLY, why);
  if (!from) return error = "database " + source + ": cannot open: " + why, false;
  sqlite3* to = open_connection(dest, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, why);
  bool ok = to != nullptr;
  if (!ok) error = dest + ": cannot create: " + why;
  if (ok) {
    sqlite3_backup* b = sqlite3_backup_init(to, "main", from, "main");
    if (!b) {
      ok = false;
      error = dest + ": " + sqlite3_errmsg(to);
    } else {
      int rc;
      // Pages in steps, so that a busy server's writer is never held up for long.
      while ((rc = sqlite3_backup_step(b, 256)) == SQLITE_OK || rc == SQLITE_BUSY ||
             rc == SQLITE_LOCKED)
        sqlite3_sleep(1);
      sqlite3_backup_finish(b);
      if (rc != SQLITE_DONE) {
        ok = false;
        error = "database " + source + ": " + sqlite3_errstr(rc) +
                " (not an SQLite database, or damaged?)";
      }
    }
  }
  if (ok) {
    const auto check = scalar(to, "PRAGMA quick_check", why);
    const auto count =
        check && *check == "ok" ? scalar(to, "SELECT COUNT(*) FROM rooms", why) : std::nullopt;
    if (!count) {
      ok = false;
      error = dest + ": the copy does not check out: " + (check && *check != "ok" ? *check : why);
    } else {
      rooms = std::stoul(*count);
    }
  }
  sqlite3_close(to);
  sqlite3_close(from);
  if (!ok) std::filesystem::remove(dest);
  return ok;
}

}  // namespace carcassonne::server
