// tools/steal-tree/cli.hpp — locus-steal-tree as a function: the tool's main, its tests
// (tests/replay_tool_test.cpp) and its command-line fuzz target (tests/fuzz) call it.
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace locus_tool {

/// Runs `locus-steal-tree ARGS...` (args excludes the program name): standard output goes to
/// `out` (text, DOT, or a tree's bytes for `-o -`), messages to `err`. Returns the exit status:
/// 0 on success, 1 when a file is bad or cannot be written, 2 for bad usage.
int steal_tree_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace locus_tool
