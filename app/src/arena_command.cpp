// arena: bots against bots (docs/bots.md). Game g is seeded with "S/g" and bot i of the list
// sits at seat (i + g) mod P, so every bot plays every seat in turn; the bots' own seeds come
// from a generator seeded with "S/bots", so a run is reproducible. With --benchmark the seeds are
// the published list ("benchmark/1", "benchmark/2"...) and each is played twice, seats swapped,
// so both bots get the same tiles from both seats.
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <ostream>
#include <sstream>
#include <utility>

#include "carcassonne/app/commands.hpp"
#include "carcassonne/engine/bot.hpp"
#include "carcassonne/engine/ladder.hpp"
#include "carcassonne/protocol/json_codec.hpp"
#include "game_options.hpp"

namespace carcassonne::app {

namespace {

using protocol::json;

struct bot_tally {
  std::string name;
  bot_level level{};
  std::optional<ladder_step> step;  // a candidate ladder step ("greedy/r60"), played as one
  long long wins = 0;               // sole first place
  long long ties = 0;               // shared first place (half a win)
  long long score_sum = 0;
  long long moves = 0;
  double think_seconds = 0, slowest = 0;  // time in choose_move
};

// Wilson's score interval at 95% for `wins` of `n` (ties counted as half a win before): unlike the
// normal approximation it stays inside [0, 1] and is honest near 0% and 100%.
std::pair<double, double> wilson95(double wins, double n) {
  if (n <= 0) return {0, 1};
  constexpr double z = 1.959963984540054;
  const double p = wins / n, z2n = z * z / n;
  const double center = (p + z2n / 2) / (1 + z2n);
  const double half = z / (1 + z2n) * std::sqrt(p * (1 - p) / n + z2n / (4 * n));
  return {std::max(0.0, center - half), std::min(1.0, center + half)};
}

// --benchmark's tables: the base game, or every expansion offered to players.
bool benchmark_table(const std::string& name, game_options& o) {
  if (name == "base") return true;
  if (name != "all") return false;
  for (int e = 0; e < player_expansion_count; ++e) {
    const auto x = static_cast<expansion>(e);
    o.setup.expansions.add(x);
    o.expansion_list.push_back(std::string(expansion_name(x)));
  }
  return true;
}

// A --bots entry: a level's name, or a candidate ladder step, an algorithm (random, greedy or
// strong) followed by "/rN" (N of a thousand decisions uniformly random) and/or "/pN" (strong: N
// playouts a move, capped by --playouts), e.g. "greedy/r60" or "strong/p150".
std::optional<bot_tally> bot_entry(const std::string& entry) {
  const auto slash = entry.find('/');
  const auto level = bot_level_from_name(entry.substr(0, slash));
  if (!level) return std::nullopt;
  bot_tally t;
  t.name = entry;
  t.level = *level;
  if (slash == std::string::npos) return t;
  if (*level != bot_level::random && *level != bot_level::greedy && *level != bot_level::strong)
    return std::nullopt;
  ladder_step step{*level, *level};
  step.playouts = *level == bot_level::strong ? bot_budget{}.playouts : 0;
  if (slash + 1 == entry.size()) return std::nullopt;
  std::stringstream parts(entry.substr(slash + 1));
  for (std::string part; std::getline(parts, part, '/');) {
    long long n = 0;
    if (part.size() < 2 || !parse_count(part.substr(1), 0, 100'000'000, n)) return std::nullopt;
    if (part[0] == 'r' && n <= 1000)
      step.random_permille = static_cast<int>(n);
    else if (part[0] == 'p' && *level == bot_level::strong)
      step.playouts = static_cast<int>(n);
    else
      return std::nullopt;
  }
  t.step = step;
  return t;
}

}  // namespace

int run_arena(std::span<const std::string> args, std::ostream& out, std::ostream& err) {
  long long playouts = bot_budget{}.playouts;
  long long simulations = bot_budget{}.simulations;
  long long determinizations = bot_budget{}.determinizations;
  long long think_ms = 0;  // 0: the budgets above; else every bot thinks this long per move
  std::string benchmark;   // "", "base" or "all"
  game_options o;
  o.games = 100;
  o.players = 0;  // as many as bots
  std::vector<bot_tally> bots;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const bool has_value = i + 1 < args.size();
    if (args[i] == "--bots" && has_value) {
      std::stringstream list(args[++i]);
      for (std::string name; std::getline(list, name, ',');) {
        auto bot = bot_entry(name);
        if (!bot) {
          err << "carcassonne arena: unknown bot level '" << name
              << "' (random, greedy, strong, ismcts, a ladder level, or e.g. greedy/r60, "
                 "strong/p150)\n";
          return 1;
        }
        bots.push_back(std::move(*bot));
      }
    } else if (args[i] == "--playouts" && has_value) {
      if (!parse_count(args[++i], 0, 100'000'000, playouts)) {
        err << "carcassonne arena: --playouts takes a number\n";
        return 1;
      }
    } else if (args[i] == "--simulations" && has_value) {
      if (!parse_count(args[++i], 1, 100'000'000, simulations)) {
        err << "carcassonne arena: --simulations takes a number\n";
        return 1;
      }
    } else if (args[i] == "--determinizations" && has_value) {
      if (!parse_count(args[++i], 1, 10'000, determinizations)) {
        err << "carcassonne arena: --determinizations takes a number\n";
        return 1;
      }
    } else if (args[i] == "--think-ms" && has_value) {
      if (!parse_count(args[++i], 1, 600'000, think_ms)) {
        err << "carcassonne arena: --think-ms takes a number of milliseconds\n";
        return 1;
      }
    } else if (args[i] == "--benchmark" && has_value) {
      benchmark = args[++i];
      if (!benchmark_table(benchmark, o)) {
        err << "carcassonne arena: --benchmark takes base or all\n";
        return 1;
      }
    } else if (const auto read = read_game_option(args, i, o, "arena", 1, err);
               read == option_read::failed) {
      return 1;
    } else if (read == option_read::not_shared) {
      err << "carcassonne arena: unexpected argument '" << args[i] << "'\n";
      return 1;
    }
  }
  if (!benchmark.empty() &&
      (bots.size() != 2 || (o.players != 0 && o.players != 2) || o.games % 2 != 0)) {
    err << "carcassonne arena: --benchmark plays two bots, two seats, an even number of games\n";
    return 1;
  }
  const long long games = o.games;
  long long players = o.players;
  const std::string& seed = o.seed;
  game_setup& setup = o.setup;
  const json& expansion_list = o.expansion_list;
  if (bots.empty()) {
    err << "carcassonne arena: --bots takes a list of levels, e.g. strong,greedy\n";
    return 1;
  }
  if (players == 0) players = static_cast<long long>(bots.size());
  if (players < min_seats || players > max_seats || static_cast<long long>(bots.size()) > players) {
    err << "carcassonne arena: 2 to 6 seats, and no more bots than seats (--players)\n";
    return 1;
  }
  setup.seats = static_cast<int>(players);
  const auto bot_count = static_cast<long long>(bots.size());

  rng bot_seeds = rng::from_string(seed + "/bots");
  bot_budget budget{static_cast<int>(playouts),
                    {},
                    static_cast<int>(simulations),
                    static_cast<int>(determinizations)};
  std::chrono::steady_clock::time_point deadline;
  if (think_ms > 0) {  // the same time for every bot: the searches stop at it, not at a count
    budget.playouts = budget.simulations = std::numeric_limits<int>::max();
    budget.stop = [&deadline] { return std::chrono::steady_clock::now() >= deadline; };
  }
  long long moves = 0, total_playouts = 0;
  const auto start = std::chrono::steady_clock::now();
  for (long long g = 0; g < games; ++g) {
    setup.seed = benchmark.empty() ? seed + "/" + std::to_string(g)
                                   : "benchmark/" + std::to_string(g / 2 + 1);
    auto game = new_game(setup);
    if (!game) {
      err << "carcassonne arena: " << game.err().message << '\n';
      return 2;
    }
    game_state& s = game.value();
    // Seat k is played by bot (k - g) mod P of the list, cycled when seats outnumber bots.
    const auto bot_at = [&](int seat) {
      return static_cast<std::size_t>(((seat - g) % players + players) % players % bot_count);
    };
    while (!s.finished) {
      const seat_t seat = to_act(s);
      auto& bot = bots[bot_at(seat)];
      const auto thinking = std::chrono::steady_clock::now();
      deadline = thinking + std::chrono::milliseconds(think_ms);
      const auto info = information_set_of(s, seat);
      const auto choice = bot.step ? ladder_move(info, *bot.step, bot_seeds.next(), budget)
                                   : choose_move(info, bot.level, bot_seeds.next(), budget);
      const double took =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - thinking).count();
      ++bot.moves;
      bot.think_seconds += took;
      bot.slowest = std::max(bot.slowest, took);
      if (auto st = apply_in_place(s, choice.chosen); !st) {
        err << "carcassonne arena: a bot's move was refused: " << st.err().message << '\n';
        return 3;
      }
      ++moves;
      total_playouts += choice.playouts;
    }
    int best = s.players[0].score, at_best = 0;
    for (int k = 0; k < s.seats; ++k) best = std::max(best, s.players[k].score);
    for (int k = 0; k < s.seats; ++k) at_best += s.players[k].score == best;
    for (int k = 0; k < s.seats; ++k) {
      auto& b = bots[bot_at(k)];
      b.score_sum += s.players[k].score;
      if (s.players[k].score == best) ++(at_best == 1 ? b.wins : b.ties);
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  json per_bot = json::array();
  for (std::size_t i = 0; i < bots.size(); ++i) {
    const auto& b = bots[i];
    // Seats this entry played in all (several seats per game when the list is cycled).
    long long seats_played = 0;
    for (long long k = 0; k < players; ++k)
      seats_played += k % bot_count == static_cast<long long>(i);
    const double n = static_cast<double>(games * seats_played);
    const double rate = (b.wins + 0.5 * b.ties) / n;
    const auto [low, high] = wilson95(b.wins + 0.5 * b.ties, n);
    per_bot.push_back({{"bot", b.name},
                       {"wins", b.wins},
                       {"ties", b.ties},
                       {"mean_score", b.score_sum / n},
                       {"win_rate", rate},
                       {"move_seconds_mean", b.moves > 0 ? b.think_seconds / b.moves : 0.0},
                       {"move_seconds_max", b.slowest},
                       {"win_rate_ci95", {low, high}}});
  }
  json result{{"games", games},
              {"players", players},
              {"expansions", expansion_list},
              {"playouts", playouts},
              {"simulations", simulations},
              {"determinizations", determinizations},
              {"think_ms", think_ms},
              {"benchmark", benchmark.empty() ? json() : json(benchmark)},
              {"seed", seed},
              {"bots", per_bot},
              {"moves", moves},
              {"seconds", seconds},
              {"moves_per_second", seconds > 0 ? moves / seconds : 0.0},
              {"playouts_per_second", seconds > 0 ? total_playouts / seconds : 0.0}};
  out << result.dump() << '\n';
  return 0;
}

}  // namespace carcassonne::app
