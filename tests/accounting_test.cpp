// Locality accounting through the runtime (locus/data.hpp, runtime::locality()): known answers
// on virtual topologies, LAWS Eq. 1 shares down a recursive decomposition, touch(), and the
// configuration that turns it on.
#include <locus/locus.hpp>

#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <cstdlib>
#include <vector>

namespace {

constexpr std::size_t k_page = 4096;

locus::config accounted(unsigned workers, const char* topology, const char* places) {
  locus::config c;
  c.workers = workers;
  c.pin = false;
  c.topology = topology;
  c.places = places;
  c.accounting = true;
  return c;
}

/// A leaf: does nothing itself; its (inherited or own) ranges are what it touched.
locus::task<void> leaf() {
  co_return;
}

/// Binary D&C over `levels` levels: spawn the first half, call the second (heat's shape).
locus::task<void> split(int levels) {
  if (levels == 0) co_return;
  co_await locus::spawn(split(levels - 1));
  co_await split(levels - 1);
  co_await locus::sync();
}

// One worker: whatever it writes it first-touches, so every later access is on its own core.
TEST(Accounting, OneWorkerIsEverythingLocal) {
  locus::runtime rt{accounted(1, "sockets=4,cores=4", "none")};
  std::vector<double> a(64 * 1024);
  const auto all = [&](locus::access m) { return locus::data_range::of(a.data(), a.size(), m); };
  rt.run(locus::with_data(split(5), {all(locus::access::write)}));
  rt.run(locus::with_data(split(5), {all(locus::access::read)}));
  const locus::locality_stats s = rt.locality();
  EXPECT_DOUBLE_EQ(s.local_share().value_or(-1.0), 1.0);
  EXPECT_EQ(s.total.remote, 0u);
  EXPECT_EQ(s.total.unplaced, 0u);
  // Eq. 1 down 5 levels hands every byte to exactly one leaf, once per run.
  EXPECT_EQ(s.total.total(), 2 * a.size() * sizeof(double));
  EXPECT_EQ(s.straggler_socket(), -1);
}

/// Page-aligned bytes, so that quarters share no page.
struct pages {
  explicit pages(std::size_t n) : bytes(n), p(static_cast<char*>(std::aligned_alloc(k_page, n))) {}
  ~pages() { std::free(p); }
  pages(const pages&) = delete;
  pages& operator=(const pages&) = delete;
  [[nodiscard]] std::size_t size() const noexcept { return bytes; }
  std::size_t bytes;
  char* p;
};

/// Quarter q of `a`, with `mode`.
locus::data_range quarter(const pages& a, unsigned q, locus::access mode) {
  const std::size_t n = a.size() / 4;
  return locus::data_range::of(a.p + q * n, n, mode);
}

/// Phase: quarter q spawned at place (q + shift) % 4, one place per socket.
locus::task<void> by_place(const pages* a, unsigned shift, locus::access mode) {
  for (unsigned q = 0; q < 4; ++q)
    co_await locus::spawn(locus::with_data(leaf(), quarter(*a, q, mode)),
                          locus::at((q + shift) % 4));
  co_await locus::sync();
}

// A static partition on sockets=4,cores=4 whose data the same partition first-touched: all of
// it within the socket. Shifted by one socket: none of it, and every socket is as remote.
TEST(Accounting, StaticPartitionIsLocalAndAShiftedOneRemote) {
  locus::runtime rt{accounted(16, "sockets=4,cores=4", "socket")};
  ASSERT_EQ(rt.num_places(), 4u);
  pages a(16 * k_page * 4);
  rt.run(by_place(&a, 0, locus::access::write));  // first touch by the partition
  rt.reset_stats();
  rt.run(by_place(&a, 0, locus::access::read));
  locus::locality_stats s = rt.locality();
  EXPECT_DOUBLE_EQ(s.local_share().value_or(-1.0), 1.0);
  EXPECT_EQ(s.total.placed(), a.size());
  rt.reset_stats();
  rt.run(by_place(&a, 1, locus::access::read));
  s = rt.locality();
  EXPECT_DOUBLE_EQ(s.local_share().value_or(-1.0), 0.0);
  EXPECT_EQ(s.total.remote, a.size());
  EXPECT_EQ(s.straggler_socket(), 0);  // a tie between all four: the lowest
}

locus::task<void> toucher(const char* p, std::size_t n) {
  locus::touch(p, n, locus::access::write);
  locus::touch(p, n, locus::access::read);
  co_return;
}

TEST(Accounting, TouchCountsWhatNoRangeDescribes) {
  locus::runtime rt{accounted(1, "sockets=2,cores=2", "none")};
  std::vector<char> a(8 * k_page);
  rt.run(toucher(a.data(), a.size()));
  EXPECT_EQ(rt.locality().total.same_core, 2 * a.size());
  locus::touch(a.data(), a.size(), locus::access::read);  // off a worker: nothing
  EXPECT_EQ(rt.locality().total.total(), 2 * a.size());
}

TEST(Accounting, OffByDefaultAndThenNothingIsCounted) {
  locus::config c;
  c.workers = 1;
  c.pin = false;
  locus::runtime rt{c};
  std::vector<double> a(4096);
  rt.run(locus::with_data(split(3),
                          {locus::data_range::of(a.data(), a.size(), locus::access::write)}));
  EXPECT_EQ(rt.locality().total.total(), 0u);
  EXPECT_TRUE(rt.locality().per_worker.empty());
}

TEST(Accounting, WithDataRefusesBadInput) {
  std::vector<double> a(16);
  const auto r = locus::data_range::of(a.data(), a.size(), locus::access::read);
  EXPECT_THROW((void)locus::with_data(leaf(), {r}, {0, 1}), std::invalid_argument);
  EXPECT_THROW((void)locus::with_data(leaf(), {r}, {2, 0}), std::invalid_argument);
  EXPECT_THROW((void)locus::with_data(leaf(), {r, r, r, r, r, r, r, r, r}), std::invalid_argument);
  EXPECT_THROW((void)locus::data_range::between(a.data() + 4, a.data(), locus::access::read),
               std::invalid_argument);
}

TEST(Accounting, LocusAccountingVariableTurnsItOn) {
  const char* old = std::getenv("LOCUS_ACCOUNTING");
  setenv("LOCUS_ACCOUNTING", "on", 1);
  EXPECT_TRUE(locus::config::from_env().accounting);
  setenv("LOCUS_ACCOUNTING", "maybe", 1);
  try {
    (void)locus::config::from_env();
    ADD_FAILURE() << "no config_error";
  } catch (const locus::config_error& e) {
    EXPECT_NE(std::string(e.what()).find("LOCUS_ACCOUNTING=\"maybe\" is not valid"),
              std::string::npos)
        << e.what();
  }
  if (old != nullptr) {
    setenv("LOCUS_ACCOUNTING", old, 1);
  } else {
    unsetenv("LOCUS_ACCOUNTING");
  }
}

}  // namespace

