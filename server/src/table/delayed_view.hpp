// What spectators of a room with a spectator delay see: a second game that follows the journal
// `delay` moves behind (all of it once the game is over), and the public view of it last sent.
// Owns that game (on the heap, and only with a delay: a game state is about 1 KB,
// docs/performance.md "Memory") and its view; the room hands it the journal.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/protocol/view_doc.hpp"

namespace carcassonne::server {

class delayed_view {
 public:
  explicit delayed_view(int delay) : delay_(delay > 0 ? static_cast<std::size_t>(delay) : 0) {}

  // A game starts (or is rebuilt at restore) from `start`: followed only with a delay.
  void start(const game_state& start);
  bool active() const { return game_ != nullptr; }

  // Applies the journal's `moves` (record form, accepted once already) up to `delay` behind the
  // last, or all once `finished`; then the view of it anew (the seats named `names`), its diff
  // from the last one appended to `ops` under "/game" (none: not diffed, as for a game that
  // just appeared or a room rebuilt).
  void follow(const std::vector<std::string>& moves, bool finished,
              const std::vector<std::string>& names, std::string* ops);
  // A take-back left the journal behind the game followed: replayed from `start` on.
  void take_back(const game_state& start, const std::vector<std::string>& moves, bool finished);
  bool ahead_of(std::size_t journal) const { return game_ && moves_ > journal; }

  const protocol::view_doc& doc() const { return public_; }
  std::size_t moves() const { return moves_; }

 private:
  void advance(const std::vector<std::string>& moves, bool finished);

  std::size_t delay_;
  std::unique_ptr<game_state> game_;
  std::size_t moves_ = 0;      // journal moves applied
  protocol::view_doc public_;  // last public view sent
};

}  // namespace carcassonne::server
