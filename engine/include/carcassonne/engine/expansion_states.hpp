// Every expansion's state, held by game_state without knowing any of them, so that a change to
// one expansion's state rebuilds only the code that uses it. Each state is a plain value in this
// fixed buffer, at its slot's offset; constructing, copying, comparing and destroying them is
// the registry's (engine/expansions/states.cpp, the one file that knows every state type).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <new>

#include "carcassonne/engine/options.hpp"

namespace carcassonne {

// The slot of an expansion's state type, -1 for a type that is none: the generated
// expansion_list.hpp (engine/CMakeLists.txt) gives each <name>::state its slot.
template <class State>
inline constexpr int state_slot = -1;

class expansion_states {
 public:
  // Bytes for every state together; states.cpp checks at compile time that they fit.
  static constexpr std::size_t capacity = 536;

  expansion_states();
  expansion_states(const expansion_states& other);
  expansion_states(expansion_states&& other) noexcept;
  expansion_states& operator=(const expansion_states& other);
  expansion_states& operator=(expansion_states&& other) noexcept;
  ~expansion_states();

  // s.ext.get<easter::state>()
  template <class State>
  State& get() {
    static_assert(state_slot<State> >= 0, "not an expansion's state (include its id.hpp)");
    return *std::launder(reinterpret_cast<State*>(bytes_ + offsets[state_slot<State>]));
  }
  template <class State>
  const State& get() const {
    static_assert(state_slot<State> >= 0, "not an expansion's state (include its id.hpp)");
    return *std::launder(reinterpret_cast<const State*>(bytes_ + offsets[state_slot<State>]));
  }
  std::size_t heap_bytes() const;
  friend bool operator==(const expansion_states& a, const expansion_states& b);

 private:
  static const std::array<std::uint16_t, max_expansions> offsets;  // by slot, in bytes_
  alignas(8) std::byte bytes_[capacity];
};

}  // namespace carcassonne
