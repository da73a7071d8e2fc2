#include "competition/matchmaker.hpp"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>

namespace carcassonne::server::competition {

namespace {

template <class T>
bool agree(const std::optional<T>& a, const std::optional<T>& b) {
  return !a || !b || *a == *b;
}

// The preferences a group has settled: each one the first member's that states it.
void settle_into(seek_prefs& group, const seek_prefs& member) {
  if (!group.seats) group.seats = member.seats;
  if (!group.expansions) group.expansions = member.expansions;
  if (!group.time_control) group.time_control = member.time_control;
  if (!group.rated) group.rated = member.rated;
  if (!group.best_of) group.best_of = member.best_of;
}

bool bots_due(const seek& s, std::int64_t now_ms) {
  return s.prefs.bot_after_ms > 0 && now_ms - s.since_ms >= s.prefs.bot_after_ms;
}

std::string nearest_bot(std::span<const bot_option> bots, double rating) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < bots.size(); ++i)
    if (std::abs(bots[i].rating - rating) < std::abs(bots[best].rating - rating)) best = i;
  return bots[best].level;
}

// One seeker of the tick: its seek, its window now, and whether it is still free.
struct candidate {
  const seek* s;
  double window;
  bool free = true;
};

bool fits(const candidate& a, const candidate& b) {
  return std::abs(a.s->rating - b.s->rating) <= std::min(a.window, b.window);
}

// The group `first` starts: free compatible seekers by distance to its rating, each added when
// it agrees with what the group settled and fits every member's window. Indices into `all`.
std::vector<std::size_t> gather(std::vector<candidate>& all, std::size_t first,
                                seek_prefs& settled) {
  std::vector<std::size_t> group{first};
  settled = {};
  settle_into(settled, all[first].s->prefs);
  std::vector<std::size_t> near;
  for (std::size_t i = 0; i < all.size(); ++i)
    if (i != first && all[i].free && compatible(all[first].s->prefs, all[i].s->prefs) &&
        fits(all[first], all[i]))
      near.push_back(i);
  const double r = all[first].s->rating;
  std::stable_sort(near.begin(), near.end(), [&](std::size_t a, std::size_t b) {
    return std::abs(all[a].s->rating - r) < std::abs(all[b].s->rating - r);
  });
  for (const auto i : near) {
    if (static_cast<int>(group.size()) >= settled.seats.value_or(2)) break;
    if (!compatible(settled, all[i].s->prefs)) continue;
    if (!std::all_of(group.begin(), group.end(),
                     [&](std::size_t m) { return fits(all[m], all[i]); }))
      continue;
    group.push_back(i);
    settle_into(settled, all[i].s->prefs);
  }
  return group;
}

match table_of(const std::vector<candidate>& all, std::vector<std::size_t> group,
               seek_prefs settled, std::span<const bot_option> bots) {
  std::sort(group.begin(), group.end());  // `all` is oldest first: seat order
  match m;
  double sum = 0;
  for (const auto i : group) {
    m.players.push_back(all[i].s->player);
    sum += all[i].s->rating;
  }
  const int seats = settled.seats.value_or(2);
  if (static_cast<int>(group.size()) < seats) {
    const auto level = nearest_bot(bots, sum / static_cast<double>(group.size()));
    m.bots.assign(static_cast<std::size_t>(seats) - group.size(), level);
  }
  m.settled.seats = seats;
  m.settled.expansions = settled.expansions.value_or(std::vector<std::string>{});
  m.settled.time_control = settled.time_control.value_or("rapid");
  m.settled.rated = m.bots.empty() && settled.rated.value_or(true);
  m.settled.best_of = m.bots.empty() ? settled.best_of.value_or(1) : 1;
  return m;
}

}  // namespace

double window_of(const seek& s, std::int64_t now_ms, const window_rules& w) {
  const auto seconds = std::max<std::int64_t>(0, now_ms - s.since_ms) / 1000;
  return std::min(w.max, w.base + w.per_second * static_cast<double>(seconds));
}

bool compatible(const seek_prefs& a, const seek_prefs& b) {
  return agree(a.seats, b.seats) && agree(a.expansions, b.expansions) &&
         agree(a.time_control, b.time_control) && agree(a.rated, b.rated) &&
         agree(a.best_of, b.best_of);
}

