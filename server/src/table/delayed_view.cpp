#include "table/delayed_view.hpp"

#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/view.hpp"

namespace carcassonne::server {

void delayed_view::start(const game_state& start) {
  if (delay_ == 0) return;
  game_ = std::make_unique<game_state>(start);
  moves_ = 0;
}

void delayed_view::advance(const std::vector<std::string>& moves, bool finished) {
  if (!game_) return;
  const std::size_t target =
      finished ? moves.size() : (moves.size() > delay_ ? moves.size() - delay_ : 0);
  while (moves_ < target) {
    (void)protocol::apply_json_move(  // accepted once already
        *game_, protocol::move_json_from_text(moves[moves_]));
    ++moves_;
  }
}

void delayed_view::follow(const std::vector<std::string>& moves, bool finished,
                          const std::vector<std::string>& names, std::string* ops) {
  if (!game_) return;
  advance(moves, finished);
  auto now = protocol::public_doc(*game_, names);
  if (ops) protocol::diff_docs(public_, now, "/game", *ops);
  public_ = std::move(now);
}

void delayed_view::take_back(const game_state& start, const std::vector<std::string>& moves,
                             bool finished) {
  if (!game_) return;
  *game_ = start;
  moves_ = 0;
  advance(moves, finished);
}

}  // namespace carcassonne::server
