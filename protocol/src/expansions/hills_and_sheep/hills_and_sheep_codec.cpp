// Hills & Sheep on the wire: the flock move ("choice": expand or herd), the token drawn, and the
// flocks scored or lost (game-record.md, docs/protocol.md).
#include "codec_parts.hpp"
#include "hills_and_sheep/hills_and_sheep.hpp"
#include "hills_and_sheep/id.hpp"

namespace carcassonne::protocol {

namespace {

namespace hs = carcassonne::hills_and_sheep;

constexpr std::array<std::string_view, 2> flock_names{"expand", "herd"};

void read_flock(move_reader& r, const game_state&, move& m) {
  std::string choice;
  if (!r.string("choice", choice)) return;
  const int c = find_name(flock_names, choice);
  if (c < 0) r.fail("malformed_move", "choice must be expand or herd");
  m.choice = static_cast<std::uint8_t>(c < 0 ? 0 : c);
}
void write_flock(move_writer& w) {
  w.field("choice", json_string(flock_names[w.m.choice & 1]));
}

void token_keys(const event& e, event_writer& w) {
  w.string("token", hs::token_names.at(e.value));
}
void flock_keys(const event& e, event_writer& w) {
  write_feature_at(e, w);
  w.number("points", e.points);
  w.seats("seats", e.owners);
}

constexpr std::array<move_codec, 1> moves{{{hs::move_flock, read_flock, write_flock}}};
constexpr std::array<event_codec, 3> events{{
    {hs::event_token_drawn, token_keys},
    {hs::event_flock_scored, flock_keys},
    {hs::event_flock_lost, flock_keys},
}};

// The tiles put under hills (no event names them: the apply appended them to out_of_play, so the
// last ones there are this apply's, in order) and the tokens drawn, each with the bag's counts
// that its draw was uniform over.
void outcomes(const game_state& after, const event_log& log, bool, placed_outcomes& out) {
  std::size_t hidden = 0;
  for (const auto& e : log)
    if (e.type == hs::event_tile_hidden) ++hidden;
  const auto& aside = after.out_of_play;
  std::size_t next = aside.size() - std::min(hidden, aside.size());
  for (std::size_t i = 0; i < log.size(); ++i) {
    const auto& e = log[i];
    if (e.type == hs::event_tile_hidden && next < aside.size())
      out.push_back({i + 1, {{"hill", tiles()[aside[next++]].id}}});
    if (e.type == hs::event_token_drawn && e.value < hs::token_kinds)
      out.push_back({i + 1, {{"sheep", hs::token_names[e.value]}, {"bag", hs::bag_before(e)}}});
  }
}

}  // namespace

namespace codecs {
extern const expansion_codec hills_and_sheep{hills_and_sheep::id, moves, events, {}, outcomes};
}  // namespace codecs

}  // namespace carcassonne::protocol
