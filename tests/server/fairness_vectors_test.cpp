// docs/fairness.md's test vectors for each kind of draw, recomputed by the engine itself from the
// rows printed on the page (so the page cannot drift from the code), and docs/randomness.md's
// claim that the supply before its shuffle is /api/tiles in the order served.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <span>
#include <sstream>

#include "carcassonne/engine/rng.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "carcassonne/protocol/random_outcomes.hpp"
#include "carcassonne/protocol/record.hpp"
#include "fairness/fairness.hpp"
#include "gifts/id.hpp"
#include "gifts/state.hpp"
#include "transport/static_files.hpp"

using namespace carcassonne;
using namespace carcassonne::server;
using nlohmann::json;

namespace {

std::string source_text(const std::string& path) {
  std::ifstream f(std::string(CARCASSONNE_SOURCE_DIR) + "/" + path, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// The rows `| `kind` | `input` | `output` |` of docs/fairness.md, as (kind, input, output).
struct vector_row {
  std::string kind;
  json input, output;
};
std::vector<vector_row> draw_vectors() {
  std::stringstream doc(source_text("docs/fairness.md"));
  std::vector<vector_row> rows;
  for (std::string line; std::getline(doc, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    for (std::size_t at = line.find('`'); at != std::string::npos;) {
      const auto end = line.find("` |", at + 1);
      if (end == std::string::npos) break;
      cells.push_back(line.substr(at + 1, end - at - 1));
      at = line.find('`', end + 3);
    }
    if (cells.size() != 3 || (cells[0] != "setup" && cells[0] != "game" && cells[0] != "reshuffle"))
      continue;
    rows.push_back(
        {cells[0], json::parse(cells[1], nullptr, false), json::parse(cells[2], nullptr, false)});
  }
  return rows;
}

json supply_ids(std::span<const tile_type_id> ids) {
  json out = json::array();
  for (auto t : ids) out.push_back(tiles()[t].id);
  return out;
}

// `setup`: the seed from a secret and nonces, then the game's start: the tiles set aside, the
// gift deck (top first) and the supply in draw order.
json setup_vector(const json& in) {
  json out;
  const auto nonces = in["nonces"].get<std::vector<std::string>>();
  out["seed"] = fairness::derive_seed(in["secret"].get<std::string>(), nonces);
  json setup{{"players", json::array()}, {"expansions", in["expansions"]}, {"seed", out["seed"]}};
  for (std::size_t i = 0; i < nonces.size(); ++i)
    setup["players"].push_back({{"name", "P" + std::to_string(i)}});
  const auto parsed = protocol::parse_setup(setup);
  REQUIRE(parsed.ok());
  event_log events;
  auto g = new_game(parsed.value->setup, &events);
  REQUIRE(g.ok());
  const auto& s = g.value();
  out["start"] = protocol::random_outcomes(s, events, true);
  if (s.expansions.has(gifts::id)) {
    auto deck = s.ext.get<gifts::state>().deck;
    std::reverse(deck.begin(), deck.end());
    out["gift_deck"] = json::array();
    for (auto c : deck) out["gift_deck"].push_back(gifts::card_names[c]);
  }
  out["supply_size"] = s.supply.size();
  const auto first = in.value("supply", std::size_t{8});
  out["supply"] = supply_ids(std::span(s.supply).first(std::min(first, s.supply.size())));
  return out;
}

// `game`: a record of tests/records (its seed replaced and script lists dropped when asked), its
// first `moves` moves and then `append`; the outcome lists from move `from` on that are not
// empty. With `take2`, the last move places the tile chosen after a Take 2: also where the
// leftover went (k of the tiles still to draw come before it).
json game_vector(const json& in) {
  const auto record = json::parse(source_text(in["record"].get<std::string>()));
  json setup = record["setup"];
  if (in.contains("seed")) setup["seed"] = in["seed"];
  for (const auto& key : in.value("drop", json::array()))
    setup["script"].erase(key.get<std::string>());
  if (setup.contains("script") && setup["script"].empty()) setup.erase("script");
  const auto parsed = protocol::parse_setup(setup);
  REQUIRE(parsed.ok());
  std::vector<json> moves(record["moves"].begin(), record["moves"].begin() + in.value("moves", 0));
  for (const auto& m : in.value("append", json::array())) moves.push_back(m);
  event_log events;
  auto g = new_game(parsed.value->setup, &events);
  REQUIRE(g.ok());
  game_state& s = g.value();
  json out{{"outcomes", json::object()}};
  const auto from = in.value("from", std::size_t{0});
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const bool last = i + 1 == moves.size();
    const game_state before = s;
    events.clear();
    const auto e = protocol::apply_json_move(s, moves[i], &events);
    REQUIRE_MESSAGE(e.code.empty(), "move " << i << ": " << e.message);
    const auto list = protocol::random_outcomes(s, events, false);
    if (i >= from && !list.empty()) out["outcomes"][std::to_string(i)] = list;
    if (last && in.value("take2", false)) {
      const auto& st = before.ext.get<gifts::state>();
      REQUIRE(st.extra >= 0);
      const auto left = static_cast<std::uint64_t>(before.tiles_left());
      auto random = before.random;  // the return is the apply's first use of the generator
      const auto k = random.below(left + 1);
      // The leftover left the drawn part (one index down), then the next turn drew a tile.
      const auto at = static_cast<std::size_t>(before.next_draw - 1 + k);
      REQUIRE(at < s.supply.size());
      CHECK(s.supply[at] == static_cast<tile_type_id>(st.extra));
      out["take2"] = {
          {"leftover", tiles()[static_cast<tile_type_id>(st.extra)].id}, {"left", left}, {"k", k}};
    }
  }
  return out;
}

// `reshuffle`: the Gifts' discard pile (cards in the order opened) shuffled by a generator fresh
// from `seed`, as the module shuffles it, then dealt from the top (the last element).
json reshuffle_vector(const json& in) {
  std::vector<std::uint8_t> pile;
  for (const auto& c : in["discard"]) {
    const auto k = std::find(gifts::card_names.begin(), gifts::card_names.end(), c);
    REQUIRE(k != gifts::card_names.end());
    pile.push_back(static_cast<std::uint8_t>(k - gifts::card_names.begin()));
  }
  auto random = rng::from_string(in["seed"].get<std::string>());
  random.shuffle(std::span<std::uint8_t>(pile));
  json deck = json::array();
  for (auto it = pile.rbegin(); it != pile.rend(); ++it) deck.push_back(gifts::card_names[*it]);
  return {{"deck", deck}};
}

}  // namespace

TEST_CASE("docs/fairness.md: every draw vector is what the engine computes") {
  const auto rows = draw_vectors();
  std::string shown;  // every output, to see that each kind of draw has a vector
  for (const auto& row : rows) {
    CAPTURE(row.kind);
    CAPTURE(row.input.dump());
    REQUIRE_FALSE(row.input.is_discarded());
    REQUIRE_FALSE(row.output.is_discarded());
    json got;
    if (row.kind == "setup")
      got = setup_vector(row.input);
    else if (row.kind == "game")
      got = game_vector(row.input);
    else if (row.kind == "reshuffle")
      got = reshuffle_vector(row.input);
    else
      FAIL("unknown vector kind " << row.kind);
    CHECK_MESSAGE(got == row.output, got.dump());
    shown += row.kind + ' ' + row.output.dump();
  }
  for (const char* kind : {"\"tile\"", "\"hill\"", "\"set_aside\"", "\"gift\"", "\"gift_deck\"",
                           "\"die\"", "\"sheep\":\"wolf\"", "\"bag\"", "\"take2\"", "reshuffle"}) {
    CAPTURE(kind);
    CHECK(shown.find(kind) != std::string::npos);
  }
}

TEST_CASE("docs/randomness.md: the supply is /api/tiles in the order served, then shuffled") {
  const auto file = find_static_file("/api/tiles", "");
  REQUIRE(file);
  const auto catalogue = json::parse(file->content);
  // Without the Gifts and the Peasant Revolts the supply's shuffle is the generator's first use.
  for (const auto& sets :
       {json::array({"base"}), json::array({"base", "hills_and_sheep", "festival", "easter"})}) {
    CAPTURE(sets.dump());
    std::vector<tile_type_id> supply;
    for (const auto& t : catalogue["tiles"]) {
      if (std::find(sets.begin(), sets.end(), t["set"]) == sets.end()) continue;
      const int copies = t["count"].get<int>() - t.value("start", 0);
      for (int i = 0; i < copies; ++i) supply.push_back(*tiles().find(t["id"].get<std::string>()));
    }
    auto random = rng::from_string("api-tiles");
    random.shuffle(std::span<tile_type_id>(supply));
    json expansions = json::array();
    for (const auto& x : sets)
      if (x != "base") expansions.push_back(x);
    const auto parsed = protocol::parse_setup({{"players", {{{"name", "A"}}, {{"name", "B"}}}},
                                               {"expansions", expansions},
                                               {"seed", "api-tiles"}});
    REQUIRE(parsed.ok());
    auto g = new_game(parsed.value->setup);
    REQUIRE(g.ok());
    CHECK(g.value().supply == supply);
  }
}
