#include "store/store_postgres.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <cstdlib>
#include <map>

#include "store/game_index.hpp"
#include "store/notify_rows.hpp"
#include "store/sql.hpp"

namespace carcassonne::server {

namespace {

// 2: the index of finished games and the ratings (store/game_index.hpp), created at open.
constexpr int schema_version = 2;
// Any fixed number: servers starting together create the tables one after the other.
constexpr const char* schema_lock = "SELECT pg_advisory_xact_lock(7262053)";

// rooms_unfinished: the rooms a start rebuilds and an instance lists after every heartbeat to
// adopt orphans, without reading the finished ones (every game the cluster ever held). Created at
// open in databases that lack it.
const char* const schema = R"sql(
CREATE TABLE IF NOT EXISTS carcassonne_schema(version INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS rooms(
  id    TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  meta  TEXT NOT NULL,
  ord   BIGSERIAL NOT NULL
);
CREATE TABLE IF NOT EXISTS moves(
  room      TEXT NOT NULL,
  n         BIGINT NOT NULL,
  move      TEXT NOT NULL,
  client_id TEXT NOT NULL,
  seq       BIGINT NOT NULL,
  PRIMARY KEY(room, n)
);
CREATE INDEX IF NOT EXISTS rooms_by_state ON rooms(state, ord);
CREATE INDEX IF NOT EXISTS rooms_unfinished ON rooms(ord) WHERE state <> 'finished';
CREATE TABLE IF NOT EXISTS room_owner(
  room       TEXT PRIMARY KEY,
  generation BIGINT NOT NULL
);
)sql";

// A cluster's fence (docs/scaling.md): the write's generation becomes the room's, unless a newer
// one is recorded (no row comes back: the write is refused). The row stays locked until the
// transaction ends, so an adopter's take_room waits for a write in flight and then sees it.
constexpr const char* fence_sql =
    "INSERT INTO room_owner(room, generation) VALUES($1, $2) ON CONFLICT(room) DO UPDATE SET "
    "generation = EXCLUDED.generation WHERE room_owner.generation <= EXCLUDED.generation "
    "RETURNING generation";

// A result that clears itself.
struct result {
  PGresult* r = nullptr;
  explicit result(PGresult* p) : r(p) {}
  ~result() { PQclear(r); }
  result(const result&) = delete;
  result& operator=(const result&) = delete;
  ExecStatusType status() const { return r ? PQresultStatus(r) : PGRES_FATAL_ERROR; }
  bool command_ok() const { return status() == PGRES_COMMAND_OK; }
  bool tuples_ok() const { return status() == PGRES_TUPLES_OK; }
  std::string text(int row, int col) const {
    return std::string(PQgetvalue(r, row, col), static_cast<std::size_t>(PQgetlength(r, row, col)));
  }
};

// libpq's messages span lines ("ERROR:  ...\nDETAIL:  ..."): one line for the log.
std::string message_of(PGconn* c) {
  return sql::one_line_message(c);
}

bool exec(PGconn* c, const char* sql, std::string& error) {
  result r(PQexec(c, sql));
  if (!r.command_ok() && !r.tuples_ok()) return error = message_of(c), false;
  return true;
}

PGconn* connect(const std::string& url, std::string& error) {
  // connect_timeout: a database that does not answer fails a batch instead of hanging the writer.
  const char* keys[] = {"dbname", "connect_timeout", nullptr};
  const char* values[] = {url.c_str(), "5", nullptr};
  PGconn* c = PQconnectdbParams(keys, values, 1);
  if (PQstatus(c) != CONNECTION_OK) {
    error = message_of(c);
    PQfinish(c);
    return nullptr;
  }
  PQsetNoticeProcessor(
      c, [](void*, const char*) {}, nullptr);  // "already exists, skipping"
  return c;
}

// Reconnects a lost connection; true when `c` is usable.
bool usable(PGconn*& c, const std::string& url, std::string& error) {
  if (c && PQstatus(c) == CONNECTION_OK) return true;
  if (c) {
    PQreset(c);
    if (PQstatus(c) == CONNECTION_OK) return true;
    error = message_of(c);
    return false;
  }
  c = connect(url, error);
  return c != nullptr;
}

journal_entry entry_of(const result& r, int row, int first_col, const std::string& room,
                       std::string& error) {
  journal_entry e;
  e.move = nlohmann::json::parse(r.text(row, first_col + 1), nullptr, false);
  e.client_id = nlohmann::json::parse(r.text(row, first_col + 2), nullptr, false);
  e.seq = std::strtoull(PQgetvalue(r.r, row, first_col + 3), nullptr, 10);
  if (e.move.is_discarded() || e.client_id.is_discarded())
    error = "room " + room + ": unreadable move " + r.text(row, first_col);
  return e;
}

}  // namespace

std::string redacted_url(const std::string& url) {
  const auto scheme = url.find("://");
  const auto at = url.find('@');
  if (scheme == std::string::npos || at == std::string::npos) return url;
  const auto colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

std::unique_ptr<store> postgres_store::open(const store_options& options, std::string& error) {
  const auto fail = [&](const std::string& what) {
    error = "database " + redacted_url(options.path) + ": " + what;
    return nullptr;
  };
  std::unique_ptr<postgres_store> s(new postgres_store());
  s->url_ = options.path;
  s->full_sync_ = options.full_sync;
  std::string why;
  s->write_conn_ = connect(s->url_, why);
  if (!s->write_conn_) return fail("cannot connect: " + why + " (is PostgreSQL running?)");
  if (!exec(s->write_conn_, "BEGIN", why) || !exec(s->write_conn_, schema_lock, why) ||
      !exec(s->write_conn_, schema, why) || !exec(s->write_conn_, game_index_schema, why) ||
      !exec(s->write_conn_, notify_rows_schema, why))
    return fail("cannot set up the schema: " + why);
  result v(PQexec(s->write_conn_, "SELECT MAX(version) FROM carcassonne_schema"));
  if (!v.tuples_ok()) return fail(message_of(s->write_conn_));
  if (PQgetisnull(v.r, 0, 0)) {
    if (!exec(s->write_conn_,
              ("INSERT INTO carcassonne_schema VALUES(" + std::to_string(schema_version) + ")")
                  .c_str(),
              why))
      return fail("cannot set up the schema: " + why);
  } else if (const int found = std::atoi(PQgetvalue(v.r, 0, 0)); found > schema_version) {
    exec(s->write_conn_, "ROLLBACK", why);
    return fail("written by a newer server (schema " + std::to_string(found) +
                ", this server knows " + std::to_string(schema_version) + "): upgrade the server");
  } else if (found < schema_version &&
             !exec(s->write_conn_,
                   ("UPDATE carcassonne_schema SET version = " + std::to_string(schema_version))
                       .c_str(),
                   why)) {
    return fail("cannot set up the schema: " + why);
  }
  if (!exec(s->write_conn_, "COMMIT", why)) return fail("cannot set up the schema: " + why);
  if (!s->ready_to_write(why)) return fail(why);
  s->read_conn_ = connect(s->url_, why);
  if (!s->read_conn_) return fail("cannot connect for reading: " + why);
  s->start_writer();
  return s;
}

postgres_store::~postgres_store() {
  stop_writer();
  PQfinish(read_conn_);
  PQfinish(write_conn_);
}

bool postgres_store::ready_to_write(std::string& error) {
  const bool was_connected = write_conn_ && PQstatus(write_conn_) == CONNECTION_OK;
  if (!usable(write_conn_, url_, error)) return false;
  if (!was_connected) prepared_ = false;  // a new session: its statements are gone
  if (prepared_) return true;
  const auto prepare = [&](const char* name, const char* sql, int params) {
    result r(PQprepare(write_conn_, name, sql, params, nullptr));
    return r.command_ok() || (error = message_of(write_conn_), false);
  };
  prepared_ =
      exec(write_conn_, full_sync_ ? "SET synchronous_commit = on" : "SET synchronous_commit = off",
           error) &&
      prepare("save",
              "INSERT INTO rooms(id, state, meta) VALUES($1, $2, $3) "
              "ON CONFLICT(id) DO UPDATE SET state = EXCLUDED.state, meta = EXCLUDED.meta",
              3) &&
      prepare("append",
              "INSERT INTO moves(room, n, move, client_id, seq) VALUES($1, $2, $3, $4, $5)", 5) &&
      prepare("drop_moves", "DELETE FROM moves WHERE room = $1", 1) &&
      prepare("drop_room", "DELETE FROM rooms WHERE id = $1", 1) && prepare("fence", fence_sql, 2);
  return prepared_;
}

namespace {
std::uint64_t generation_of(const store_write& w) {
  return std::visit([](const auto& op) { return op.generation; }, w);
}
}  // namespace

// 1: `generation` may write `room`, 0: fenced off, -1: the statement failed (`error`).
int postgres_store::fence(const std::string& room, std::uint64_t generation, std::string& error) {
  const std::string g = std::to_string(generation);
  const char* values[] = {room.c_str(), g.c_str()};
  result r(PQexecPrepared(write_conn_, "fence", 2, values, nullptr, nullptr, 0));
  if (!r.tuples_ok()) return error = message_of(write_conn_), -1;
  return PQntuples(r.r) == 1 ? 1 : 0;
}

bool postgres_store::commit_batch(const std::vector<const store_write*>& batch,
                                  std::vector<char>& fenced, std::string& error) {
  // A connection that PostgreSQL ended while it was idle (a restart, pg_terminate_backend) reads
  // as CONNECTION_OK until it is used. When the batch failed before its COMMIT was sent and the
  // connection is now lost, nothing of it was committed: it is tried once more on a new one.
  bool committing = false;
  if (try_commit(batch, fenced, error, committing)) return true;
  if (committing || PQstatus(write_conn_) == CONNECTION_OK) return false;
  spdlog::warn("database: the connection was lost ({}): reconnecting", error);
  error.clear();
  fenced.assign(fenced.size(), 0);
  return try_commit(batch, fenced, error, committing);
}

bool postgres_store::probe(std::string& error) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    if (!ready_to_write(error)) return false;
    if (exec(write_conn_, "SELECT 1", error)) return true;
    if (PQstatus(write_conn_) == CONNECTION_OK) return false;  // answered, with an error
  }
  return false;
}

