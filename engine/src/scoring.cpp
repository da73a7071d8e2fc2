#include "carcassonne/engine/scoring.hpp"

#include <algorithm>
#include <array>
#include <vector>

#include "bits.hpp"
#include "carcassonne/engine/expansion.hpp"

namespace carcassonne {

namespace {

void emit(event_log* events, event e) {
  if (events) events->push_back(e);
}

// Counts the distinct values added to it; the usual handful stay on the stack (end scoring asks
// for every held feature, and a heap vector each time cost more than the counting).
class distinct_counter {
 public:
  void add(std::uint16_t v) {
    if (n_ < local_.size()) {
      local_[n_++] = v;
      return;
    }
    if (more_.empty()) more_.assign(local_.begin(), local_.end());
    more_.push_back(v);
    ++n_;
  }
  int count() {
    auto* first = more_.empty() ? local_.data() : more_.data();
    std::sort(first, first + n_);
    return static_cast<int>(std::unique(first, first + n_) - first);
  }

 private:
  std::array<std::uint16_t, 64> local_;
  std::vector<std::uint16_t> more_;
  std::size_t n_ = 0;
};

// Base 5, fields: 3 points per completed city bordering the field, each city counted once.
int field_value(const game_state& s, segment_t root) {
  distinct_counter cities;
  s.features.for_each_member(root, [&](segment_t seg) {
    const auto& n = s.features.node(seg);
    const auto& pt = s.board.placed()[n.tile];
    const auto borders = tiles()[pt.type].segments[n.local].borders;
    for (int i = 0; i < max_segments_per_tile; ++i) {
      if (!(borders >> i & 1)) continue;
      const auto city = s.features.root(static_cast<segment_t>(pt.first_segment + i));
      if (s.features.data(city).scored) cities.add(city);
    }
  });
  return 3 * cities.count();
}

}  // namespace

void award(game_state& s, segment_t root, std::uint8_t seats, int points, bool final,
           event_log* events) {
  for (int seat = 0; seat < s.seats; ++seat) {
    if (!(seats >> seat & 1)) continue;
    s.players[seat].score += points;
    emit(events, at_segment(s, root,
                            event{.type = event_type::points,
                                  .seat = static_cast<seat_t>(seat),
                                  .final = final,
                                  .points = points}));
  }
}

// Base 4.3.3: every follower on a scored feature goes back to its owner's supply.
void return_followers(game_state& s, segment_t root, event_log* events) {
  auto& d = s.features.data(root);
  auto kept = s.figures.begin();
  for (auto& f : s.figures) {
    if (s.features.root(f.segment) != root) {
      *kept++ = f;
      continue;
    }
    if (f.type == figure_type::meeple) {
      ++s.players[f.seat].followers;
      --d.followers[f.seat];
    }
    emit(events,
         at_segment(s, f.segment,
                    event{.type = event_type::figure_returned, .seat = f.seat, .figure = f.type}));
  }
  s.figures.erase(kept, s.figures.end());
}

void return_follower(game_state& s, std::size_t index, event_log* events) {
  const auto f = s.figures[index];
  ++s.players[f.seat].followers;
  --s.features.data(s.features.root(f.segment)).followers[f.seat];
  emit(events,
       at_segment(s, f.segment,
                  event{.type = event_type::figure_returned, .seat = f.seat, .figure = f.type}));
  s.figures.erase(s.figures.begin() + static_cast<std::ptrdiff_t>(index));
}

event at_segment(const game_state& s, segment_t seg, event e) {
  const auto& n = s.features.node(seg);
  const auto& pt = s.board.placed()[n.tile];
  e.at = pt.pos;
  e.tile = pt.type;
  e.feature = n.local;
  e.kind = s.features.data(s.features.root(seg)).kind;
  return e;
}

int find_figure(const game_state& s, seat_t seat, figure_type type, segment_t seg) {
  int found = -1;
  for (std::size_t i = 0; i < s.figures.size(); ++i) {
    const auto& f = s.figures[i];
    if (f.seat != seat || f.type != type || f.segment != seg) continue;
    if (f.mark == 0) return static_cast<int>(i);
    if (found < 0) found = static_cast<int>(i);
  }
  return found;
}

std::uint8_t majority(const game_state& s, segment_t root) {
  const auto& d = s.features.data(root);
  const int best = *std::max_element(d.followers.begin(), d.followers.end());
  if (best == 0) return 0;
  std::uint8_t tied = 0;
  for (int seat = 0; seat < s.seats; ++seat)
    if (d.followers[seat] == best) tied = static_cast<std::uint8_t>(tied | 1 << seat);
  return tied;
}

std::uint8_t owners(const game_state& s, segment_t root) {
  auto tied = majority(s, root);
  if (detail::count_bits8(tied) > 1)
    for (const auto* m : active_modules(s))
      if (m->narrow_owners) tied = m->narrow_owners(s, root, tied);
  return tied;
}

int distinct_tiles(const game_state& s, segment_t root) {
  distinct_counter squares;
  s.features.for_each_member(root, [&](segment_t seg) { squares.add(s.features.node(seg).tile); });
  return squares.count();
}

int feature_value(const game_state& s, segment_t root, bool at_game_end) {
  const auto& d = s.features.data(root);
  switch (d.kind) {
    case feature_kind::road:
      return distinct_tiles(s, root);
    case feature_kind::city: {
      const int per = at_game_end ? 1 : 2;
      return per * (distinct_tiles(s, root) + d.pennants);
    }
    case feature_kind::monastery:
      return 1 + s.board.placed()[s.features.node(root).tile].surrounding;
    case feature_kind::field:
      return field_value(s, root);
  }
  return 0;
}

void score_completed(game_state& s, segment_t root, event_log* events) {
  auto& d = s.features.data(root);
  d.scored = true;
  int value = feature_value(s, root, false);
  for (const auto* m : active_modules(s))
    if (m->completion_bonus) value += m->completion_bonus(s, root);
  const auto who = owners(s, root);
  emit(events,
       at_segment(s, root,
                  event{.type = event_type::feature_completed, .owners = who, .points = value}));
  award(s, root, who, value, false, events);
  return_followers(s, root, events);
}

void score_game_end(game_state& s, event_log* events) {
  // README "End of game": roads, cities, monasteries, then fields; each in board order. One scan
  // finds the unfinished features with followers (scoring them changes no feature), then each
  // kind is scored from that short list.
  constexpr feature_kind order[] = {feature_kind::road, feature_kind::city, feature_kind::monastery,
                                    feature_kind::field};
  std::vector<segment_t> held;
  for (std::size_t i = 0; i < s.features.size(); ++i) {
    const auto seg = static_cast<segment_t>(i);
    if (s.features.node(seg).parent != seg) continue;  // not a root
    const auto& d = s.features.data(seg);
    if (!d.scored && d.follower_total() != 0) held.push_back(seg);
  }
  for (const auto kind : order) {
    for (const auto seg : held) {
      if (s.features.data(seg).kind != kind) continue;
      const int value = feature_value(s, seg, true);
      if (value > 0) award(s, seg, owners(s, seg), value, true, events);
    }
  }
  for (const auto* m : active_modules(s))
    if (m->final_scoring) m->final_scoring(s, events);
}

}  // namespace carcassonne
