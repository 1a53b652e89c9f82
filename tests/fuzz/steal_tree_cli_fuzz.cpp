// tests/fuzz/steal_tree_cli_fuzz.cpp — libFuzzer target for locus-steal-tree's command line
// (tools/steal-tree/cli.cpp, run in process). The input is the arguments, one per line (a NUL
// ends an argument). The argument "T" stands for a valid tree file, "C" for a tree of a
// program that calls (valid under with-calls only), "B" for a damaged file; every output path
// (-o X, --output X, --output=X, -oX) is redirected to a scratch file unless it is "-". The
// command must return 0, 1 or 2; an exception out of it, a crash, a sanitizer report or a
// timeout is a finding.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "cli.hpp"
#include "locus/schedule/steal_tree_io.hpp"

namespace {

namespace fs = std::filesystem;
namespace ls = locus::schedule;

struct files {
  fs::path dir, tree, calls, bad, out;
  files() {
    dir = fs::temp_directory_path() / ("locus-steal-tree-fuzz-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    tree = dir / "t.st";
    calls = dir / "c.st";
    bad = dir / "b.st";
    out = dir / "out";
    ls::steal_tree t(4, 0, 0, 0, "sockets=2,cores=2");
    const ls::node_id a = t.add_steal(0, 0, 0, 1, 0);
    t.add_steal(a, 1, 0, 2, 0);
    t.add_steal(0, 0, 1, 3, 0);
    ls::save(t, tree);
    ls::steal_tree c(2, 0, 0, 0, "cores=2");
    c.add_steal(0, 2, 0, 1, 0);
    ls::save(c, calls);
    std::ofstream(bad) << "LOCUSST\x1a not a tree";
  }
};

std::string map_arg(const files& f, const std::string& a, bool after_o) {
  if (after_o) return a == "-" ? a : f.out.string();
  if (a == "T") return f.tree.string();
  if (a == "C") return f.calls.string();
  if (a == "B") return f.bad.string();
  if (a.starts_with("--output=")) return a == "--output=-" ? a : "--output=" + f.out.string();
  if (a.size() > 2 && a.starts_with("-o") && a[2] != '-') return "-o" + f.out.string();
  return a;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const files f;
  std::vector<std::string> args;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  bool after_o = false;
  while (!in.empty() && args.size() < 32) {
    const std::size_t nl = in.find('\n');
    const std::string a(std::string(in.substr(0, nl)).c_str());
    in = nl == std::string_view::npos ? std::string_view{} : in.substr(nl + 1);
    args.push_back(map_arg(f, a, after_o));
    after_o = a == "-o" || a == "--output";
  }
  std::ostringstream out, err;
  const int status = locus_tool::steal_tree_main(args, out, err);
  if (status < 0 || status > 2) std::abort();
  return 0;
}
