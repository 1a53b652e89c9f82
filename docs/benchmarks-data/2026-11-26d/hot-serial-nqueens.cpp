// Serial nqueens for the interleaved timing of docs/benchmarks.md 2026-11-26d (hot path): the
// kernel's own serial recursion (bench/kernels/nqueens/common.hpp, serial_count) without the
// harness. Built: g++ -std=c++20 -O3 -DNDEBUG -Iinclude -Ibench THIS -o serial_nq.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "kernels/nqueens/common.hpp"

int main(int argc, char** argv) {
  const int n = std::atoi(argv[1]);
  auto t0 = std::chrono::steady_clock::now();
  const std::int64_t r = nqueens_kernel::serial_count(n, nqueens_kernel::board{}, 0);
  auto t1 = std::chrono::steady_clock::now();
  std::printf("%.4f %lld\n", std::chrono::duration<double>(t1 - t0).count(),
              static_cast<long long>(r));
}
