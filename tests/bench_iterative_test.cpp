// tests/bench_iterative_test.cpp — the iterative kernels of LAWS (issue 18) and CAB (issue 19):
// ge, stencil9, stencil3d6, stencil3d25, heat-ir, sor-ir (and heat and sor, whose allocation
// and iteration changed with them). Every one verified under cilk and slaw at 1 to 4 workers
// and on virtual machines of 1 to 4 sockets, some without a worker; the data they declare
// counted with accounting on; their checks shown to fail on a wrong answer; the pieces they
// share (run_iterations, grid_buffer, row_repeats) on their own.
#ifdef LOCUS_TEST_KERNELS

#include <sys/mman.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <locus/locus.hpp>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernel.hpp"
#include "kernels/ge/common.hpp"
#include "kernels/grid_buffer.hpp"
#include "kernels/heat-ir/common.hpp"
#include "kernels/iterative.hpp"
#include "kernels/sor-ir/common.hpp"
#include "kernels/stencil3d25/common.hpp"
#include "kernels/stencil3d6/common.hpp"
#include "kernels/stencil9/common.hpp"
#include "kernels/stencil_locus.hpp"
#include "registry.hpp"

namespace {

using bench::runtime_kind;

constexpr const char* k_new_kernels[] = {"ge",          "stencil9", "stencil3d6",
                                         "stencil3d25", "heat-ir",  "sor-ir"};

struct run_setup {
  locus::scheduler_kind scheduler = locus::scheduler_kind::slaw;
  unsigned workers = 1;
  std::string topology;  ///< empty: the real machine
  bool accounting = false;
};

std::string describe(const char* kernel, const run_setup& s) {
  return std::string(kernel) + " " + std::string(locus::to_string(s.scheduler)) +
         " w=" + std::to_string(s.workers) + " topology='" + s.topology + "'";
}

/// Runs `kernel`'s locus version at `size` (small by default) on a runtime made for `s`;
/// returns its outcome and, through `stats`, the runtime's locality after it.
bench::outcome run_locus(const char* kernel, const run_setup& s, locus::locality_stats* stats,
                         const std::string& size = "small") {
  const bench::kernel_info* k = bench::find_kernel(kernel);
  if (k == nullptr) throw std::logic_error(std::string("no kernel ") + kernel);
  locus::config cfg;
  cfg.scheduler = s.scheduler;
  cfg.workers = s.workers;
  cfg.topology = s.topology;
  cfg.pin = false;
  cfg.accounting = s.accounting;
  locus::runtime rt{cfg};
  const bench::outcome out = k->implementation(runtime_kind::locus)(
      bench::args{bench::resolve_size(*k, size), s.workers, &rt, bench::schedule_mode::random, {}});
  if (stats != nullptr) *stats = rt.locality();
  return out;
}

// ------------------------------------------------ every kernel, both schedulers, 1-4 workers

class iterative_kernel : public testing::TestWithParam<const char*> {};

TEST_P(iterative_kernel, verifies_under_cilk_and_slaw_at_one_to_four_workers) {
  for (const auto sched : {locus::scheduler_kind::cilk, locus::scheduler_kind::slaw}) {
    for (unsigned w = 1; w <= 4; ++w) {
      const run_setup s{sched, w, "", false};
      const bench::outcome out = run_locus(GetParam(), s, nullptr);
      EXPECT_TRUE(out.verified) << describe(GetParam(), s) << ": " << out.detail;
    }
  }
}

// Virtual machines of 1 to 4 sockets; sockets=4,cores=1 with 2 workers and sockets=3,cores=2
// with 3 workers leave sockets without a worker.
TEST_P(iterative_kernel, verifies_on_virtual_topologies_of_one_to_four_sockets) {
  const std::vector<run_setup> setups = {
      {locus::scheduler_kind::slaw, 2, "sockets=1,cores=2", false},
      {locus::scheduler_kind::cilk, 2, "sockets=2,cores=1", false},
      {locus::scheduler_kind::slaw, 3, "sockets=3,cores=2", false},
      {locus::scheduler_kind::slaw, 2, "sockets=4,cores=1", false},
      {locus::scheduler_kind::cilk, 2, "sockets=4,cores=1", false},
      {locus::scheduler_kind::slaw, 4, "sockets=4,cores=1", true},
  };
  for (const run_setup& s : setups) {
    const bench::outcome out = run_locus(GetParam(), s, nullptr);
    EXPECT_TRUE(out.verified) << describe(GetParam(), s) << ": " << out.detail;
  }
}

// With accounting on: the declared total does not depend on the schedule (1 worker against 4
// on 4 sockets, cilk and slaw), every page read was first written by a task (nothing
// unplaced: the first touch covers the halo and boundary rows the steps read), and one
// worker's run is all local.
TEST_P(iterative_kernel, declared_bytes_do_not_depend_on_the_schedule_and_all_were_first_touched) {
  locus::locality_stats one;
  ASSERT_TRUE(run_locus(GetParam(), {locus::scheduler_kind::slaw, 1, "", true}, &one).verified);
  EXPECT_GT(one.total.placed(), 0u) << one.summary();
  EXPECT_EQ(one.total.unplaced, 0u) << one.summary();
  EXPECT_EQ(one.total.remote, 0u) << one.summary();
  for (const auto sched : {locus::scheduler_kind::cilk, locus::scheduler_kind::slaw}) {
    const run_setup s{sched, 4, "sockets=4,cores=1", true};
    locus::locality_stats four;
    const bench::outcome out = run_locus(GetParam(), s, &four);
    EXPECT_TRUE(out.verified) << describe(GetParam(), s) << ": " << out.detail;
    EXPECT_EQ(four.total.total(), one.total.total())
        << describe(GetParam(), s) << ": " << one.summary() << " / " << four.summary();
    EXPECT_EQ(four.total.unplaced, 0u) << describe(GetParam(), s) << ": " << four.summary();
  }
}

INSTANTIATE_TEST_SUITE_P(all, iterative_kernel,
                         testing::Values("ge", "stencil9", "stencil3d6", "stencil3d25", "heat-ir",
                                         "sor-ir", "heat", "sor"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string name(info.param);
                           for (char& ch : name)
                             if (ch == '-') ch = '_';
                           return name;
                         });

TEST(iterative_kernels, every_new_kernel_is_registered_with_serial_locus_and_omp) {
  for (const char* name : k_new_kernels) {
    const bench::kernel_info* k = bench::find_kernel(name);
    ASSERT_NE(k, nullptr) << name;
    EXPECT_NE(k->implementation(runtime_kind::serial), nullptr) << name;
    EXPECT_NE(k->implementation(runtime_kind::locus), nullptr) << name;
    if (bench::runtime_built(runtime_kind::omp))
      EXPECT_NE(k->implementation(runtime_kind::omp), nullptr) << name;
    if (bench::runtime_built(runtime_kind::tbb))
      EXPECT_NE(k->implementation(runtime_kind::tbb), nullptr) << name;
  }
}

// ------------------------------------------------------- what exactly is declared (counted)

// ge's counted bytes are the bytes it touches, whatever the split: per pivot k, each row below
// it reads and writes its window a[i][k..n) and reads the pivot's, (n - k) doubles each.
TEST(iterative_ge, counted_bytes_are_the_windows_touched_at_every_pivot) {
  for (const char* size : {"40", "40x3", "33x16"}) {
    const ge_kernel::problem pr = ge_kernel::parse(size);
    std::uint64_t expected = 0;
    for (int k = 0; k + 1 < pr.n; ++k)
      expected += static_cast<std::uint64_t>(pr.n - 1 - k) * 2 * (pr.n - k) * sizeof(double);
    for (const unsigned w : {1u, 3u}) {
      locus::locality_stats st;
      const run_setup s{locus::scheduler_kind::slaw, w, "sockets=2,cores=2", true};
      ASSERT_TRUE(run_locus("ge", s, &st, size).verified) << describe("ge", s);
      EXPECT_EQ(st.total.total(), expected) << size << " w=" << w << ": " << st.summary();
    }
  }
}

/// Leaves of the halving of `count` rows down to at most `leaf` (split_rows's tree).
std::uint64_t leaves(int count, int leaf) {
  if (count <= leaf) return 1;
  return leaves(count / 2, leaf) + leaves(count - count / 2, leaf);
}

// A stencil's leaf reads its planes and `radius` halo planes on each side, and writes its
// planes: per step, plane bytes x (2 x interior planes + 2 x radius x leaves).
template <class Spec>
void expect_stencil_bytes(const char* kernel, const std::string& size) {
  const stencil::problem pr = stencil::parse(size, Spec::name, Spec::dims, Spec::radius);
  const int interior = pr.n0 - 2 * pr.radius;
  const std::uint64_t per_step =
      pr.plane() * sizeof(double) *
      (2 * static_cast<std::uint64_t>(interior) +
       2 * static_cast<std::uint64_t>(pr.radius) * leaves(interior, stencil::leaf_planes));
  locus::locality_stats st;
  const run_setup s{locus::scheduler_kind::cilk, 2, "sockets=2,cores=1", true};
  ASSERT_TRUE(run_locus(kernel, s, &st, size).verified) << describe(kernel, s);
  EXPECT_EQ(st.total.total(), per_step * pr.steps) << kernel << " " << size << ": " << st.summary();
}

TEST(iterative_stencils, counted_bytes_are_the_planes_read_with_their_halo_and_written) {
  expect_stencil_bytes<stencil9_kernel::spec>("stencil9", "67x20x3");
  expect_stencil_bytes<stencil3d6_kernel::spec>("stencil3d6", "30x6x5x2");
  expect_stencil_bytes<stencil3d25_kernel::spec>("stencil3d25", "45x9x10x2");
}

// ----------------------------------------------------------- the checks can fail

TEST(iterative_checks, a_stencil_result_off_by_one_point_fails) {
  using spec = stencil3d6_kernel::spec;
  stencil::instance in = stencil::setup<spec>("20x6x6x3");
  stencil::solve_serial<spec>(in);
  bench::outcome ok;
  stencil::check<spec>(ok, in);
  EXPECT_TRUE(ok.verified) << ok.detail;
  // The result is grid b (3 steps); one interior point nudged by one ulp.
  double* u = in.b.data();
  const std::size_t x = in.pr.at(10, 3, 3);
  u[x] = std::nextafter(u[x], 2.0);
  bench::outcome bad;
  stencil::check<spec>(bad, in);
  EXPECT_FALSE(bad.verified) << bad.detail;
  // The serial version's own check (no reference) still catches a value out of range.
  u[x] = 1.5;
  bench::outcome range;
  stencil::check_serial<spec>(range, in);
  EXPECT_FALSE(range.verified) << range.detail;
}

TEST(iterative_checks, a_ge_result_missing_one_row_update_fails_the_residual) {
  ge_kernel::instance in = ge_kernel::setup("48");
  const ge_kernel::problem& pr = in.pr;
  for (int k = 0; k + 1 < pr.n; ++k) {
    const int skip = k == 5 ? pr.n - 1 : -1;  // pivot 5 forgets the last row
    for (int i = k + 1; i < pr.n; ++i)
      if (i != skip) ge_kernel::update_rows(pr, in.a.data(), k, i, i + 1);
  }
  bench::outcome out;
  ge_kernel::check_serial(out, in);
  EXPECT_FALSE(out.verified) << out.detail;
  ge_kernel::instance good = ge_kernel::setup("48");
  ge_kernel::solve_serial(good);
  bench::outcome fine;
  ge_kernel::check_serial(fine, good);
  EXPECT_TRUE(fine.verified) << fine.detail;
}

TEST(iterative_checks, sor_ir_with_every_row_relaxed_once_differs_from_its_reference) {
  sor_kernel::instance in = sor_kernel::setup("34x2");
  in.for_each_half_sweep(
      [](double* g, int n, int colour) { sor_kernel::sweep_rows(g, n, colour, 1, n - 1); });
  bench::outcome out;
  sor_ir_kernel::check(out, in);
  EXPECT_FALSE(out.verified) << "plain sor passed as sor-ir: " << out.detail;
}

// ----------------------------------------------------------- the irregular rows

TEST(iterative_irregular, rows_cost_one_to_four_updates_by_quarters) {
  const int n = 130;  // interior rows 1..128, quarters of 32
  EXPECT_EQ(bench::row_repeats(1, n), 1);
  EXPECT_EQ(bench::row_repeats(32, n), 1);
  EXPECT_EQ(bench::row_repeats(33, n), 2);
  EXPECT_EQ(bench::row_repeats(97, n), 4);
  EXPECT_EQ(bench::row_repeats(128, n), 4);
  int total = 0;
  for (int i = 1; i < n - 1; ++i)
    total += bench::row_repeats(i, n);
  EXPECT_EQ(total, 32 * (1 + 2 + 3 + 4));
  // Between 1 and 4 and never decreasing, on every grid from the smallest up.
  for (int rows = 3; rows < 300; ++rows) {
    int last = 1;
    for (int i = 1; i < rows - 1; ++i) {
      const int r = bench::row_repeats(i, rows);
      EXPECT_GE(r, last) << i << " of " << rows;
      EXPECT_LE(r, 4) << i << " of " << rows;
      last = r;
    }
  }
}

TEST(iterative_irregular, heat_ir_repeats_work_but_computes_heat_bit_for_bit) {
  heat_kernel::instance in = heat_kernel::setup("40x24x5");
  in.for_each_step([&pr = in.pr](const double* from, double* to) {
    heat_ir_kernel::step_rows(pr, from, to, 1, pr.nx - 1);
  });
  const std::span<const double> got = heat_kernel::result(in.pr, in.g);
  const std::span<const double> ref = heat_kernel::serial_reference(in.pr);
  ASSERT_EQ(got.size(), ref.size());
  EXPECT_EQ(std::memcmp(got.data(), ref.data(), ref.size() * sizeof(double)), 0);
}

// ------------------------------------------------------------- the shared pieces

TEST(iterative_helper, runs_every_iteration_in_order_each_as_its_own_root) {
  locus::config cfg;
  cfg.workers = 2;
  cfg.pin = false;
  locus::runtime rt{cfg};
  std::vector<std::size_t> order;
  bench::run_iterations(rt, 5, [&order](std::size_t i) -> locus::task<void> {
    order.push_back(i);  // each iteration's root runs alone: no race on `order`
    co_return;
  });
  EXPECT_EQ(order, (std::vector<std::size_t>{0, 1, 2, 3, 4}));
}

TEST(iterative_helper, an_exception_stops_the_iterations_after_it) {
  locus::config cfg;
  cfg.workers = 2;
  cfg.pin = false;
  locus::runtime rt{cfg};
  std::vector<std::size_t> ran;
  const auto body = [&ran](std::size_t i) -> locus::task<void> {
    ran.push_back(i);
    if (i == 2) throw std::runtime_error("iteration 2");
    co_return;
  };
  EXPECT_THROW(bench::run_iterations(rt, 6, body), std::runtime_error);
  EXPECT_EQ(ran, (std::vector<std::size_t>{0, 1, 2}));
  bench::run_iterations(rt, 1, body);  // the runtime stays usable
  EXPECT_EQ(ran.back(), 0u);
}

/// How many of the pages of [p, p + bytes) are resident.
std::size_t resident_pages(const void* p, std::size_t bytes) {
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t pages = (bytes + page - 1) / page;
  std::vector<unsigned char> vec(pages);
  if (::mincore(const_cast<void*>(p), bytes, vec.data()) != 0) return static_cast<std::size_t>(-1);
  std::size_t n = 0;
  for (unsigned char v : vec)
    n += v & 1u;
  return n;
}

// A locus grid is untouched until a task writes it (so that write decides each page's home),
// and reads as zeros; a heap grid is written by the thread that makes it.
TEST(iterative_grid_buffer, a_locus_grid_is_untouched_until_written_and_zero) {
  locus::config cfg;
  cfg.workers = 2;
  cfg.pin = false;
  locus::runtime rt{cfg};
  const std::size_t n = 64 * 1024;  // 512 KiB
  bench::grid_buffer<double> g(rt, n);
  EXPECT_TRUE(g.from_locus());
  EXPECT_EQ(resident_pages(g.data(), n * sizeof(double)), 0u);
  double* p = g.data();
  rt.run([](double* q, std::size_t count) -> locus::task<void> {
    for (std::size_t i = 0; i < count; i += 512)
      q[i] = 1.0;
    co_return;
  }(p, n));
  EXPECT_GT(resident_pages(g.data(), n * sizeof(double)), 0u);
  EXPECT_EQ(g[1], 0.0);
  EXPECT_EQ(g[512], 1.0);
  bench::grid_buffer<double> moved = std::move(g);
  EXPECT_EQ(moved.data(), p);
  EXPECT_EQ(g.data(), nullptr);  // NOLINT(bugprone-use-after-move): the moved-from state
  EXPECT_EQ(g.size(), 0u);
  EXPECT_THROW((bench::grid_buffer<double>(rt, 0)), std::invalid_argument);
  const bench::grid_buffer<double> heap(16);
  EXPECT_FALSE(heap.from_locus());
  EXPECT_EQ(heap[15], 0.0);
}

// ----------------------------------------------------------------- sizes

TEST(iterative_sizes, bad_sizes_are_errors_naming_the_form) {
  for (const char* bad : {"", "1", "0", "20000", "8x0", "8x9", "x8", "8x"}) {
    try {
      (void)ge_kernel::parse(bad);
      ADD_FAILURE() << "ge accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("NxLEAF"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(ge_kernel::parse("2").n, 2);
  for (const char* bad : {"8x8x8x1", "40x12x12", "40x12x12x0", "8x12x12x1", "70000x9x9x1"}) {
    try {
      (void)stencil::parse(bad, "stencil3d25", 3, 4);
      ADD_FAILURE() << "stencil3d25 accepted '" << bad << "'";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("N0xN1xN2xSTEPS"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(stencil::parse("9x9x9x1", "stencil3d25", 3, 4).n0, 9);
  EXPECT_THROW((void)stencil::parse("2x5x1", "stencil9", 2, 1), std::invalid_argument);
}

}  // namespace

#endif  // LOCUS_TEST_KERNELS
