// A program outside locus: a small fork/join reduction, checked against the serial answer.
#include <locus/locus.hpp>

#include <cstdio>

// Sum of i*i for i in [lo, hi), split in halves down to a grain.
locus::task<long> sum_squares(long lo, long hi) {
  if (hi - lo <= 64) {
    long s = 0;
    for (long i = lo; i < hi; ++i) {
      s += i * i;
    }
    co_return s;
  }
  const long mid = lo + (hi - lo) / 2;
  auto left = co_await locus::spawn(sum_squares(lo, mid));
  const long right = co_await sum_squares(mid, hi);
  co_await locus::sync();
  co_return left.get() + right;
}

int main() {
  locus::config cfg;
  cfg.workers = 2;
  locus::runtime rt{cfg};
  const long n = 100000;
  const long got = rt.run(sum_squares(0, n));
  const long want = (n - 1) * n * (2 * n - 1) / 6;
  std::printf("consumer: sum of squares below %ld = %ld (expected %ld) on %u workers\n", n, got,
              want, rt.num_workers());
  return got == want ? 0 : 1;
}
