// The Festival (rules/festival.md): on a festival tile the seat may, instead of deploying, take
// one of its own figures back from anywhere on the board, scoring nothing for it.
#pragma once
#include "carcassonne/engine/expansion.hpp"
#include "id.hpp"

namespace carcassonne::festival {

extern const expansion_module module;

}  // namespace carcassonne::festival
