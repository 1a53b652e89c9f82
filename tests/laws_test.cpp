// The laws scheduler (locus/laws.hpp) and iterations (locus/iterate.hpp): allocation of each
// leaf to the socket owning its data, no cross-socket work in the first iteration, the
// cpu-bound fallback, and bad inputs. Algorithm 1 is in laws_search_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "locus/ext/core.hpp"
#include "locus/iterate.hpp"
#include "locus/laws.hpp"
#include "locus/locus.hpp"

namespace {

/// A D&C sweep over `a` (Cilk's heat shape: first half spawned, second called): each leaf adds
/// 1 to its elements and records the socket (package) of the worker that ran it.
struct sweep {
  std::vector<double> a;
  std::size_t leaf = 64;
  const locus::runtime* rt = nullptr;
  bool record = true;  ///< leaves record their socket (the iterations under test)
  std::vector<std::atomic<int>> leaf_socket;  ///< by leaf start / leaf (leaves are aligned)

  sweep(std::size_t n, std::size_t leaf_elems) : a(n, 0.0), leaf(leaf_elems), leaf_socket(n) {}

  locus::task<void> split(std::size_t lo, std::size_t hi) {
    if (hi - lo <= leaf) {
      for (std::size_t i = lo; i < hi; ++i)
        a[i] += 1.0;
      const unsigned w = locus::ext::this_worker_index();
      if (record)
        leaf_socket[lo].store(static_cast<int>(rt->topo().cores()[rt->core_of(w)].package));
      co_return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    co_await locus::spawn(split(lo, mid));
    co_await split(mid, hi);
    co_await locus::sync();
  }
  locus::task<void> root() {
    const locus::data_range r =
        locus::data_range::of(a.data(), a.size(), locus::access::read_write);
    co_await locus::with_data(split(0, a.size()), r, {2, sizeof(double)});
  }
  /// The socket part (0..m-1) holding most of [lo, hi) when the array is cut in m equal parts
  /// (Eq. 1 in elements; ties go to the lower part).
  [[nodiscard]] unsigned owner(std::size_t lo, std::size_t hi, unsigned m) const {
    const std::size_t bytes = a.size() * sizeof(double);
    unsigned best = 0;
    std::size_t best_in = 0;
    for (unsigned i = 0; i < m; ++i) {
      const std::size_t plo = i * (bytes / m), phi = i + 1 == m ? bytes : (i + 1) * (bytes / m);
      const std::size_t l = std::max(lo * sizeof(double), plo);
      const std::size_t h = std::min(hi * sizeof(double), phi);
      if (h > l && h - l > best_in) {
        best_in = h - l;
        best = i;
      }
    }
    return best;
  }
  /// Leaves as [lo, hi) in order (the split above, replayed).
  void leaves(std::size_t lo, std::size_t hi,
              std::vector<std::pair<std::size_t, std::size_t>>& out) const {
    if (hi - lo <= leaf) {
      out.emplace_back(lo, hi);
      return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    leaves(lo, mid, out);
    leaves(mid, hi, out);
  }
};

locus::config laws_config(const std::string& topo, unsigned workers) {
  locus::config cfg;
  cfg.scheduler = locus::scheduler_kind::laws;
  cfg.topology = topo;
  cfg.workers = workers;
  return cfg;
}

/// Every leaf of the first iteration ran on the socket owning its data; `sockets` lists the
/// packages that have workers, in order (part i belongs to sockets[i]).
void expect_leaves_on_owners(const sweep& sw, const std::vector<unsigned>& sockets) {
  std::vector<std::pair<std::size_t, std::size_t>> ls;
  sw.leaves(0, sw.a.size(), ls);
  const auto m = static_cast<unsigned>(sockets.size());
  std::vector<unsigned> per_socket(m, 0);
  for (const auto& [lo, hi] : ls) {
    const unsigned part = sw.owner(lo, hi, m);
    EXPECT_EQ(sw.leaf_socket[lo].load(), static_cast<int>(sockets[part]))
        << "leaf [" << lo << ", " << hi << ") of part " << part;
    ++per_socket[part];
  }
  for (unsigned i = 0; i < m; ++i)
    EXPECT_GT(per_socket[i], 0u) << "socket part " << i << " got no leaf";
}

TEST(Laws, FirstIterationSendsEachLeafToItsSocketOn4Sockets) {
  locus::runtime rt(laws_config("sockets=4,cores=2", 8));
  EXPECT_EQ(rt.scheduler_name(), "laws");
  sweep sw(4096, 64);
  sw.rt = &rt;
  const auto recs = locus::iterate(rt, 3, [&](std::size_t i) {
    sw.record = i == 0;  // later iterations may move whole CF subtrees across sockets
    return sw.root();
  });
  expect_leaves_on_owners(sw, {0, 1, 2, 3});
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].stage, "first-touch");
  EXPECT_EQ(recs[0].cross_socket_takes, 0u);
  EXPECT_EQ(recs[0].workload, "memory-bound");
  EXPECT_EQ(recs[1].stage.substr(0, 5) == "searc" || recs[1].stage == "tuned", true);
  for (double v : sw.a)
    ASSERT_EQ(v, 3.0);
}

TEST(Laws, FirstIterationSendsEachLeafToItsSocketOn3SocketsWithStraddlingLeaves) {
  // 3 parts of 3000 elements: boundaries at 1000 and 2000 fall inside leaves of 47 elements.
  locus::runtime rt(laws_config("sockets=3,cores=2", 6));
  sweep sw(3000, 64);
  sw.rt = &rt;
  (void)locus::iterate(rt, 1, [&](std::size_t) { return sw.root(); });
  expect_leaves_on_owners(sw, {0, 1, 2});
}

TEST(Laws, SocketsWithoutWorkersAreSkipped) {
  // 3 workers spread over 4 sockets: socket 3 has none, so M = 3 parts over sockets 0..2.
  locus::runtime rt(laws_config("sockets=4,cores=2", 3));
  std::vector<unsigned> sockets;
  for (unsigned w = 0; w < rt.num_workers(); ++w)
    sockets.push_back(rt.topo().cores()[rt.core_of(w)].package);
  std::sort(sockets.begin(), sockets.end());
  sockets.erase(std::unique(sockets.begin(), sockets.end()), sockets.end());
  ASSERT_EQ(sockets.size(), 3u);
  sweep sw(3072, 64);
  sw.rt = &rt;
  (void)locus::iterate(rt, 1, [&](std::size_t) { return sw.root(); });
  expect_leaves_on_owners(sw, sockets);
}

TEST(Laws, NoCrossSocketWorkInTheFirstIterationEvenWithCrossPlaceStealing) {
  locus::config cfg;
  cfg.topology = "sockets=4,cores=2";
  cfg.workers = 8;
  cfg.places = "socket";
  cfg.cross_place_steals = true;  // the built-in schedulers would steal across sockets
  cfg.custom_scheduler = locus::make_laws_scheduler();
  locus::runtime rt(cfg);
  for (int round = 0; round < 5; ++round) {
    sweep sw(4096, 32);
    sw.rt = &rt;
    const auto recs = locus::iterate(rt, 1, [&](std::size_t) { return sw.root(); });
    EXPECT_EQ(recs[0].cross_socket_takes, 0u);
    expect_leaves_on_owners(sw, {0, 1, 2, 3});
  }
}

locus::task<long> fib(int n) {
  if (n < 2) co_return n;
  auto a = co_await locus::spawn(fib(n - 1));
  const long b = co_await fib(n - 2);
  co_await locus::sync();
  co_return a.get() + b;
}

// One socket with workers: after the first iteration LAWS is plain stealing (no gate, no pool).
TEST(Laws, OneSocketFallsBackToPlainStealingAfterTheFirstIteration) {
  locus::runtime rt(laws_config("sockets=1,cores=4", 4));
  sweep sw(4096, 64);
  sw.rt = &rt;
  const auto recs = locus::iterate(rt, 3, [&](std::size_t) { return sw.root(); });
  ASSERT_EQ(recs.size(), 3u);
  EXPECT_EQ(recs[0].stage, "first-touch");
  EXPECT_EQ(recs[0].workload, "memory-bound");
  EXPECT_EQ(recs[1].stage, "plain");
  EXPECT_EQ(recs[2].stage, "plain");
  EXPECT_EQ(recs[2].cf_roots, 0u);
  for (double v : sw.a)
    ASSERT_EQ(v, 3.0);
}

TEST(Laws, CpuBoundProgramsFallBackToPlainStealing) {
  locus::runtime rt(laws_config("sockets=2,cores=2", 4));
  long got = 0;
  const auto recs =
      locus::iterate(rt, 3, [&](std::size_t) -> locus::task<void> { got = co_await fib(18); });
  EXPECT_EQ(got, 2584);
  EXPECT_EQ(recs[0].workload, "cpu-bound");
  EXPECT_EQ(recs[1].stage, "plain");
  EXPECT_EQ(recs[2].stage, "plain");
  EXPECT_EQ(recs[2].cf_roots, 0u);
  EXPECT_EQ(recs[2].cross_socket_takes, 0u);
  // Outside iterate() too: a program without data runs (its subtrees on plain stealing).
  EXPECT_EQ(rt.run(fib(16)), 987);
}

TEST(Laws, WorkloadRule) {
  using locus::ext::workload;
  EXPECT_EQ(locus::ext::classify_workload(0, 100), workload::cpu_bound);
  EXPECT_EQ(locus::ext::classify_workload(255 << 10, 1 << 10), workload::cpu_bound);
  EXPECT_EQ(locus::ext::classify_workload(64 << 20, 1024), workload::memory_bound);
  EXPECT_EQ(locus::ext::classify_workload(4096, 0), workload::memory_bound);
}

TEST(Laws, ARangeOutsideTheRootsIsAClearError) {
  locus::runtime rt(laws_config("sockets=2,cores=1", 2));
  std::vector<double> a(1024), other(1024);
  const auto body = [&](std::size_t) -> locus::task<void> {
    const auto r = locus::data_range::of(a.data(), a.size(), locus::access::write);
    const auto o = locus::data_range::of(other.data(), other.size(), locus::access::write);
    auto inner = [](const locus::data_range* x) -> locus::task<void> {
      co_await locus::spawn(locus::with_data([]() -> locus::task<void> { co_return; }(), *x));
      co_await locus::sync();
    };
    co_await locus::with_data(inner(&o), r, {1, 8});
  };
  try {
    (void)locus::iterate(rt, 1, body);
    FAIL() << "expected std::invalid_argument";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("is not inside the data of the iteration's root"),
              std::string::npos)
        << e.what();
  }
  // The runtime stays usable.
  sweep sw(1024, 64);
  sw.rt = &rt;
  (void)locus::iterate(rt, 1, [&](std::size_t) { return sw.root(); });
  EXPECT_EQ(sw.a[0], 1.0);
}

