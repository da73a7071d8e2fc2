#include "game_options.hpp"

#include <sstream>

namespace carcassonne::app {

bool parse_count(const std::string& text, long long lo, long long hi, long long& out) {
  try {
    std::size_t used = 0;
    out = std::stoll(text, &used);
    return used == text.size() && out >= lo && out <= hi;
  } catch (...) {
    return false;
  }
}

option_read read_game_option(std::span<const std::string> args, std::size_t& i, game_options& o,
                             std::string_view command, long long min_games, std::ostream& err) {
  if (i + 1 >= args.size()) return option_read::not_shared;
  const std::string& name = args[i];
  if (name == "--games") {
    if (!parse_count(args[++i], min_games, 100'000'000, o.games)) {
      err << "carcassonne " << command << ": --games takes a "
          << (min_games > 0 ? "positive number" : "number") << "\n";
      return option_read::failed;
    }
  } else if (name == "--players") {
    if (!parse_count(args[++i], min_seats, max_seats, o.players)) {
      err << "carcassonne " << command << ": --players takes 2 to 6\n";
      return option_read::failed;
    }
  } else if (name == "--seed") {
    o.seed = args[++i];
  } else if (name == "--expansions") {
    std::stringstream list(args[++i]);
    for (std::string e_name; std::getline(list, e_name, ',');) {
      if (e_name.empty() || e_name == "base") continue;
      const auto e = find_expansion(e_name);
      if (!e) {
        err << "carcassonne " << command << ": unknown expansion '" << e_name << "'\n";
        return option_read::failed;
      }
      o.setup.expansions.add(*e);
      o.expansion_list.push_back(e_name);
    }
  } else {
    return option_read::not_shared;
  }
  return option_read::taken;
}

}  // namespace carcassonne::app
