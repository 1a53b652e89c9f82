// Iterations the runtime can see: a 1-D heat equation stepped with locus::iterate under the
// laws scheduler (locus/laws.hpp). Each step is one root run; its root declares the rows it
// reads and writes, so LAWS sends each half, quarter, ... to the socket holding its part of
// the grid, learns the task tree in step 0 and tunes its packing over the next steps.
#include <locus/iterate.hpp>
#include <locus/laws.hpp>
#include <locus/locus.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

struct grid {
  std::vector<double> a, b;
  explicit grid(std::size_t n) : a(n), b(n) {}
};

/// [lo, hi) of `to` from `from`: the first half spawned, the second called (Cilk's heat).
locus::task<void> sweep(const double* from, double* to, std::size_t n, std::size_t lo,
                        std::size_t hi) {
  if (hi - lo <= 512) {
    for (std::size_t i = lo; i < hi; ++i)
      to[i] = i == 0 || i + 1 == n ? from[i]
                                   : from[i] + 0.25 * (from[i - 1] - 2 * from[i] + from[i + 1]);
    co_return;
  }
  const std::size_t mid = lo + (hi - lo) / 2;
  co_await locus::spawn(sweep(from, to, n, lo, mid));
  co_await sweep(from, to, n, mid, hi);
  co_await locus::sync();
}

/// Step t: reads one grid, writes the other, and says so (the root's data; its tasks inherit
/// their halves by Eq. 1).
locus::task<void> step(grid& g, std::size_t t) {
  const std::vector<double>& from = t % 2 == 0 ? g.a : g.b;
  std::vector<double>& to = t % 2 == 0 ? g.b : g.a;
  const std::size_t n = from.size();
  const std::array<locus::data_range, 2> data{
      locus::data_range::of(to.data(), n, locus::access::write),
      locus::data_range::of(from.data(), n, locus::access::read)};
  auto root = locus::with_data(sweep(from.data(), to.data(), n, 0, n), data, {2, sizeof(double)});
  co_await std::move(root);
}

}  // namespace

/// Usage: example-iterate_heat [N [STEPS]] (default 65536 points, 8 steps). LOCUS_SCHEDULER
/// picks another scheduler to compare (default here: laws); LOCUS_ACCOUNTING=1 adds the
/// modelled misses and local share per step.
int main(int argc, char** argv) {
  locus::config cfg = locus::config::from_env();
  if (std::getenv("LOCUS_SCHEDULER") == nullptr) cfg.scheduler = locus::scheduler_kind::laws;
  if (cfg.topology.empty()) cfg.topology = "sockets=2,cores=2,l3=64KiB";
  locus::runtime rt(cfg);

  const std::size_t n = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : std::size_t{1} << 16;
  const std::size_t steps = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : 8;
  if (n < 3 || steps == 0) {
    std::fprintf(stderr, "usage: %s [N >= 3 [STEPS >= 1]]\n", argv[0]);
    return 2;
  }
  grid g(n), serial(n);
  for (std::size_t i = 0; i < n; ++i)
    g.a[i] = serial.a[i] = std::sin(0.001 * static_cast<double>(i));

  const std::vector<locus::iteration_stats> per_step =
      locus::iterate(rt, steps, [&](std::size_t t) { return step(g, t); });

  for (std::size_t t = 0; t < steps; ++t) {  // the same steps, serially
    const std::vector<double>& from = t % 2 == 0 ? serial.a : serial.b;
    std::vector<double>& to = t % 2 == 0 ? serial.b : serial.a;
    for (std::size_t i = 0; i < n; ++i)
      to[i] = i == 0 || i + 1 == n ? from[i]
                                   : from[i] + 0.25 * (from[i - 1] - 2 * from[i] + from[i + 1]);
  }
  for (const locus::iteration_stats& r : per_step) {
    if (r.accounting) {
      std::uint64_t most = 0;
      for (std::uint64_t b : r.bytes_per_socket)
        most = std::max(most, b);
      std::printf(
          "step %zu: local %.1f%%, L3 misses %llu (%llu remote), largest socket share "
          "%.1f%% of %llu bytes\n",
          r.index, 100.0 * r.local_share.value_or(0.0),
          static_cast<unsigned long long>(r.l3_misses),
          static_cast<unsigned long long>(r.l3_remote_misses),
          r.bytes != 0 ? 100.0 * static_cast<double>(most) / static_cast<double>(r.bytes) : 0.0,
          static_cast<unsigned long long>(r.bytes));
    }
    std::printf(
        "step %zu: %.*s, %.*s, %.*s, CF depth %d (offset %+d), %llu CF roots, %llu "
        "cross-socket takes\n",
        r.index, static_cast<int>(r.scheduler.size()), r.scheduler.data(),
        static_cast<int>(r.stage.size()), r.stage.data(), static_cast<int>(r.workload.size()),
        r.workload.data(), r.cf_level, r.packing_offset,
        static_cast<unsigned long long>(r.cf_roots),
        static_cast<unsigned long long>(r.cross_socket_takes));
  }
  const bool ok = g.a == serial.a && g.b == serial.b;
  std::printf("%s\n", ok ? "matches the serial steps" : "DIFFERS from the serial steps");
  return ok ? 0 : 1;
}
