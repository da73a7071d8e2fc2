// Errors are values with a stable code (part of the protocol) and a human message.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace carcassonne {

enum class error_code : std::uint8_t {
  // setup (a record or room that cannot start)
  bad_seat_count,
  unknown_expansion,
  unsupported_expansion,
  unknown_option,
  bad_option_value,
  unknown_tile,
  tile_not_in_play,
  bad_script,
  // moves
  game_over,
  not_your_turn,
  unexpected_move,
  bad_rotation,
  square_not_open,
  tile_does_not_fit,
  wrong_tile,
  unknown_feature,
  feature_occupied,
  feature_completed,
  no_figure_available,
  figure_not_allowed,
  script_exhausted,
  already_forfeited,
  // Never sent to a client, so not among the counted codes: a state whose invariants do not hold
  // (check_invariants; debug builds abort on it).
  broken_invariant,
};
inline constexpr int error_code_count = 22;  // the codes a client may see, 0..count-1
std::string_view code_name(error_code c);

struct error {
  error_code code;
  std::string message;
};

// Success or an error: the engine never throws across its API.
class [[nodiscard]] status {
 public:
  status() = default;
  status(error e) : error_(std::move(e)), ok_(false) {}
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const error& err() const { return error_; }

 private:
  error error_{error_code::game_over, {}};
  bool ok_ = true;
};

template <class T>
class [[nodiscard]] result {
 public:
  result(T value) : v_(std::move(value)) {}
  result(error e) : v_(std::move(e)) {}
  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<0>(v_); }
  const T& value() const { return std::get<0>(v_); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const error& err() const { return std::get<1>(v_); }

 private:
  std::variant<T, error> v_;
};

inline error make_error(error_code c, std::string message) {
  return error{c, std::move(message)};
}

}  // namespace carcassonne
