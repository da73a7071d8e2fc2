// Views: what one seat, or a spectator, may see of a game, built field by field from the state.
// Hidden information (the supply order, anything an expansion hides) is never copied in: only
// counts. A seat's view lists its legal moves when it must act.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "carcassonne/engine/game.hpp"
#include "carcassonne/protocol/view_doc.hpp"

namespace carcassonne::protocol {

// seat = 0..5 for a seat's view, spectator for everyone else.
inline constexpr int spectator = -1;

// The whole view of `viewer`: public_view plus private_view's keys.
nlohmann::json build_view(const game_state& s, int viewer, const std::vector<std::string>& names);

// The part every viewer shares (no "viewer", no "legal_moves"): built and diffed once per change.
nlohmann::json public_view(const game_state& s, const std::vector<std::string>& names);

// What public_doc may reuse of the previous public document of the same game: a board only
// grows (a take-back shrinks it), so the tiles the previous board text was written from are
// kept, and the text of those still placed the same way is copied instead of written again
// (the board was the largest part of a move's view: docs/performance.md "Our own framing");
// the figures' texts are reused the same way.
struct board_memo {
  struct tile {
    square_pos pos;
    tile_type_id type = 0;
    std::uint8_t rotation = 0;  // what the board's text shows of a placed tile
    friend bool operator==(const tile&, const tile&) = default;
  };
  std::vector<tile> tiles;  // those `previous`'s "board" was written from
  // The figures likewise: what each of `previous`'s "figures" was written from. Figures leave
  // from anywhere in the list and arrive at its end, so a figure's text is looked for further on
  // (an expansion's figure_fields may depend on the figure alone: expansion_views.hpp).
  struct figure {
    figure_on_board on;
    square_pos pos;
    tile_type_id type = 0;
    std::uint8_t local = 0;  // the segment on its tile
    friend bool operator==(const figure&, const figure&) = default;
  };
  std::vector<figure> figures;
};

// The same parts as text documents, for the server's diffs (view_doc.hpp). With `previous` (the
// last public document of this game) and the `memo` that describes it (filled by the call that
// made it), the text of the board's unchanged tiles is taken from it: the document is the same
// as without them, and `memo` then describes the new one. When the board only grew, its text is
// moved out of `previous` (item_list::carry_from), which is then good only as the document
// diff_docs diffs the new one from.
view_doc public_doc(const game_state& s, const std::vector<std::string>& names,
                    view_doc* previous = nullptr, board_memo* memo = nullptr);
view_doc private_doc(const game_state& s, int viewer);
// True when private_doc(s, viewer) holds "viewer" alone: the seat has nothing to choose now and
// no expansion in play shows a seat anything of its own (as the Gifts' hand). Such a document is
// the same on every move: the server skips writing and diffing it again.
bool private_doc_is_viewer_only(const game_state& s, int viewer);

// The viewer's own top-level keys: "viewer", and "legal_moves" when that seat must act. Its diff
// paths are valid on the whole view, since its keys never appear in the public part.
nlohmann::json private_view(const game_state& s, int viewer);

}  // namespace carcassonne::protocol
