// locality_counting_test.cpp — what the accounting counts through the runtime (issue 22's wrong
// answers), each against the hand-derived answer: homes forgotten when memory is released,
// datablocks smaller than a page, memory placed through the runtime's home map, every declared
// byte counted once (data maps, called helpers, fan-out mismatches), "no data" instead of a
// perfect share, and the declared data a scheduler reads at a spawn with accounting off.
#include <locus/dataflow/datablock.hpp>
#include <locus/locus.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstdlib>
#include <vector>

namespace {

constexpr std::size_t k_page = 4096;

/// 16 workers on sockets=4,cores=4 (worker w on core w, socket w / 4), one place per worker,
/// so at(w) runs a task on worker w.
locus::config per_worker(bool accounting = true) {
  locus::config c;
  c.workers = 16;
  c.pin = false;
  c.topology = "sockets=4,cores=4";
  c.places = "16";
  c.accounting = accounting;
  return c;
}

/// Runs f() as a task on worker w.
template <class F>
locus::task<void> on(unsigned w, F f) {
  co_await locus::spawn(
      [](F g) -> locus::task<void> {
        g();
        co_return;
      }(std::move(f)),
      locus::at(w));
  co_await locus::sync();
}

struct pages {
  explicit pages(std::size_t n) : bytes(n), p(static_cast<char*>(std::aligned_alloc(k_page, n))) {}
  ~pages() { std::free(p); }
  pages(const pages&) = delete;
  pages& operator=(const pages&) = delete;
  std::size_t bytes;
  char* p;
};

// Wrong answer 1: memory released and used again kept its old homes, so worker 5's first write
// counted as remote. forget() (and deallocate(rt, ...)) clear them.
TEST(LocalityCounting, ReleasedMemoryIsFirstTouchedAfresh) {
  locus::runtime rt{per_worker()};
  pages a(4 * k_page);
  rt.run(on(0, [&] { locus::touch(a.p, a.bytes, locus::access::write); }));
  locus::forget(rt, a.p, a.bytes);  // as when `a` is freed and its addresses reused
  rt.reset_stats();
  rt.run(on(5, [&] { locus::touch(a.p, a.bytes, locus::access::write); }));
  auto s = rt.locality();
  EXPECT_EQ(s.per_worker[5].same_core, a.bytes);
  EXPECT_EQ(s.total.remote, 0U);

  void* m = locus::allocate(rt, 4 * k_page, locus::placement::first_touch());
  rt.run(on(0, [&] { locus::touch(m, 4 * k_page, locus::access::write); }));
  locus::deallocate(rt, m, 4 * k_page);
  void* again = locus::allocate(rt, 4 * k_page, locus::placement::first_touch());
  rt.reset_stats();
  rt.run(on(5, [&] { locus::touch(again, 4 * k_page, locus::access::write); }));
  s = rt.locality();
  EXPECT_EQ(s.per_worker[5].same_core, 4 * k_page);  // whether or not `again` == `m`
  locus::deallocate(rt, again, 4 * k_page);
}

// Wrong answer 2: two 2 KiB datablocks made on workers 0 and 4 shared a page. Each is now
// counted at its own home, before and after the other is destroyed, and where() agrees.
TEST(LocalityCounting, SmallDatablocksKeepTheirOwnHomes) {
  using locus::dataflow::datablock;
  locus::runtime rt{per_worker()};
  datablock t0, t4;
  rt.run(on(0, [&] { t0 = datablock::create(2048); }));
  rt.run(on(4, [&] { t4 = datablock::create(2048); }));
  EXPECT_EQ(t0.where(), locus::home::on_core(0));
  const auto read_t0 = [&] {
    locus::dataflow::detail::block_accessed(t0.core());               // the graph's path
    locus::touch(t0.bytes().data(), t0.size(), locus::access::read);  // and touch()
  };
  rt.reset_stats();
  rt.run(on(0, read_t0));
  EXPECT_EQ(rt.locality().per_worker[0].same_core, 2 * 2048U);
  t4 = datablock{};  // destroyed: its pages' homes are cleared, not t0's
  rt.reset_stats();
  rt.run(on(0, read_t0));
  EXPECT_EQ(rt.locality().per_worker[0].same_core, 2 * 2048U);
  EXPECT_EQ(t0.where(), locus::home::on_core(0));

  // Wrapped blocks may share a page: they are counted by their own homes all the same.
  pages shared(k_page);
  datablock w0, w4;
  rt.run(on(0, [&] { w0 = datablock::wrap(shared.p, 2048); }));
  rt.run(on(4, [&] { w4 = datablock::wrap(shared.p + 2048, 2048); }));
  rt.reset_stats();
  rt.run(on(0, [&] {
    locus::dataflow::detail::block_accessed(w0.core());
    locus::dataflow::detail::block_accessed(w4.core());
  }));
  const auto s = rt.locality();
  EXPECT_EQ(s.per_worker[0].same_core, 2048U);
  EXPECT_EQ(s.per_worker[0].remote, 2048U);
}

// Wrong answer 3: memory allocated on_socket(1) through the runtime is counted by that
// placement: remote from socket 0, same socket from socket 1; place() moves it; forget()
// leaves it unplaced.
TEST(LocalityCounting, MemoryPlacedThroughTheRuntimeHasHomes) {
  locus::runtime rt{per_worker()};
  constexpr std::size_t n = 8 * k_page;
  void* m = locus::allocate(rt, n, locus::placement::on_socket(1));
  const auto read = [&] { locus::touch(m, n, locus::access::read); };
  rt.run(on(0, read));
  rt.run(on(4, read));
  auto s = rt.locality();
  EXPECT_EQ(s.per_worker[0].remote, n);
  EXPECT_EQ(s.per_worker[4].same_socket, n);
  locus::place(rt, m, n, locus::placement::on_socket(0));  // moved
  rt.reset_stats();
  rt.run(on(0, read));
  EXPECT_EQ(rt.locality().per_worker[0].same_socket, n);
  locus::forget(rt, m, n);
  rt.reset_stats();
  rt.run(on(0, read));
  EXPECT_EQ(rt.locality().per_worker[0].unplaced, n);
  locus::deallocate(rt, m, n);
}

locus::task<void> leaf() {
  co_return;
}

locus::task<void> calls_one_helper() {
  co_await leaf();
}

locus::task<void> spawns(int children) {
  for (int i = 0; i < children; ++i)
    co_await locus::spawn(leaf());
  co_await locus::sync();
}

/// A task declared with_data(array) whose parallel_for declares each chunk with a data map.
locus::task<void> mapped_loop(double* x, std::size_t n) {
  co_await locus::parallel_for(
      std::size_t{0}, n, 1000, [x](std::size_t i) { x[i] = 1.0; },
      [x](std::size_t lo, std::size_t hi) {
        return locus::data_range::of(x + lo, hi - lo, locus::access::write);
      });
}

// Wrong answer 4: declared bytes == touched bytes. 100,000 doubles (800,000 bytes) counted
// 1,939,062 times under a data map; a leaf calling one helper counted half; three children
// under a fan-out of two counted 1.5x.
TEST(LocalityCounting, EveryDeclaredByteIsCountedOnce) {
  locus::config c = per_worker();
  c.places = "socket";
  locus::runtime rt{c};
  std::vector<double> x(100000);
  const std::size_t touched = x.size() * sizeof(double);
  const auto all = locus::data_range::of(x.data(), x.size(), locus::access::read_write);
  const auto counted = [&](locus::task<void> t) {
    rt.reset_stats();
    rt.run(locus::with_data(std::move(t), all));
    return rt.locality().total.total();
  };
  EXPECT_EQ(counted(mapped_loop(x.data(), x.size())), touched);
  EXPECT_EQ(counted(calls_one_helper()), touched);
  EXPECT_EQ(counted(spawns(3)), touched);  // the third child inherits nothing
  EXPECT_EQ(counted(spawns(1)), touched);  // the part not handed out is the parent's
  EXPECT_EQ(counted(spawns(2)), touched);
  EXPECT_EQ(counted(leaf()), touched);
  for (double v : x)
    ASSERT_EQ(v, 1.0);  // the loop really touched every element
}

// Wrong answer 5: nothing placed is no data, not a local share of 1.
TEST(LocalityCounting, NothingPlacedIsNoData) {
  locus::runtime rt{per_worker()};
  rt.run(on(3, [] {}));
  auto s = rt.locality();
  EXPECT_FALSE(s.local_share().has_value());
  EXPECT_FALSE(s.per_worker[3].local_share().has_value());
  EXPECT_NE(s.summary().find("no data"), std::string::npos) << s.summary();
  EXPECT_NE(s.to_json().find("\"local_share\":null"), std::string::npos);
  pages a(k_page);
  rt.run(on(3, [&] { locus::touch(a.p, a.bytes, locus::access::read); }));  // never written
  s = rt.locality();
  EXPECT_EQ(s.total.unplaced, k_page);
  EXPECT_FALSE(s.local_share().has_value());
}

// config::homes_only and config::line_bytes reach the accountant.
TEST(LocalityCounting, ConfigChoosesHomesOnlyAndTheLine) {
  locus::config c = per_worker();
  c.homes_only = true;
  pages a(4 * k_page);
  {
    locus::runtime rt{c};
    rt.run(on(2, [&] { locus::touch(a.p, a.bytes, locus::access::write); }));
    const auto s = rt.locality();
    EXPECT_FALSE(s.cache_modelled);
    EXPECT_EQ(s.per_worker[2].same_core, a.bytes);
    EXPECT_EQ(s.private_total, locus::level_counts{});
  }
  c.homes_only = false;
  c.line_bytes = 1024;
  locus::runtime rt{c};
  rt.run(on(2, [&] { locus::touch(a.p, a.bytes, locus::access::write); }));
  const auto s = rt.locality();
  EXPECT_EQ(s.line_bytes, 1024U);
  EXPECT_EQ(s.private_per_worker[2].lines.misses, a.bytes / 1024);
}

// For LAWS and CAB: a child's declared data (its share, or its own) at its spawn, with
// accounting off: the frame carries it, not the accountant.
TEST(LocalityCounting, DeclaredDataIsThereAtASpawnWithAccountingOff) {
  std::array<char, 1000> a{};
  const auto all = locus::data_range::of(a.data(), a.size(), locus::access::read);
  auto parent = locus::with_data(leaf(), all, {.fanout = 4, .grain = 10});
  auto d = locus::detail::declared_data_of(parent.promise());
  ASSERT_EQ(d.ranges.size(), 1U);
  EXPECT_EQ(d.bytes, 1000U);
  auto first = leaf(), second = leaf(), called = leaf();
  parent.promise().adopt(first.promise(), locus::detail::frame_kind::spawned);
  parent.promise().adopt(second.promise(), locus::detail::frame_kind::spawned);
  parent.promise().adopt(called.promise(), locus::detail::frame_kind::called);
  d = locus::detail::declared_data_of(second.promise());
  ASSERT_EQ(d.ranges.size(), 1U);
  EXPECT_EQ(d.ranges[0].begin, reinterpret_cast<const std::byte*>(a.data() + 250));
  EXPECT_EQ(d.bytes, 250U);
  d = locus::detail::declared_data_of(called.promise());  // the two parts left
  EXPECT_EQ(d.ranges[0].begin, reinterpret_cast<const std::byte*>(a.data() + 500));
  EXPECT_EQ(d.bytes, 500U);
  auto late = leaf();  // after the call took what was left: nothing to inherit
  parent.promise().adopt(late.promise(), locus::detail::frame_kind::spawned);
  EXPECT_TRUE(locus::detail::declared_data_of(late.promise()).ranges.empty());
  EXPECT_EQ(locus::detail::declared_data_of(leaf().promise()).bytes, 0U);
}

}  // namespace