TEST(Iterate, MisuseIsAClearError) {
  locus::runtime rt(laws_config("sockets=2,cores=1", 2));
  // Nested: inside another iterate's body (the body runs on the calling thread).
  EXPECT_THROW((void)locus::iterate(rt, 1,
                                    [&](std::size_t) -> locus::task<void> {
                                      (void)locus::iterate(
                                          rt, 1,
                                          [](std::size_t) -> locus::task<void> { co_return; });
                                      co_return;
                                    }),
               std::logic_error);
  // The scope was closed: a later loop works.
  int n = 0;
  (void)locus::iterate(rt, 2, [&](std::size_t) -> locus::task<void> {
    ++n;
    co_return;
  });
  EXPECT_EQ(n, 2);
}

TEST(Iterate, RecordsAccountingPerIterationUnderAnyScheduler) {
  locus::config cfg;
  cfg.topology = "sockets=2,cores=1,l3=1MiB,l2=64KiB";
  cfg.workers = 2;
  cfg.accounting = true;
  locus::runtime rt(cfg);  // slaw: no hooks, still measured
  sweep sw(8192, 256);
  sw.rt = &rt;
  const auto recs = locus::iterate(rt, 2, [&](std::size_t) { return sw.root(); });
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_TRUE(recs[1].accounting);
  EXPECT_EQ(recs[1].bytes, 8192u * sizeof(double));
  EXPECT_TRUE(recs[1].local_share.has_value());
  EXPECT_EQ(recs[1].scheduler, "slaw");
  EXPECT_EQ(recs[1].stage, "");
  const std::string json = locus::to_json(recs);
  EXPECT_EQ(json.front(), '[');
  EXPECT_NE(json.find("\"index\":1"), std::string::npos) << json;
  EXPECT_NE(json.find("\"bytes\":65536"), std::string::npos) << json;
  EXPECT_NE(json.find("\"bytes_per_socket\":["), std::string::npos) << json;
}

