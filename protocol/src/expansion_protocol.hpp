// Internal: one expansion on the wire, as its folder exposes it (src/expansions/<name>/
// <name>_protocol.cpp, or tests/expansions/<name>/ for a test's): what it adds to the views and
// how its moves and events are written. expansion_views.cpp lists these objects.
#pragma once
#include "codec_parts.hpp"
#include "expansion_views.hpp"

namespace carcassonne::protocol {

struct expansion_protocol {
  expansion id;
  const expansion_view* view = nullptr;    // nullptr: it adds nothing to the views
  const expansion_codec* codec = nullptr;  // nullptr: no moves or events of its own
};

}  // namespace carcassonne::protocol
