#include "ratings/glicko2.hpp"

#include <cmath>
#include <numbers>

namespace carcassonne::server::ratings {

namespace {

// Step 2: the Glicko-2 scale is the Glicko scale over this factor, centred on 1500.
constexpr double scale = 173.7178;
constexpr double centre = 1500.0;
// Step 5: the volatility is found to within this.
constexpr double epsilon = 0.000001;
// The Illinois algorithm converges in a handful of steps; the cap only bounds the loop should
// floating point ever make |B - A| stall above epsilon.
constexpr int max_iterations = 200;

double g(double phi) {
  return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

double expected(double mu, double mu_j, double g_j) {
  return 1.0 / (1.0 + std::exp(-g_j * (mu - mu_j)));
}

// Step 5: the new volatility, the root of f by the Illinois algorithm (regula falsi).
double new_volatility(double phi, double sigma, double v, double delta, double tau) {
  const double a = std::log(sigma * sigma);
  const double phi2 = phi * phi, delta2 = delta * delta;
  auto f = [&](double x) {
    const double ex = std::exp(x);
    const double d = phi2 + v + ex;
    return ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
  };
  double A = a;
  double B;
  if (delta2 > phi2 + v) {
    B = std::log(delta2 - phi2 - v);
  } else {
    int k = 1;
    while (f(a - k * tau) < 0.0) ++k;
    B = a - k * tau;
  }
  double fA = f(A), fB = f(B);
  for (int i = 0; i < max_iterations && std::abs(B - A) > epsilon; ++i) {
    const double C = A + (A - B) * fA / (fB - fA);
    const double fC = f(C);
    if (fC * fB <= 0.0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2.0;
    }
    B = C;
    fB = fC;
  }
  return std::exp(A / 2.0);
}

}  // namespace

rating update(const rating& player, std::span<const result> results, double tau) {
  // Step 2: to the Glicko-2 scale.
  const double mu = (player.r - centre) / scale;
  const double phi = player.rd / scale;
  const double sigma = player.sigma;

  // Steps 3 and 4: the estimated variance v from the results, and the improvement delta / v.
  double information = 0.0;  // 1 / v
  double improvement = 0.0;  // sum of g(phi_j) (s_j - E_j)
  for (const result& res : results) {
    const double mu_j = (res.opponent.r - centre) / scale;
    const double g_j = g(res.opponent.rd / scale);
    const double e = expected(mu, mu_j, g_j);
    information += g_j * g_j * e * (1.0 - e);
    improvement += g_j * (res.score - e);
  }
  // No results (or results so lopsided that they carry no information in a double): step 6
  // alone, the deviation grows by the volatility and nothing else moves.
  if (!(information > 0.0)) {
    return {player.r, scale * std::sqrt(phi * phi + sigma * sigma), sigma};
  }
  const double v = 1.0 / information;
  const double delta = v * improvement;

  // Step 5: the new volatility.
  const double sigma_new = new_volatility(phi, sigma, v, delta, tau);
  // Step 6: the pre-period deviation.
  const double phi_star = std::sqrt(phi * phi + sigma_new * sigma_new);
  // Step 7: the new deviation and rating.
  const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + information);
  const double mu_new = mu + phi_new * phi_new * improvement;
  // Step 8: back to the Glicko scale.
  return {scale * mu_new + centre, scale * phi_new, sigma_new};
}

}  // namespace carcassonne::server::ratings
