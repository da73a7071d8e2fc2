// A fresh directory for a test's database, removed at the end (its name carries the process id
// and a counter, so that parallel runs and several directories per test never meet).
#pragma once
#include <unistd.h>

#include <filesystem>
#include <string>

namespace carcassonne::server::test {

struct temp_dir {
  std::filesystem::path path;
  explicit temp_dir(const std::string& prefix = "carcassonne-test") {
    static int n = 0;
    path = std::filesystem::temp_directory_path() /
           (prefix + "-" + std::to_string(::getpid()) + "-" + std::to_string(++n));
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~temp_dir() { std::filesystem::remove_all(path); }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  std::string db() const { return (path / "carcassonne.db").string(); }
};

}  // namespace carcassonne::server::test
