// The store's test suite runs against both databases: each backend gives fresh, empty store
// locations (an SQLite file in a temporary directory, or a new database on a private PostgreSQL
// server started once per test binary). When PostgreSQL cannot run here, only SQLite is listed
// and a message says why.
#pragma once
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "private_postgres.hpp"

namespace carcassonne::testing {

struct store_backend {
  std::string name;
  std::function<std::string()> fresh;  // an empty store's location, for store_options::path
};

inline private_postgres* shared_postgres() {
  static std::string why;
  static std::unique_ptr<private_postgres> pg = [] {
    auto p = std::make_unique<private_postgres>();
    if (!p->start(why)) p.reset();
    return p;
  }();
  if (!pg) MESSAGE("PostgreSQL cases skipped: " << why);
  return pg.get();
}

inline std::vector<store_backend> store_backends() {
  namespace fs = std::filesystem;
  std::vector<store_backend> out;
  out.push_back({"sqlite", [] {
                   static int n = 0;
                   const auto dir = fs::temp_directory_path() /
                                    ("carcassonne-backend-" + std::to_string(::getpid()) + "-" +
                                     std::to_string(++n));
                   fs::remove_all(dir);
                   // Removed when the binary exits; each location is small.
                   static std::vector<fs::path> made;
                   static struct cleanup {
                     ~cleanup() {
                       for (const auto& d : made) fs::remove_all(d);
                     }
                   } at_exit;
                   made.push_back(dir);
                   return (dir / "carcassonne.db").string();
                 }});
  if (auto* pg = shared_postgres())
    out.push_back({"postgresql", [pg] { return pg->fresh_database(); }});
  return out;
}

}  // namespace carcassonne::testing
