#include "carcassonne/engine/options.hpp"

#include <string>

namespace carcassonne {

status rule_options::set(std::string_view name, option_value value) {
  const auto o = find_option(name);
  if (!o)
    return make_error(error_code::unknown_option, "unknown option '" + std::string(name) + "'");
  const auto& i = *o->def;
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
      values_[static_cast<int>(o->owner)][o->slot] = static_cast<std::uint8_t>(v);
      return {};
    }
  }
  return make_error(error_code::bad_option_value,
                    std::string(name) + ": '" + std::string(text) + "' is not one of " +
                        std::string(i.values[0]) + ", " + std::string(i.values[1]));
}

}  // namespace carcassonne
