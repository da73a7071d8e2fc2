// Randomized: many games of random legal moves. Every listed move applies; corrupted moves are
// refused with an error and leave the state untouched; the same seed replays identically.
#include <doctest/doctest.h>

#include <string>

#include "carcassonne/engine/game.hpp"
#include "easter/id.hpp"
#include "easter/options.hpp"
#include "festival/id.hpp"
#include "gifts/id.hpp"
#include "hills_and_sheep/id.hpp"
#include "peasant_revolts/id.hpp"
#include "peasant_revolts/options.hpp"

using namespace carcassonne;

namespace {

// Variations of a legal move that the rules forbid (or that are at least not listed).
std::vector<move> corruptions(const move& m, const game_state& s) {
  std::vector<move> out;
  auto wrong_seat = m;
  wrong_seat.seat = static_cast<seat_t>((m.seat + 1) % s.seats);
  out.push_back(wrong_seat);
  auto rot = m;
  rot.rotation = 4;
  if (m.type == move_type::place_tile) out.push_back(rot);
  auto far = m;
  far.at = {static_cast<std::int16_t>(m.at.x + 200), m.at.y};
  if (m.type != move_type::pass) out.push_back(far);
  auto feature = m;
  feature.feature = max_segments_per_tile;
  if (m.type == move_type::deploy) out.push_back(feature);
  auto shepherd = m;
  shepherd.figure = hills_and_sheep::figure_shepherd;
  if (m.type == move_type::deploy) out.push_back(shepherd);
  auto kind = m;
  kind.type = m.type == move_type::place_tile ? move_type::pass : move_type::place_tile;
  out.push_back(kind);
  auto gift = m;
  gift.type = gifts::move_open_gift;
  out.push_back(gift);
  auto lying = m;  // protection where it is not offered
  lying.protect = true;
  if (m.type == move_type::deploy && !m.protect) out.push_back(lying);
  auto protect = m;
  protect.type = peasant_revolts::move_protect;
  out.push_back(protect);
  auto take_back = m;  // a figure action that is not offered (or another seat's figure)
  take_back.type = festival::move_return_figure;
  if (m.type == move_type::deploy) out.push_back(take_back);
  auto flock = m;
  flock.type = hills_and_sheep::move_flock;
  flock.choice = static_cast<std::uint8_t>(m.choice == 0 ? 2 : 0);
  out.push_back(flock);
  if (m.type == easter::move_bunny) {  // Easter: one hop short, back to the start, one hop more
    auto shorter = m;
    if (shorter.path_length > 1) {
      shorter.path[--shorter.path_length] = {};
      out.push_back(shorter);
    }
    auto home = m;
    home.path[m.path_length - 1] = s.ext.get<easter::state>().bunny;
    out.push_back(home);
    auto longer = m;
    if (longer.path_length < max_bunny_hops) {
      const auto last = m.path[m.path_length - 1];
      longer.path[longer.path_length++] = {static_cast<std::int16_t>(last.x + 1), last.y};
      out.push_back(longer);
    }
  } else {
    auto hop = m;  // a bunny move where no bunny phase is
    hop.type = easter::move_bunny;
    hop.path_length = 1;
    hop.path[0] = m.at;
    out.push_back(hop);
  }
  return out;
}

bool listed(const std::vector<move>& moves, const move& m) {
  for (const auto& l : moves)
    if (l == m) return true;
  return false;
}

// Plays random games of `setup`'s kind for 2..6 players; returns games played and moves refused.
// What the Easter games did (for tests that want rare steps to have happened).
struct easter_stats {
  int bunny_moves = 0;
  int nests = 0;
  bool compact = false;  // place tiles where they have the most neighbours (nests get surrounded)
};

// The placement with the most placed tiles around its square (the first such in list order).
const move* compact_placement(const game_state& s, const std::vector<move>& moves, rng& chooser) {
  const move* best = nullptr;
  int most = -1;
  for (const auto& m : moves) {
    if (m.type != move_type::place_tile) return nullptr;
    int around = 0;
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy)
        around += s.board.tile_at({static_cast<std::int16_t>(m.at.x + dx),
                                   static_cast<std::int16_t>(m.at.y + dy)}) >= 0;
    if (around > most || (around == most && chooser.below(2) == 0)) {
      most = around;
      best = &m;
    }
  }
  return best;
}

