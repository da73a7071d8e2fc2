#include "random_ids.hpp"

#include <random>

namespace carcassonne::server {

std::string random_hex(int hex_digits) {
  thread_local std::mt19937_64 generator{[] {
    std::random_device device;
    std::seed_seq seq{device(), device(), device(), device(),
                      device(), device(), device(), device()};
    return std::mt19937_64(seq);
  }()};
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(hex_digits);
  while (static_cast<int>(out.size()) < hex_digits) {
    auto word = generator();
    for (int i = 0; i < 16 && static_cast<int>(out.size()) < hex_digits; ++i, word >>= 4)
      out.push_back(digits[word & 15]);
  }
  return out;
}

}  // namespace carcassonne::server
