// tests/bench_kernels_test.cpp — the kernels of locus-bench: the one driver they all go through
// (bench::measure), every registered kernel verified at its small size on every runtime built
// into this binary, and nqueens's variant without a cutoff.
#ifdef LOCUS_TEST_KERNELS

#include <gtest/gtest.h>
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "bench_support.hpp"
#include "harness/execute.hpp"
#include "harness/grid.hpp"
#include "harness/json.hpp"
#include "harness/results.hpp"
#include "harness/table.hpp"
#include "kernel.hpp"
#include "kernels/memcpy/common.hpp"
#include "registry.hpp"

namespace {

using bench::runtime_kind;
using namespace std::chrono_literals;

// ------------------------------------------------------------------------- the driver

TEST(bench_measure, times_the_body_only_and_verifies_after_it) {
  std::vector<std::string> order;
  const auto out = bench::measure(
      "7",
      [&](const std::string& size) {
        order.push_back("setup " + size);
        std::this_thread::sleep_for(200ms);
        return std::stoi(size);
      },
      [&](int& n) {
        order.push_back("body");
        std::this_thread::sleep_for(10ms);
        return n * 6;
      },
      [&](bench::outcome& o, const int& n, const int& answer) {
        order.push_back("verify");
        EXPECT_GE(o.seconds, 0.01) << "verify sees the time already set";
        o.verified = answer == 42;
        o.detail = std::to_string(n);
        std::this_thread::sleep_for(200ms);
      });
  EXPECT_EQ(order, (std::vector<std::string>{"setup 7", "body", "verify"}));
  EXPECT_TRUE(out.verified);
  EXPECT_EQ(out.detail, "7");
  EXPECT_GE(out.seconds, 0.01);
  EXPECT_LT(out.seconds, 0.2) << "setup and verify are not timed";
}

TEST(bench_measure, a_void_body_leaves_its_answer_in_the_input) {
  const auto out = bench::measure(
      "3", [](const std::string& size) { return std::vector<int>(std::stoul(size)); },
      [](std::vector<int>& v) {
        for (int& x : v)
          x = 1;
      },
      [](bench::outcome& o, const std::vector<int>& v) {
        o.verified = v == std::vector{1, 1, 1};
      });
  EXPECT_TRUE(out.verified);
}

TEST(bench_measure, runs_the_timed_region_inside_the_context_once) {
  static const std::array<int, 2> table = {10, 20};
  int calls = 0;
  const auto out = bench::measure(
      "1", [](const std::string& size) -> const int& { return table.at(std::stoul(size)); },
      [](const int& x) { return x + 1; },
      [](bench::outcome& o, const int& x, int answer) {
        o.verified = &x == &table[1] && answer == 21;  // setup's reference, not a copy
      },
      [&calls](auto& timed) {
        ++calls;
        timed();
      });
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(out.verified);
}

TEST(bench_measure, setup_errors_propagate_and_nothing_is_timed) {
  bool ran = false;
  EXPECT_THROW((void)bench::measure(
                   "x", [](const std::string& size) -> int { throw std::invalid_argument(size); },
                   [&ran](int) { ran = true; }, [](bench::outcome&, int) {}),
               std::invalid_argument);
  EXPECT_FALSE(ran);
}

// -------------------------------------------------- every kernel, every runtime built

struct kernel_case {
  const bench::kernel_info* kernel;
  runtime_kind runtime;
};

// Every runtime built, for every kernel; omp-tasks, starpu and blas only for the kernels that
// have them.
std::vector<kernel_case> kernel_cases() {
  std::vector<kernel_case> out;
  for (const auto& k : bench::registry()) {
    for (auto rt : bench::all_runtimes) {
      if (!bench::runtime_built(rt)) continue;
      if (bench::only_some_kernels(rt) && k.implementation(rt) == nullptr) continue;
      out.push_back({&k, rt});
    }
  }
  return out;
}

// The kernels of issue 9 whose locus version waits for the dataflow API: skipped until it
// lands, and a failure once it has, so that this list is emptied then.
bool locus_version_pending(std::string_view kernel) {
  (void)kernel;  // none left: smith-waterman and cholesky have locus versions (issue 9)
  return false;
}

// Names the case in gtest's failure messages instead of dumping its bytes.
void PrintTo(const kernel_case& c, std::ostream* os) {
  *os << c.kernel->name << '/' << bench::to_string(c.runtime);
}

class bench_kernel_small : public testing::TestWithParam<kernel_case> {};

// A missing implementation fails here on purpose: every kernel must exist for every runtime
// that was built.
TEST_P(bench_kernel_small, is_implemented_and_verifies) {
  const auto& [kernel, runtime] = GetParam();
  bench::bench_config c;
  c.kernel = kernel;
  c.size = bench::resolve_size(*kernel, "small");
  c.runtime = runtime;
  c.workers = runtime == runtime_kind::serial ? 1 : 2;
  if (runtime == runtime_kind::locus && locus_version_pending(kernel->name)) {
    ASSERT_FALSE(c.implemented()) << "locus " << kernel->name
                                  << " exists now: take it off locus_version_pending";
    GTEST_SKIP() << "the locus version of " << kernel->name << " is not written yet (issue 9)";
  }
  if (kernel->name == "cholesky" && !bench::runtime_built(runtime_kind::blas)) {
    GTEST_SKIP() << "cholesky needs OpenBLAS: LOCUS_BENCH_PEERS=OFF or OpenBLAS not found";
  }
  ASSERT_TRUE(c.implemented()) << bench::not_implemented_detail(c);
  bench::run_report r = bench::execute(c);  // locus: locus::runtime rt{cfg}, cfg.workers = 2
  EXPECT_TRUE(r.result.verified) << c.label() << ": " << r.result.detail;
  EXPECT_GE(r.result.seconds, 0.0);
  EXPECT_TRUE(r.all_stats().is_object()) << bench::dump(r.all_stats());
}

INSTANTIATE_TEST_SUITE_P(all, bench_kernel_small, testing::ValuesIn(kernel_cases()),
                         [](const testing::TestParamInfo<kernel_case>& info) {
                           std::string name(info.param.kernel->id);
                           name += "_" + std::string(bench::to_string(info.param.runtime));
                           for (char& ch : name)  // omp-tasks: gtest names take no dash
                             if (ch == '-') ch = '_';
                           return name;
                         });

// ------------------------------------------------------------- the --flow axis

// A flow axis on the task-graph kernels: every row the grid schedules verifies, peers
// included (they run once, with their plain size), and the flow rows report the flow
// scheduler's counters.
TEST(bench_flow, every_scheduled_row_of_a_flow_grid_verifies_and_flow_rows_report_counters) {
  std::vector<std::string> args = {"smith-waterman",
                                   "--size",
                                   "small",
                                   "--runtime",
                                   "serial,locus",
                                   "--workers",
                                   "2",
                                   "--flow",
                                   "off,one,half-pessimistic+priority+near-data"};
  for (auto rt : {runtime_kind::tbb, runtime_kind::omp}) {
    if (bench::runtime_built(rt)) args[4] += "," + std::string(bench::to_string(rt));
  }
  if (bench::runtime_built(runtime_kind::blas)) args[0] += ",cholesky";
  const auto grid = bench::expand_grid(bench_test::parse(args));
  std::size_t flow_rows = 0;
  for (const auto& c : grid) {
    ASSERT_TRUE(c.implemented()) << c.label() << ": " << bench::not_implemented_detail(c);
    const bench::run_report r = bench::execute(c);
    EXPECT_TRUE(r.result.verified) << c.label() << ": " << r.result.detail;
    const bench::json stats = r.all_stats();
    const bench::json* flow = bench::member(stats, "flow");
    EXPECT_EQ(flow != nullptr, c.flow.on) << c.label() << ": " << bench::dump(stats);
    if (flow == nullptr) continue;
    ++flow_rows;
    EXPECT_EQ((*flow)["steal"].get<std::string>(),
              locus::dataflow::to_string(c.flow.options.steal));
    EXPECT_GT((*flow)["pushed"].get<double>(), 0.0) << bench::dump(*flow);
  }
  EXPECT_EQ(flow_rows, bench::runtime_built(runtime_kind::blas) ? 4u : 2u);
}

// ------------------------------------------------------------- nqueens without a cutoff

// Legal placements of queens in the first rows of an n x n board, every row count from 1 to n:
// the tasks the variant without a cutoff spawns. Counted here independently of the kernel.
std::int64_t legal_placements(int n, std::vector<int>& cols) {
  const int row = static_cast<int>(cols.size());
  if (row == n) return 0;
  std::int64_t total = 0;
  for (int c = 0; c < n; ++c) {
    bool ok = true;
    for (int r = 0; r < row && ok; ++r)
      ok = cols[r] != c && cols[r] - c != row - r && c - cols[r] != row - r;
    if (!ok) continue;
    cols.push_back(c);
    total += 1 + legal_placements(n, cols);
    cols.pop_back();
  }
  return total;
}

std::vector<runtime_kind> runtimes_built() {
  std::vector<runtime_kind> out;
  for (auto rt : {runtime_kind::serial, runtime_kind::locus, runtime_kind::tbb, runtime_kind::omp})
    if (bench::runtime_built(rt)) out.push_back(rt);
  return out;
}

/// One run of `kernel` at `size` on `rt`: 1 worker for serial, else 2.
bench::run_report run_kernel(const char* kernel, const std::string& size, runtime_kind rt) {
  bench::bench_config c;
  c.kernel = bench::find_kernel(kernel);
  c.size = size;
  c.runtime = rt;
  c.workers = rt == runtime_kind::serial ? 1 : 2;
  return bench::execute(c);
}

bench::run_report run_nqueens(const std::string& size, runtime_kind rt) {
  return run_kernel("nqueens", size, rt);
}

class bench_nqueens_no_cutoff : public testing::TestWithParam<runtime_kind> {};

TEST_P(bench_nqueens_no_cutoff, verifies_against_the_known_count) {
  for (const char* size : {"1:nocutoff", "6:nocutoff", "8:nocutoff"}) {
    const bench::run_report r = run_nqueens(size, GetParam());
    EXPECT_TRUE(r.result.verified) << size << ": " << r.result.detail;
    EXPECT_NE(r.result.detail.find("no cutoff"), std::string::npos) << r.result.detail;
  }
  const bench::run_report with_cutoff = run_nqueens("8", GetParam());
  EXPECT_TRUE(with_cutoff.result.verified) << with_cutoff.result.detail;
  EXPECT_NE(with_cutoff.result.detail.find("tasks in rows < 3"), std::string::npos)
      << "the cutoff variant stays the default: " << with_cutoff.result.detail;
}

INSTANTIATE_TEST_SUITE_P(all, bench_nqueens_no_cutoff, testing::ValuesIn(runtimes_built()),
                         [](const testing::TestParamInfo<runtime_kind>& info) {
                           return std::string(bench::to_string(info.param));
                         });

TEST(bench_nqueens, locus_spawns_one_task_per_legal_placement_without_cutoff) {
  std::vector<int> cols;
  const std::int64_t placements = legal_placements(8, cols);
  auto spawns = [](const bench::run_report& r) {
    const bench::json stats = r.all_stats();
    const auto wf = bench::find_counter(stats, {"spawns_work_first"});
    const auto hf = bench::find_counter(stats, {"spawns_help_first"});
    EXPECT_TRUE(wf && hf) << bench::dump(stats);
    return wf.value_or(-1) + hf.value_or(-1);
  };
  EXPECT_EQ(spawns(run_nqueens("8:nocutoff", runtime_kind::locus)),
            static_cast<double>(placements));
  EXPECT_LT(spawns(run_nqueens("8", runtime_kind::locus)), static_cast<double>(placements));
}

TEST(bench_nqueens, rejects_malformed_sizes_naming_both_forms) {
  for (const char* bad :
       {"8:cutoff", ":nocutoff", "17:nocutoff", "0", "8nocutoff", "8:nocutoff:"}) {
    try {
      (void)run_nqueens(bad, runtime_kind::serial);
      ADD_FAILURE() << "accepted nqueens size '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("n:nocutoff"), std::string::npos) << e.what();
    }
  }
}

// ---------------------------------------------------------------------------------- fib

namespace {
bench::run_report run_fib(const std::string& size, runtime_kind rt) {
  return run_kernel("fib", size, rt);
}
}  // namespace

class bench_fib_variants : public testing::TestWithParam<runtime_kind> {};

// Every runtime runs every fib size form (the peers run their ordinary fib for :edt sizes);
// locus's are its data-driven versions (inlets, events) with and without a cutoff.
TEST_P(bench_fib_variants, every_size_form_verifies) {
  for (const char* size : {"15", "15:edt", "15:edt-events", "18/8", "18/8:edt", "18/8:edt-events",
                           "18/18:edt", "1:edt", "0/2"}) {
    const bench::run_report r = run_fib(size, GetParam());
    EXPECT_TRUE(r.result.verified) << size << ": " << r.result.detail;
  }
  const bench::run_report cut = run_fib("18/8", GetParam());
  EXPECT_NE(cut.result.detail.find("fib(18)=2584, calls below 8 serial"), std::string::npos)
      << cut.result.detail;
}

INSTANTIATE_TEST_SUITE_P(all, bench_fib_variants, testing::ValuesIn(runtimes_built()),
                         [](const testing::TestParamInfo<runtime_kind>& info) {
                           return std::string(bench::to_string(info.param));
                         });

TEST(bench_fib, rejects_malformed_sizes_naming_every_form) {
  for (const char* bad : {"51", "18/1", "18/51", "18/", "/8", "18/8:edt:edt", "18:edts", "18:"}) {
    try {
      (void)run_fib(bad, runtime_kind::serial);
      ADD_FAILURE() << "accepted fib size '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("n/cutoff"), std::string::npos) << e.what();
    }
  }
}

// ------------------------------------------------------------------------------- memcpy

TEST(bench_memcpy, sizes_are_bytes_with_a_unit_and_optional_repetitions) {
  EXPECT_EQ(memcpy_kernel::parse("8MiB").bytes, std::size_t{8} << 20);
  EXPECT_EQ(memcpy_kernel::parse("8").bytes, std::size_t{8} << 20) << "bare numbers are MiB";
  EXPECT_EQ(memcpy_kernel::parse("3KiB").bytes, std::size_t{3} << 10);
  EXPECT_EQ(memcpy_kernel::parse("1GiBx4").bytes, std::size_t{1} << 30);
  EXPECT_EQ(memcpy_kernel::parse("1GiBx4").reps, 4u);
  for (const char* bad : {"", "0", "65GiB", "8MB", "MiB", "8MiBx0", "8MiBx", "x3", "-1", "8MiBx2y"})
    EXPECT_THROW((void)memcpy_kernel::parse(bad), std::invalid_argument) << bad;
}

TEST(bench_memcpy, a_partial_last_block_is_copied_and_verified) {
  bench::bench_config c;
  c.kernel = bench::find_kernel("memcpy");
  ASSERT_NE(c.kernel, nullptr);
  c.size = "1537KiBx2";  // three blocks, the last one 1 KiB
  c.runtime = runtime_kind::serial;
  c.workers = 1;
  const bench::run_report r = bench::execute(c);
  EXPECT_TRUE(r.result.verified) << r.result.detail;
}

// ------------------------------------------- kernels that declare their data (issue 7, §4)

// The locus versions that declare their data, run with accounting on. Declared bytes do not
// depend on the schedule, so 1 and 4 workers must count the same total; every page a kernel
// reads was first written (first-touched) by one of its tasks, so nothing is unplaced; and one
// worker has nothing remote: everything is local.
class bench_kernel_declares_data : public testing::TestWithParam<const char*> {};

locus::locality_stats run_accounted(const char* name, unsigned workers, const std::string& topo) {
  const bench::kernel_info* k = bench::find_kernel(name);
  locus::config cfg;
  cfg.workers = workers;
  cfg.topology = topo;
  cfg.pin = false;
  cfg.accounting = true;
  locus::runtime rt{cfg};
  const bench::outcome out = k->implementation(runtime_kind::locus)(bench::args{
      bench::resolve_size(*k, "small"), workers, &rt, bench::schedule_mode::random, {}});
  EXPECT_TRUE(out.verified) << name << " at " << workers << " workers: " << out.detail;
  return rt.locality();
}

TEST_P(bench_kernel_declares_data, one_worker_is_all_local_and_every_read_was_first_touched) {
  const locus::locality_stats one = run_accounted(GetParam(), 1, "");
  EXPECT_GT(one.total.placed(), 0u) << one.summary();
  EXPECT_EQ(one.total.remote, 0u) << one.summary();
  EXPECT_EQ(one.total.unplaced, 0u) << one.summary();
  EXPECT_EQ(one.local_share().value_or(-1.0), 1.0) << one.summary();
  const locus::locality_stats four = run_accounted(GetParam(), 4, "sockets=4,cores=1");
  EXPECT_EQ(four.total.total(), one.total.total())
      << "declared bytes depend on the schedule: " << one.summary() << " / " << four.summary();
  EXPECT_EQ(four.total.unplaced, 0u) << four.summary();
  EXPECT_GT(four.local_share().value_or(-1.0), 0.0) << four.summary();
}

INSTANTIATE_TEST_SUITE_P(all, bench_kernel_declares_data,
                         testing::Values("heat", "sor", "fdtd", "cg", "scan", "matmul", "floyd",
                                         "cilksort", "memcpy"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param);
                         });

