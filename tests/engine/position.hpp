// Test helper: sets a position up directly (shared/rules/examples.md allows it), keeping every
// invariant of the state so that apply's debug checks still hold.
#pragma once
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/engine/scoring.hpp"
#include "easter/id.hpp"
#include "hills_and_sheep/id.hpp"
#include "turn.hpp"

namespace carcassonne::testing {

inline tile_type_id tile_id(const std::string& id) {
  auto t = tiles().find(id);
  REQUIRE_MESSAGE(t.has_value(), "unknown tile " << id);
  return *t;
}

inline std::uint8_t quarter(int degrees) {
  return static_cast<std::uint8_t>(degrees / 90);
}

struct position {
  game_state s;

  // A game of `seats` whose scripted supply is `deck` (the first entry is drawn at once).
  explicit position(int seats, const std::vector<std::string>& deck = {"BA/RFr", "BA/RFr"})
      : position(game_setup{.seats = seats}, deck) {}

  // The same with expansions, options or scripted draws set in `setup` (its deck is replaced).
  position(game_setup setup, const std::vector<std::string>& deck) {
    std::vector<tile_type_id> ids;
    for (const auto& d : deck) ids.push_back(tile_id(d));
    setup.script.deck = ids;
    auto g = new_game(setup);
    REQUIRE(g.ok());
    s = g.value();
  }

  // Puts a tile on the board as if drawn and placed earlier (it does not use the scripted deck).
  position& tile(int x, int y, const std::string& id, int degrees) {
    const auto type = tile_id(id);
    const square_pos p{static_cast<std::int16_t>(x), static_cast<std::int16_t>(y)};
    const int open = s.board.open_at(p);
    REQUIRE_MESSAGE(open >= 0, "square (" << x << "," << y << ") is not open");
    REQUIRE_MESSAGE(board::fits(s.board.open()[open], tiles()[type], quarter(degrees)),
                    id << "@" << degrees << " does not fit at (" << x << "," << y << ")");
    // Account for it as a tile drawn before the current one.
    const bool drawn_pending = s.awaiting == decision::place_tile;
    s.supply.insert(s.supply.begin() + s.next_draw - (drawn_pending ? 1 : 0), type);
    ++s.next_draw;
    mark_completed(detail::join_tile(s, p, type, quarter(degrees)));
    return *this;
  }

  // What step 11 would have done when that tile was really placed: a road or city it closed and
  // a monastery it surrounded are completed (farms count such cities; nothing can join them).
  void mark_completed(int index) {
    const auto& pt = s.board.placed()[index];
    const auto& t = tiles()[pt.type];
    for (std::size_t i = 0; i < t.segments.size(); ++i) {
      if (t.segments[i].kind != feature_kind::road && t.segments[i].kind != feature_kind::city)
        continue;
      auto& d = s.features.data(s.features.root(static_cast<segment_t>(pt.first_segment + i)));
      if (d.open == 0) d.scored = true;
    }
    for (const auto& other : s.board.placed()) {
      const int m = tiles()[other.type].monastery;
      if (m >= 0 && other.surrounding == 8)
        s.features.data(static_cast<segment_t>(other.first_segment + m)).scored = true;
    }
  }

  // Puts a follower of `seat` on a feature of the tile at (x, y).
  position& follower(int seat, int x, int y, const std::string& feature) {
    const int t = s.board.tile_at({static_cast<std::int16_t>(x), static_cast<std::int16_t>(y)});
    REQUIRE(t >= 0);
    const auto& pt = s.board.placed()[t];
    const auto local = tiles()[pt.type].segment_index(feature);
    REQUIRE_MESSAGE(local.has_value(), "no feature " << feature);
    const auto seg = static_cast<segment_t>(pt.first_segment + *local);
    s.figures.push_back(figure_on_board{static_cast<seat_t>(seat), figure_type::meeple, seg});
    ++s.features.data(s.features.root(seg)).followers[seat];
    --s.players[seat].followers;
    return *this;
  }

  position& score(int seat, int points) {
    s.players[seat].score = points;
    return *this;
  }

  // Makes `seat` the one to place the drawn tile.
  position& to_move(int seat) {
    s.active = static_cast<seat_t>(seat);
    s.deciding = s.active;
    return *this;
  }

