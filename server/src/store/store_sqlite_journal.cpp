// The SQLite store's writes (store_sqlite.hpp): the schema and its conversion from schema 1, the
// writer's transactions, the journal of games in progress, ended games, and the trimming.
#include <spdlog/spdlog.h>

#include <chrono>

#include "store/game_index.hpp"
#include "store/notify_rows.hpp"
#include "store/store_sqlite.hpp"

namespace carcassonne::server {

namespace sqlite {

namespace {

// Journal rows of ended games kept beyond the live ones: trimming waits until most rows of the
// oldest pages are dead, so that a page is rewritten once, not for each of its games.
constexpr std::size_t journal_slack = 1024;

// rooms_unfinished: the rooms a start rebuilds, listed without reading the finished ones (every
// game the server ever held). Created at open in files that lack it.
const char* const schema = R"sql(
CREATE TABLE IF NOT EXISTS rooms(
  id    TEXT PRIMARY KEY,
  state TEXT NOT NULL,
  meta  TEXT NOT NULL,
  ord   INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS journal(
  id        INTEGER PRIMARY KEY,
  room      TEXT NOT NULL,
  n         INTEGER NOT NULL,
  move      TEXT NOT NULL,
  client_id TEXT NOT NULL,
  seq       INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS games(
  room  TEXT PRIMARY KEY,
  moves TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rooms_by_state ON rooms(state, ord);
CREATE INDEX IF NOT EXISTS rooms_unfinished ON rooms(ord) WHERE state <> 'finished';
)sql";

// One entry of a `games` row; `client_id` and `move` are JSON texts already.
void append_game_entry(std::string& out, std::int64_t n, std::int64_t seq,
                       std::string_view client_id, std::string_view move) {
  out.push_back(out.empty() ? '[' : ',');
  out.push_back('[');
  out.append(std::to_string(n)).push_back(',');
  out.append(std::to_string(seq)).push_back(',');
  out.append(client_id).push_back(',');
  out.append(move).push_back(']');
}

// Schema 1 kept every move in `moves`, keyed by room: a game in progress's go to the journal,
// an ended game's become its `games` row, moves of rooms that are gone are dropped.
bool convert_schema_1(sqlite3* db, std::string& error) {
  statement rows(db,
                 "SELECT m.room, m.n, m.move, m.client_id, m.seq, r.state FROM moves m JOIN rooms "
                 "r ON r.id = m.room ORDER BY r.ord, m.n");
  statement append(db,
                   "INSERT INTO journal(room, n, move, client_id, seq) VALUES(?1, ?2, ?3, ?4, ?5)");
  statement ended(db, "INSERT INTO games(room, moves) VALUES(?1, ?2)");
  if (!rows || !append || !ended) return error = sqlite3_errmsg(db), false;
  std::string room, moves;
  const auto end_game = [&] {
    if (moves.empty()) return true;
    moves.push_back(']');
    bind_static(ended.s, 1, room);
    bind_static(ended.s, 2, moves);
    const bool ok = run(ended.s);
    moves.clear();
    return ok;
  };
  int rc;
  while ((rc = sqlite3_step(rows.s)) == SQLITE_ROW) {
    if (text_view(rows.s, 0) != room) {
      if (!end_game()) return error = sqlite3_errmsg(db), false;
      room = text_view(rows.s, 0);
    }
    if (text_view(rows.s, 5) == to_string(room_state::finished)) {
      append_game_entry(moves, sqlite3_column_int64(rows.s, 1), sqlite3_column_int64(rows.s, 4),
                        text_view(rows.s, 3), text_view(rows.s, 2));
      continue;
    }
    for (int i = 0; i < 5; ++i)
      sqlite3_bind_value(append.s, i + 1, sqlite3_column_value(rows.s, i));
    if (!run(append.s)) return error = sqlite3_errmsg(db), false;
  }
  if (rc != SQLITE_DONE || !end_game()) return error = sqlite3_errmsg(db), false;
  return exec(db, "DROP TABLE moves", &error);
}

}  // namespace

bool set_up_schema(sqlite3* db, int found_version, std::string& error) {
  if (!exec(db, "BEGIN IMMEDIATE", &error)) return false;
  const bool ok =
      exec(db, schema, &error) && exec(db, game_index_schema, &error) &&
      exec(db, notify_rows_schema, &error) && (found_version != 1 || convert_schema_1(db, error)) &&
      exec(db, ("PRAGMA user_version=" + std::to_string(schema_version)).c_str(), &error) &&
      exec(db, "COMMIT", &error);
  if (!ok) exec(db, "ROLLBACK");
  return ok;
}

bool append_entry(stored_room& r, std::int64_t n, std::uint64_t seq, nlohmann::json client_id,
                  nlohmann::json move, std::string& error) {
  if (n != static_cast<std::int64_t>(r.moves.size()))
    return error = "room " + r.id + ": journal has a gap at move " + std::to_string(r.moves.size()),
           false;
  if (move.is_discarded() || client_id.is_discarded())
    return error = "room " + r.id + ": unreadable move " + std::to_string(r.moves.size()), false;
  r.moves.push_back({std::move(move), std::move(client_id), seq});
  return true;
}

bool append_game_moves(stored_room& r, const std::string& text, std::string& error) {
  auto entries = nlohmann::json::parse(text, nullptr, false);
  if (!entries.is_array()) return error = "room " + r.id + ": unreadable moves", false;
  for (auto& e : entries) {
    if (!e.is_array() || e.size() != 4 || !e[0].is_number_integer() || !e[1].is_number_unsigned())
      return error = "room " + r.id + ": unreadable move " + std::to_string(r.moves.size()), false;
    if (!append_entry(r, e[0].get<std::int64_t>(), e[1].get<std::uint64_t>(), std::move(e[2]),
                      std::move(e[3]), error))
      return false;
  }
  return true;
}

}  // namespace sqlite

using namespace sqlite;

struct sqlite_store::write_statements {
  explicit write_statements(sqlite3* db)
      : save(db,
             "INSERT INTO rooms(id, state, meta, ord) VALUES(?1, ?2, ?3, ?4) "
             "ON CONFLICT(id) DO UPDATE SET meta = excluded.meta"),
        // Apart, and only when it changed: an update that sets `state`, even to the same value,
        // rewrites the room's entries in both indexes on it (3.7 pages a save against 1.0, for
        // the rooms of a clocked game, which save with every move).
        save_state(db, "UPDATE rooms SET state = ?2 WHERE id = ?1 AND state <> ?2"),
        append(db, "INSERT INTO journal(room, n, move, client_id, seq) VALUES(?1, ?2, ?3, ?4, ?5)"),
        end_game(db, "INSERT INTO games(room, moves) VALUES(?1, ?2)"),
        trim(db, "DELETE FROM journal WHERE id BETWEEN ?1 AND ?2"),
        drop_game(db, "DELETE FROM games WHERE room = ?1"),
        drop_room(db, "DELETE FROM rooms WHERE id = ?1"),
        begin(db, "BEGIN IMMEDIATE"),
        commit(db, "COMMIT"),
        index(db) {}
  // BEGIN and COMMIT prepared once too: sqlite3_exec would parse them for every transaction.
  statement save, save_state, append, end_game, trim, drop_game, drop_room, begin, commit;
  sql::sqlite_connection index;  // a game's end: the index of games and ratings (game_index.hpp)
};

sqlite_store::sqlite_store() = default;

bool sqlite_store::prepare_writes(std::string& error) {
  statements_ = std::make_unique<write_statements>(write_db_);
  return rebuild_live(error);
}

sqlite_store::~sqlite_store() {
  if (check_db_) sqlite3_interrupt(check_db_);  // a check of a large file stops at once
  await_database_check();
  sqlite3_close(check_db_);
  stop_writer();
  keep_shm_whole();     // closing checkpoints through the -shm
  statements_.reset();  // finalized before their connection closes
  sqlite3_close(read_db_);
  sqlite3_close(write_db_);
}

bool sqlite_store::commit_batch(const std::vector<const store_write*>& batch, std::vector<char>&,
                                std::string& error) {
  bool ok = still_in_place(error) && run(statements_->begin.s);
  std::size_t appended = 0;
  for (const auto* w : batch) {
    if (!ok) break;
    ok = apply(*w, error);
    appended += std::holds_alternative<move_write>(*w);
  }
  if (ok) ok = trim_journal(appended);
  if (ok) ok = run(statements_->commit.s);
  if (!ok) {
    if (error.empty()) error = sqlite3_errmsg(write_db_);
    exec(write_db_, "ROLLBACK");
    std::string why;  // what the writer knew of the journal included the writes rolled back
    if (!rebuild_live(why)) spdlog::error("database: reading the journal again: {}", why);
  }
  return ok;
}

bool sqlite_store::apply(const store_write& w, std::string& error) {
  auto& st = *statements_;
  return std::visit(
      [&](const auto& op) {
        using T = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<T, save_room_write>) {
          bind_static(st.save.s, 1, op.id);
          const std::string state(to_string(op.state));
          bind_static(st.save.s, 2, state);
          bind_static(st.save.s, 3, op.meta);
          // A new room's place in the order; an existing room keeps its own.
          sqlite3_bind_int64(st.save.s, 4, ++last_ord_);
          bind_static(st.save_state.s, 1, op.id);
          bind_static(st.save_state.s, 2, state);
          // A game that ends takes its moves out of the journal in the same transaction.
          return run(st.save.s) && run(st.save_state.s) &&
                 (op.state != room_state::finished || end_game(op.id)) &&
                 (!op.end || write_game_end(st.index, op.id, *op.end, error)) &&
                 room_rows(op.id, op, error);
        } else if constexpr (std::is_same_v<T, move_write>) {
          return append_move(op, error) && room_rows(op.room, op, error);
        } else {
          bind_static(st.drop_game.s, 1, op.id);
          bind_static(st.drop_room.s, 1, op.id);
          if (!run(st.drop_game.s) || !run(st.drop_room.s) ||
              !forget_room_rows(st.index, op.id, error))
            return false;
          forget_moves(op.id);
          return true;
        }
      },
      w);
}

// The notices and "my games" rows a write carries (notify_rows.hpp): nothing to do for most.
template <typename Write>
bool sqlite_store::room_rows(const std::string& room, const Write& w, std::string& error) {
  if (w.notices.empty() && !w.mine) return true;
  const auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  return write_room_rows(statements_->index, room, w.notices, w.mine ? &*w.mine : nullptr, now_ms,
                         error);
}

bool sqlite_store::append_move(const move_write& w, std::string& error) {
  auto& st = *statements_;
  auto& game = live_[w.room];
  // The journal has no key on (room, n): the writer checks that each move is its game's next.
  if (w.index != game.next)
    return error = "journal: move " + std::to_string(w.index) + " of room " + w.room +
                   " is not its next (" + std::to_string(game.next) + ")",
           false;
  bind_static(st.append.s, 1, w.room);
  sqlite3_bind_int64(st.append.s, 2, w.index);
  bind_static(st.append.s, 3, w.move);
  bind_static(st.append.s, 4, w.client_id);
  sqlite3_bind_int64(st.append.s, 5, static_cast<std::int64_t>(w.seq));
  if (!run(st.append.s)) return false;
  game.rows.push_back(sqlite3_last_insert_rowid(write_db_));
  append_game_entry(game.moves, w.index, static_cast<std::int64_t>(w.seq), w.client_id, w.move);
  ++game.next;
  ++live_rows_;
  return true;
}

// The game's journal rows become its one row of `games`, written as they were appended; the rows
// die.
bool sqlite_store::end_game(const std::string& room) {
  const auto game = live_.find(room);
  if (game == live_.end()) return true;  // no move, or ended already
  auto& moves = game->second.moves;
  moves.push_back(']');
  bind_static(statements_->end_game.s, 1, room);
  bind_static(statements_->end_game.s, 2, moves);
  if (!run(statements_->end_game.s)) return false;  // rolled back: live_ is read again
  forget_moves(room);
  return true;
}

void sqlite_store::forget_moves(const std::string& room) {
  const auto game = live_.find(room);
  if (game == live_.end()) return;
  for (const auto row : game->second.rows) dead_.push(row);
  live_rows_ -= game->second.rows.size();
  live_.erase(game);
}

// Deletes the oldest dead rows beyond the slack: at most a few more than the transaction
// appended, so that no commit carries a long delete. Consecutive rows go in one range.
bool sqlite_store::trim_journal(std::size_t appended) {
  auto& trim = statements_->trim.s;
  std::size_t budget = 2 * appended + 64;
  const auto excess = [&] { return budget > 0 && dead_.size() > live_rows_ + journal_slack; };
  while (excess()) {
    const auto first = dead_.top();
    auto last = first;
    do {
      last = dead_.top();
      dead_.pop();
      --budget;
    } while (excess() && dead_.top() == last + 1);
    sqlite3_bind_int64(trim, 1, first);
    sqlite3_bind_int64(trim, 2, last);
    if (!run(trim)) return false;
  }
  return true;
}

// Which journal rows belong to a game in progress (its room not finished), and the last room
// order given, from the file.
bool sqlite_store::rebuild_live(std::string& error) {
  live_.clear();
  live_rows_ = 0;
  dead_ = {};
  const auto last = scalar(write_db_, "SELECT IFNULL(MAX(ord), 0) FROM rooms", error);
  if (!last) return false;
  last_ord_ = std::stoll(*last);
  statement q(write_db_,
              "SELECT j.id, j.room, j.n, r.state, j.seq, j.client_id, j.move FROM journal j "
              "LEFT JOIN rooms r ON r.id = j.room ORDER BY j.id");
  if (!q) return error = sqlite3_errmsg(write_db_), false;
  int rc;
  while ((rc = sqlite3_step(q.s)) == SQLITE_ROW) {
    const auto row = sqlite3_column_int64(q.s, 0);
    const auto state = text_view(q.s, 3);
    if (state.empty() || state == to_string(room_state::finished)) {
      dead_.push(row);
      continue;
    }
    auto& game = live_[text_column(q.s, 1)];
    game.rows.push_back(row);
    game.next = sqlite3_column_int64(q.s, 2) + 1;
    append_game_entry(game.moves, game.next - 1, sqlite3_column_int64(q.s, 4), text_view(q.s, 5),
                      text_view(q.s, 6));
    ++live_rows_;
  }
  if (rc != SQLITE_DONE) return error = sqlite3_errmsg(write_db_), false;
  return true;
}

}  // namespace carcassonne::server
