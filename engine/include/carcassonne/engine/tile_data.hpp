// The tile-set files of engine/data/tiles/, embedded in the binary at build time.
#pragma once
#include <span>
#include <string_view>

namespace carcassonne::data {

struct embedded_file {
  std::string_view set;   // file name without extension: the set name
  std::string_view text;  // JSON array of tile types (schema carcassonne-tiles/1)
};

std::span<const embedded_file> embedded_tile_sets();

}  // namespace carcassonne::data
