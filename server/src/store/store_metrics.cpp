// The store's counters in the Prometheus text of /metrics, after the process's own (metrics.hpp).
#include <ostream>

#include "store/store.hpp"

namespace carcassonne::server {

void render_store_metrics(const store& db, std::ostream& o) {
  auto gauge = [&](const char* name, const char* help, const char* type, std::int64_t v) {
    o << "# HELP " << name << ' ' << help << "\n# TYPE " << name << ' ' << type << '\n'
      << name << ' ' << v << '\n';
  };
  gauge("carcassonne_journal_commits_total", "Database transactions committed (or failed).",
        "counter", db.commits.load());
  gauge("carcassonne_journal_writes_total", "Room and move writes, many per transaction.",
        "counter", db.writes.load());
  gauge("carcassonne_journal_failures_total", "Transactions that failed.", "counter",
        db.failures.load());
  gauge("carcassonne_database_degraded",
        "1 while the database fails (a commit failed and it has not answered since), else 0.",
        "gauge", db.degraded() ? 1 : 0);
  gauge("carcassonne_database_check",
        "The whole database's check after the start: 1 sound, -1 damaged, 0 not (yet) made.",
        "gauge", db.database_check.load());
  o << "# HELP carcassonne_journal_commit_seconds_total Time spent in database transactions.\n"
       "# TYPE carcassonne_journal_commit_seconds_total counter\n"
    << "carcassonne_journal_commit_seconds_total " << static_cast<double>(db.commit_ns.load()) / 1e9
    << '\n';
}

}  // namespace carcassonne::server