// ------------------------------------- replayed schedules (locus-bench --schedule, issue 8)

// The kernels with a replay version, under every replay mode, through execute() as a child
// runs them (the replay scheduler installed): verified, with 1 to 4 workers, also under the
// locality loop and their designed schedule (the loop's trial phases change fdtd's, floyd's,
// cg's and scan's data: the timed run must still start from the initial values).
TEST(bench_schedule, replaying_kernels_verify_under_every_mode) {
  for (const char* name : {"memcpy", "heat", "fdtd", "floyd", "cg", "scan"}) {
    for (auto m : {bench::schedule_mode::stows, bench::schedule_mode::stuws,
                   bench::schedule_mode::relws, bench::schedule_mode::loop,
                   bench::schedule_mode::designed, bench::schedule_mode::traced}) {
      for (unsigned w : {1u, 2u, 4u}) {
        bench::bench_config c;
        c.kernel = bench::find_kernel(name);
        ASSERT_NE(c.kernel, nullptr);
        c.size = bench::resolve_size(*c.kernel, "small");
        c.runtime = runtime_kind::locus;
        c.schedule = m;
        c.workers = w;
        ASSERT_TRUE(c.implemented()) << c.label();
        const bench::run_report r = bench::execute(c);
        EXPECT_TRUE(r.result.verified) << c.label() << ": " << r.result.detail;
      }
    }
  }
}

