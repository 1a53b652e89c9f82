// locus-steal-tree — inspect and transform steal tree files (locus/schedule/steal_tree_io.hpp).
// The commands are in cli.cpp; see the usage there.
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return locus_tool::steal_tree_main(args, std::cout, std::cerr);
}
