#include "carcassonne/engine/tiles.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "carcassonne/engine/expansion.hpp"
#include "carcassonne/engine/tile_data.hpp"
#include "registry.hpp"

namespace carcassonne {

namespace {

[[noreturn]] void broken_data(const std::string& what) {
  // The catalogue is compiled in; a broken file is a build defect, not a runtime condition.
  std::fprintf(stderr, "carcassonne: broken tile data: %s\n", what.c_str());
  std::abort();
}

int index_of(std::string_view name, std::span<const std::string_view> names) {
  auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

side_kind parse_side(char c, const std::string& tile) {
  switch (c) {
    case 'C':
      return side_kind::city;
    case 'R':
      return side_kind::road;
    case 'F':
      return side_kind::field;
  }
  broken_data(tile + ": side '" + c + "'");
}

void derive(tile_type& t) {
  for (auto& e : t.edge_segments) e = {-1, -1};
  t.half_segment.fill(-1);
  for (int q = 0; q < 4; ++q) {
    std::uint8_t packed = 0;
    for (int local = 0; local < 4; ++local)
      packed |= static_cast<std::uint8_t>(static_cast<int>(t.sides[local])
                                          << (2 * rotate_edge(local, q)));
    t.packed_sides[q] = packed;
  }
  for (int req = 0; req < 256; ++req) {
    int mask = 0;  // every edge with a required kind (codes 1-3) must match
    for (int e = 0; e < 4; ++e)
      if (req >> (2 * e) & 3) mask |= 3 << (2 * e);
    for (int q = 0; q < 4; ++q)
      if ((t.packed_sides[q] & mask) == req) t.fitting[req] |= static_cast<std::uint8_t>(1 << q);
  }
  for (int i = 0; i < static_cast<int>(t.segments.size()); ++i) {
    const auto& s = t.segments[i];
    if (s.kind == feature_kind::monastery) t.monastery = static_cast<std::int8_t>(i);
    for (int e = 0; e < 4; ++e) {
      if (!(s.edges >> e & 1)) continue;
      auto& slot = t.edge_segments[e];
      (slot[0] < 0 ? slot[0] : slot[1]) = static_cast<std::int8_t>(i);
    }
    for (int h = 0; h < 8; ++h)
      if (s.halves >> h & 1) t.half_segment[h] = static_cast<std::int8_t>(i);
  }
}

// The symbols every module names (its vocabulary's tile_symbols, at its slot's bits) that the
// tile's JSON sets; keys no module names are not symbols.
std::uint32_t parse_symbols(const nlohmann::json& j) {
  std::uint32_t bits = 0;
  for (const auto* m : all_modules()) {
    if (!m) continue;
    const auto first = slot_ranges[static_cast<int>(m->id)].symbols.first;
    const auto& defs = m->vocabulary.tile_symbols;
    for (std::size_t i = 0; i < defs.size(); ++i) {
      const auto key = std::string(defs[i].key);
      const bool set = defs[i].value.empty() ? j.value(key, false)
                                             : j.value(key, std::string()) == defs[i].value;
      if (set) bits |= 1u << (first + i);
    }
  }
  return bits;
}

tile_type parse_tile(const nlohmann::json& j, tile_set_id set) {
  tile_type t;
  t.id = j.at("id").get<std::string>();
  t.set = set;
  t.count = j.at("count").get<int>();
  t.start = j.value("start", 0);
  const auto sides = j.at("sides").get<std::string>();
  if (sides.size() != 4) broken_data(t.id + ": sides");
  for (int e = 0; e < 4; ++e) t.sides[e] = parse_side(sides[e], t.id);
  t.symbols = parse_symbols(j);
  t.desc = j.value("desc", std::string());

  const auto& features = j.at("features");
  if (features.size() > max_segments_per_tile) broken_data(t.id + ": too many features");
  for (const auto& f : features) {
    segment_def s;
    s.id = f.at("id").get<std::string>();
    const int kind = index_of(f.at("type").get<std::string>(), feature_kind_names);
    if (kind < 0) broken_data(t.id + ": feature type");
    s.kind = static_cast<feature_kind>(kind);
    for (const auto& e : f.value("edges", nlohmann::json::array())) {
      const int ei = index_of(e.get<std::string>(), edge_names);
      if (ei < 0) broken_data(t.id + ": edge");
      s.edges |= static_cast<std::uint8_t>(1 << ei);
    }
    if (f.contains("multi_edge")) {
      const int ei = index_of(f.at("multi_edge").get<std::string>(), edge_names);
      if (ei < 0) broken_data(t.id + ": multi_edge");
      s.edges |= static_cast<std::uint8_t>(1 << ei);
    }
    for (const auto& h : f.value("halves", nlohmann::json::array())) {
      const int hi = index_of(h.get<std::string>(), half_names);
      if (hi < 0) broken_data(t.id + ": half");
      s.halves |= static_cast<std::uint8_t>(1 << hi);
    }
    s.pennants = static_cast<std::uint8_t>(f.value("pennants", 0));
    s.inner = f.value("inner", false);
    t.pennants += s.pennants;
    t.segments.push_back(std::move(s));
  }
  // Field borders refer to city ids of the same tile; resolve them once all ids are known.
  for (std::size_t i = 0; i < features.size(); ++i) {
    for (const auto& c : features[i].value("cities", nlohmann::json::array())) {
      auto idx = t.segment_index(c.get<std::string>());
      if (!idx || t.segments[*idx].kind != feature_kind::city) broken_data(t.id + ": cities");
      t.segments[i].borders |= static_cast<std::uint8_t>(1 << *idx);
    }
  }
  derive(t);
  return t;
}

}  // namespace

std::optional<int> tile_type::segment_index(std::string_view feature_id) const {
  for (int i = 0; i < static_cast<int>(segments.size()); ++i)
    if (segments[i].id == feature_id) return i;
  return std::nullopt;
}

std::optional<tile_type_id> tile_catalogue::find(std::string_view id) const {
  for (std::size_t i = 0; i < types_.size(); ++i)
    if (types_[i].id == id) return static_cast<tile_type_id>(i);
  return std::nullopt;
}

std::optional<tile_set_id> tile_catalogue::find_set(std::string_view name) const {
  for (std::size_t i = 0; i < set_names_.size(); ++i)
    if (set_names_[i] == name) return static_cast<tile_set_id>(i);
  return std::nullopt;
}

tile_catalogue tile_catalogue::parse() {
  tile_catalogue cat;
  const auto add_set = [&cat](std::string_view name, std::string_view text) {
    const auto set = static_cast<tile_set_id>(cat.set_names_.size());
    cat.set_names_.emplace_back(name);
    auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.is_array()) broken_data(std::string(name) + ": not a JSON array");
    try {
      for (const auto& t : j) cat.types_.push_back(parse_tile(t, set));
    } catch (const nlohmann::json::exception& e) {
      broken_data(std::string(name) + ": " + e.what());
    }
  };
  // The embedded sets in their fixed order (the base game's first), then the sets that modules
  // carry in their own folders, in registry order.
  for (const auto& file : data::embedded_tile_sets()) add_set(file.set, file.text);
  if (cat.set_names_.empty() || cat.set_names_[base_tile_set] != "base")
    broken_data("the base set must come first");
  for (const auto* m : all_modules())
    if (m && !m->tile_data.empty()) add_set(m->tile_set, m->tile_data);
  if (cat.types_.size() > 255) broken_data("more than 255 tile types");
  if (cat.set_names_.size() > 64) broken_data("more than 64 tile sets");  // a bit each in new_game
  for (std::size_t i = 0; i < cat.types_.size(); ++i)
    if (cat.types_[i].start > 0) cat.start_ = static_cast<tile_type_id>(i);
  return cat;
}

const tile_catalogue& detail::parsed_catalogue() {
  static const tile_catalogue catalogue = tile_catalogue::parse();
  return catalogue;
}

}  // namespace carcassonne
