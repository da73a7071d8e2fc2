#include "expansion_views.hpp"

#include "codec_parts.hpp"

#include <array>

namespace carcassonne::protocol {

namespace {
constexpr std::array<const expansion_view*, expansion_count> views_by_id{
    &views::hills_and_sheep, &views::gifts, &views::peasant_revolts, &views::easter, nullptr};

// By slot, like the views: each module's moves and events on the wire (json_codec.cpp builds its
// dispatch table from these).
constexpr std::array<const expansion_codec*, expansion_count> codecs_by_id{
    &codecs::hills_and_sheep, &codecs::gifts,    &codecs::peasant_revolts,
    &codecs::easter,          &codecs::festival, nullptr};

}  // namespace

const expansion_view* find_view(expansion e) {
  return views_by_id[static_cast<int>(e)];
}

const expansion_codec* find_codec(expansion e) {
  return codecs_by_id[static_cast<int>(e)];
}

}  // namespace carcassonne::protocol
