// ismcts: a reference opponent built like the strongest published Carcassonne bot (meeple.cat's
// "Hard"): single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse
// 2012) with a fixed number of simulations over a fixed pool of determinizations. One tree over the
// seat's information set; each simulation takes the next determinization of the pool, descends by
// UCB1 among the children its world allows (availability counts), adds one child, plays the
// rollout policy to the end of the game and credits each node with the final result of the seat
// that chose it. The move is the most visited child of the root.
#include <cmath>
#include <limits>

#include "determinize.hpp"
#include "evaluate.hpp"
#include "levels.hpp"
#include "simulate.hpp"

namespace carcassonne::bots {

namespace {

// UCB1's exploration constant for rewards in [0, 1] (the textbook sqrt(2) / 2 of Kocsis and
// Szepesvári for [0, 1] rewards, as Cowling et al. use it).
constexpr double exploration = 0.7;

struct node {
  move chosen{};  // the move from the parent (nothing at the root)
  seat_t mover = 0;
  int parent = -1;
  std::vector<int> children;
  double total = 0;  // the mover's rewards
  int visits = 0;
  int available = 0;  // simulations in which this move was legal at the parent
};

class tree {
 public:
  tree() { nodes_.push_back({}); }
  node& at(int i) { return nodes_[static_cast<std::size_t>(i)]; }

  int child_for(int parent, const move& m) {
    for (int c : at(parent).children)
      if (at(c).chosen == m) return c;
    return -1;
  }
  int add(int parent, const move& m, seat_t mover) {
    nodes_.push_back({m, mover, parent, {}, 0, 0, 1});
    const int i = static_cast<int>(nodes_.size()) - 1;
    at(parent).children.push_back(i);
    return i;
  }

 private:
  std::vector<node> nodes_;
};

double ucb(const node& n) {
  return n.total / n.visits +
         exploration * std::sqrt(std::log(static_cast<double>(n.available)) / n.visits);
}

// The final result of every seat: evaluate() of the ended game (the score margin over the best
// other seat) through the same logistic as `strong`'s outcome.
std::vector<double> results(const game_state& g) {
  std::vector<double> r(static_cast<std::size_t>(g.seats));
  for (int k = 0; k < g.seats; ++k)
    r[static_cast<std::size_t>(k)] = outcome(g, static_cast<seat_t>(k));
  return r;
}

// One simulation in `world`: selection and expansion from the root, rollout, back-propagation.
void simulate_once(tree& t, game_state world, rng& r, std::vector<move>& moves) {
  int at = 0;
  while (!world.finished) {
    legal_actions(world, moves);
    std::vector<int> allowed;
    std::vector<std::size_t> untried;
    for (std::size_t i = 0; i < moves.size(); ++i) {
      const int c = t.child_for(at, moves[i]);
      if (c < 0)
        untried.push_back(i);
      else
        allowed.push_back(c);
    }
    for (int c : allowed) ++t.at(c).available;
    const seat_t mover = world.deciding;
    if (!untried.empty()) {  // expansion: one new child, then the rollout
      const move m = moves[untried[r.below(untried.size())]];
      at = t.add(at, m, mover);
      play(world, m);
      break;
    }
    int best = allowed.front();
    double best_value = -std::numeric_limits<double>::infinity();
    for (int c : allowed)
      if (const double v = ucb(t.at(c)); v > best_value) best_value = v, best = c;
    at = best;
    play(world, t.at(at).chosen);
  }
  play_out(world, std::numeric_limits<int>::max() / 2, r, moves);
  const auto reward = results(world);
  for (int i = at; i > 0; i = t.at(i).parent) {
    node& n = t.at(i);
    ++n.visits;
    n.total += reward[n.mover];
  }
  ++t.at(0).visits;
}

}  // namespace

bot_choice choose_ismcts(const information_set& info, std::uint64_t seed,
                         const bot_budget& budget) {
  const auto moves = legal_actions(info.state);
  if (moves.size() == 1) return {moves[0], 0};
  rng r(seed);
  std::vector<game_state> worlds;
  for (int d = 0; d < std::max(1, budget.determinizations); ++d)
    worlds.push_back(determinize(info, r));
  tree t;
  std::vector<move> buffer;
  int done = 0;
  for (; done < budget.simulations; ++done) {
    if (budget.stop && budget.stop()) break;
    simulate_once(t, worlds[static_cast<std::size_t>(done) % worlds.size()], r, buffer);
  }
  // The most visited move the real position allows (every root child is one of its moves: the
  // seat's own decision is never hidden from it); the best mean breaks ties.
  int best = -1;
  for (int c : t.at(0).children) {
    const node& n = t.at(c);
    if (best < 0 || n.visits > t.at(best).visits ||
        (n.visits == t.at(best).visits &&
         n.total / std::max(1, n.visits) > t.at(best).total / std::max(1, t.at(best).visits)))
      best = c;
  }
  if (best < 0) return {moves[r.below(moves.size())], done};
  return {t.at(best).chosen, done};
}

}  // namespace carcassonne::bots