bool postgres_store::try_commit(const std::vector<const store_write*>& batch,
                                std::vector<char>& fenced, std::string& error, bool& committing) {
  if (!ready_to_write(error)) return false;
  bool ok = exec(write_conn_, "BEGIN", error);
  // One fence per room and generation in a batch (rooms write several times per batch), taken
  // first and in the map's order: two instances' batches lock rows in one order, never deadlock.
  std::map<std::pair<std::string, std::uint64_t>, bool> allowed;
  for (const auto* w : batch)
    if (const auto g = generation_of(*w); g != 0) allowed.emplace(std::pair{room_of(*w), g}, true);
  for (auto& [key, yes] : allowed) {
    if (!ok) break;
    const int f = fence(key.first, key.second, error);
    ok = f >= 0;
    yes = f == 1;
  }
  for (std::size_t i = 0; ok && i < batch.size(); ++i) {
    const auto& w = *batch[i];
    if (const auto g = generation_of(w); g != 0 && !allowed.at({room_of(w), g})) {
      fenced[i] = 1;
      continue;
    }
    ok = apply(w, error);
  }
  for (const auto& [key, yes] : allowed)
    if (ok && !yes)
      spdlog::warn(
          "database: writes of room {} with lease generation {} refused: another "
          "instance owns it now",
          key.first, key.second);
  committing = ok;  // from here on the outcome of a lost connection is unknown
  if (ok) ok = exec(write_conn_, "COMMIT", error);
  if (!ok && PQstatus(write_conn_) == CONNECTION_OK) {
    std::string ignored;
    exec(write_conn_, "ROLLBACK", ignored);
  }
  return ok;
}

