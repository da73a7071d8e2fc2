#include "table/replay_view.hpp"

#include "carcassonne/protocol/record.hpp"
#include "carcassonne/protocol/view.hpp"

namespace carcassonne::server {

std::optional<replay_frame> replay_to(const nlohmann::json& record, std::size_t move,
                                      protocol::proto_error& error) {
  using nlohmann::json;
  auto parsed = protocol::parse_setup(record.value("setup", json::object()));
  if (!parsed.ok()) return error = parsed.error, std::nullopt;
  const auto& moves = record.value("moves", json::array());
  if (move > moves.size()) {
    error = {"bad_message", "the game has " + std::to_string(moves.size()) + " moves"};
    return std::nullopt;
  }
  event_log events;
  auto g = new_game(parsed.value->setup, &events);
  if (!g.ok()) return error = protocol::from_engine(g.err()), std::nullopt;
  game_state& state = g.value();
  for (std::size_t i = 0; i < move; ++i) {
    events.clear();
    if (auto e = protocol::apply_json_move(state, moves[i], &events); !e.code.empty())
      return error = e, std::nullopt;
  }
  replay_frame out;
  out.moves = moves.size();
  const auto mine = protocol::private_doc(state, protocol::spectator);
  out.game = json::parse(protocol::public_doc(state, parsed.value->names).text(&mine));
  out.events = json::array();
  for (const auto& e : events) out.events.push_back(protocol::event_to_json(e));
  return out;
}

}  // namespace carcassonne::server
