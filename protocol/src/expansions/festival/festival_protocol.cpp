// Festival on the wire: its view and its codec (this folder) as the one object the protocol's list
// names (expansion_views.cpp).
#include "expansion_protocol.hpp"
#include "festival/id.hpp"

namespace carcassonne::protocol {

namespace codecs {
extern const expansion_codec festival;
}

extern const expansion_protocol festival_protocol{festival::id, nullptr, &codecs::festival};

}  // namespace carcassonne::protocol
