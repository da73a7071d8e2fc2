// The tile catalogue: every tile type of every set, parsed once from the embedded data files.
// Tile types are referred to by a small index (tile_type_id) everywhere in the engine.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "carcassonne/engine/types.hpp"

namespace carcassonne {

using tile_type_id = std::uint8_t;

// A set of tiles by its place in the catalogue: 0 is the base game's; the others belong to the
// expansion module that names them (expansion_module::tile_set), in the fixed order used to build
// the supply (engine/data/tiles in the engine's CMake order, then the modules' own data in registry
// order; docs/randomness.md).
using tile_set_id = std::uint8_t;
inline constexpr tile_set_id base_tile_set = 0;

// A whole-tile marker that an expansion reads (a hill, a revolt on cities): the bit of
// tile_type::symbols that its module names (engine/expansions/<name>/vocabulary.hpp, in the range
// the registry gives its slot). The base game has none.
enum class tile_symbol : std::uint8_t {};
inline constexpr int max_tile_symbols = 32;
// How a module's symbol is written in its tiles' JSON: a key that is true, or (with a value) a
// key that holds that text ("revolt": "city").
struct tile_symbol_def {
  std::string_view key;
  std::string_view value;
};

// One segment (tile-local feature) in the tile's own, unrotated frame.
struct segment_def {
  std::string id;  // "city0", "road1", ... (stable across rotation)
  feature_kind kind{};
  std::uint8_t edges = 0;     // city/road: bit e set when the segment has a port on local edge e
  std::uint8_t halves = 0;    // field: bit h set for each local half-edge
  std::uint8_t pennants = 0;  // city only
  std::uint8_t borders = 0;   // field: bit i set when it borders local segment i (a city)
  bool inner = false;         // field touching no edge
};

inline constexpr int max_segments_per_tile = 8;

struct tile_type {
  std::string id;
  tile_set_id set = base_tile_set;
  int count = 0;
  int start = 0;  // copies that are the start tile (only BA/RCr)
  std::array<side_kind, 4> sides{};
  std::vector<segment_def> segments;

  // Symbols (not features): whole-tile markers used by expansions, a bit per tile_symbol.
  std::uint32_t symbols = 0;
  bool has(tile_symbol x) const { return symbols >> static_cast<int>(x) & 1; }
  int pennants = 0;
  std::string desc;

  // Derived, for fast placement and joining.
  std::array<std::uint8_t, 4> packed_sides{};  // by quarter turns: 2 bits per edge
  // By an open square's requirement (open_square::requirement, which also fixes its mask): bit q
  // set when the tile fits turned q quarter turns, so placement tests are one lookup.
  std::array<std::uint8_t, 256> fitting{};
  std::array<std::array<std::int8_t, 2>, 4> edge_segments{};  // local edge -> up to 2 segments
  std::array<std::int8_t, 8> half_segment{};                  // local half -> field segment
  std::int8_t monastery = -1;                                 // local index of the monastery

  std::optional<int> segment_index(std::string_view feature_id) const;
};

class tile_catalogue {
 public:
  const std::vector<tile_type>& types() const { return types_; }
  const tile_type& operator[](tile_type_id id) const { return types_[id]; }
  std::optional<tile_type_id> find(std::string_view id) const;
  tile_type_id start_tile() const { return start_; }
  // The sets by tile_set_id, by name ("base", "hills_and_sheep", ...).
  const std::vector<std::string>& set_names() const { return set_names_; }
  std::optional<tile_set_id> find_set(std::string_view name) const;

  static tile_catalogue parse();  // from the embedded data; aborts on a broken data file

 private:
  std::vector<tile_type> types_;
  std::vector<std::string> set_names_;
  tile_type_id start_ = 0;
};

namespace detail {
const tile_catalogue& parsed_catalogue();
}
// The one catalogue of the process (parsed on first use, immutable afterwards). Inline: the
// engine asks for it several times per move.
inline const tile_catalogue& tiles() {
  static const tile_catalogue& catalogue = detail::parsed_catalogue();
  return catalogue;
}

}  // namespace carcassonne