std::pair<int, int> random_games(game_setup setup, int per_seat_count, const char* label,
                                 easter_stats* stats = nullptr) {
  rng chooser = rng::from_string(label);
  int games = 0, refused = 0;
  for (int players = 2; players <= 6; ++players) {
    for (int g = 0; g < per_seat_count; ++g) {
      setup.seats = players;
      setup.seed = std::string(label) + "/" + std::to_string(players) + "/" + std::to_string(g);
      auto game = new_game(setup);
      REQUIRE(game.ok());
      game_state s = game.value();
      std::vector<move> moves;
      while (!s.finished) {
        legal_actions(s, moves);
        REQUIRE(!moves.empty());
        const move* compact =
            stats && stats->compact ? compact_placement(s, moves, chooser) : nullptr;
        const auto& m = compact ? *compact : moves[chooser.below(moves.size())];
        for (const auto& bad : corruptions(m, s)) {
          if (listed(moves, bad)) continue;
          const game_state before = s;
          CHECK_FALSE(apply_in_place(s, bad).ok());
          REQUIRE(s == before);
          ++refused;
        }
        // Every listed move applies (checked for a sample to keep the test short).
        if (moves.size() > 1) {
          const auto& other = moves[chooser.below(moves.size())];
          CHECK(apply(s, other).ok());
        }
        event_log events;
        const auto st = apply_in_place(s, m, &events);
        REQUIRE(st.ok());
        if (stats) {
          stats->bunny_moves += m.type == easter::move_bunny;
          for (const auto& e : events) stats->nests += e.type == easter::event_nest_scored;
        }
        REQUIRE(check_invariants(s).ok());
      }
      CHECK(legal_actions(s).empty());
      ++games;
    }
  }
  return {games, refused};
}

}  // namespace

TEST_CASE("random games: listed moves apply, corrupted moves are refused and change nothing") {
  const auto [games, refused] = random_games(game_setup{}, 6, "rg");
  CHECK(games == 30);
  CHECK(refused > 1000);
}

TEST_CASE("random games with Hills & Sheep, under every option value") {
  int games = 0;
  for (int variant = 0; variant < 4; ++variant) {
    game_setup setup;
    setup.expansions.add(hills_and_sheep::id);
    REQUIRE(
        setup.options
            .set("hills.tiebreak", std::string_view(variant & 1 ? "count_on_hill" : "any_on_hill"))
            .ok());
    REQUIRE(
        setup.options
            .set("sheep.closed_field", std::string_view(variant & 2 ? "wait" : "score_immediately"))
            .ok());
    if (variant == 3) REQUIRE(setup.options.set("hills.under_tile", std::string_view("none")).ok());
    const auto [played, refused] = random_games(setup, 1, ("hs" + std::to_string(variant)).c_str());
    games += played;
    CHECK(refused > 200);
  }
  CHECK(games == 20);
}

TEST_CASE("random games with the Peasant Revolts, alone and with the others") {
  int games = 0;
  for (int variant = 0; variant < 3; ++variant) {
    game_setup setup;
    setup.expansions.add(peasant_revolts::id);
    if (variant >= 1) {
      setup.expansions.add(hills_and_sheep::id);
      setup.expansions.add(festival::id);
    }
    if (variant == 2)
      REQUIRE(setup.options.set("revolts.protect_for_2", std::string_view("no_follower_deployed"))
                  .ok());
    const auto [played, refused] = random_games(setup, 1, ("pr" + std::to_string(variant)).c_str());
    games += played;
    CHECK(refused > 200);
  }
  CHECK(games == 15);
}

TEST_CASE("random games with the Gifts, alone and with the others") {
  int games = 0;
  for (int variant = 0; variant < 3; ++variant) {
    game_setup setup;
    setup.expansions.add(gifts::id);
    if (variant >= 1) {
      setup.expansions.add(hills_and_sheep::id);
      setup.expansions.add(peasant_revolts::id);
      setup.expansions.add(festival::id);
    }
    if (variant == 2) {
      REQUIRE(setup.options.set("gifts.receipt_owners", std::string_view("followers_only")).ok());
      REQUIRE(setup.options.set("revolts.extra_draws_trigger", false).ok());
    }
    const auto [played, refused] = random_games(setup, 1, ("gi" + std::to_string(variant)).c_str());
    games += played;
    CHECK(refused > 200);
  }
  CHECK(games == 15);
}

TEST_CASE("random games with all five expansions together") {
  game_setup setup;
  for (int e = 0; e < player_expansion_count; ++e) setup.expansions.add(static_cast<expansion>(e));
  const auto [played, refused] = random_games(setup, 1, "all5");
  CHECK(played == 5);
  CHECK(refused > 200);
  REQUIRE(setup.options.set("easter.variant", std::string_view("original")).ok());
  REQUIRE(setup.options.set("festival.shepherd_flock", std::string_view("stays")).ok());
  REQUIRE(setup.options.set("hills.tiebreak", std::string_view("count_on_hill")).ok());
  CHECK(random_games(setup, 1, "all5-options").first == 5);
}

TEST_CASE("random games with the Festival, alone and with Hills & Sheep") {
  int games = 0;
  for (int variant = 0; variant < 4; ++variant) {
    game_setup setup;
    setup.expansions.add(festival::id);
    if (variant >= 1) setup.expansions.add(hills_and_sheep::id);
    if (variant == 2)
      REQUIRE(setup.options.set("festival.shepherd_flock", std::string_view("stays")).ok());
    if (variant == 3)
      REQUIRE(setup.options.set("festival.return_scope", std::string_view("followers_only")).ok());
    const auto [played, refused] = random_games(setup, 1, ("fe" + std::to_string(variant)).c_str());
    games += played;
    CHECK(refused > 200);
  }
  CHECK(games == 20);
}