TEST(bench_schedule, a_kernel_without_a_replay_version_refuses_a_replayed_schedule) {
  bench::bench_config c;
  c.kernel = bench::find_kernel("fib");
  c.size = "10";
  c.runtime = runtime_kind::locus;
  c.schedule = bench::schedule_mode::stows;
  EXPECT_FALSE(c.implemented());
  EXPECT_THROW((void)bench::execute(c), std::runtime_error);
  // A kernel registered as replaying but not designing would refuse loop and designed (every
  // replaying kernel designs now: checked on a copy of an entry).
  bench::kernel_info k = *bench::find_kernel("cg");
  EXPECT_TRUE(k.runs(bench::schedule_mode::loop));
  k.designs = false;
  EXPECT_TRUE(k.runs(bench::schedule_mode::stows));
  for (auto m : {bench::schedule_mode::loop, bench::schedule_mode::designed})
    EXPECT_FALSE(k.runs(m));
}

// A strict replay of the first touch's steal tree runs every leaf on the worker that first
// touched its data: on a virtual machine of one core per socket, next to nothing is remote (a
// model of locality, no timing). Not nothing: homes are per page, and a page that straddles
// two leaves' data (the arrays are not page-aligned; a heat leaf is 16 rows of 2 KiB) is homed
// by whichever leaf wrote first.
// The same holds for the schedule the locality loop settles on (the data is redistributed
// along it) and for the designed block partition (first touch and kernel share it), and for
// scan, whose passes split as its first touch does. Not for fdtd: its magnetic phase splits
// one row fewer than the first touch, so its leaves' bounds drift off the template's and part
// of them runs off it (followed where it fits; 88% local at the small size). Not for the
// loop and designed modes of fdtd, floyd and cg either, at these sizes: a designed band of a
// small grid is two or three pages, so the pages it shares with its neighbours are a large part
// of it (fdtd 81% local), and every share reads floyd's pivot row and cg's gathered vector
// whole (floyd 85%, cg 91%); their bench_schedule test above checks that they verify.
TEST(bench_schedule, strict_replays_of_the_first_touch_are_all_local) {
  for (const char* name : {"memcpy", "heat", "scan"}) {
    for (auto m : {bench::schedule_mode::stows, bench::schedule_mode::stuws,
                   bench::schedule_mode::loop, bench::schedule_mode::designed}) {
      const bench::kernel_info* k = bench::find_kernel(name);
      if (!k->runs(m)) continue;
      locus::config cfg;
      cfg.workers = 4;
      cfg.topology = "sockets=4,cores=1";
      cfg.pin = false;
      cfg.accounting = true;
      auto replayer = locus::schedule::make_replay_scheduler();
      cfg.custom_scheduler = replayer->scheduler();
      locus::runtime rt{cfg};
      bench::args a{bench::resolve_size(*k, "small"), 4, &rt, m, {}};
      const bench::outcome out = k->implementation(runtime_kind::locus)(a);
      EXPECT_TRUE(out.verified) << name << ": " << out.detail;
      const locus::locality_stats st = rt.locality();
      EXPECT_GT(st.total.placed(), 0u) << name << ": " << st.summary();
      // The loop mode's schedule is the one its iterations settle on from recorded steal
      // trees, which depend on timing: once, under ASan in a loaded CI run, heat's settled
      // at 94.1% local (1280 of 1664 misses remote). The strict replays and the designed
      // partition, which follow a fixed template, keep 0.95.
      const double floor = m == bench::schedule_mode::loop ? 0.90 : 0.95;
      EXPECT_GE(st.local_share().value_or(-1.0), floor)
          << name << " " << bench::schedule_name(m) << ": " << st.summary();
    }
  }
}

}  // namespace

#endif  // LOCUS_TEST_KERNELS
