// A private Redis for tests: Debian's redis-server on a free loopback port, nothing saved to
// disk, its files in a temporary directory; shut down and removed at the end. Where redis-server
// is missing, `start` says so and the caller skips with that message; `started_redis()` does
// both for a test case.
#pragma once
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "free_port.hpp"

namespace carcassonne::testing {

class private_redis {
 public:
  private_redis() = default;
  ~private_redis() { stop(); }
  private_redis(const private_redis&) = delete;
  private_redis& operator=(const private_redis&) = delete;

  bool start(std::string& why) {
    namespace fs = std::filesystem;
    if (std::system("command -v redis-server >/dev/null 2>&1") != 0)
      return why = "redis-server is not installed (scripts/install-deps.sh test)", false;
    static int n = 0;
    dir_ = fs::temp_directory_path() /
           ("carcassonne-redis-" + std::to_string(::getpid()) + "-" + std::to_string(++n));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    port_ = free_loopback_port();
    if (!restart()) return why = "redis-server did not start: see " + log(), false;
    return true;
  }
  // Started again on the same port (after kill()).
  bool restart() {
    const std::string p = std::to_string(port_);
    if (!run("redis-server --port " + p + " --bind 127.0.0.1 --save '' --appendonly no --dir " +
             dir_.string() + " --daemonize yes --pidfile " + dir_.string() +
             "/redis.pid --logfile " + log()))
      return false;
    started_ = true;
    // Daemonized, it forks before it listens: ask until it answers (at most 10 s).
    for (int i = 0; i < 200; ++i) {
      if (cli("ping")) return true;
      ::usleep(50'000);
    }
    return false;
  }
  bool kill() {  // gone at once, nothing saved
    started_ = false;
    run("redis-cli -p " + std::to_string(port_) + " shutdown nosave");
    for (int i = 0; i < 200; ++i) {
      if (!cli("ping")) return true;
      ::usleep(50'000);
    }
    return false;
  }
  void stop() {
    if (started_) kill();
    if (!dir_.empty()) std::filesystem::remove_all(dir_);
    dir_.clear();
  }
  // A command through redis-cli (tests changing Redis behind the server's back).
  bool cli(const std::string& command) {
    return run("redis-cli -p " + std::to_string(port_) + " " + command + " | grep -qv '^ERR'");
  }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }
  int port() const { return port_; }

 private:
  std::string log() const { return (dir_ / "redis.log").string(); }
  bool run(const std::string& command) {
    return std::system(("{ " + command + "; } >/dev/null 2>&1").c_str()) == 0;
  }
  std::filesystem::path dir_;
  int port_ = 0;
  bool started_ = false;
};

// A private Redis started for the running test case, or nullptr after a "skipped: why" message
// where redis-server cannot run here: `auto redis = started_redis(); if (!redis) return;`.
inline std::unique_ptr<private_redis> started_redis() {
  auto redis = std::make_unique<private_redis>();
  std::string why;
  if (redis->start(why)) return redis;
  MESSAGE("skipped: " << why);
  return nullptr;
}

}  // namespace carcassonne::testing
