// The vocabulary of rule options for clients (GET /api/options, docs/protocol.md §17): every
// expansion of the registry with its label and its options (labels, values, words, defaults).
#pragma once
#include <nlohmann/json.hpp>

namespace carcassonne::protocol {

// {"format":"carcassonne-options/1","expansions":[{"id","label","options":[...]}]}, in registry
// order; built from the modules alone, so a new expansion appears with no edit here.
nlohmann::json options_catalogue();

}  // namespace carcassonne::protocol
