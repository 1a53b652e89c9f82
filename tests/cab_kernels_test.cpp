// tests/cab_kernels_test.cpp — the bench kernels under the cab scheduler (issue 19): heat,
// sor, ge and cilksort verified at 1 to 4 workers on virtual machines of 1 to 4 sockets, with
// Eq. 4's boundary level and with a given one; every other kernel's locus version once on 2
// and once on 4 sockets (cpu-bound ones run plain, the rest tiered).
#ifdef LOCUS_TEST_KERNELS

#include <gtest/gtest.h>
#include <cstddef>
#include <locus/cab.hpp>
#include <locus/ext/core.hpp>
#include <locus/locus.hpp>

#include <stdexcept>
#include <string>

#include "kernel.hpp"
#include "registry.hpp"

namespace {

using bench::runtime_kind;

bench::outcome run_cab(const bench::kernel_info& k, unsigned workers, const std::string& topo,
                       locus::cab_params p) {
  locus::config cfg;
  cfg.scheduler = locus::scheduler_kind::cab;
  cfg.workers = workers;
  cfg.topology = topo;
  cfg.pin = false;
  cfg.cab = p;
  locus::runtime rt{cfg};
  return k.implementation(runtime_kind::locus)(
      bench::args{bench::resolve_size(k, "small"), workers, &rt, bench::schedule_mode::random, {}});
}

class cab_kernel : public testing::TestWithParam<const char*> {};

TEST_P(cab_kernel, verifies_at_one_to_four_workers_on_one_to_four_sockets) {
  const bench::kernel_info* k = bench::find_kernel(GetParam());
  ASSERT_NE(k, nullptr) << GetParam();
  for (int bl : {locus::cab_params::k_auto, 3}) {
    locus::cab_params p;
    p.boundary_level = bl;
    for (unsigned sockets = 1; sockets <= 4; ++sockets) {
      for (unsigned w = 1; w <= 4; ++w) {
        const std::string topo = "sockets=" + std::to_string(sockets) + ",cores=2,l3=64KiB";
        const bench::outcome out = run_cab(*k, w, topo, p);
        EXPECT_TRUE(out.verified) << GetParam() << " bl=" << bl << " w=" << w << " " << topo << ": "
                                  << out.detail;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(all, cab_kernel, testing::Values("heat", "sor", "ge", "cilksort"));

/// CAB at bl=3 on four one-core sockets with a 64 KiB L3: the runtime of the heat tier tests.
locus::config heat_bl3_config(bool accounting) {
  locus::config cfg;
  cfg.scheduler = locus::scheduler_kind::cab;
  cfg.workers = 4;
  cfg.topology = "sockets=4,cores=1,l3=64KiB";
  cfg.pin = false;
  cfg.accounting = accounting;
  cfg.cab.boundary_level = 3;
  return cfg;
}

// The bench heat kernel (a step task calls the row split, which declares both grids): the
// paper's level 1 is the split (spawn depth 1), so bl=3 puts the leaf inter-socket tasks at
// depth 3; each run (the first touch and every step) spawns 3 inter-socket tasks, 2 of them
// leaves (2^(BL-1) = 4 leaf inter-socket tasks, half spawned, half called).
TEST(cab_kernels, heat_has_the_inter_socket_tasks_of_its_boundary_level) {
  const bench::kernel_info* k = bench::find_kernel("heat");
  ASSERT_NE(k, nullptr);
  locus::runtime rt{heat_bl3_config(false)};
  const bench::outcome out = k->implementation(runtime_kind::locus)(
      bench::args{bench::resolve_size(*k, "small"), 4, &rt, bench::schedule_mode::random, {}});
  EXPECT_TRUE(out.verified) << out.detail;
  const locus::cab::stats s = locus::cab::stats_of(locus::ext::core_ref::of(rt));
  EXPECT_EQ(s.boundary_level, 3);
  EXPECT_EQ(s.root_depth, 1);
  EXPECT_EQ(s.leaf_depth, 3);
  EXPECT_EQ(s.branching, 2u);
  // S_d is the grid a step reads (rows 0 to nx - 1 of `from`: 256 x 256 doubles), not both.
  EXPECT_EQ(s.data_bytes, std::size_t{256} * 256 * sizeof(double));
  EXPECT_GE(s.inter_spawns, 30u);  // 10 steps at least
  EXPECT_EQ(s.inter_spawns % 3, 0u) << s.inter_spawns;
  EXPECT_EQ(s.leaf_spawns * 3, s.inter_spawns * 2) << s.leaf_spawns << " / " << s.inter_spawns;
}

// Under locus::iterate the first step's decision is kept while the grids swap roles: the root
// of step 0 reads a (rows 0 to nx - 1) and writes b (rows 1 to nx - 2), so in odd steps the
// first half's read range (b from row 0) reaches one row past the root's b range. Each step's
// four leaf inter-socket tasks (BL 3) must still go to the four squads owning their rows:
// every socket's workers touch about a quarter of the bytes in every step (with the halo
// taken by its containment alone, odd steps put two quarters on one squad: 50%).
TEST(cab_kernels, heat_keeps_one_quarter_per_squad_in_every_step) {
  const bench::kernel_info* k = bench::find_kernel("heat");
  ASSERT_NE(k, nullptr);
  locus::runtime rt{heat_bl3_config(true)};
  const bench::outcome out = k->implementation(runtime_kind::locus)(
      bench::args{"256x256x6", 4, &rt, bench::schedule_mode::random, {}});
  EXPECT_TRUE(out.verified) << out.detail;
  const auto recs = rt.stats().iterations;
  ASSERT_EQ(recs.size(), 6u);
  for (const auto& r : recs) {
    ASSERT_EQ(r.bytes_per_socket.size(), 4u);
    for (std::size_t s = 0; s < 4; ++s)
      EXPECT_LT(r.bytes_per_socket[s] * 10, r.bytes * 3)  // below 30%
          << "step " << r.index << ", socket " << s << ": " << r.bytes_per_socket[s] << " of "
          << r.bytes << " bytes";
  }
}

TEST(cab_kernels, every_locus_kernel_verifies_on_two_and_four_sockets) {
  for (const auto& k : bench::registry()) {
    if (k.implementation(runtime_kind::locus) == nullptr) continue;
    if (k.name == "cholesky" && !bench::runtime_built(runtime_kind::blas)) continue;  // OpenBLAS
    for (const auto& [w, topo] : {std::pair<unsigned, const char*>{2, "sockets=2,cores=1"},
                                  std::pair<unsigned, const char*>{4, "sockets=4,cores=1"}}) {
      const bench::outcome out = run_cab(k, w, topo, {});
      EXPECT_TRUE(out.verified) << k.name << " w=" << w << " " << topo << ": " << out.detail;
    }
  }
}

}  // namespace

#endif  // LOCUS_TEST_KERNELS
