// Scratch (not built by the project): does a wavefront over steps (temporal blocking) beat
// plain sweeps on heat's rank block (1024 x 2048 + ghosts, 100 steps, Jacobi 5-point) here?
// One thread. g++ -O3 -std=c++20 temporal-blocking.cpp -o tb && ./tb
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>
using V = std::vector<double>;
constexpr std::size_t R = 1024, C = 2048, STEPS = 100;
static inline void row(const double* __restrict u, double* __restrict v, std::size_t i) {
  const double* a = u + (i - 1) * C;
  const double* b = u + i * C;
  const double* c = u + (i + 1) * C;
  double* o = v + i * C;
  o[0] = b[0];
  o[C - 1] = b[C - 1];
  for (std::size_t j = 1; j + 1 < C; ++j)
    o[j] = 0.25 * (a[j] + c[j] + b[j - 1] + b[j + 1]);
}
void init(V& u) {
  for (std::size_t i = 0; i < (R + 2) * C; ++i)
    u[i] = std::sin(double(i % 977));
}
double plain() {
  V u((R + 2) * C), v((R + 2) * C);
  init(u);
  v = u;
  for (std::size_t s = 0; s < STEPS; ++s) {
    for (std::size_t i = 1; i <= R; ++i)
      row(u.data(), v.data(), i);
    std::swap(u, v);
  }
  double t = 0;
  for (double x : u)
    t += x;
  return t;
}
// K steps fused: buffers b[0..K] rotating would need K+1 grids; with Jacobi two buffers, a
// wavefront of depth 2 needs three buffers: step s reads B[s%3], writes B[(s+1)%3].
double wave(std::size_t K) {
  std::vector<V> B(K + 1, V((R + 2) * C));
  init(B[0]);
  for (auto& b : B)
    b = B[0];
  for (std::size_t s0 = 0; s0 < STEPS; s0 += K) {
    const std::size_t k = std::min(K, STEPS - s0);
    // row i of step s0+d done when row i+d... skewed: at front position p, step d computes row p -
    // 2d (rows 1..R)
    for (std::size_t p = 1; p <= R + 2 * (k - 1); ++p)
      for (std::size_t d = 0; d < k; ++d) {
        if (p < 1 + 2 * d) break;
        const std::size_t i = p - 2 * d;
        if (i > R) continue;
        row(B[(s0 + d) % (K + 1)].data(), B[(s0 + d + 1) % (K + 1)].data(), i);
      }
  }
  double t = 0;
  for (double x : B[STEPS % (K + 1)])
    t += x;
  return t;
}
int main() {
  for (int rep = 0; rep < 3; ++rep) {
    auto t0 = std::chrono::steady_clock::now();
    double a = plain();
    auto t1 = std::chrono::steady_clock::now();
    double b = wave(2);
    auto t2 = std::chrono::steady_clock::now();
    double c = wave(4);
    auto t3 = std::chrono::steady_clock::now();
    auto ms = [](auto x, auto y) {
      return std::chrono::duration<double, std::milli>(y - x).count();
    };
    std::printf("plain %.1f ms  wave2 %.1f ms  wave4 %.1f ms  (sums %.6f %.6f %.6f)\n", ms(t0, t1),
                ms(t1, t2), ms(t2, t3), a, b, c);
  }
}
