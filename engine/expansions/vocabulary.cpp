// The names of the engine's enums, assembled from the base game's and each module's vocabulary
// at the values slots.hpp gives its slot; checked once, at start (the registry calls
// check_vocabulary before anything plays).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <span>
#include <string>

#include "carcassonne/engine/expansion.hpp"
#include "registry.hpp"

namespace carcassonne {

namespace {

constexpr int values = 256;  // every enum here is one byte

struct name_table {
  std::array<std::string_view, values> names{};
  std::array<const expansion_module*, values> owners{};

  // Puts one slot's names at its range; false when the range and the names disagree or overlap.
  bool add(value_range r, std::span<const std::string_view> list, const expansion_module* owner) {
    if (list.size() != r.count || r.first + r.count > values) return false;
    for (int i = 0; i < r.count; ++i) {
      auto& at = names[r.first + i];
      if (!at.empty() || list[i].empty()) return false;
      for (const auto& other : names)
        if (other == list[i]) return false;  // a name means one value
      at = list[i];
      owners[r.first + i] = owner;
    }
    return true;
  }
  std::string_view name(int v, std::string_view unknown) const {
    return names[v].empty() ? unknown : names[v];
  }
};

struct tables {
  name_table moves, events, decisions, reasons, figures;
  std::array<bool, values> quiet{};
  std::uint32_t symbols = 0;  // tile symbol bits given so far
  std::string broken;         // why the registry's ranges are not sound, empty when they are
};

tables build() {
  tables t;
  const auto fail = [&](std::string_view module, const char* what) {
    if (t.broken.empty()) t.broken = std::string(module) + ": " + what;
  };
  if (!t.moves.add(base_ranges.moves, base_move_type_names, nullptr) ||
      !t.events.add(base_ranges.events, base_event_type_names, nullptr) ||
      !t.decisions.add(base_ranges.decisions, base_decision_names, nullptr) ||
      !t.reasons.add(base_ranges.reasons, base_points_reason_names, nullptr) ||
      !t.figures.add(base_ranges.figures, base_figure_type_names, nullptr))
    fail("base", "names and ranges disagree");
  for (const auto t_ :
       {event_type::tile_placed, event_type::figure_deployed, event_type::figure_returned})
    t.quiet[static_cast<int>(t_)] = true;
  for (const auto* m : all_modules()) {
    if (!m) continue;
    const auto& r = slot_ranges[static_cast<int>(m->id)];
    const auto& v = m->vocabulary;
    if (!t.moves.add(r.moves, v.moves, m)) fail(m->name, "move types overlap or miscount");
    if (!t.events.add(r.events, v.events, m)) fail(m->name, "event types overlap or miscount");
    if (!t.decisions.add(r.decisions, v.decisions, m))
      fail(m->name, "decisions overlap or miscount");
    if (!t.reasons.add(r.reasons, v.reasons, m))
      fail(m->name, "points reasons overlap or miscount");
    if (!t.figures.add(r.figures, v.figures, m)) fail(m->name, "figure types overlap or miscount");
    if (v.tile_symbols.size() != r.symbols.count ||
        r.symbols.first + r.symbols.count > max_tile_symbols)
      fail(m->name, "tile symbols miscount");
    for (int i = r.symbols.first; i < std::min(r.symbols.first + r.symbols.count, max_tile_symbols);
         ++i) {
      if (t.symbols >> i & 1) fail(m->name, "tile symbols overlap");
      t.symbols |= 1u << i;
    }
    for (const auto& key : v.script_keys)
      for (const auto* other : all_modules())
        if (other && other != m)
          for (const auto& k : other->vocabulary.script_keys)
            if (k == key) fail(m->name, "a script key another module reads");
    for (const auto e : v.quiet_events) {
      const int i = static_cast<int>(e);
      if (i < r.events.first || i >= r.events.first + r.events.count)
        fail(m->name, "a quiet event that is not its own");
      t.quiet[i] = true;
    }
  }
  return t;
}

const tables& vocab() {
  static const tables t = build();
  return t;
}

}  // namespace

void check_vocabulary() {
  if (vocab().broken.empty()) return;
  // The ranges are compiled in; a module outside its slot's values is a build defect.
  std::fprintf(stderr, "carcassonne: broken expansion registry: %s\n", vocab().broken.c_str());
  std::abort();
}

std::string_view move_type_name(move_type t) {
  return vocab().moves.name(static_cast<int>(t), "unknown");
}
std::optional<move_type> find_move_type(std::string_view name) {
  for (int i = 0; i < values; ++i)
    if (vocab().moves.names[i] == name && !name.empty()) return static_cast<move_type>(i);
  return std::nullopt;
}
std::string_view figure_type_name(figure_type f) {
  return vocab().figures.name(static_cast<int>(f), "unknown");
}
std::optional<figure_type> find_figure_type(std::string_view name) {
  for (int i = 0; i < values; ++i)
    if (vocab().figures.names[i] == name && !name.empty()) return static_cast<figure_type>(i);
  return std::nullopt;
}
std::string_view event_type_name(event_type t) {
  return vocab().events.name(static_cast<int>(t), "unknown");
}
bool event_is_quiet(event_type t) {
  return vocab().quiet[static_cast<int>(t)];
}
std::string_view decision_name(decision d) {
  return vocab().decisions.name(static_cast<int>(d), "unknown");
}
std::string_view points_reason_name(points_reason r) {
  return vocab().reasons.name(static_cast<int>(r), "");
}
const expansion_module* move_owner(move_type t) {
  return vocab().moves.owners[static_cast<int>(t)];
}
const expansion_module* figure_owner(figure_type f) {
  return vocab().figures.owners[static_cast<int>(f)];
}

}  // namespace carcassonne
