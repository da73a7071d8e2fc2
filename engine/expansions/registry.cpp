// Lookups over the expansion modules that the build lists (engine/CMakeLists.txt: slot order is
// hook order), and the interactions between expansions, documented here as modules are added
// (house-style.md, "Engine"). Nothing here names a module: a new one needs no line in this file.
//
// Order of hooks within a step follows registry.hpp's list: hills_and_sheep, gifts,
// peasant_revolts, easter, festival, then the test slots. Steps after the figure action are
// ordered by turn_step (README "Turn structure"), so the list order only matters for hooks two
// expansions share in one step. A slot without a module (a test slot in build/carcassonne) has no
// name (find_expansion does not know it), and a setup that holds it is refused with
// unsupported_expansion.
//
// Interactions written down so far:
// - Hills & Sheep alone: shepherds are figures of type shepherd in game_state::figures; they never
//   count in feature_data::followers, so base majorities and occupancy ignore them.
// - Festival + Hills & Sheep: returning the shepherd calls its owner's take_back_figure hook
//   (figure_owner), with leave_behind from festival.shepherd_flock (festival.md §4, F-3);
//   ownerless flocks live in the Hills & Sheep state. A returned shepherd is off the board before
//   step 10, so its seat gets no Grow/Gather that turn. Without Hills & Sheep no shepherd is ever
//   on the board.
// - Peasant Revolts + Hills & Sheep: revolts touch followers only (never shepherds); a tile
//   under a hill is never drawn, so it never revolts (tile_drawn is not called for it); deploying
//   the shepherd sets game_state::deployed, which blocks protect-for-2 by default.
// - Gifts + Hills & Sheep: the hill (step 6a) takes its tile before the Take 2 leftover goes back
//   (6c): hills_and_sheep comes first in this list. Receipt and Road Sweeper use owners() with
//   the hill tie-break (gifts.receipt_owners "followers_only" uses majority() instead).
// - Gifts + Peasant Revolts: Take 2's extra draws call every module's tile_drawn, so they revolt
//   unless revolts.extra_draws_trigger is false (the revolt sees draw_kind::extra).
//   Synod and Change Position (onto a road/city/monastery) may protect for 4 (open_gift with
//   protect) through the protecting module's protect_figure hook; opening a gift is not
//   deploying.
// - Peasant Revolts + Festival: a returned follower leaves the board with its mark, so it loses
//   its protection; a return is not a deployment, so protect-for-2 stays open.
// - Easter + Hills & Sheep: a shepherd on a nest's 9 squares or on a square the bunny lands on
//   gives its owner an egg like a follower (easter.shepherd_eggs); hills and vineyards change no
//   eggs. Flocks gathered or lost at step 10 took their shepherds off the board before Easter's
//   steps (10a, 12, 13), so those shepherds give no eggs. The tile under a hill is never on the
//   board: it neither surrounds a nest nor carries the bunny.
// - Easter + Festival: a figure taken back at step 8 is off the board for Easter's steps (no
//   eggs). A festival tile may be a nest's last neighbour like any tile.
// - Easter alone: in the bunny phase the seat to act (game_state::deciding) is the seat whose go
//   it is, not the active seat; every other decision stays the active seat's.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "carcassonne/engine/expansion.hpp"
#include "expansion_modules.hpp"

namespace carcassonne {

namespace {
// The modules in slot order: registry.hpp's list (each slot points at its module, defined in the
// module's folder), then the test slots' from test_slot_modules (null where no test library is
// linked). Both are constant-initialized; the table is made on first use, since code that runs at
// start in other files may look a module up.
const std::array<const expansion_module*, expansion_count>& modules() {
  static const auto all = [] {
    auto out = registered_modules;
    for (int i = 0; i < test_slot_count; ++i)
      out[player_expansion_count + i] = test_slot_modules[i];
    return out;
  }();
  return all;
}

[[noreturn]] void broken_registry(const std::string& what) {
  // The registry is compiled in; a module in the wrong slot is a build defect.
  std::fprintf(stderr, "carcassonne: broken expansion registry: %s\n", what.c_str());
  std::abort();
}

// At start: each module sits in the slot of its id, and names are unique (expansions and
// options alike), so that every lookup by name or slot finds the one module meant.
void check_registry() {
  check_vocabulary();
  const auto& table = modules();
  for (int e = 0; e < expansion_count; ++e) {
    const auto* m = table[e];
    if (!m) continue;
    if (static_cast<int>(m->id) != e)
      broken_registry(std::string(m->name) + " is in slot " + std::to_string(e));
    if (m->test_only != registered_expansions::test_only[e])
      broken_registry(std::string(m->name) + ": test_only differs from its slot's");
    if (m->options.size() > max_options_per_expansion)
      broken_registry(std::string(m->name) + " has too many options");
    for (int f = 0; f < e; ++f) {
      if (!table[f]) continue;
      if (table[f]->name == m->name) broken_registry(std::string(m->name) + " twice");
      for (const auto& a : m->options)
        for (const auto& b : table[f]->options)
          if (a.name == b.name) broken_registry("option " + std::string(a.name) + " twice");
    }
  }
}

// The module list of every subset of expansions, built once at start-up (active_modules runs
// several times per move).
constexpr int subsets = 1 << expansion_count;
const std::array<module_list, subsets> lists = [] {
  check_registry();
  const auto& table = modules();
  std::array<module_list, subsets> out{};
  for (int bits = 0; bits < subsets; ++bits)
    for (int e = 0; e < expansion_count; ++e)
      if (table[e] && (bits >> e & 1)) {
        auto& l = out[bits];
        l.items[l.size++] = table[e];
        l.run_steps = static_cast<std::uint8_t>(l.run_steps | table[e]->run_steps);
      }
  return out;
}();

}  // namespace

const expansion_module* find_module(expansion e) {
  const auto i = static_cast<int>(e);
  return i < expansion_count ? modules()[i] : nullptr;
}

std::span<const expansion_module* const> all_modules() {
  return modules();
}

const module_list& active_modules(const game_state& s) {
  return lists[s.expansions.bits()];
}

const expansion_module* protecting_module(const game_state& s) {
  for (const auto* m : active_modules(s))
    if (m->protect_figure) return m;
  return nullptr;
}

std::optional<expansion> find_expansion(std::string_view name) {
  for (const auto* m : modules())
    if (m && m->name == name) return m->id;
  return std::nullopt;
}

std::string_view expansion_name(expansion e) {
  const auto* m = find_module(e);
  return m ? m->name : std::string_view("unknown");
}

std::optional<option_ref> find_option(std::string_view name) {
  for (const auto* m : modules())
    if (m)
      for (std::size_t i = 0; i < m->options.size(); ++i)
        if (m->options[i].name == name)
          return option_ref{m->id, static_cast<int>(i), &m->options[i]};
  return std::nullopt;
}

}  // namespace carcassonne
