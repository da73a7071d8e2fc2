// expansion_states (carcassonne/engine/expansion_states.hpp): every slot's state in one buffer,
// each at an offset fixed here from the generated list of state types. The one file that knows
// every expansion's state.
#include <memory>
#include <type_traits>
#include <utility>

#include "carcassonne/engine/expansion_states.hpp"
#include "expansion_state_types.hpp"

namespace carcassonne {

namespace {

constexpr std::size_t state_count = std::tuple_size_v<registered_states>;
template <std::size_t I>
using state_at = std::tuple_element_t<I, registered_states>;

// Each state after the one before it, at its alignment.
constexpr auto layout = []<std::size_t... I>(std::index_sequence<I...>) {
  std::array<std::uint16_t, max_expansions> at{};
  std::size_t end = 0;
  ((end = (end + alignof(state_at<I>) - 1) / alignof(state_at<I>) * alignof(state_at<I>),
    at[I] = static_cast<std::uint16_t>(end), end += sizeof(state_at<I>)),
   ...);
  return std::pair{at, end};
}
(std::make_index_sequence<state_count>{});

static_assert(layout.second <= expansion_states::capacity,
              "the expansions' states outgrew expansion_states::capacity: raise it");
static_assert(
    []<std::size_t... I>(std::index_sequence<I...>) {
      return ((alignof(state_at<I>) <= 8) && ...);
    }(std::make_index_sequence<state_count>{}),
    "a state aligned beyond the buffer's 8 bytes");

// The I-th state in a buffer.
template <std::size_t I, class Byte>
auto* state_in(Byte* bytes) {
  using T = std::conditional_t<std::is_const_v<Byte>, const state_at<I>, state_at<I>>;
  return std::launder(reinterpret_cast<T*>(bytes + layout.first[I]));
}

template <class F>
void each_state(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f(std::integral_constant<std::size_t, I>{}), ...);
  }
  (std::make_index_sequence<state_count>{});
}

}  // namespace

constinit const std::array<std::uint16_t, max_expansions> expansion_states::offsets = layout.first;

expansion_states::expansion_states() {
  each_state([&](auto i) { new (bytes_ + layout.first[i]) state_at<i>(); });
}

expansion_states::expansion_states(const expansion_states& other) {
  each_state(
      [&](auto i) { new (bytes_ + layout.first[i]) state_at<i>(*state_in<i>(other.bytes_)); });
}

expansion_states::expansion_states(expansion_states&& other) noexcept {
  each_state([&](auto i) {
    new (bytes_ + layout.first[i]) state_at<i>(std::move(*state_in<i>(other.bytes_)));
  });
}

expansion_states& expansion_states::operator=(const expansion_states& other) {
  each_state([&](auto i) { *state_in<i>(bytes_) = *state_in<i>(other.bytes_); });
  return *this;
}

expansion_states& expansion_states::operator=(expansion_states&& other) noexcept {
  each_state([&](auto i) { *state_in<i>(bytes_) = std::move(*state_in<i>(other.bytes_)); });
  return *this;
}

expansion_states::~expansion_states() {
  each_state([&](auto i) { std::destroy_at(state_in<i>(bytes_)); });
}

std::size_t expansion_states::heap_bytes() const {
  std::size_t n = 0;
  each_state([&](auto i) { n += state_in<i>(bytes_)->heap_bytes(); });
  return n;
}

bool operator==(const expansion_states& a, const expansion_states& b) {
  bool same = true;
  each_state([&](auto i) { same = same && *state_in<i>(a.bytes_) == *state_in<i>(b.bytes_); });
  return same;
}

}  // namespace carcassonne
