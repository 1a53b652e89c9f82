// tests/bench_halo_test.cpp — heat and sor declare the halo rows their tasks read (issue 18:
// "each declaring the data it really reads, halo rows included"), as heat-ir, sor-ir and the
// stencils do: a leaf's declared reads include the row on each side of its rows, and the
// bytes the model counts are exactly the leaves' declarations, whatever the schedule.
#ifdef LOCUS_TEST_KERNELS

#include <gtest/gtest.h>
#include <locus/locus.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "kernel.hpp"
#include "kernels/heat/declared.hpp"
#include "kernels/sor/declared.hpp"
#include "registry.hpp"

namespace {

/// Whether `d` has a range of mode `m` covering bytes [p, p + bytes).
template <std::size_t N>
bool covers(const bench::ranges<N>& d, const double* p, std::size_t doubles, locus::access m) {
  const auto lo = reinterpret_cast<std::uintptr_t>(p);
  const auto hi = lo + doubles * sizeof(double);
  for (const locus::data_range& r : d.span()) {
    const auto b = reinterpret_cast<std::uintptr_t>(r.begin);
    if (r.mode == m && b <= lo && hi <= b + r.bytes) return true;
  }
  return false;
}

TEST(bench_halo, a_heat_leaf_reads_its_rows_and_one_halo_row_on_each_side) {
  const heat_kernel::problem pr = heat_kernel::parse("40x10x1");
  std::vector<double> from(static_cast<std::size_t>(pr.nx) * pr.ny);
  std::vector<double> to(from.size());
  const auto row = [&pr](const std::vector<double>& g, int i) {
    return g.data() + static_cast<std::size_t>(i) * pr.ny;
  };
  for (const auto [lo, hi] : {std::pair{1, 9}, std::pair{17, 25}, std::pair{30, 39}}) {
    const bench::ranges<2> d = heat_kernel::step_ranges(pr, from.data(), to.data(), lo, hi);
    ASSERT_EQ(d.count, 2u);
    EXPECT_TRUE(covers(d, row(from, lo - 1), pr.ny, locus::access::read)) << lo;
    EXPECT_TRUE(covers(d, row(from, hi), pr.ny, locus::access::read)) << hi;
    EXPECT_TRUE(
        covers(d, row(from, lo), static_cast<std::size_t>(hi - lo) * pr.ny, locus::access::read));
    EXPECT_TRUE(
        covers(d, row(to, lo), static_cast<std::size_t>(hi - lo) * pr.ny, locus::access::write));
    // It writes no more than its rows.
    EXPECT_FALSE(covers(d, row(to, lo - 1), pr.ny, locus::access::write));
    EXPECT_FALSE(covers(d, row(to, hi), pr.ny, locus::access::write));
  }
  // The first touch writes the boundary rows too (the first and last leaves), so the halo rows
  // of the outermost leaves have homes.
  const bench::ranges<2> first = heat_kernel::first_touch_ranges(pr, from.data(), to.data(), 1, 9);
  EXPECT_TRUE(covers(first, row(from, 0), pr.ny, locus::access::write));
  EXPECT_TRUE(covers(first, row(to, 0), pr.ny, locus::access::write));
  const bench::ranges<2> last =
      heat_kernel::first_touch_ranges(pr, from.data(), to.data(), 30, pr.nx - 1);
  EXPECT_TRUE(covers(last, row(from, pr.nx - 1), pr.ny, locus::access::write));
}

TEST(bench_halo, a_sor_leaf_updates_its_rows_and_reads_one_halo_row_on_each_side) {
  const int n = 40;
  std::vector<double> g(static_cast<std::size_t>(n) * n);
  const auto row = [&g, n](int i) { return g.data() + static_cast<std::size_t>(i) * n; };
  for (const auto [lo, hi] : {std::pair{1, 9}, std::pair{17, 25}, std::pair{30, 39}}) {
    const bench::ranges<3> d = sor_kernel::sweep_ranges(g.data(), n, lo, hi);
    EXPECT_TRUE(
        covers(d, row(lo), static_cast<std::size_t>(hi - lo) * n, locus::access::read_write));
    EXPECT_TRUE(covers(d, row(lo - 1), n, locus::access::read)) << lo;
    EXPECT_TRUE(covers(d, row(hi), n, locus::access::read)) << hi;
    EXPECT_FALSE(covers(d, row(lo - 1), n, locus::access::read_write));
    EXPECT_FALSE(covers(d, row(hi), n, locus::access::read_write));
  }
  EXPECT_TRUE(
      covers(sor_kernel::first_touch_ranges(g.data(), n, 1, 9), row(0), n, locus::access::write));
  EXPECT_TRUE(covers(sor_kernel::first_touch_ranges(g.data(), n, 30, n - 1), row(n - 1), n,
                     locus::access::write));
}

/// Leaves of the halving of `count` rows down to at most `leaf` (split_rows's tree).
std::uint64_t leaves(int count, int leaf) {
  if (count <= leaf) return 1;
  return leaves(count / 2, leaf) + leaves(count - count / 2, leaf);
}

/// The locus version of `kernel` at `size` with accounting on: its locality after the run.
locus::locality_stats run_accounted(const char* kernel, const std::string& size,
                                    locus::scheduler_kind s, unsigned workers,
                                    const char* topology) {
  const bench::kernel_info* k = bench::find_kernel(kernel);
  locus::config cfg;
  cfg.scheduler = s;
  cfg.workers = workers;
  cfg.topology = topology;
  cfg.pin = false;
  cfg.accounting = true;
  locus::runtime rt{cfg};
  const bench::outcome out = k->implementation(bench::runtime_kind::locus)(
      bench::args{size, workers, &rt, bench::schedule_mode::random, {}});
  EXPECT_TRUE(out.verified) << kernel << " " << size << ": " << out.detail;
  return rt.locality();
}

// The counted bytes are the leaves' declarations: per heat step, every interior row read and
// written once plus two halo rows read per leaf; per sor half-sweep, every interior row once
// (read-write) plus two halo rows per leaf. Under every scheduler, on 1 and 4 sockets; every
// byte has a home (the first touch covered the boundary rows the outermost leaves read).
TEST(bench_halo, counted_bytes_are_each_leafs_rows_and_its_two_halo_rows) {
  const heat_kernel::problem hp = heat_kernel::parse("67x24x3");
  const int hin = hp.nx - 2;
  const std::uint64_t heat_bytes =
      static_cast<std::uint64_t>(hp.ny) * sizeof(double) *
      (2 * static_cast<std::uint64_t>(hin) + 2 * leaves(hin, heat_kernel::leaf_rows)) *
      static_cast<std::uint64_t>(hp.nt);
  const sor_kernel::problem sp = sor_kernel::parse("75x2");
  const int sin = sp.n - 2;
  const std::uint64_t sor_bytes =
      static_cast<std::uint64_t>(sp.n) * sizeof(double) *
      (static_cast<std::uint64_t>(sin) + 2 * leaves(sin, sor_kernel::block_rows)) * 2 *
      static_cast<std::uint64_t>(sp.iters);
  for (const auto s :
       {locus::scheduler_kind::cilk, locus::scheduler_kind::slaw, locus::scheduler_kind::laws}) {
    for (const auto& [w, topo] :
         {std::pair{1u, "sockets=1,cores=1"}, std::pair{4u, "sockets=4,cores=1"}}) {
      const locus::locality_stats h = run_accounted("heat", hp.size, s, w, topo);
      EXPECT_EQ(h.total.total(), heat_bytes)
          << locus::to_string(s) << " " << topo << ": " << h.summary();
      EXPECT_EQ(h.total.unplaced, 0u) << h.summary();
      const locus::locality_stats o = run_accounted("sor", sp.size, s, w, topo);
      EXPECT_EQ(o.total.total(), sor_bytes)
          << locus::to_string(s) << " " << topo << ": " << o.summary();
      EXPECT_EQ(o.total.unplaced, 0u) << o.summary();
    }
  }
}

}  // namespace

#endif  // LOCUS_TEST_KERNELS
