// The tile catalogue compiled into the binary: counts per set as in tiles.md, geometry sanity,
// rotations, and equality with the shared reference (../shared: skipped where it is absent).
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <bit>
#include <filesystem>
#include <fstream>
#include <map>

#include "carcassonne/engine/tiles.hpp"
#include "easter/vocabulary.hpp"
#include "festival/vocabulary.hpp"
#include "hills_and_sheep/vocabulary.hpp"
#include "peasant_revolts/vocabulary.hpp"

using namespace carcassonne;

TEST_CASE("tile counts per set match tiles.md") {
  std::map<std::string, std::pair<int, int>> per_set;  // types, tiles
  int pennants_base = 0, monasteries_base = 0;
  for (const auto& t : tiles().types()) {
    auto& [types, count] = per_set[tiles().set_names()[t.set]];
    ++types;
    count += t.count;
    if (t.set == base_tile_set) {
      pennants_base += t.pennants * t.count;
      monasteries_base += (t.monastery >= 0) * t.count;
    }
  }
  CHECK(per_set["base"] == std::pair{24, 72});
  CHECK(per_set["hills_and_sheep"] == std::pair{16, 18});
  CHECK(per_set["festival"] == std::pair{10, 10});
  CHECK(per_set["peasant_revolts"] == std::pair{12, 12});
  CHECK(per_set["easter"] == std::pair{22, 22});
  // The sets of engine/data/tiles come first, in supply order; a test's expansion may add more.
  const std::vector<std::string> embedded{"base", "hills_and_sheep", "festival", "peasant_revolts",
                                          "easter"};
  REQUIRE(tiles().set_names().size() >= embedded.size());
  CHECK(std::vector<std::string>(tiles().set_names().begin(), tiles().set_names().begin() + 5) ==
        embedded);
  CHECK(pennants_base == 10);
  CHECK(monasteries_base == 6);
  CHECK(tiles()[tiles().start_tile()].id == "BA/RCr");
}

TEST_CASE("symbols per expansion") {
  int hills = 0, vineyards = 0, festivals = 0, nests = 0, bunnies = 0;
  int revolt_cities = 0, revolt_roads = 0, revolt_monasteries = 0;
  for (const auto& t : tiles().types()) {
    hills += t.has(hills_and_sheep::symbol_hill) * t.count;
    vineyards += t.has(hills_and_sheep::symbol_vineyard) * t.count;
    festivals += t.has(festival::symbol_festival) * t.count;
    nests += t.has(easter::symbol_nest);
    bunnies += t.has(easter::symbol_bunny);
    revolt_cities += t.has(peasant_revolts::symbol_revolt_city);
    revolt_roads += t.has(peasant_revolts::symbol_revolt_road);
    revolt_monasteries += t.has(peasant_revolts::symbol_revolt_monastery);
  }
  CHECK(hills == 8);
  CHECK(vineyards == 8);
  CHECK(festivals == 10);
  CHECK(nests == 10);
  CHECK(bunnies == 12);
  CHECK(revolt_cities == 5);
  CHECK(revolt_roads == 4);
  CHECK(revolt_monasteries == 3);
}

TEST_CASE("every edge is covered consistently with its side kind") {
  for (const auto& t : tiles().types()) {
    CAPTURE(t.id);
    for (int e = 0; e < 4; ++e) {
      const auto& segs = t.edge_segments[e];
      if (t.sides[e] == side_kind::field) {
        CHECK(segs[0] < 0);
      } else {
        REQUIRE(segs[0] >= 0);
        const auto kind = t.sides[e] == side_kind::city ? feature_kind::city : feature_kind::road;
        CHECK(t.segments[segs[0]].kind == kind);
      }
      // Each half of a road or field edge belongs to exactly one field; city halves to none.
      for (int k = 0; k < 2; ++k) {
        const int h = 2 * e + k;
        if (t.sides[e] == side_kind::city) {
          CHECK(t.half_segment[h] < 0);
        } else {
          REQUIRE(t.half_segment[h] >= 0);
          CHECK(t.segments[t.half_segment[h]].kind == feature_kind::field);
        }
      }
    }
  }
}

