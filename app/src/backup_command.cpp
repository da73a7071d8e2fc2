// `carcassonne backup DEST [--data-dir DIR]`: a consistent copy of the server's database, taken
// while the server runs (docs/hosting.md, "Backup").
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include <nlohmann/json.hpp>

#include "base/config.hpp"
#include "carcassonne/app/commands.hpp"
#include "store/store.hpp"

namespace carcassonne::app {

int run_backup(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  server::config c;
  if (const char* dir = std::getenv("CARCASSONNE_DATA_DIR"); dir && *dir) c.data_dir = dir;
  std::string dest;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--data-dir" && i + 1 < args.size())
      c.data_dir = args[++i];
    else if (dest.empty() && !args[i].starts_with("--"))
      dest = args[i];
    else
      dest.clear(), i = args.size();
  }
  if (dest.empty()) {
    err << "usage: carcassonne backup DEST [--data-dir DIR]   (DIR: CARCASSONNE_DATA_DIR, default "
           "data)\n";
    return 1;
  }
  if (!std::filesystem::exists(c.database_path())) {
    err << "carcassonne backup: no database at " << c.database_path() << "\n";
    return 1;
  }
  std::size_t rooms = 0;
  std::string error;
  if (!server::store::backup(c.database_path(), dest, rooms, error)) {
    err << "carcassonne backup: " << error << "\n";
    return 1;
  }
  out << nlohmann::json{{"database", c.database_path()},
                        {"backup", dest},
                        {"rooms", rooms},
                        {"bytes", std::filesystem::file_size(dest)}}
             .dump()
      << "\n";
  return 0;
}

}  // namespace carcassonne::app
