#include "carcassonne/engine/features.hpp"

#include <utility>

#include "bits.hpp"

namespace carcassonne {

segment_t feature_graph::add_tile(const tile_type& t, std::uint16_t tile_index) {
  const auto first = static_cast<segment_t>(nodes_.size());
  for (std::size_t i = 0; i < t.segments.size(); ++i) {
    const auto& def = t.segments[i];
    const auto s = static_cast<segment_t>(first + i);
    nodes_.push_back(segment_node{s, s, tile_index, static_cast<std::uint8_t>(i)});
    feature_data d;
    d.kind = def.kind;
    d.pennants = def.pennants;
    d.open = static_cast<std::uint16_t>(def.kind == feature_kind::field
                                            ? detail::count_bits8(def.halves)
                                            : detail::count_bits8(def.edges));
    data_.push_back(d);
  }
  return first;
}

segment_t feature_graph::unite(segment_t a, segment_t b) {
  a = root(a);
  b = root(b);
  if (a == b) return a;
  if (data_[a].size < data_[b].size) std::swap(a, b);
  // The smaller feature's members point at the new root directly (its ring lists them), so
  // that root() never walks a chain: amortized O(log n) relinks per segment, reads stay O(1).
  nodes_[b].parent = a;
  for (segment_t i = nodes_[b].next; i != b; i = nodes_[i].next) nodes_[i].parent = a;
  std::swap(nodes_[a].next, nodes_[b].next);  // splice the two member rings
  auto& into = data_[a];
  const auto& from = data_[b];
  into.size = static_cast<std::uint16_t>(into.size + from.size);
  into.pennants = static_cast<std::uint8_t>(into.pennants + from.pennants);
  into.open = static_cast<std::uint16_t>(into.open + from.open);
  into.other_figures = static_cast<std::uint8_t>(into.other_figures + from.other_figures);
  for (int s = 0; s < max_seats; ++s)
    into.followers[s] = static_cast<std::uint8_t>(into.followers[s] + from.followers[s]);
  return a;
}

}  // namespace carcassonne
