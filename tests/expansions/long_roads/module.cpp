// Long Roads: its tiles (as JSON, in this folder), its option and its rule (long_roads.hpp).
#include "id.hpp"
#include "long_roads.hpp"

namespace carcassonne::long_roads {

namespace {

// A straight road like BA/RFr and a four-way crossing like BA/RRRR (tile-set schema as in
// engine/data/tiles).
constexpr std::string_view tile_data = R"([
  {"id": "LR/RFr", "count": 4, "sides": "FRFR", "desc": "Long Roads: straight road W-E.",
   "features": [{"id": "road0", "type": "road", "edges": ["E", "W"]},
                {"id": "field0", "type": "field", "halves": ["NL", "NR", "EL", "WR"], "cities": []},
                {"id": "field1", "type": "field", "halves": ["ER", "SL", "SR", "WL"], "cities": []}]},
  {"id": "LR/RRRR", "count": 2, "sides": "RRRR", "desc": "Long Roads: four roads end at a crossing.",
   "features": [{"id": "road0", "type": "road", "edges": ["N"]},
                {"id": "road1", "type": "road", "edges": ["E"]},
                {"id": "road2", "type": "road", "edges": ["S"]},
                {"id": "road3", "type": "road", "edges": ["W"]},
                {"id": "field0", "type": "field", "halves": ["NL", "WR"], "cities": []},
                {"id": "field1", "type": "field", "halves": ["NR", "EL"], "cities": []},
                {"id": "field2", "type": "field", "halves": ["ER", "SL"], "cities": []},
                {"id": "field3", "type": "field", "halves": ["SR", "WL"], "cities": []}]}
])";

// The rule: a road completed with long_road_segments segments or more scores the bonus.
int long_road_bonus(const game_state& s, segment_t root) {
  const auto& f = s.features.data(root);
  if (f.kind != feature_kind::road || f.size < long_road_segments) return 0;
  return bonus_points(s.options);
}

}  // namespace

const expansion_module module{
    .id = long_roads::id,
    .name = "long_roads",
    .label = "Long Roads (test)",
    .options = options,
    .tile_set = "long_roads",
    .tile_data = tile_data,
    .test_only = true,
    .completion_bonus = long_road_bonus,
};

}  // namespace carcassonne::long_roads
