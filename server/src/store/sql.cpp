#include "store/sql.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace carcassonne::server::sql {

bool rows::is_null(std::size_t row, std::size_t col) const {
  return std::holds_alternative<std::nullptr_t>(cells.at(row).at(col));
}

std::string rows::text(std::size_t row, std::size_t col) const {
  const auto& v = cells.at(row).at(col);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  return {};
}

std::int64_t rows::integer(std::size_t row, std::size_t col) const {
  const auto& v = cells.at(row).at(col);
  if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
  if (const auto* d = std::get_if<double>(&v)) return static_cast<std::int64_t>(*d);
  if (const auto* s = std::get_if<std::string>(&v)) return std::strtoll(s->c_str(), nullptr, 10);
  return 0;
}

double rows::real(std::size_t row, std::size_t col) const {
  const auto& v = cells.at(row).at(col);
  if (const auto* d = std::get_if<double>(&v)) return *d;
  if (const auto* i = std::get_if<std::int64_t>(&v)) return static_cast<double>(*i);
  if (const auto* s = std::get_if<std::string>(&v)) return std::strtod(s->c_str(), nullptr);
  return 0.0;
}

// SQLite.

sqlite_connection::~sqlite_connection() {
  for (auto& [sql, s] : prepared_) sqlite3_finalize(s);
}

std::optional<rows> sqlite_connection::run(const char* sql, std::initializer_list<value> params,
                                           std::string& error, outcome* out) {
  auto& s = prepared_[sql];
  if (!s && sqlite3_prepare_v2(db_, sql, -1, &s, nullptr) != SQLITE_OK) {
    error = sqlite3_errmsg(db_);
    prepared_.erase(sql);
    return std::nullopt;
  }
  int n = 0;
  for (const auto& p : params) {
    char name[16];
    std::snprintf(name, sizeof name, "$%d", ++n);
    const int i = sqlite3_bind_parameter_index(s, name);
    if (i == 0) continue;  // a parameter the statement does not use
    if (const auto* v = std::get_if<std::int64_t>(&p))
      sqlite3_bind_int64(s, i, *v);
    else if (const auto* d = std::get_if<double>(&p))
      sqlite3_bind_double(s, i, *d);
    else if (const auto* t = std::get_if<std::string>(&p))
      sqlite3_bind_text(s, i, t->data(), static_cast<int>(t->size()), SQLITE_TRANSIENT);
    else
      sqlite3_bind_null(s, i);
  }
  rows result;
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    auto& row = result.cells.emplace_back();
    for (int c = 0; c < sqlite3_column_count(s); ++c) switch (sqlite3_column_type(s, c)) {
        case SQLITE_INTEGER:
          row.emplace_back(sqlite3_column_int64(s, c));
          break;
        case SQLITE_FLOAT:
          row.emplace_back(sqlite3_column_double(s, c));
          break;
        case SQLITE_NULL:
          row.emplace_back(nullptr);
          break;
        default: {
          const auto* p = reinterpret_cast<const char*>(sqlite3_column_text(s, c));
          row.emplace_back(std::string(p, static_cast<std::size_t>(sqlite3_column_bytes(s, c))));
        }
      }
  }
  const int extended = sqlite3_extended_errcode(db_);
  if (rc != SQLITE_DONE) error = sqlite3_errmsg(db_);
  if (out) {
    out->changed = rc == SQLITE_DONE ? sqlite3_changes(db_) : 0;
    out->unique_violation = rc != SQLITE_DONE && (extended == SQLITE_CONSTRAINT_UNIQUE ||
                                                  extended == SQLITE_CONSTRAINT_PRIMARYKEY);
  }
  sqlite3_reset(s);
  sqlite3_clear_bindings(s);
  if (rc != SQLITE_DONE) return std::nullopt;
  return result;
}

bool sqlite_connection::begin_write(std::string& error) {
  return run("BEGIN IMMEDIATE", {}, error).has_value();
}

bool sqlite_connection::begin_read(std::string& error) {
  return run("BEGIN", {}, error).has_value();
}

bool sqlite_connection::commit(std::string& error) {
  return run("COMMIT", {}, error).has_value();
}

void sqlite_connection::rollback() {
  std::string ignored;
  if (!sqlite3_get_autocommit(db_)) run("ROLLBACK", {}, ignored);
}

// PostgreSQL.

std::string one_line_message(PGconn* c) {
  std::string m;
  for (const char ch : std::string(c ? PQerrorMessage(c) : "out of memory")) {
    const bool space = ch == '\n' || ch == '\t' || ch == ' ';
    if (!space)
      m += ch;
    else if (!m.empty() && m.back() != ' ')
      m += ' ';
  }
  if (!m.empty() && m.back() == ' ') m.pop_back();
  return m;
}

std::optional<rows> postgres_connection::run(const char* sql, std::initializer_list<value> params,
                                             std::string& error, outcome* out) {
  std::vector<std::string> texts;
  texts.reserve(params.size());
  std::vector<const char*> values;
  for (const auto& p : params) {
    if (std::holds_alternative<std::nullptr_t>(p)) {
      texts.emplace_back();
      continue;
    }
    if (const auto* i = std::get_if<std::int64_t>(&p)) {
      texts.push_back(std::to_string(*i));
    } else if (const auto* d = std::get_if<double>(&p)) {
      char buf[32];  // the shortest text that reads back as the same double
      const auto end = std::to_chars(buf, buf + sizeof buf, *d).ptr;
      texts.emplace_back(buf, end);
    } else {
      texts.push_back(std::get<std::string>(p));
    }
  }
  std::size_t k = 0;
  for (const auto& p : params) {
    values.push_back(std::holds_alternative<std::nullptr_t>(p) ? nullptr : texts[k].c_str());
    ++k;
  }
  PGresult* r = PQexecParams(c_, sql, static_cast<int>(values.size()), nullptr, values.data(),
                             nullptr, nullptr, 0);
  const auto status = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
  std::optional<rows> result;
  if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) {
    result.emplace();
    for (int i = 0; i < PQntuples(r); ++i) {
      auto& row = result->cells.emplace_back();
      for (int c = 0; c < PQnfields(r); ++c)
        if (PQgetisnull(r, i, c))
          row.emplace_back(nullptr);
        else
          row.emplace_back(
              std::string(PQgetvalue(r, i, c), static_cast<std::size_t>(PQgetlength(r, i, c))));
    }
    if (out) out->changed = std::strtoll(PQcmdTuples(r), nullptr, 10);
  } else {
    error = one_line_message(c_);
    const char* state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : nullptr;
    if (out) out->unique_violation = state && std::strcmp(state, "23505") == 0;
  }
  PQclear(r);
  return result;
}

bool postgres_connection::begin_write(std::string& error) {
  return run("BEGIN", {}, error).has_value();
}

bool postgres_connection::begin_read(std::string& error) {
  return run("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", {}, error).has_value();
}

bool postgres_connection::commit(std::string& error) {
  return run("COMMIT", {}, error).has_value();
}

void postgres_connection::rollback() {
  if (PQstatus(c_) != CONNECTION_OK || PQtransactionStatus(c_) == PQTRANS_IDLE) return;
  std::string ignored;
  run("ROLLBACK", {}, ignored);
}

}  // namespace carcassonne::server::sql
