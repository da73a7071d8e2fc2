#include "expansion_views.hpp"

#include <array>

namespace carcassonne::protocol {

namespace {
constexpr std::array<const expansion_view*, expansion_count> views_by_id{
    &views::hills_and_sheep, &views::gifts, &views::peasant_revolts, &views::easter, nullptr};
}  // namespace

const expansion_view* find_view(expansion e) {
  return views_by_id[static_cast<int>(e)];
}

}  // namespace carcassonne::protocol
