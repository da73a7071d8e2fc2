// Gifts on the wire: its view and its codec (this folder) as the one object the protocol's list
// names (expansion_views.cpp).
#include "expansion_protocol.hpp"
#include "gifts/id.hpp"

namespace carcassonne::protocol {

namespace views {
extern const expansion_view gifts;
}
namespace codecs {
extern const expansion_codec gifts;
}

extern const expansion_protocol gifts_protocol{gifts::id, &views::gifts, &codecs::gifts};

}  // namespace carcassonne::protocol