TEST(Laws, OneSchedulerObjectPerRuntime) {
  auto s = locus::make_laws_scheduler();
  locus::config cfg;
  cfg.topology = "sockets=2,cores=1";
  cfg.workers = 2;
  cfg.places = "socket";
  cfg.custom_scheduler = s;
  locus::runtime a(cfg);
  EXPECT_THROW(locus::runtime b(cfg), locus::config_error);
}

TEST(Laws, ModelledMissCostNeedsAccounting) {
  locus::laws_options o;
  o.cost = locus::laws_cost::modelled_misses;
  locus::config cfg;
  cfg.topology = "sockets=2,cores=1";
  cfg.workers = 2;
  cfg.places = "socket";
  cfg.custom_scheduler = locus::make_laws_scheduler(o);
  locus::runtime rt(cfg);
  sweep sw(8192, 64);
  sw.rt = &rt;
  EXPECT_THROW((void)locus::iterate(rt, 2, [&](std::size_t) { return sw.root(); }),
               locus::config_error);
}

TEST(Laws, TheSchedulerNameParses) {
  EXPECT_EQ(locus::parse_scheduler("LAWS", "LOCUS_SCHEDULER"), locus::scheduler_kind::laws);
  EXPECT_EQ(locus::to_string(locus::scheduler_kind::laws), "laws");
}

}  // namespace
