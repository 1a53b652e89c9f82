// fj-rec's tree (bench/kernels/fj-rec/locus.cpp) in a driver of its own, for callgrind and
// perf stat without locus-bench's child processes (docs/benchmarks.md, 2026-11-27b). Built
// like the hot-path driver: g++ -std=c++20 -O3 -DNDEBUG -I<tree>/include
// -I<tree>/build/release/include THIS <tree>/build/release/liblocus.a -lhwloc -lpthread.
// Usage: ROUNDS (trees of 1024 leaves).
#include <cstdio>
#include <cstdlib>
#include <locus/locus.hpp>
#include <vector>
struct slot {
  long runs = 0;
  char pad[56];
};
locus::task<void> tree(slot* slots, std::size_t lo, std::size_t hi) {
  if (hi - lo == 1) {
    ++slots[lo].runs;
    co_return;
  }
  const std::size_t mid = lo + (hi - lo) / 2;
  co_await locus::spawn(tree(slots, lo, mid));
  co_await tree(slots, mid, hi);
  co_await locus::sync();
}
locus::task<void> rounds(slot* slots, std::size_t tasks, std::size_t count) {
  for (std::size_t r = 0; r < count; ++r)
    co_await tree(slots, 0, tasks);
}
int main(int argc, char** argv) {
  std::size_t n = 1024, c = std::atoi(argv[1]);
  std::vector<slot> s(n);
  locus::runtime rt{locus::config::from_env()};
  rt.run(rounds(s.data(), n, c));
  return s[0].runs == (long)c ? 0 : 1;
}
