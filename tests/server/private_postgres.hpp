// A private PostgreSQL server for tests: initdb and pg_ctl from Debian's postgresql package, in a
// temporary directory, on a free loopback port, stopped and removed at the end. As root it runs
// as the `postgres` user (PostgreSQL refuses root). Where that is impossible, `start` says why
// and the caller skips the PostgreSQL case with that message; `started_postgres()` does both for
// a test case.
#pragma once
#include <doctest/doctest.h>
#include <libpq-fe.h>
#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "free_port.hpp"

namespace carcassonne::testing {

class private_postgres {
 public:
  private_postgres() = default;
  ~private_postgres() { stop(); }
  private_postgres(const private_postgres&) = delete;
  private_postgres& operator=(const private_postgres&) = delete;

  // Creates and starts the server; false with `why` when it cannot run here.
  bool start(std::string& why) {
    namespace fs = std::filesystem;
    const std::string bin = find_bin();
    if (bin.empty())
      return why = "PostgreSQL is not installed (scripts/install-deps.sh test)", false;
    if (::geteuid() == 0) {
      const passwd* pw = ::getpwnam("postgres");
      if (!pw)
        return why = "running as root and there is no postgres user to run PostgreSQL", false;
      as_user_ = "runuser -u postgres -- ";
      uid_ = pw->pw_uid;
      gid_ = pw->pw_gid;
    }
    static int n = 0;
    dir_ = fs::temp_directory_path() /
           ("carcassonne-pg-" + std::to_string(::getpid()) + "-" + std::to_string(++n));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    if (uid_ && ::chown(dir_.c_str(), uid_, gid_) != 0)
      return why = "cannot give " + dir_.string() + " to the postgres user", false;
    port_ = free_loopback_port();
    const std::string data = (dir_ / "data").string();
    if (!run(bin + "/initdb -D " + data + " -A trust -U carcassonne --no-sync -E UTF8"))
      return why = "initdb failed: see " + (dir_ / "initdb.log").string(), false;
    started_ = true;
    if (!run_start())
      return why = "pg_ctl start failed: see " + (dir_ / "server.log").string(), false;
    return true;
  }

  // The server stopped at once (as a crash would) and started again, for fault tests.
  bool kill() {
    return run(bin_ + "/pg_ctl -D " + (dir_ / "data").string() + " -m immediate stop");
  }
  bool restart() { return run_start(); }
  // A clean stop (`pg_ctl -m fast`): sessions are ended, as an administrator's restart does.
  bool stop_fast() {
    return run(bin_ + "/pg_ctl -D " + (dir_ / "data").string() + " -m fast -w stop");
  }
  // Ends every other session on `database` (pg_terminate_backend), as an administrator may.
  void terminate_sessions(const std::string& database) {
    PGconn* c = PQconnectdb(url("postgres").c_str());
    PQclear(PQexec(c, ("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '" +
                       database + "' AND pid <> pg_backend_pid()")
                          .c_str()));
    PQfinish(c);
  }

  void stop() {
    namespace fs = std::filesystem;
    if (started_) kill();
    started_ = false;
    if (!dir_.empty()) fs::remove_all(dir_);
    dir_.clear();
  }

  // A new empty database on this server, as a postgresql:// URL.
  std::string fresh_database() { return url(fresh_database_name()); }
  std::string fresh_database_name() {
    const std::string name = "t" + std::to_string(++databases_);
    PGconn* c = PQconnectdb(url("postgres").c_str());
    PQclear(PQexec(c, ("CREATE DATABASE " + name).c_str()));
    PQfinish(c);
    return name;
  }

  std::string url(const std::string& database) const {
    return "postgresql://carcassonne@127.0.0.1:" + std::to_string(port_) + "/" + database;
  }
  int port() const { return port_; }

 private:
  std::string find_bin() {
    namespace fs = std::filesystem;
    std::error_code ec;
    for (const auto& v : fs::directory_iterator("/usr/lib/postgresql", ec))
      if (fs::exists(v.path() / "bin" / "initdb")) bin_ = (v.path() / "bin").string();
    return bin_;
  }
  bool run(const std::string& command) {
    const std::string log = (dir_ / "commands.log").string();
    return std::system(("cd / && " + as_user_ + command + " >>" + log + " 2>&1").c_str()) == 0;
  }
  bool run_start() {
    // fsync off: these tests check what is committed, not what survives a power cut.
    return run(bin_ + "/pg_ctl -D " + (dir_ / "data").string() + " -w -t 30 -l " +
               (dir_ / "server.log").string() + " -o \"-p " + std::to_string(port_) + " -k " +
               dir_.string() + " -c listen_addresses=127.0.0.1 -c fsync=off\" start");
  }

  std::filesystem::path dir_;
  std::string bin_, as_user_;
  uid_t uid_ = 0;
  gid_t gid_ = 0;
  int port_ = 0, databases_ = 0;
  bool started_ = false;
};

// A private PostgreSQL started for the running test case, or nullptr after a "skipped: why"
// message where it cannot run here: `auto pg = started_postgres(); if (!pg) return;`.
inline std::unique_ptr<private_postgres> started_postgres() {
  auto pg = std::make_unique<private_postgres>();
  std::string why;
  if (pg->start(why)) return pg;
  MESSAGE("skipped: " << why);
  return nullptr;
}

}  // namespace carcassonne::testing
