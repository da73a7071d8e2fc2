// The Festival on the wire: taking a figure back is written like deploying one (figure, square,
// feature).
#include "codec_parts.hpp"
#include "festival/festival.hpp"
#include "festival/id.hpp"

namespace carcassonne::protocol {

namespace {

constexpr std::array<move_codec, 1> moves{
    {{festival::move_return_figure, read_figure_move, write_figure_move}}};

}  // namespace

namespace codecs {
extern const expansion_codec festival{festival::id, moves, {}, {}, nullptr};
}  // namespace codecs

}  // namespace carcassonne::protocol