TEST_CASE("rotating a tile four times gives it back") {
  for (const auto& t : tiles().types()) {
    CAPTURE(t.id);
    CHECK(t.packed_sides[0] == t.packed_sides[0]);
    // One quarter turn moves each edge's kind one edge clockwise; four come back to the start.
    for (int q = 0; q < 4; ++q) {
      const int next = (q + 1) & 3;
      for (int e = 0; e < 4; ++e)
        CHECK((t.packed_sides[q] >> (2 * e) & 3) ==
              (t.packed_sides[next] >> (2 * ((e + 1) & 3)) & 3));
    }
    for (int e = 0; e < 4; ++e) {
      int turned = e;
      for (int q = 0; q < 4; ++q) turned = rotate_edge(turned, 1);
      CHECK(turned == e);
    }
    for (int h = 0; h < 8; ++h) CHECK(unrotate_half(h, 4 & 3) == h);
  }
  // A half keeps its letter under rotation: NL -> EL -> SL -> WL.
  CHECK(unrotate_half(2, 1) == 0);  // absolute EL of a tile turned 90 degrees is its local NL
  CHECK(unrotate_half(6, 3) == 0);  // absolute WL at 270 is local NL
}

TEST_CASE("special tiles: split city edge and split field edge are data") {
  const auto& cc = tiles()[*tiles().find("HS/CC!.v")];
  CHECK(cc.edge_segments[0][0] >= 0);
  CHECK(cc.edge_segments[0][1] >= 0);  // two cities on the N edge
  const auto& c = tiles()[*tiles().find("HS/C!.v")];
  CHECK(c.half_segment[4] != c.half_segment[5]);  // SL and SR in different fields
  const auto& inner = tiles()[*tiles().find("FE/CcCc")];
  CHECK(inner.segments[*inner.segment_index("field0")].inner);
  CHECK(inner.segments[*inner.segment_index("field0")].halves == 0);
}

// In the suite "shared" (tests/CMakeLists.txt): CTest runs it where the workspace has ../shared
// (CI does) and reports it skipped elsewhere; so does doctest when engine_tests runs alone.
TEST_CASE("the embedded data equals the shared reference catalogue" *
          doctest::test_suite("shared") *
          doctest::skip(!std::filesystem::exists(CARCASSONNE_SHARED_DIR))) {
  const auto path = std::filesystem::path(CARCASSONNE_SHARED_DIR) / "reference" / "tiles.json";
  // With ../shared present, a missing reference is a failure, never a silent pass.
  REQUIRE_MESSAGE(std::filesystem::exists(path), "not found: " << path.string());
  std::ifstream in(path);
  const auto ref = nlohmann::json::parse(in);
  int compared = 0;
  for (const auto& [set, list] : ref.at("sets").items()) {
    for (const auto& t : list) {
      const auto id = tiles().find(t.at("id").get<std::string>());
      REQUIRE_MESSAGE(id.has_value(), t.at("id"));
      const auto& mine = tiles()[*id];
      CAPTURE(mine.id);
      CHECK(tiles().set_names()[mine.set] == set);
      CHECK(mine.count == t.at("count").get<int>());
      CHECK(mine.segments.size() == t.at("features").size());
      for (std::size_t i = 0; i < mine.segments.size(); ++i) {
        const auto& def = t.at("features")[i];
        CHECK(mine.segments[i].id == def.at("id").get<std::string>());
        CHECK(feature_kind_names[static_cast<int>(mine.segments[i].kind)] ==
              def.at("type").get<std::string>());
        CHECK(std::popcount(mine.segments[i].halves) ==
              static_cast<int>(def.value("halves", nlohmann::json::array()).size()));
      }
      ++compared;
    }
  }
  CHECK(compared == 84);
}