std::vector<match> find_matches(std::span<const seek> queue, std::int64_t now_ms,
                                const window_rules& rules, std::span<const bot_option> bots) {
  std::vector<const seek*> order;
  for (const auto& s : queue)
    if (!s.prefs.seats || (*s.prefs.seats >= 2 && *s.prefs.seats <= 6)) order.push_back(&s);
  // The queue's order is the reader's: sort, so that every instance decides alike.
  std::sort(order.begin(), order.end(), [](const seek* a, const seek* b) {
    return a->since_ms != b->since_ms ? a->since_ms < b->since_ms : a->player < b->player;
  });
  std::vector<candidate> all;
  std::set<std::string_view> seen;
  for (const auto* s : order)
    if (seen.insert(s->player).second) all.push_back({s, window_of(*s, now_ms, rules)});

  std::vector<match> out;
  for (std::size_t first = 0; first < all.size(); ++first) {
    if (!all[first].free) continue;
    seek_prefs settled;
    auto group = gather(all, first, settled);
    if (static_cast<int>(group.size()) < settled.seats.value_or(2)) {
      if (bots.empty() || !bots_due(*all[first].s, now_ms)) continue;
      std::erase_if(group, [&](std::size_t i) { return !bots_due(*all[i].s, now_ms); });
      // The settled preferences are those of the members who stay.
      settled = {};
      for (const auto i : group) settle_into(settled, all[i].s->prefs);
    }
    for (const auto i : group) all[i].free = false;
    out.push_back(table_of(all, std::move(group), settled, bots));
  }
  return out;
}

nlohmann::json to_json(const seek& s) {
  nlohmann::json j{{"player", s.player},
                   {"name", s.name},
                   {"rating", s.rating},
                   {"since_ms", s.since_ms},
                   {"instance", s.instance},
                   {"nonce", s.nonce},
                   {"bot_after_ms", s.prefs.bot_after_ms}};
  if (s.prefs.seats) j["seats"] = *s.prefs.seats;
  if (s.prefs.expansions) j["expansions"] = *s.prefs.expansions;
  if (s.prefs.time_control) j["time_control"] = *s.prefs.time_control;
  if (s.prefs.rated) j["rated"] = *s.prefs.rated;
  if (s.prefs.best_of) j["best_of"] = *s.prefs.best_of;
  return j;
}

std::optional<seek> seek_from_json(const nlohmann::json& j) {
  if (!j.is_object()) return std::nullopt;
  const auto text = [&](const char* key, std::string& into) {
    const auto it = j.find(key);
    if (it == j.end()) return true;
    if (!it->is_string()) return false;
    into = it->get<std::string>();
    return true;
  };
  const auto integer = [&](const char* key, std::int64_t& into) {
    const auto it = j.find(key);
    if (it == j.end()) return true;
    if (!it->is_number_integer()) return false;
    into = it->get<std::int64_t>();
    return true;
  };
  seek s;
  if (!j.contains("player") || !text("player", s.player) || s.player.empty() ||
      !text("name", s.name) || !text("instance", s.instance) || !text("nonce", s.nonce) ||
      !integer("since_ms", s.since_ms) || !integer("bot_after_ms", s.prefs.bot_after_ms))
    return std::nullopt;
  if (const auto it = j.find("rating"); it != j.end()) {
    if (!it->is_number()) return std::nullopt;
    s.rating = it->get<double>();
  }
  // An open preference is absent (or null).
  const auto open = [&](const char* key) { return !j.contains(key) || j[key].is_null(); };
  if (!open("seats")) {
    if (!j["seats"].is_number_integer()) return std::nullopt;
    s.prefs.seats = j["seats"].get<int>();
  }
  if (!open("expansions")) {
    if (!j["expansions"].is_array()) return std::nullopt;
    std::vector<std::string> ids;
    for (const auto& e : j["expansions"]) {
      if (!e.is_string()) return std::nullopt;
      ids.push_back(e.get<std::string>());
    }
    s.prefs.expansions = std::move(ids);
  }
  if (!open("time_control")) {
    if (!j["time_control"].is_string()) return std::nullopt;
    s.prefs.time_control = j["time_control"].get<std::string>();
  }
  if (!open("rated")) {
    if (!j["rated"].is_boolean()) return std::nullopt;
    s.prefs.rated = j["rated"].get<bool>();
  }
  if (!open("best_of")) {
    if (!j["best_of"].is_number_integer()) return std::nullopt;
    s.prefs.best_of = j["best_of"].get<int>();
  }
  return s;
}

}  // namespace carcassonne::server::competition
