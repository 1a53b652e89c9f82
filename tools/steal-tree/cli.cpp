// locus-steal-tree — inspect and transform steal tree files (locus/schedule/steal_tree_io.hpp).
//
//   locus-steal-tree info FILE [--rule R]                nodes, workers, topology, rule, memory
//   locus-steal-tree dot FILE [-o OUT] [--rule R]        Graphviz DOT (dot -Tsvg OUT > tree.svg)
//   locus-steal-tree prune FILE PERCENT -o OUT [--rule R]  the paper's pruneTree, written to OUT
//   locus-steal-tree remap FILE WORKERS -o OUT [--rule R]  worker w -> w mod WORKERS, to OUT
//
// OUT "-" is standard output for every command (dot: the text; prune, remap: the file's bytes).
// --rule says which validity rule a tree is loaded with: strict (the paper's, spawns only),
// with-calls (traces of programs that call, as the library writes for fib), or auto (the
// default): strict, and if the tree fails only that, with-calls, which info reports. Every
// command loads FILE first, so each also validates it. Exit status: 0 on success, 1 when a
// file is bad or cannot be written, 2 for bad usage.
#include "cli.hpp"

#include <CLI/CLI.hpp>
#include <locus/schedule/steal_tree_io.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace locus_tool {

namespace {

using namespace locus::schedule;

enum class rule_choice { automatic, strict, with_calls };

/// A loaded tree and the rule it passed.
struct loaded {
  steal_tree tree;
  validity_rule rule;
  std::string strict_error;  ///< auto that fell back to with-calls: why strict refused it
};

loaded load_tree(const std::string& file, rule_choice rule, load_options o = {}) {
  if (rule != rule_choice::automatic) {
    o.validity =
        rule == rule_choice::strict ? validity_rule::spawns_only : validity_rule::with_calls;
    return {load(file, o), o.validity, {}};
  }
  o.validity = validity_rule::spawns_only;
  try {
    return {load(file, o), o.validity, {}};
  } catch (const steal_tree_file_error& strict) {
    // Only a tree that fails the paper's rule alone loads under with-calls; anything else (a
    // bad file) fails again, and the strict error is the one reported.
    o.validity = validity_rule::with_calls;
    try {
      return {load(file, o), o.validity, strict.what()};
    } catch (const steal_tree_file_error&) {
      throw strict;
    }
  }
}

void info(const std::string& file, rule_choice rule, std::ostream& out) {
  const loaded l = load_tree(file, rule);
  const steal_tree& t = l.tree;
  const memory_report m = t.memory();
  out << file << ": " << t.size() << " nodes (" << t.size() - 1 << " steals), " << t.worker_count()
      << " workers, topology \"" << t.topology() << "\"\n"
      << "validity rule: "
      << (l.rule == validity_rule::spawns_only ? "strict (spawns only)"
                                               : "with-calls (the program calls)")
      << (l.strict_error.empty() ? "" : "; the strict rule refuses it: " + l.strict_error)
      << "\nmemory: " << m.total_bytes << " bytes, " << m.kib_per_worker()
      << " KiB per worker on average\n";
  const auto orders = t.worker_orders();
  for (unsigned w = 0; w < t.worker_count(); ++w) {
    out << "  worker " << w << ": " << orders[w].size() << " phases, " << m.bytes_per_worker[w]
        << " bytes\n";
  }
}

/// `text` to OUT ("-" or none: standard output).
void write_text(const std::string& text, const std::string& path, std::ostream& out) {
  if (path.empty() || path == "-") {
    out << text;
    return;
  }
  std::ofstream f(path);
  f << text;
  f.close();
  if (!f) throw steal_tree_file_error(path, 0, "cannot be written");
}

/// A tree to OUT ("-": its bytes on standard output).
void write_tree(const steal_tree& t, const std::string& path, std::ostream& out) {
  if (path != "-") {
    save(t, path);
    return;
  }
  const std::vector<std::byte> bytes = serialize(t);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
  if (!out) throw steal_tree_file_error("-", 0, "standard output cannot be written");
}

}  // namespace

int steal_tree_main(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"locus-steal-tree: inspect and transform steal tree files"};
  app.require_subcommand(1);
  std::string file;
  std::string path;
  unsigned percent = 0;
  unsigned workers = 0;
  rule_choice rule = rule_choice::automatic;
  const std::map<std::string, rule_choice> rules{{"auto", rule_choice::automatic},
                                                 {"strict", rule_choice::strict},
                                                 {"with-calls", rule_choice::with_calls}};
  const auto add_rule = [&](CLI::App* cmd) {
    cmd->add_option("--rule", rule,
                    "validity rule: auto (strict, else with-calls), strict, with-calls")
        ->transform(CLI::CheckedTransformer(rules, CLI::ignore_case));
  };
  auto* info_cmd = app.add_subcommand("info", "nodes, workers, topology, rule, memory per worker");
  info_cmd->add_option("file", file, "steal tree file")->required();
  add_rule(info_cmd);
  auto* dot_cmd = app.add_subcommand("dot", "write Graphviz DOT");
  dot_cmd->add_option("file", file, "steal tree file")->required();
  dot_cmd->add_option("-o,--output", path, "output file, - for standard output (the default)");
  add_rule(dot_cmd);
  auto* prune_cmd = app.add_subcommand("prune", "keep the top (100 - PERCENT)% of the steals");
  prune_cmd->add_option("file", file, "steal tree file")->required();
  prune_cmd->add_option("percent", percent, "percent of steal points to delete")
      ->required()
      ->check(CLI::Range(0, 100));
  prune_cmd->add_option("-o,--output", path, "output file, - for standard output")->required();
  add_rule(prune_cmd);
  auto* remap_cmd = app.add_subcommand("remap", "run worker w on w mod WORKERS");
  remap_cmd->add_option("file", file, "steal tree file")->required();
  remap_cmd->add_option("workers", workers, "worker count")->required()->check(CLI::Range(1, 4096));
  remap_cmd->add_option("-o,--output", path, "output file, - for standard output")->required();
  add_rule(remap_cmd);
  try {
    std::vector<std::string> reversed(args.rbegin(), args.rend());  // CLI11 parses from the back
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    return app.exit(e, out, err) == 0 ? 0 : 2;
  }
  try {
    if (info_cmd->parsed()) info(file, rule, out);
    if (dot_cmd->parsed()) write_text(to_dot(load_tree(file, rule).tree), path, out);
    if (prune_cmd->parsed()) write_tree(prune_tree(load_tree(file, rule).tree, percent), path, out);
    if (remap_cmd->parsed()) {
      load_options o;
      o.workers = workers;
      o.on_mismatch = worker_mismatch::remap;
      write_tree(load_tree(file, rule, o).tree, path, out);
    }
  } catch (const std::exception& e) {
    err << "locus-steal-tree: " << e.what() << '\n';
    return 1;
  }
  return 0;
}

}  // namespace locus_tool
