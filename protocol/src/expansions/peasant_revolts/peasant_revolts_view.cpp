// The Peasant Revolts in the views: a protected (lying) follower carries "protected": true; the
// number of revolt tiles set aside is public, which ones never is.
#include "expansion_views.hpp"
#include "peasant_revolts/id.hpp"
#include "peasant_revolts/peasant_revolts.hpp"

namespace carcassonne::protocol {

namespace {

void public_fields(const game_state& s, view_doc& d) {
  d.scalar("set_aside", std::to_string(s.ext.get<peasant_revolts::state>().set_aside.size()));
}

void figure_fields(const game_state&, const figure_on_board& f, std::string& out) {
  if (carcassonne::peasant_revolts::is_protected(f)) out += R"(,"protected":true)";
}

}  // namespace

namespace views {
extern const expansion_view peasant_revolts{peasant_revolts::id, public_fields, nullptr, nullptr,
                                            figure_fields};
}  // namespace views

}  // namespace carcassonne::protocol
