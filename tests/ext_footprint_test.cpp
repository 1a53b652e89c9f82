// The footprint door (locus/ext/accounting.hpp): with a sink installed on the accountant, every
// task that carried declared data is reported once as it completes, with its level, its first
// range and the private-level misses of its own records; without one nothing is reported.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <mutex>
#include <span>
#include <vector>

#include "locus/ext/accounting.hpp"
#include "locus/ext/core.hpp"
#include "locus/locality/accountant.hpp"
#include "locus/locus.hpp"

namespace {

class collect final : public locus::ext::footprint_sink {
 public:
  void on_footprint(unsigned /*worker*/, const locus::ext::task_footprint& f) noexcept override {
    std::lock_guard lk(m);
    seen.push_back(f);
  }
  std::mutex m;
  std::vector<locus::ext::task_footprint> seen;
};

/// Two leaves under a root: the root hands both halves of its range out (Eq. 1), each leaf
/// touches its half twice (two ranges over the same bytes: the second read hits the private
/// level).
locus::task<void> leaf() {
  co_return;
}
locus::task<void> root(const double* a, std::size_t n) {
  const std::size_t h = n / 2;
  const auto half = [a](std::size_t lo, std::size_t c) {
    return std::array<locus::data_range, 2>{locus::data_range::of(a + lo, c, locus::access::read),
                                            locus::data_range::of(a + lo, c, locus::access::read)};
  };
  co_await locus::spawn(locus::with_data(leaf(), half(0, h)));
  co_await locus::with_data(leaf(), half(h, n - h));
  co_await locus::sync();
}

TEST(ExtFootprint, EachTaskWithDataIsReportedOnceWithItsOwnPrivateMisses) {
  locus::config cfg;
  cfg.topology = "sockets=1,cores=2,l3=1MiB,l2=64KiB";
  cfg.workers = 2;
  cfg.pin = false;
  cfg.accounting = true;
  locus::runtime rt(cfg);
  locus::accountant* acc = locus::ext::core_ref::of(rt).accounting();
  ASSERT_NE(acc, nullptr);
  ASSERT_EQ(acc->private_bytes(), std::size_t{64} << 10);
  // 8 KiB from a line's start: 128 lines of 64 B, which fit the private level.
  std::vector<double> buffer(1024 + 8, 1.0);
  const double* start = buffer.data();
  while (reinterpret_cast<std::uintptr_t>(start) % 64 != 0)
    ++start;
  const std::span<const double> a(start, 1024);
  collect sink;
  acc->set_footprint_sink(&sink);
  const locus::data_range whole = locus::data_range::of(a.data(), a.size(), locus::access::read);
  rt.run(locus::with_data(root(a.data(), a.size()), whole));
  acc->set_footprint_sink(nullptr);
  ASSERT_EQ(sink.seen.size(), 3u);  // the root and its two leaves
  std::sort(sink.seen.begin(), sink.seen.end(),
            [](const auto& x, const auto& y) { return x.level < y.level; });
  EXPECT_EQ(sink.seen[0].level, 0u);
  EXPECT_EQ(sink.seen[0].position.begin, whole.begin);
  // The root handed both parts of its range to its children (a spawn, then a call: Eq. 1), so
  // its own records are none. Each leaf: its half's lines missed once (4 KiB), then hit.
  EXPECT_EQ(sink.seen[0].private_miss_bytes, 0u);
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(sink.seen[i].level, 1u);
    EXPECT_EQ(sink.seen[i].private_miss_bytes, std::uint64_t{4} << 10) << i;
  }
  // No sink: nothing more is reported, and the counts go on as before.
  rt.run(locus::with_data(root(a.data(), a.size()), whole));
  EXPECT_EQ(sink.seen.size(), 3u);
}

}  // namespace