bool postgres_store::apply(const store_write& w, std::string& error) {
  const auto run = [&](const char* name, std::initializer_list<const std::string*> params) {
    std::vector<const char*> values;
    std::vector<int> lengths;
    for (const auto* p : params) {
      values.push_back(p->c_str());
      lengths.push_back(static_cast<int>(p->size()));
    }
    result r(PQexecPrepared(write_conn_, name, static_cast<int>(values.size()), values.data(),
                            lengths.data(), nullptr, 0));
    return r.command_ok() || (error = message_of(write_conn_), false);
  };
  sql::postgres_connection index(write_conn_);
  // The notices and "my games" rows a write carries (notify_rows.hpp): nothing for most.
  const auto room_rows = [&](const std::string& room, const auto& op) {
    if (op.notices.empty() && !op.mine) return true;
    const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    return write_room_rows(index, room, op.notices, op.mine ? &*op.mine : nullptr, now_ms, error);
  };
  return std::visit(
      [&](const auto& op) {
        using T = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<T, save_room_write>) {
          const std::string state(to_string(op.state));
          return run("save", {&op.id, &state, &op.meta}) &&
                 (!op.end || write_game_end(index, op.id, *op.end, error)) && room_rows(op.id, op);
        } else if constexpr (std::is_same_v<T, move_write>) {
          const auto n = std::to_string(op.index), seq = std::to_string(op.seq);
          return run("append", {&op.room, &n, &op.move, &op.client_id, &seq}) &&
                 room_rows(op.room, op);
        } else {
          return run("drop_moves", {&op.id}) && run("drop_room", {&op.id}) &&
                 forget_room_rows(index, op.id, error);
        }
      },
      w);
}

