// strong: flat Monte Carlo over determinizations. The candidates are the greedy's best turn plans
// (a decision together with the seat's own follow-ups this turn, so that a placement is judged
// with the figure it is played for); successive halving spends the playout budget on them, each
// round playing every surviving candidate from the same determinization with the same rollout
// generator (common random numbers: the candidates differ only by the plan, which sharpens the
// comparison).
#include <algorithm>
#include <cmath>
#include <numeric>

#include "determinize.hpp"
#include "evaluate.hpp"
#include "levels.hpp"
#include "simulate.hpp"

namespace carcassonne::bots {

namespace {

constexpr std::size_t max_candidates = 12;
// A playout is this many rounds of turns, then judged by evaluate() (truncated rollouts: random
// play far ahead says little, and a short one is many times cheaper).
constexpr int rollout_turns = 10;

struct candidate {
  std::size_t index = 0;  // into the plans
  double total = 0;
  int samples = 0;
  double mean() const { return samples > 0 ? total / samples : 0.0; }
};

void rank(std::vector<candidate>& c) {
  std::stable_sort(c.begin(), c.end(),
                   [](const candidate& a, const candidate& b) { return a.mean() > b.mean(); });
}

// Plays the plan's first move, then its follow-ups while the seat still decides this turn and
// the world allows them (a determinized draw may change what is legal); the rollout goes on from
// wherever the plan stops.
void play_plan(game_state& g, const turn_plan& plan, std::vector<move>& buffer) {
  const seat_t seat = g.deciding;
  const auto turn = g.turn;
  play(g, plan.moves[0]);
  for (std::size_t k = 1; k < static_cast<std::size_t>(plan.length); ++k) {
    if (g.finished || g.turn != turn || g.deciding != seat) return;
    legal_actions(g, buffer);
    if (std::find(buffer.begin(), buffer.end(), plan.moves[k]) == buffer.end()) return;
    play(g, plan.moves[k]);
  }
}

}  // namespace

bot_choice choose_strong(const information_set& info, std::uint64_t seed,
                         const bot_budget& budget) {
  const auto moves = legal_actions(info.state);
  if (moves.size() == 1) return {moves[0], 0};
  const auto plans = turn_plans(info.state);
  std::vector<std::size_t> order(plans.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return plans[a].value > plans[b].value; });
  std::vector<candidate> cands;
  for (std::size_t i = 0; i < std::min(max_candidates, order.size()); ++i)
    cands.push_back({order[i]});

  rng r(seed);
  std::vector<move> buffer;
  int playouts = 0;
  const int phases = std::max(1, static_cast<int>(std::ceil(std::log2(cands.size()))));
  bool stopped = false;
  for (int phase = 0; phase < phases && cands.size() > 1 && !stopped; ++phase) {
    const int width = static_cast<int>(cands.size());
    const int rounds = std::max(1, (budget.playouts - playouts) / (phases - phase) / width);
    for (int round = 0; round < rounds; ++round) {
      if (playouts + width > budget.playouts || (budget.stop && budget.stop())) {
        stopped = true;
        break;
      }
      const game_state world = determinize(info, r);
      const std::uint64_t rollout_seed = r.next();
      for (auto& c : cands) {
        game_state g = world;
        play_plan(g, plans[c.index], buffer);
        rng policy(rollout_seed);
        play_out(g, rollout_turns * info.state.seats, policy, buffer);
        c.total += outcome(g, info.seat);
        ++c.samples;
        ++playouts;
      }
    }
    if (cands.front().samples == 0) break;  // no round at all: keep the greedy's order
    rank(cands);
    if (!stopped) cands.resize((cands.size() + 1) / 2);
  }
  return {plans[cands.front().index].moves[0], playouts};
}

}  // namespace carcassonne::bots
