#include "table/game_journal.hpp"

#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/record.hpp"

namespace carcassonne::server {

using json = nlohmann::json;

std::optional<game_state> game_at_start(const json& setup) {
  auto parsed = protocol::parse_setup(setup);
  if (!parsed.ok()) return std::nullopt;
  auto g = new_game(parsed.value->setup);
  if (!g.ok()) return std::nullopt;
  return std::move(g.value());
}

std::string replay(const json& setup, const std::vector<std::string>& moves, game_state& game) {
  auto g = game_at_start(setup);
  if (!g) return "the record's setup does not start a game";
  for (std::size_t i = 0; i < moves.size(); ++i)
    if (auto bad = protocol::apply_json_move(*g, protocol::move_json_from_text(moves[i]));
        !bad.code.empty())
      return "move " + std::to_string(i) + ": " + bad.message;
  game = std::move(*g);
  return {};
}

std::string apply_stored_entry(const json& setup, const json& entry, undo_mode undo,
                               game_state& game, game_journal& journal) {
  if (entry.value("type", json()) == "undo") {
    const int count = entry.value("count", 0);
    if (count < 1 || static_cast<std::size_t>(count) > journal.undo_steps.size())
      return "an undo marker without the moves to take back";
    for (int i = 0; i < count; ++i) {
      journal.undo_steps.pop_back();
      journal.moves.pop_back();
    }
    return replay(setup, journal.moves, game);
  }
  if (entry.value("type", json()) == "forfeit") {
    if (auto bad = protocol::apply_json_move(game, entry); !bad.code.empty()) return bad.message;
    journal.undo_steps.clear();
    journal.moves.push_back(entry.dump());
    return {};
  }
  auto m = protocol::move_from_json(entry, game);
  if (!m.ok()) return m.error.message;
  event_log events;
  if (auto st = apply_in_place(game, *m.value, &events); !st) return st.err().message;
  if (undo != undo_mode::off && !reveals_or_scores(events) && !entry.value("timeout", false))
    journal.undo_steps.push_back({*m.value, events});
  else
    journal.undo_steps.clear();
  journal.moves.push_back(entry.dump());
  return {};
}

}  // namespace carcassonne::server
