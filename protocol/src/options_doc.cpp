#include "carcassonne/protocol/options_doc.hpp"

#include "carcassonne/engine/expansion.hpp"

namespace carcassonne::protocol {

namespace {

// A value as setup.options takes it: true/false for a boolean option, else the string.
nlohmann::json value_json(const option_def& o, std::string_view v) {
  if (o.boolean) return v == "true";
  return std::string(v);
}

nlohmann::json option_json(const option_def& o) {
  auto values = nlohmann::json::array();
  auto words = nlohmann::json::array();
  for (std::size_t i = 0; i < o.values.size(); ++i) {
    values.push_back(value_json(o, o.values[i]));
    words.push_back(std::string(o.words[i]));
  }
  return {{"id", std::string(o.name)},
          {"label", std::string(o.label)},
          {"values", std::move(values)},
          {"words", std::move(words)},
          {"default", value_json(o, o.values[0])}};
}

}  // namespace

nlohmann::json options_catalogue() {
  auto expansions = nlohmann::json::array();
  for (const auto* m : all_modules()) {
    if (!m || m->test_only) continue;
    auto options = nlohmann::json::array();
    for (const auto& o : m->options) options.push_back(option_json(o));
    expansions.push_back({{"id", std::string(m->name)},
                          {"label", std::string(m->label)},
                          {"options", std::move(options)}});
  }
  return {{"format", "carcassonne-options/1"}, {"expansions", std::move(expansions)}};
}

}  // namespace carcassonne::protocol