  // The feature (root segment) of a tile's segment.
  segment_t feature(int x, int y, const std::string& id) const {
    const int t = s.board.tile_at({static_cast<std::int16_t>(x), static_cast<std::int16_t>(y)});
    REQUIRE(t >= 0);
    const auto& pt = s.board.placed()[t];
    return s.features.root(
        static_cast<segment_t>(pt.first_segment + *tiles()[pt.type].segment_index(id)));
  }

  // Plays a move that must be legal; returns its events.
  event_log play(const move& m) {
    event_log events;
    auto st = apply_in_place(s, m, &events);
    REQUIRE_MESSAGE(st.ok(), (st.ok() ? std::string() : st.err().message));
    return events;
  }
  // Moves of the seat to act (rotation in degrees, feature by its tile-local id).
  move place_move(int x, int y, int degrees) const {
    return move{.type = move_type::place_tile,
                .seat = s.active,
                .at = {static_cast<std::int16_t>(x), static_cast<std::int16_t>(y)},
                .rotation = quarter(degrees)};
  }
  move deploy_move(int x, int y, const std::string& feature) const {
    const int t = s.board.tile_at({static_cast<std::int16_t>(x), static_cast<std::int16_t>(y)});
    REQUIRE(t >= 0);
    const auto local = tiles()[s.board.placed()[t].type].segment_index(feature);
    REQUIRE(local.has_value());
    return move{.type = move_type::deploy,
                .seat = s.active,
                .at = {static_cast<std::int16_t>(x), static_cast<std::int16_t>(y)},
                .feature = static_cast<std::uint8_t>(*local)};
  }
  move pass_move() const { return move{.type = move_type::pass, .seat = s.active}; }
  move shepherd_move(int x, int y, const std::string& feature) const {
    auto m = deploy_move(x, y, feature);
    m.figure = hills_and_sheep::figure_shepherd;
    return m;
  }
  // Hills & Sheep: Grow (expand) or Gather (herd).
  move flock_move(bool herd) const {
    return move{.type = hills_and_sheep::move_flock,
                .seat = s.active,
                .choice = static_cast<std::uint8_t>(herd)};
  }
  // Easter: the seat whose go it is moves the bunny along `path` (the squares landed on).
  move bunny_move(const std::vector<std::pair<int, int>>& path) const {
    move m{.type = easter::move_bunny, .seat = s.deciding};
    REQUIRE(path.size() <= static_cast<std::size_t>(max_bunny_hops));
    for (const auto& [x, y] : path)
      m.path[m.path_length++] = {static_cast<std::int16_t>(x), static_cast<std::int16_t>(y)};
    return m;
  }

  event_log place(int x, int y, int degrees) { return play(place_move(x, y, degrees)); }
  event_log deploy(int x, int y, const std::string& feature) {
    return play(deploy_move(x, y, feature));
  }
  event_log pass() { return play(pass_move()); }

  // Plays a move that must be refused: returns its error code and checks that s is unchanged.
  error_code refused(const move& m) {
    const game_state before = s;
    auto st = apply_in_place(s, m);
    REQUIRE_FALSE(st.ok());
    CHECK(s == before);
    return st.err().code;
  }

  int score_of(int seat) const { return s.players[seat].score; }
  int supply_of(int seat) const { return s.players[seat].followers; }
};

// Whether m is among the legal moves of s.
inline bool legal(const game_state& s, const move& m) {
  for (const auto& l : legal_actions(s))
    if (l == m) return true;
  return false;
}

// shared/rules/examples.md EX-03: three players, the supply holds one last tile (BA/L).
inline position ex03_position() {
  position p(3, {"BA/L"});
  p.tile(0, -1, "BA/C", 180)
      .tile(1, 0, "BA/RFr", 0)
      .tile(1, -1, "BA/Cc+", 90)
      .tile(0, 1, "BA/L", 0);
  p.follower(0, 1, 0, "road0").follower(0, 0, -1, "field0");
  p.follower(1, 1, -1, "city0").follower(2, 0, 1, "monastery0");
  return p;
}

}  // namespace carcassonne::testing
