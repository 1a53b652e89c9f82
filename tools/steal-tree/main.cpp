// locus-steal-tree — inspect and transform steal tree files (locus/schedule/steal_tree_io.hpp).
//
//   locus-steal-tree info FILE                  nodes, workers, topology, memory per worker
//   locus-steal-tree dot FILE [-o OUT]          Graphviz DOT (dot -Tsvg OUT > tree.svg)
//   locus-steal-tree prune FILE PERCENT -o OUT  the paper's pruneTree, written to OUT
//   locus-steal-tree remap FILE WORKERS -o OUT  worker w -> w mod WORKERS, written to OUT
//
// Every command loads FILE first, so each also validates it. Exit status: 0 on success, 1 when
// a file is bad or cannot be written, 2 for bad usage.
#include <CLI/CLI.hpp>
#include <locus/schedule/steal_tree_io.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

namespace {

using namespace locus::schedule;

void info(const std::string& file) {
  const steal_tree t = load(file);
  const memory_report m = t.memory();
  std::cout << file << ": " << t.size() << " nodes (" << t.size() - 1 << " steals), "
            << t.worker_count() << " workers, topology \"" << t.topology() << "\"\n"
            << "memory: " << m.total_bytes << " bytes, " << m.kib_per_worker()
            << " KiB per worker on average\n";
  const auto orders = t.worker_orders();
  for (unsigned w = 0; w < t.worker_count(); ++w) {
    std::cout << "  worker " << w << ": " << orders[w].size() << " phases, "
              << m.bytes_per_worker[w] << " bytes\n";
  }
}

void write_text(const std::string& text, const std::string& out) {
  if (out.empty() || out == "-") {
    std::cout << text;
    return;
  }
  std::ofstream f(out);
  f << text;
  f.close();
  if (!f) throw steal_tree_file_error(out, 0, "cannot be written");
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"locus-steal-tree: inspect and transform steal tree files"};
  app.require_subcommand(1);
  std::string file;
  std::string out;
  unsigned percent = 0;
  unsigned workers = 0;
  auto* info_cmd = app.add_subcommand("info", "nodes, workers, topology, memory per worker");
  info_cmd->add_option("file", file, "steal tree file")->required();
  auto* dot_cmd = app.add_subcommand("dot", "write Graphviz DOT");
  dot_cmd->add_option("file", file, "steal tree file")->required();
  dot_cmd->add_option("-o,--output", out, "output file (default: standard output)");
  auto* prune_cmd = app.add_subcommand("prune", "keep the top (100 - PERCENT)% of the steals");
  prune_cmd->add_option("file", file, "steal tree file")->required();
  prune_cmd->add_option("percent", percent, "percent of steal points to delete")
      ->required()
      ->check(CLI::Range(0, 100));
  prune_cmd->add_option("-o,--output", out, "output file")->required();
  auto* remap_cmd = app.add_subcommand("remap", "run worker w on w mod WORKERS");
  remap_cmd->add_option("file", file, "steal tree file")->required();
  remap_cmd->add_option("workers", workers, "worker count")->required()->check(CLI::Range(1, 4096));
  remap_cmd->add_option("-o,--output", out, "output file")->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  try {
    if (info_cmd->parsed()) info(file);
    if (dot_cmd->parsed()) write_text(to_dot(load(file)), out);
    if (prune_cmd->parsed()) save(prune_tree(load(file), percent), out);
    if (remap_cmd->parsed()) save(load(file, {workers, worker_mismatch::remap}), out);
  } catch (const std::exception& e) {
    std::cerr << "locus-steal-tree: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
