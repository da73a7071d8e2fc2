// End-to-end fixture for tests that need the server as a separate process (killed with
// SIGKILL, restarted on the same database): spawn build/carcassonne with its output in a file,
// signal it, wait for it with a deadline.
#pragma once
#include <doctest/doctest.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace e2e {

class child_process {
 public:
  // Runs the project's binary with `args`; stdout and stderr go to `log`.
  child_process(const std::vector<std::string>& args, const std::string& log) : log_(log) {
    std::vector<std::string> argv{CARCASSONNE_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    std::vector<char*> raw;
    for (auto& a : argv) raw.push_back(a.data());
    raw.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&actions, 1, 2);
    const int rc = posix_spawn(&pid_, raw[0], &actions, nullptr, raw.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    REQUIRE_MESSAGE(rc == 0, "cannot start " << raw[0]);
  }
  ~child_process() {
    if (pid_ > 0 && !status_) {
      ::kill(pid_, SIGKILL);
      int st = 0;
      ::waitpid(pid_, &st, 0);
    }
  }
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  void signal(int sig) { ::kill(pid_, sig); }
  // The exit status (WEXITSTATUS, or 128 + signal), or nothing if still running at the deadline.
  std::optional<int> wait(std::chrono::milliseconds timeout) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!status_) {
      int st = 0;
      const pid_t r = ::waitpid(pid_, &st, WNOHANG);
      if (r == pid_)
        status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      else if (std::chrono::steady_clock::now() > deadline)
        return std::nullopt;
      else
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    return status_;
  }
  std::string output() const {
    std::ifstream in(log_);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

 private:
  std::string log_;
  pid_t pid_ = -1;
  std::optional<int> status_;
};

// A port free at the moment of asking (the kernel picks it; a race with other programs is
// possible but harmless in a test sandbox).
std::uint16_t free_port();  // e2e_client.cpp

// Waits until something accepts connections on the port (a server process starting).
bool wait_listening(std::uint16_t port, std::chrono::milliseconds timeout);  // e2e_client.cpp

// A fresh directory, removed at the end.
struct temp_dir {
  std::filesystem::path path;
  explicit temp_dir(const std::string& name) {
    path = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~temp_dir() { std::filesystem::remove_all(path); }
  std::string str() const { return path.string(); }
};

// One instance of a cluster as its own process: `carcassonne serve` on 127.0.0.1:`port` with the
// store, Redis, its id and public URL, no message rate limit, one thread, logging to `log`, and
// `extra` flags; returned once it listens.
inline std::unique_ptr<child_process> start_instance(std::uint16_t port, const std::string& id,
                                                     const std::string& store,
                                                     const std::string& redis,
                                                     const std::string& log,
                                                     std::vector<std::string> extra = {}) {
  const auto p = std::to_string(port);
  std::vector<std::string> args{"serve",
                                "--address",
                                "127.0.0.1",
                                "--port",
                                p,
                                "--store",
                                store,
                                "--redis",
                                redis,
                                "--instance-id",
                                id,
                                "--public-url",
                                "ws://127.0.0.1:" + p + "/ws",
                                "--message-rate",
                                "100000",
                                "--message-burst",
                                "100000",
                                "--log-level",
                                "info",
                                "--threads",
                                "1"};
  args.insert(args.end(), extra.begin(), extra.end());
  auto process = std::make_unique<child_process>(std::move(args), log);
  REQUIRE_MESSAGE(wait_listening(port, std::chrono::seconds(20)), process->output());
  return process;
}

}  // namespace e2e
