// The server's bot levels for clients (GET /api/bots, docs/protocol.md "Bot levels"): every level
// a room may seat, the ladder's steps with their place on it, and each level's ratings: its
// account's ("bot-<level>"), on the same scale as the players'.
#include "carcassonne/engine/ladder.hpp"
#include "players/accounts.hpp"
#include "ratings/glicko2.hpp"

namespace carcassonne::server {

namespace {

std::string_view summary_of(bot_level level) {
  if (const auto step = ladder_step_of(level)) return step->summary;
  switch (level) {
    case bot_level::greedy:
      return "the move worth most now";
    case bot_level::strong:
      return "flat Monte Carlo search over turn plans";
    case bot_level::ismcts:
      return "information-set Monte Carlo tree search (the benchmark's reference)";
    default:
      return "a uniformly random legal move";
  }
}

}  // namespace

std::string bot_player_id(bot_level level) {
  std::string id("bot-");  // built in place: GCC 12 sees a false -Wrestrict in "bot-" + ...
  id += name_of(level);
  return id;
}

nlohmann::json bot_level_json(bot_level level, const std::vector<rating_row>& rows) {
  nlohmann::json ratings = nlohmann::json::array();
  for (const auto& row : rows)
    ratings.push_back({{"pool", row.pool},
                       {"rating", row.value.r},
                       {"deviation", row.value.rd},
                       {"provisional", ratings::provisional(row.value)},
                       {"games", row.games}});
  nlohmann::json step;  // null: not a step of the ladder
  for (std::size_t i = 0; i < ladder.size(); ++i)
    if (ladder[i].level == level) step = static_cast<int>(i + 1);
  return {{"level", name_of(level)},
          {"player", bot_player_id(level)},
          {"ladder", std::move(step)},
          {"summary", summary_of(level)},
          {"ratings", std::move(ratings)}};
}

outcome<nlohmann::json> accounts::bot_levels() {
  nlohmann::json levels = nlohmann::json::array();
  for (std::size_t i = 0; i < bot_level_names.size(); ++i) {
    const auto level = static_cast<bot_level>(i);
    std::string error;
    const auto rows = db_->ratings_of(bot_player_id(level), error);
    if (!rows)
      return account_error{503, "storage_failed",
                           "the accounts' database cannot answer now (" + error + ")"};
    levels.push_back(bot_level_json(level, *rows));
  }
  return nlohmann::json{{"levels", std::move(levels)}};
}

}  // namespace carcassonne::server
