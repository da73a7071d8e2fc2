#include "store_sqlite.hpp"

#include <spdlog/spdlog.h>

#include <filesystem>

namespace carcassonne::server {

namespace {

constexpr int schema_version = 1;

const char* const schema = R"sql(
CREATE TABLE IF NOT EXISTS rooms(
  id    TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  meta  TEXT NOT NULL,
  ord   INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS moves(
  room      TEXT NOT NULL,
  n         INTEGER NOT NULL,
  move      TEXT NOT NULL,
  client_id TEXT NOT NULL,
  seq       INTEGER NOT NULL,
  PRIMARY KEY(room, n)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS rooms_by_state ON rooms(state, ord);
)sql";

// A statement that finalizes itself.
struct statement {
  sqlite3_stmt* s = nullptr;
  statement(sqlite3* db, const char* sql) { sqlite3_prepare_v2(db, sql, -1, &s, nullptr); }
  ~statement() { sqlite3_finalize(s); }
  statement(const statement&) = delete;
  statement& operator=(const statement&) = delete;
  explicit operator bool() const { return s != nullptr; }
};

std::string text_column(sqlite3_stmt* s, int i) {
  const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s, i));
  return p ? std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s, i))) : std::string();
}

void bind_text(sqlite3_stmt* s, int i, const std::string& v) {
  sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
}

// For a value that outlives the statement's step (the writer's binds): SQLite does not copy it.
void bind_static(sqlite3_stmt* s, int i, const std::string& v) {
  sqlite3_bind_text(s, i, v.data(), static_cast<int>(v.size()), SQLITE_STATIC);
}

bool exec(sqlite3* db, const char* sql, std::string* error = nullptr) {
  char* message = nullptr;
  const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
  if (rc != SQLITE_OK && error) *error = message ? message : sqlite3_errstr(rc);
  sqlite3_free(message);
  return rc == SQLITE_OK;
}

// The first column of the first row of a query, as text.
std::optional<std::string> scalar(sqlite3* db, const char* sql, std::string& error) {
  statement q(db, sql);
  if (!q) return error = sqlite3_errmsg(db), std::nullopt;
  const int rc = sqlite3_step(q.s);
  if (rc == SQLITE_ROW) return text_column(q.s, 0);
  if (rc == SQLITE_DONE) return std::string();
  error = sqlite3_errmsg(db);
  return std::nullopt;
}

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
  const auto check = scalar(s->write_db_, "PRAGMA quick_check", why);
  if (!check || *check != "ok")
    return fail("damaged: quick_check says '" + (check ? *check : why) + "' (restore a backup)");
  const auto version = scalar(s->write_db_, "PRAGMA user_version", why);
  if (!version) return fail(why);
  if (std::stoi(*version) > schema_version)
    return fail("written by a newer server (schema " + *version + ", this server knows " +
                std::to_string(schema_version) + "): upgrade the server");
  if (!exec(s->write_db_,
            options.full_sync ? "PRAGMA synchronous=FULL" : "PRAGMA synchronous=NORMAL", &why) ||
      !exec(s->write_db_, schema, &why) ||
      !exec(s->write_db_, ("PRAGMA user_version=" + std::to_string(schema_version)).c_str(), &why))
    return fail("cannot set up the schema: " + why);

  s->statements_ = std::make_unique<write_statements>(s->write_db_);
  s->read_db_ = open_connection(options.path, SQLITE_OPEN_READONLY, why);
  if (!s->read_db_) return fail("cannot open for reading: " + why);
  s->start_writer();
  return s;
}

sqlite_store::~sqlite_store() {
  stop_writer();
  statements_.reset();  // finalized before their connection closes
  sqlite3_close(read_db_);
  sqlite3_close(write_db_);
}

struct sqlite_store::write_statements {
  explicit write_statements(sqlite3* db)
      : save(db,
             "INSERT INTO rooms(id, state, meta, ord) VALUES(?1, ?2, ?3, (SELECT IFNULL(MAX(ord), "
             "0) + 1 FROM rooms)) "
             "ON CONFLICT(id) DO UPDATE SET state = excluded.state, meta = excluded.meta"),
        append(db, "INSERT INTO moves(room, n, move, client_id, seq) VALUES(?1, ?2, ?3, ?4, ?5)"),
        drop_moves(db, "DELETE FROM moves WHERE room = ?1"),
        drop_room(db, "DELETE FROM rooms WHERE id = ?1"),
        begin(db, "BEGIN IMMEDIATE"),
        commit(db, "COMMIT") {}
  // BEGIN and COMMIT prepared once too: sqlite3_exec would parse them for every transaction.
  statement save, append, drop_moves, drop_room, begin, commit;
};

