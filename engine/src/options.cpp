#include "carcassonne/engine/options.hpp"

#include <string>

namespace carcassonne {

namespace {
constexpr std::array<option_info, option_count> table{{
    {"hills.tiebreak", false, {"any_on_hill", "count_on_hill"}},
    {"hills.under_tile", false, {"from_supply", "none"}},
    {"sheep.closed_field", false, {"score_immediately", "wait"}},
    {"gifts.receipt_owners", false, {"with_tiebreak", "followers_only"}},
    {"revolts.protect_for_2", false, {"no_figure_deployed", "no_follower_deployed"}},
    {"revolts.extra_draws_trigger", true, {"true", "false"}},
    {"easter.variant", false, {"hig", "original"}},
    {"easter.nest_timing", false, {"after_scoring", "during_scoring"}},
    {"easter.hops", false, {"die", "fixed_2"}},
    {"easter.second_place", false, {"dense", "competition"}},
    {"easter.shepherd_eggs", true, {"true", "false"}},
    {"festival.return_scope", false, {"any_figure", "followers_only"}},
    {"festival.shepherd_flock", false, {"return_to_bag", "stays"}},
}};
}  // namespace

std::optional<expansion> find_expansion(std::string_view name) {
  for (int e = 0; e < expansion_count; ++e)
    if (expansion_names[e] == name) return static_cast<expansion>(e);
  return std::nullopt;
}

const option_info& info(option o) {
  return table[static_cast<int>(o)];
}

std::optional<option> find_option(std::string_view name) {
  for (int o = 0; o < option_count; ++o)
    if (table[o].name == name) return static_cast<option>(o);
  return std::nullopt;
}

status rule_options::set(std::string_view name, option_value value) {
  const auto o = find_option(name);
  if (!o)
    return make_error(error_code::unknown_option, "unknown option '" + std::string(name) + "'");
  const auto& i = info(*o);
  std::string_view text;
  if (i.boolean) {
    if (!std::holds_alternative<bool>(value))
      return make_error(error_code::bad_option_value, std::string(name) + " takes true or false");
    text = std::get<bool>(value) ? "true" : "false";
  } else {
    if (!std::holds_alternative<std::string_view>(value))
      return make_error(error_code::bad_option_value, std::string(name) + " takes a string");
    text = std::get<std::string_view>(value);
  }
  for (int v = 0; v < 2; ++v) {
    if (i.values[v] == text) {
      values_[static_cast<int>(*o)] = static_cast<std::uint8_t>(v);
      return {};
    }
  }
  return make_error(error_code::bad_option_value,
                    std::string(name) + ": '" + std::string(text) + "' is not one of " +
                        std::string(i.values[0]) + ", " + std::string(i.values[1]));
}

}  // namespace carcassonne