TEST_CASE("random games with Easter, alone and with Hills & Sheep and the Festival") {
  int games = 0;
  easter_stats stats;
  for (int variant = 0; variant < 6; ++variant) {
    game_setup setup;
    setup.expansions.add(easter::id);
    const auto set = [&](const char* name, const char* value) {
      REQUIRE(setup.options.set(name, std::string_view(value)).ok());
    };
    if (variant == 1) {
      set("easter.variant", "original");
      set("easter.nest_timing", "during_scoring");
    }
    if (variant == 2) {
      setup.expansions.add(hills_and_sheep::id);
      set("easter.hops", "fixed_2");
      set("easter.second_place", "competition");
      REQUIRE(setup.options.set("easter.shepherd_eggs", false).ok());
    }
    if (variant == 3) {
      setup.expansions.add(hills_and_sheep::id);
      setup.expansions.add(festival::id);
      set("easter.variant", "original");
    }
    if (variant == 4) setup.expansions.add(festival::id);
    if (variant == 5) {  // compact boards: nests get surrounded, also by nests placed into holes
      set("easter.nest_timing", "during_scoring");
      setup.expansions.add(hills_and_sheep::id);
    }
    stats.compact = variant == 5;
    const auto [played, refused] =
        random_games(setup, 1, ("ea" + std::to_string(variant)).c_str(), &stats);
    games += played;
    CHECK(refused > 200);
  }
  CHECK(games == 30);
  CHECK(stats.bunny_moves > 100);
  CHECK(stats.nests > 10);
}

TEST_CASE("the same seed and moves give the same state; another seed another deck") {
  auto play = [](const std::string& seed) {
    game_setup setup;
    setup.seed = seed;
    game_state s = new_game(setup).value();
    rng chooser(7);
    while (!s.finished) {
      const auto moves = legal_actions(s);
      REQUIRE(apply_in_place(s, moves[chooser.below(moves.size())]).ok());
    }
    return s;
  };
  const auto a = play("same"), b = play("same"), c = play("other");
  CHECK(a == b);
  CHECK_FALSE(a.supply == c.supply);
  // A seeded base game uses all 71 tiles of the supply.
  CHECK(a.supply.size() == 71);
  CHECK(a.board.placed().size() + a.discarded.size() == 72);
}

TEST_CASE("apply (value form) leaves the input untouched and returns events") {
  game_setup setup;
  setup.seed = "value";
  const game_state s = new_game(setup).value();
  const auto moves = legal_actions(s);
  REQUIRE(!moves.empty());
  auto next = apply(s, moves.front());
  REQUIRE(next.ok());
  CHECK(s.awaiting == decision::place_tile);
  CHECK_FALSE(next->state == s);
  REQUIRE(!next->events.empty());
  CHECK(next->events.front().type == event_type::tile_placed);
}

TEST_CASE("setup errors") {
  game_setup setup;
  setup.seats = 1;
  CHECK(new_game(setup).err().code == error_code::bad_seat_count);
  setup.seats = 7;
  CHECK(new_game(setup).err().code == error_code::bad_seat_count);
  setup.seats = 2;
  setup.script.deck = std::vector<tile_type_id>{*tiles().find("HS/RR.h")};
  CHECK(new_game(setup).err().code == error_code::tile_not_in_play);
  // Every expansion has its module: none is refused with unsupported_expansion any more.
  for (int e = 0; e < expansion_count; ++e) {
    game_setup with_one;
    with_one.expansions.add(static_cast<expansion>(e));
    CHECK(new_game(with_one).ok());
  }
}

TEST_CASE("rule options: names, values, booleans") {
  rule_options o;
  CHECK(easter::variant_option(o) == easter::variant_rule::hig);
  CHECK(peasant_revolts::extra_draws_revolt(o));
  CHECK(o.set("easter.variant", std::string_view("original")).ok());
  CHECK(easter::variant_option(o) == easter::variant_rule::original);
  CHECK(o.set("revolts.extra_draws_trigger", false).ok());
  CHECK(!peasant_revolts::extra_draws_revolt(o));
  CHECK(o.set("revolts.extra_draws_trigger", true).ok());
  CHECK(peasant_revolts::extra_draws_revolt(o));
  CHECK(o.set("nope", true).err().code == error_code::unknown_option);
  CHECK(o.set("easter.variant", std::string_view("x")).err().code == error_code::bad_option_value);
  CHECK(o.set("easter.variant", true).err().code == error_code::bad_option_value);
  CHECK(o.set("easter.shepherd_eggs", std::string_view("true")).err().code ==
        error_code::bad_option_value);
}
