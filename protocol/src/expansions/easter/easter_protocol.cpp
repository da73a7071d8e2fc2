// Easter on the wire: its view and its codec (this folder) as the one object the protocol's list
// names (expansion_views.cpp).
#include "easter/id.hpp"
#include "expansion_protocol.hpp"

namespace carcassonne::protocol {

namespace views {
extern const expansion_view easter;
}
namespace codecs {
extern const expansion_codec easter;
}

extern const expansion_protocol easter_protocol{easter::id, &views::easter, &codecs::easter};

}  // namespace carcassonne::protocol
