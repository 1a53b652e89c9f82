// tests/bench_grid_test.cpp — locus-bench's kernel registry, size resolution, the grid of
// configurations a command line asks for, and the interleaved schedule.
#ifdef LOCUS_TEST_KERNELS

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include "harness/grid.hpp"
#include "harness/results.hpp"
#include "registry.hpp"

namespace {

using bench::runtime_kind;
using bench_test::fake_kernel;
using bench_test::fake_ok;
using bench_test::parse;

TEST(bench_registry, names_are_unique_and_ids_follow_the_symbol_rule) {
  std::set<std::string_view> names;
  for (const auto& k : bench::registry()) {
    EXPECT_TRUE(names.insert(k.name).second) << k.name;
    std::string id(k.name);
    std::replace(id.begin(), id.end(), '-', '_');
    EXPECT_EQ(k.id, id);
    EXPECT_FALSE(k.small_size.empty()) << k.name;
    EXPECT_FALSE(k.default_size.empty()) << k.name;
    EXPECT_EQ(bench::find_kernel(k.name), &k);
  }
  EXPECT_EQ(bench::find_kernel("no-such-kernel"), nullptr);
  for (const char* expected : {"fib", "fj", "fj-rec", "nqueens", "uts", "matmul", "cilksort", "lu",
                               "heat", "sor", "pdfs", "cg", "floyd", "fdtd", "scan", "memcpy"}) {
    EXPECT_NE(bench::find_kernel(expected), nullptr) << expected;
  }
}

TEST(bench_registry, resolve_size_maps_small_and_default_and_passes_others_through) {
  const auto* fib = bench::find_kernel("fib");
  ASSERT_NE(fib, nullptr);
  EXPECT_EQ(bench::resolve_size(*fib, "small"), fib->small_size);
  EXPECT_EQ(bench::resolve_size(*fib, "default"), fib->default_size);
  EXPECT_EQ(bench::resolve_size(*fib, "30"), "30");
  const auto* cg = bench::find_kernel("cg");
  ASSERT_NE(cg, nullptr);
  EXPECT_EQ(bench::resolve_size(*cg, "small"), "S");
  EXPECT_EQ(bench::resolve_size(*cg, "A"), "A");
}

// ---------------------------------------------------------------------- grid, schedule

TEST(bench_grid, serial_once_per_size_peers_per_workers_locus_per_policy_victims_workers) {
  auto o =
      parse({"fib", "--size", "small,default,small", "--runtime", "serial,locus,tbb", "--policy",
             "work-first,help-first", "--victims", "random,hierarchical", "--workers", "1,2"});
  auto grid = bench::expand_grid(o);
  const auto* fib = bench::find_kernel("fib");
  // per size: 1 serial + 2*2*2 locus + 2 tbb
  ASSERT_EQ(grid.size(), 2u * (1 + 8 + 2));
  EXPECT_EQ(grid[0].runtime, runtime_kind::serial);
  EXPECT_EQ(grid[0].workers, 1u);
  EXPECT_EQ(grid[0].size, fib->small_size);
  EXPECT_EQ(grid[0].policy_text(), "-");
  EXPECT_EQ(grid[0].victims_text(), "-");
  EXPECT_EQ(grid[1].runtime, runtime_kind::locus);
  EXPECT_EQ(grid[1].policy_text(), "work-first");
  EXPECT_EQ(grid[1].victims_text(), "random");
  EXPECT_EQ(grid[1].label(),
            "fib " + std::string(fib->small_size) + " locus work-first random w=1");
  EXPECT_EQ(grid[9].runtime, runtime_kind::tbb);
  EXPECT_EQ(grid[9].label(), "fib " + std::string(fib->small_size) + " tbb w=1");
  EXPECT_EQ(grid[11].size, fib->default_size);
}

TEST(bench_grid, locus_runs_once_per_schedule_and_only_replaying_kernels_run_replays) {
  auto o = parse({"memcpy,fib", "--size", "small", "--runtime", "serial,locus", "--schedule",
                  "random,stows,relws", "--victims", "random", "--workers", "2"});
  auto grid = bench::expand_grid(o);
  ASSERT_EQ(grid.size(), 2u * (1 + 3));  // per kernel: serial once, locus per schedule
  EXPECT_EQ(grid[0].schedule_text(), "-");
  EXPECT_EQ(grid[1].schedule_text(), "random");
  EXPECT_EQ(grid[2].schedule_text(), "stows");
  EXPECT_EQ(grid[3].schedule_text(), "relws");
  const std::string memcpy_small(bench::find_kernel("memcpy")->small_size);
  EXPECT_EQ(grid[1].label(), "memcpy " + memcpy_small + " locus adaptive random w=2");
  EXPECT_EQ(grid[2].label(), "memcpy " + memcpy_small + " locus adaptive random stows w=2");
  for (std::size_t i = 0; i < 4; ++i)
    EXPECT_TRUE(grid[i].implemented()) << grid[i].label();
  // fib has no replay version: its random row runs, the replayed ones are n/a rows.
  EXPECT_TRUE(grid[5].implemented());
  for (std::size_t i : {6u, 7u}) {
    EXPECT_FALSE(grid[i].implemented()) << grid[i].label();
    EXPECT_EQ(bench::not_implemented_detail(grid[i]).rfind("n/a (not implemented): no replay", 0),
              0u);
  }
  EXPECT_EQ(bench::schedule(grid, 1).size(), 6u);
}

TEST(bench_grid, locus_runs_once_per_flow_and_peers_once_with_flow_off) {
  auto o = parse({"cholesky,fib", "--size", "small", "--runtime", "serial,locus,tbb,omp", "--flow",
                  "off,one,half-pessimistic+priority", "--victims", "hierarchical,random",
                  "--workers", "2"});
  auto grid = bench::expand_grid(o);
  // per kernel: serial once, locus per victims x flow, tbb and omp once each
  ASSERT_EQ(grid.size(), 2u * (1 + 2 * 3 + 2));
  std::vector<std::string> flows;
  for (std::size_t i = 0; i < 9; ++i)
    flows.push_back(grid[i].flow_text());
  EXPECT_EQ(flows, (std::vector<std::string>{"-", "off", "one", "half-pessimistic+priority", "off",
                                             "one", "half-pessimistic+priority", "-", "-"}));
  const std::string small(bench::find_kernel("cholesky")->small_size);
  EXPECT_EQ(grid[1].label(), "cholesky " + small + " locus adaptive hierarchical w=2");
  EXPECT_EQ(grid[3].label(), "cholesky " + small +
                                 " locus adaptive hierarchical flow=half-pessimistic+priority w=2");
  for (const auto& c : grid) {
    // The peers carry no flow options and the kernel's plain size: nothing for them to fail on.
    if (c.runtime != runtime_kind::locus) {
      EXPECT_FALSE(c.flow.on) << c.label();
      EXPECT_EQ(c.size.find(':'), std::string::npos) << c.label();
    }
    // fib has no dataflow version: its off rows run, its flow rows are n/a and never run.
    if (c.kernel->name == "fib" && c.runtime == runtime_kind::locus) {
      EXPECT_EQ(c.implemented(), !c.flow.on) << c.label();
      if (c.flow.on) {
        EXPECT_EQ(
            bench::not_implemented_detail(c),
            "n/a (not implemented): no dataflow version of fib (--flow " + c.flow_text() + ")");
      }
    }
    if (c.kernel->name == "cholesky" && c.runtime == runtime_kind::locus) {
      EXPECT_EQ(c.implemented(), c.kernel->locus != nullptr) << c.label();
    }
  }
}

TEST(bench_grid, flow_options_and_a_replayed_schedule_do_not_combine) {
  auto o = parse({"cholesky,memcpy", "--size", "small", "--runtime", "locus", "--schedule",
                  "random,stows", "--flow", "off,one", "--workers", "2"});
  for (const auto& c : bench::expand_grid(o)) {
    const bool runs = c.schedule == bench::schedule_mode::random
                          ? !c.flow.on || c.kernel->name == "cholesky"
                          : !c.flow.on && c.kernel->name == "memcpy";
    if (c.kernel->implementation(runtime_kind::locus) == nullptr) continue;
    EXPECT_EQ(c.implemented(), runs) << c.label();
  }
}

TEST(bench_grid, sizes_that_resolve_alike_run_once) {
  const auto* fj = bench::find_kernel("fj");
  ASSERT_NE(fj, nullptr);
  auto o = parse(
      {"fj", "--size", "small,default," + std::string(fj->small_size), "--runtime", "serial"});
  auto grid = bench::expand_grid(o);
  std::set<std::string> sizes;
  for (const auto& c : grid)
    sizes.insert(c.size);
  EXPECT_EQ(grid.size(), sizes.size());
}

TEST(bench_grid, default_runtimes_list_starpu_and_blas_only_for_kernels_that_have_them) {
  bench::cli_defaults d;
  d.runtimes = {runtime_kind::serial, runtime_kind::starpu, runtime_kind::blas};
  d.workers = {1};
  auto plain = fake_kernel(&fake_ok, nullptr);
  auto with_blas = plain;
  with_blas.blas = &fake_ok;
  auto o = bench::parse_cli({"fib"}, d);
  EXPECT_TRUE(o.runtimes_defaulted);
  o.kernels = {&plain, &with_blas};
  auto grid = bench::expand_grid(o);
  std::vector<std::string> rows;
  for (const auto& c : grid)
    rows.push_back(std::string(c.kernel == &plain ? "plain " : "blas ") +
                   std::string(bench::to_string(c.runtime)));
  const bool blas_built = bench::runtime_built(runtime_kind::blas);
  std::vector<std::string> expected = {"plain serial", "blas serial"};
  if (blas_built) expected.push_back("blas blas");
  EXPECT_EQ(rows, expected);
}

TEST(bench_grid, an_explicit_starpu_or_blas_on_a_kernel_without_it_is_a_not_implemented_row) {
  auto o = parse({"fib", "--runtime", "starpu,blas", "--workers", "1"});
  EXPECT_FALSE(o.runtimes_defaulted);
  auto grid = bench::expand_grid(o);
  ASSERT_EQ(grid.size(), 2u);
  for (const auto& c : grid) {
    EXPECT_FALSE(c.implemented()) << c.label();
    EXPECT_NE(bench::not_implemented_detail(c).find("n/a (not implemented)"), std::string::npos);
  }
  EXPECT_TRUE(bench::schedule(grid, 3).empty());
}

TEST(bench_grid, schedule_interleaves_configurations_rep_by_rep_and_skips_missing_ones) {
  auto k = fake_kernel(&fake_ok, nullptr);
  std::vector<bench::bench_config> grid(3);
  for (auto& c : grid)
    c.kernel = &k;
  grid[0].runtime = runtime_kind::serial;
  grid[1].runtime = runtime_kind::locus;  // not implemented
  grid[2].runtime = runtime_kind::serial;
  grid[2].size = "2";
  auto plan = bench::schedule(grid, 3);
  ASSERT_EQ(plan.size(), 6u);
  for (std::size_t i = 0; i < plan.size(); ++i) {
    EXPECT_EQ(plan[i].rep, i / 2 + 1);
    EXPECT_EQ(plan[i].config, i % 2 == 0 ? 0u : 2u);
  }
}

}  // namespace

#endif  // LOCUS_TEST_KERNELS
