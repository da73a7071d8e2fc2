// Internal: what each expansion adds to the views. One writer per expansion, in its folder
// (expansions/<name>/<name>_view.cpp, next to its codec), exposed with its codec as one object
// (expansion_protocol.hpp) that expansion_views.cpp lists; the base view code calls them without
// knowing what they write.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/protocol/view_doc.hpp"
#include "registry.hpp"

namespace carcassonne::protocol {

struct expansion_view {
  expansion id;
  // Adds the expansion's public top-level keys (counts and face-up things only).
  void (*public_fields)(const game_state&, view_doc&) = nullptr;
  // Appends ,"name":count items to a seat's "supply" object.
  void (*supply)(const game_state&, int seat, std::string& out) = nullptr;
  // Adds keys only `viewer` (a seat) may see to its private part of the view.
  void (*private_fields)(const game_state&, int viewer, view_doc&) = nullptr;
  // Appends ,"key":value items to a figure's object in "figures". They may depend on the figure
  // only (its seat, type, segment and mark): public_doc reuses a figure's text while those stay.
  void (*figure_fields)(const game_state&, const figure_on_board&, std::string& out) = nullptr;
};

const expansion_view* find_view(expansion e);

// Every writer of the expansions in play, in registry order.
template <class F>
void for_each_view(const game_state& s, F&& f) {
  for (int e = 0; e < expansion_count; ++e)
    if (s.expansions.has(static_cast<expansion>(e)))
      if (const auto* v = find_view(static_cast<expansion>(e))) f(*v);
}

}  // namespace carcassonne::protocol
