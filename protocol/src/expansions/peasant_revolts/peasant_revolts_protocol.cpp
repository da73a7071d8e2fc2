// Peasant Revolts on the wire: its view and its codec (this folder) as the one object the
// protocol's list names (expansion_views.cpp).
#include "expansion_protocol.hpp"
#include "peasant_revolts/id.hpp"

namespace carcassonne::protocol {

namespace views {
extern const expansion_view peasant_revolts;
}
namespace codecs {
extern const expansion_codec peasant_revolts;
}

extern const expansion_protocol peasant_revolts_protocol{
    peasant_revolts::id, &views::peasant_revolts, &codecs::peasant_revolts};

}  // namespace carcassonne::protocol