bool sqlite_store::commit_batch(const std::vector<const store_write*>& batch, std::vector<char>&,
                                std::string& error) {
  const auto run = [](sqlite3_stmt* s) {
    const int rc = sqlite3_step(s);
    sqlite3_reset(s);
    return rc == SQLITE_DONE;
  };
  bool ok = run(statements_->begin.s);
  for (const auto* w : batch)
    if (ok) ok = apply(*w);
  if (ok) ok = run(statements_->commit.s);
  if (!ok) {
    error = sqlite3_errmsg(write_db_);
    exec(write_db_, "ROLLBACK");
  }
  return ok;
}

bool sqlite_store::apply(const store_write& w) {
  auto& st = *statements_;
  const auto run = [&](sqlite3_stmt* s) {
    const int rc = sqlite3_step(s);
    sqlite3_reset(s);
    sqlite3_clear_bindings(s);
    return rc == SQLITE_DONE;
  };
  return std::visit(
      [&](const auto& op) {
        using T = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<T, save_room_write>) {
          bind_static(st.save.s, 1, op.id);
          const std::string state(to_string(op.state));
          bind_static(st.save.s, 2, state);
          bind_static(st.save.s, 3, op.meta);
          return run(st.save.s);
        } else if constexpr (std::is_same_v<T, move_write>) {
          bind_static(st.append.s, 1, op.room);
          sqlite3_bind_int64(st.append.s, 2, op.index);
          bind_static(st.append.s, 3, op.move);
          bind_static(st.append.s, 4, op.client_id);
          sqlite3_bind_int64(st.append.s, 5, static_cast<std::int64_t>(op.seq));
          return run(st.append.s);
        } else {
          bind_static(st.drop_moves.s, 1, op.id);
          bind_static(st.drop_room.s, 1, op.id);
          return run(st.drop_moves.s) && run(st.drop_room.s);
        }
      },
      w);
}

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
  statement q(read_db_, "SELECT n, move, client_id, seq FROM moves WHERE room = ?1 ORDER BY n");
  if (!q) return error = sqlite3_errmsg(read_db_), std::nullopt;
  bind_text(q.s, 1, r.id);
  int rc;
  while ((rc = sqlite3_step(q.s)) == SQLITE_ROW) {
    journal_entry e;
    if (sqlite3_column_int64(q.s, 0) != static_cast<std::int64_t>(r.moves.size()))
      return error =
                 "room " + r.id + ": journal has a gap at move " + std::to_string(r.moves.size()),
             std::nullopt;
    e.move = nlohmann::json::parse(text_column(q.s, 1), nullptr, false);
    e.client_id = nlohmann::json::parse(text_column(q.s, 2), nullptr, false);
    e.seq = static_cast<std::uint64_t>(sqlite3_column_int64(q.s, 3));
    if (e.move.is_discarded() || e.client_id.is_discarded())
      return error = "room " + r.id + ": unreadable move " + std::to_string(r.moves.size()),
             std::nullopt;
    r.moves.push_back(std::move(e));
  }
  if (rc != SQLITE_DONE) return error = sqlite3_errmsg(read_db_), std::nullopt;
  return r;
}

std::vector<stored_room> sqlite_store::unfinished_rooms(std::string& error) {
  std::lock_guard lock(read_mutex_);
  std::vector<stored_room> out;
  statement q(read_db_, "SELECT id, state, meta FROM rooms WHERE state <> 'finished' ORDER BY ord");
  if (!q) return error = sqlite3_errmsg(read_db_), out;
  int rc;
  while ((rc = sqlite3_step(q.s)) == SQLITE_ROW) {
    auto r = read_room(q.s, error);
    if (!r) return {};
    out.push_back(std::move(*r));
  }
  if (rc != SQLITE_DONE) error = sqlite3_errmsg(read_db_);
  return out;
}

std::optional<stored_room> sqlite_store::load(const std::string& id, std::string& error) {
  std::lock_guard lock(read_mutex_);
  statement q(read_db_, "SELECT id, state, meta FROM rooms WHERE id = ?1");
  if (!q) return error = sqlite3_errmsg(read_db_), std::nullopt;
  bind_text(q.s, 1, id);
  const int rc = sqlite3_step(q.s);
  if (rc == SQLITE_DONE) return std::nullopt;
  if (rc != SQLITE_ROW) return error = sqlite3_errmsg(read_db_), std::nullopt;
  return read_room(q.s, error);
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

std::vector<std::string> sqlite_store::finished_ids(std::size_t limit) {
  std::lock_guard lock(read_mutex_);
  std::vector<std::string> out;
  statement q(read_db_, "SELECT id FROM rooms WHERE state = 'finished' ORDER BY ord DESC LIMIT ?1");
  if (!q) return out;
  sqlite3_bind_int64(q.s, 1, static_cast<std::int64_t>(limit));
  while (sqlite3_step(q.s) == SQLITE_ROW) out.push_back(text_column(q.s, 0));
  return out;
}

}  // namespace carcassonne::server
