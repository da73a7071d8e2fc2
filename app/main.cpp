// build/carcassonne: replay, selfplay (and, with the network layer, serve).
#include <iostream>
#include <string>
#include <vector>

#include "carcassonne/app/commands.hpp"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  return carcassonne::app::run_command(args, std::cin, std::cout, std::cerr);
}
