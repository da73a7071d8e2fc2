// Hills & Sheep: the expansion's own state (the sheep bag, the flocks, scripted draws).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "carcassonne/engine/types.hpp"

namespace carcassonne::hills_and_sheep {

// The 18 tokens of the bag (rules/hills_and_sheep.md §1), by kind; record ids in token_names.
enum class token : std::uint8_t { sheep1, sheep2, sheep3, sheep4, wolf };
inline constexpr int token_kinds = 5;
inline constexpr std::array<std::string_view, token_kinds> token_names{"sheep1", "sheep2", "sheep3",
                                                                       "sheep4", "wolf"};
inline constexpr std::array<std::uint8_t, token_kinds> tokens_in_box{4, 5, 5, 2, 2};
// Sheep on a token of each kind (a wolf is worth nothing).
inline constexpr std::array<int, token_kinds> sheep_on{1, 2, 3, 4, 0};
using token_counts = std::array<std::uint8_t, token_kinds>;

// Tokens left on a field whose shepherd a Festival tile took back (festival.shepherd_flock =
// "stays"): no one owns them until a shepherd stands on that field again.
struct ownerless_flock {
  std::uint16_t at = 0;  // a segment of the field
  token_counts tokens{};
  friend bool operator==(const ownerless_flock&, const ownerless_flock&) = default;
};

struct state {
  token_counts bag{};                           // tokens in the bag; draws are uniform over them
  std::array<token_counts, max_seats> flock{};  // tokens lying next to each seat's shepherd
  std::uint8_t on_board = 0;                    // bit per seat whose shepherd is on the board
  std::array<std::uint16_t, max_seats> at{};    // the segment each shepherd on the board stands on
  std::vector<ownerless_flock> ownerless;       // flocks without a shepherd (Festival)
  std::vector<std::uint8_t> script;             // scripted draws (setup.script.sheep), hidden
  std::uint16_t script_next = 0;
  bool scripted = false;

  std::size_t heap_bytes() const {
    return script.capacity() + ownerless.capacity() * sizeof(ownerless_flock);
  }
  friend bool operator==(const state&, const state&) = default;
};

}  // namespace carcassonne::hills_and_sheep
