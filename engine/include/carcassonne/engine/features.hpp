// The feature graph: every segment of every placed tile is a node; segments joined across tile
// borders form features (union-find, union by size, every member pointing at its root). Each
// feature's aggregates live at its root and are merged on union, so completion and occupancy are
// O(1) to read after each placement.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

#include "carcassonne/engine/tiles.hpp"
#include "carcassonne/engine/types.hpp"

namespace carcassonne {

using segment_t = std::uint16_t;

// Aggregates of one feature; meaningful at the root segment only.
struct feature_data {
  feature_kind kind{};
  bool scored = false;                              // completed and scored; never joined again
  std::uint8_t pennants = 0;                        // cities: sum over segments
  std::uint16_t open = 0;                           // city/road edge ports or field half-edges
                                                    // that face an empty square
  std::uint16_t size = 1;                           // number of segments
  std::array<std::uint8_t, max_seats> followers{};  // followers per seat on the feature
  std::uint8_t other_figures = 0;                   // figures that are not followers (an
                                                    // expansion's), so it can skip empty features

  int follower_total() const {
    int n = 0;
    for (auto f : followers) n += f;
    return n;
  }
  friend bool operator==(const feature_data&, const feature_data&) = default;
};

struct segment_node {
  segment_t parent = 0;
  segment_t next = 0;      // circular list of the feature's members
  std::uint16_t tile = 0;  // index into board::placed()
  std::uint8_t local = 0;  // segment index on its tile
  friend bool operator==(const segment_node&, const segment_node&) = default;
};

class feature_graph {
 public:
  // Adds the segments of a newly placed tile (each its own feature); returns the first index.
  segment_t add_tile(const tile_type& t, std::uint16_t tile_index);

  // One load: every segment's parent is its feature's root (unite relinks the smaller side).
  segment_t root(segment_t s) const { return nodes_[s].parent; }
  // Joins the features of a and b (no-op if already one) and returns the new root.
  segment_t unite(segment_t a, segment_t b);

  feature_data& data(segment_t root) { return data_[root]; }
  const feature_data& data(segment_t root) const { return data_[root]; }
  const segment_node& node(segment_t s) const { return nodes_[s]; }
  std::size_t size() const { return nodes_.size(); }

  // Calls f(segment) for every segment of the feature containing s.
  template <class F>
  void for_each_member(segment_t s, F&& f) const {
    segment_t i = s;
    do {
      f(i);
      i = nodes_[i].next;
    } while (i != s);
  }

  std::size_t heap_bytes() const {
    return nodes_.capacity() * sizeof(segment_node) + data_.capacity() * sizeof(feature_data);
  }

  friend bool operator==(const feature_graph&, const feature_graph&) = default;

 private:
  std::vector<segment_node> nodes_;
  std::vector<feature_data> data_;
};

}  // namespace carcassonne