bool postgres_store::ready_to_read(std::string& error) {
  return usable(read_conn_, url_, error);
}

// The rooms of `rooms_sql` (id, state, meta) with the journals of `moves_sql` (room, n, move,
// client_id, seq ordered by room then n), read in one snapshot. `id` is both queries' $1.
std::vector<stored_room> postgres_store::read_rooms(const char* rooms_sql, const char* moves_sql,
                                                    const std::string* id, std::string& error) {
  // A connection PostgreSQL ended while it was idle fails its first statement: once more on a
  // new one, as the writer does.
  if (!ready_to_read(error)) return {};
  if (!exec(read_conn_, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", error)) {
    if (PQstatus(read_conn_) == CONNECTION_OK) return {};
    error.clear();
    if (!ready_to_read(error) ||
        !exec(read_conn_, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", error))
      return {};
  }
  std::vector<stored_room> out;
  const char* params[] = {id ? id->c_str() : nullptr};
  const int count = id ? 1 : 0;
  result rooms(PQexecParams(read_conn_, rooms_sql, count, nullptr, params, nullptr, nullptr, 0));
  result moves(PQexecParams(read_conn_, moves_sql, count, nullptr, params, nullptr, nullptr, 0));
  std::string ignored;
  exec(read_conn_, "COMMIT", ignored);
  if (!rooms.tuples_ok() || !moves.tuples_ok()) return error = message_of(read_conn_), out;
  std::map<std::string, std::size_t> index;
  for (int i = 0; i < PQntuples(rooms.r); ++i) {
    stored_room r;
    r.id = rooms.text(i, 0);
    const auto state = room_state_from_string(rooms.text(i, 1));
    if (!state)
      return error = "room " + r.id + ": unknown state " + rooms.text(i, 1),
             std::vector<stored_room>{};
    r.state = *state;
    r.meta = nlohmann::json::parse(rooms.text(i, 2), nullptr, false);
    if (r.meta.is_discarded() || !r.meta.is_object())
      return error = "room " + r.id + ": unreadable meta", std::vector<stored_room>{};
    index[r.id] = out.size();
    out.push_back(std::move(r));
  }
  for (int i = 0; i < PQntuples(moves.r); ++i) {
    const auto found = index.find(moves.text(i, 0));
    if (found == index.end()) continue;  // a journal without its room
    auto& r = out[found->second];
    if (std::strtoll(PQgetvalue(moves.r, i, 1), nullptr, 10) !=
        static_cast<long long>(r.moves.size()))
      return error =
                 "room " + r.id + ": journal has a gap at move " + std::to_string(r.moves.size()),
             std::vector<stored_room>{};
    r.moves.push_back(entry_of(moves, i, 1, r.id, error));
    if (!error.empty()) return {};
  }
  return out;
}

std::vector<stored_room> postgres_store::unfinished_rooms(std::string& error) {
  std::lock_guard lock(read_mutex_);
  return read_rooms("SELECT id, state, meta FROM rooms WHERE state <> 'finished' ORDER BY ord",
                    "SELECT m.room, m.n, m.move, m.client_id, m.seq FROM moves m JOIN rooms r ON "
                    "r.id = m.room WHERE r.state <> 'finished' ORDER BY m.room, m.n",
                    nullptr, error);
}

std::optional<stored_room> postgres_store::load(const std::string& id, std::string& error) {
  std::lock_guard lock(read_mutex_);
  auto rooms = read_rooms("SELECT id, state, meta FROM rooms WHERE id = $1",
                          "SELECT room, n, move, client_id, seq FROM moves WHERE room = $1 "
                          "ORDER BY n",
                          &id, error);
  if (rooms.empty()) return std::nullopt;
  return std::move(rooms.front());
}

std::vector<std::string> postgres_store::unfinished_ids(std::string& error) {
  std::lock_guard lock(read_mutex_);
  std::vector<std::string> out;
  if (!ready_to_read(error)) return out;
  result r(PQexec(read_conn_, "SELECT id FROM rooms WHERE state <> 'finished' ORDER BY ord"));
  if (!r.tuples_ok()) return error = message_of(read_conn_), out;
  for (int i = 0; i < PQntuples(r.r); ++i) out.push_back(r.text(i, 0));
  return out;
}

bool postgres_store::take_room(const std::string& room, std::uint64_t generation,
                               std::string& error) {
  std::lock_guard lock(read_mutex_);
  if (!ready_to_read(error)) return false;
  // One statement, committed on its own: from its commit on, older generations are refused.
  const std::string g = std::to_string(generation);
  const char* values[] = {room.c_str(), g.c_str()};
  result r(PQexecParams(read_conn_, fence_sql, 2, nullptr, values, nullptr, nullptr, 0));
  if (!r.tuples_ok()) return error = message_of(read_conn_), false;
  if (PQntuples(r.r) == 1) return true;
  error = "room " + room + ": a newer lease generation than " + g + " is recorded";
  return false;
}

std::uint64_t postgres_store::recorded_generation(const std::string& room, std::string& error) {
  std::lock_guard lock(read_mutex_);
  if (!ready_to_read(error)) return 0;
  const char* values[] = {room.c_str()};
  result r(PQexecParams(read_conn_, "SELECT generation FROM room_owner WHERE room = $1", 1, nullptr,
                        values, nullptr, nullptr, 0));
  if (!r.tuples_ok()) return error = message_of(read_conn_), 0;
  return PQntuples(r.r) == 1 ? std::strtoull(PQgetvalue(r.r, 0, 0), nullptr, 10) : 0;
}

}  // namespace carcassonne::server
