// The protocol's expansions: one object per expansion that shows on the wire, each defined in its
// folder (src/expansions/<name>/<name>_protocol.cpp), found by its slot. Their list is generated
// from the engine's (protocol/CMakeLists.txt, expansion_protocols.hpp): the engine may never name
// JSON, and nothing here names an expansion.
#include "expansion_views.hpp"

#include <array>
#include <cstdio>
#include <cstdlib>

#include "codec_parts.hpp"
#include "expansion_protocol.hpp"
#include "expansion_protocols.hpp"

namespace carcassonne::protocol {

namespace {

struct by_slot {
  std::array<const expansion_view*, expansion_count> views{};
  std::array<const expansion_codec*, expansion_count> codecs{};
};

[[noreturn]] void broken(const char* what) {
  // The list is compiled in; an object in a wrong or shared slot is a build defect.
  std::fprintf(stderr, "carcassonne: broken protocol registry: %s\n", what);
  std::abort();
}

const by_slot& table() {
  static const by_slot t = [] {
    by_slot out;
    std::array<bool, expansion_count> seen{};
    for (const auto* p : expansion_protocols) {
      const auto i = static_cast<int>(p->id);
      if (i >= expansion_count || seen[i]) broken("a slot outside the registry or twice");
      if ((p->view && p->view->id != p->id) || (p->codec && p->codec->id != p->id))
        broken("a view or codec of another slot");
      seen[i] = true;
      out.views[i] = p->view;
      out.codecs[i] = p->codec;
    }
    return out;
  }();
  return t;
}

}  // namespace

const expansion_view* find_view(expansion e) {
  return table().views[static_cast<int>(e)];
}

const expansion_codec* find_codec(expansion e) {
  return table().codecs[static_cast<int>(e)];
}

}  // namespace carcassonne::protocol
