// `carcassonne bench-matchmaker` (hidden; scripts/bench-matchmaker.sh): the matchmaker's figures
// on a simulated crowd. --seekers N (1,000) arrive uniformly over the first 60 s with mixed
// preferences (seats 2/3/4/any, three expansion sets or any, three time controls or any, rated or
// not or any; ratings ~ normal(1500, 300); bots after 15-45 s for a fifth of them), from a seeded
// generator (--seed S). The pure matchmaker runs every 500 ms of simulated time until --end
// seconds (120), on a simulated clock: nothing sleeps. The matched leave the queue. One JSON line:
// tables and players matched, the wait to a match (median, 95th percentile, simulated seconds),
// the rating gap within a table of players (max - min: median, p95, max), tables with bots, those
// still waiting at the end, and the time spent in the matchmaker (steady clock around each call:
// total, and per tick mean, 95th percentile and max).
#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <ostream>
#include <random>
#include <set>

#include "carcassonne/app/commands.hpp"
#include "competition/matchmaker.hpp"

namespace carcassonne::app {

namespace {

namespace mm = server::competition;

// A choice by weight: `weights` sum to 100.
template <class T>
T weighted(std::mt19937_64& g, const std::vector<std::pair<int, T>>& weights) {
  int roll = std::uniform_int_distribution<int>(0, 99)(g);
  for (const auto& [w, v] : weights) {
    if (roll < w) return v;
    roll -= w;
  }
  return weights.back().second;
}

std::vector<mm::seek> crowd(std::uint64_t seed, int n) {
  using strings = std::vector<std::string>;
  std::mt19937_64 g(seed);
  std::normal_distribution<double> rating(1500, 300);
  std::uniform_int_distribution<std::int64_t> arrival(0, 59'999), bots_wait(15'000, 45'000);
  std::uniform_int_distribution<int> percent(0, 99);
  std::vector<mm::seek> out;
  for (int i = 0; i < n; ++i) {
    mm::seek s;
    s.player = std::to_string(i);
    s.player.insert(s.player.begin(), 'p');  // ("p" + ... trips GCC 12's -Wrestrict)
    s.rating = std::clamp(rating(g), 100.0, 3000.0);
    s.since_ms = arrival(g);
    s.prefs.seats = weighted<std::optional<int>>(g, {{60, 2}, {15, 3}, {10, 4}, {15, {}}});
    s.prefs.expansions = weighted<std::optional<strings>>(g, {{40, strings{}},
                                                              {15, strings{"hills_and_sheep"}},
                                                              {10, strings{"festival", "gifts"}},
                                                              {35, std::nullopt}});
    s.prefs.time_control = weighted<std::optional<std::string>>(
        g, {{45, "rapid"}, {25, "blitz"}, {10, "classical"}, {20, std::nullopt}});
    s.prefs.rated = weighted<std::optional<bool>>(g, {{60, true}, {15, false}, {25, {}}});
    if (percent(g) < 20) s.prefs.bot_after_ms = bots_wait(g);
    out.push_back(std::move(s));
  }
  return out;
}

double quantile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5)];
}

}  // namespace

int run_bench_matchmaker(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  int seekers = 1000;
  std::uint64_t seed = 1;
  std::int64_t end_ms = 120'000;
  for (std::size_t i = 0; i + 1 < args.size(); i += 2) {
    if (args[i] == "--seekers") seekers = std::stoi(args[i + 1]);
    if (args[i] == "--seed") seed = std::stoull(args[i + 1]);
    if (args[i] == "--end") end_ms = 1000 * std::stoll(args[i + 1]);
  }
  if (seekers < 1 || end_ms < 0 || args.size() % 2 != 0) {
    err << "usage: carcassonne bench-matchmaker [--seekers N] [--seed S] [--end SECONDS]\n";
    return 1;
  }
  auto all = crowd(seed, seekers);
  std::sort(all.begin(), all.end(),
            [](const auto& a, const auto& b) { return a.since_ms < b.since_ms; });
  const mm::window_rules rules;
  const std::vector<mm::bot_option> bots{{"random", 800}, {"greedy", 1300}, {"strong", 1800}};

  std::vector<mm::seek> queue;
  std::size_t arrived = 0, tables = 0, bot_tables = 0, matched = 0, longest_queue = 0;
  std::vector<double> waits_s, gaps, tick_us;
  for (std::int64_t now = 0; now <= end_ms; now += 500) {
    while (arrived < all.size() && all[arrived].since_ms <= now) queue.push_back(all[arrived++]);
    longest_queue = std::max(longest_queue, queue.size());
    const auto t0 = std::chrono::steady_clock::now();
    const auto made = mm::find_matches(queue, now, rules, bots);
    tick_us.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
    std::set<std::string> gone;
    for (const auto& m : made) {
      ++tables;
      if (!m.bots.empty()) ++bot_tables;
      double lo = 1e9, hi = -1e9;
      for (const auto& p : m.players) {
        const auto& s = *std::find_if(queue.begin(), queue.end(),
                                      [&](const mm::seek& q) { return q.player == p; });
        waits_s.push_back(static_cast<double>(now - s.since_ms) / 1000.0);
        lo = std::min(lo, s.rating), hi = std::max(hi, s.rating);
        gone.insert(p);
      }
      if (m.players.size() >= 2) gaps.push_back(hi - lo);
    }
    matched += gone.size();
    std::erase_if(queue, [&](const mm::seek& s) { return gone.contains(s.player); });
  }
  double total_us = 0;
  for (const auto t : tick_us) total_us += t;
  const auto round = [](double v) { return std::round(v * 10) / 10; };
  nlohmann::json result{
      {"seekers", seekers},
      {"seed", seed},
      {"simulated_s", end_ms / 1000},
      {"ticks", tick_us.size()},
      {"matched", matched},
      {"tables", tables},
      {"bot_tables", bot_tables},
      {"waiting_at_end", queue.size() + (all.size() - arrived)},
      {"longest_queue", longest_queue},
      {"wait_s",
       {{"median", round(quantile(waits_s, 0.5))}, {"p95", round(quantile(waits_s, 0.95))}}},
      {"table_gap",
       {{"median", round(quantile(gaps, 0.5))},
        {"p95", round(quantile(gaps, 0.95))},
        {"max", round(quantile(gaps, 1.0))}}},
      {"cpu",
       {{"total_ms", round(total_us / 1000)},
        {"tick_mean_us", round(total_us / static_cast<double>(tick_us.size()))},
        {"tick_p95_us", round(quantile(tick_us, 0.95))},  // the max is the one preempted
        {"tick_max_us", round(*std::max_element(tick_us.begin(), tick_us.end()))}}}};
  out << result.dump() << "\n";
  return 0;
}

}  // namespace carcassonne::app