// parallel_for with a data map: every chunk's declared bytes are counted once, where the chunk
// ran. One worker: all local, and exactly the array's bytes per pass (write, then read-write).
// Without accounting the map is never called.
TEST(Accounting, ParallelForCountsEachChunksDeclaredData) {
  std::vector<double> a(100'000);
  const auto write_all = [&](locus::runtime& rt, std::atomic<int>* calls) {
    rt.run([](std::vector<double>* v, std::atomic<int>* n) -> locus::task<void> {
      co_await locus::parallel_for(
          std::size_t{0}, v->size(), 1000, [v](std::size_t i) { (*v)[i] = double(i); },
          [v, n](std::size_t lo, std::size_t hi) {
            n->fetch_add(1);
            return locus::data_range::of(v->data() + lo, hi - lo, locus::access::write);
          });
      co_await locus::parallel_for(
          std::size_t{0}, v->size(), 1000, [v](std::size_t i) { (*v)[i] += 1; },
          [v](std::size_t lo, std::size_t hi) {
            return std::array{locus::data_range::of(v->data() + lo, hi - lo, locus::access::read),
                              locus::data_range::of(v->data() + lo, hi - lo, locus::access::write)};
          });
    }(&a, calls));
  };
  {
    locus::runtime rt{accounted(1, "sockets=4,cores=4", "none")};
    std::atomic<int> calls{0};
    write_all(rt, &calls);
    const locus::locality_stats s = rt.locality();
    EXPECT_DOUBLE_EQ(s.local_share().value_or(-1.0), 1.0);
    EXPECT_EQ(s.total.total(), 3 * a.size() * sizeof(double));
    EXPECT_GE(calls.load(), 100);  // chunks of at most 1000 of 100,000 indices
    EXPECT_DOUBLE_EQ(a[99'999], 100'000.0);
  }
  {
    locus::runtime rt{accounted(4, "sockets=4,cores=1", "none")};
    std::atomic<int> calls{0};
    write_all(rt, &calls);
    EXPECT_EQ(rt.locality().total.total(), 3 * a.size() * sizeof(double));
  }
  {
    locus::config c = accounted(2, "sockets=2,cores=1", "none");
    c.accounting = false;
    locus::runtime rt{c};
    std::atomic<int> calls{0};
    write_all(rt, &calls);
    EXPECT_EQ(calls.load(), 0);
    EXPECT_EQ(rt.locality().total.total(), 0u);
  }
}
