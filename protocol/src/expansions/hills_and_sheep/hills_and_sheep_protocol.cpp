// Hills & Sheep on the wire: its view and its codec (this folder) as the one object the protocol's
// list names (expansion_views.cpp).
#include "expansion_protocol.hpp"
#include "hills_and_sheep/id.hpp"

namespace carcassonne::protocol {

namespace views {
extern const expansion_view hills_and_sheep;
}
namespace codecs {
extern const expansion_codec hills_and_sheep;
}

extern const expansion_protocol hills_and_sheep_protocol{
    hills_and_sheep::id, &views::hills_and_sheep, &codecs::hills_and_sheep};

}  // namespace carcassonne::protocol
