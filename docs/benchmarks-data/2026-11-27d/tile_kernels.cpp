// The tile kernels' times at tile size b (default 256), single-threaded OpenBLAS, medians of 41
// calls on tiles in cache: the costs schedule_model.py takes (--costs). Built with the other
// drivers (`cmake --build --preset release --target locus-doc-drivers`: bin/doc-drivers/
// 2026-11-27d-tile_kernels), with OpenBLAS when the build found it. In a factorisation the
// kernels run slower (their tiles are not in cache): `--tile-trace` gives those times.
#if LOCUS_HAVE_OPENBLAS
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "kernels/cholesky/common.hpp"

extern "C" void openblas_set_num_threads(int);

namespace {

/// The median of 41 calls of f, in ms.
template <class F>
double median_ms(const char* name, F f) {
  std::vector<double> ts;
  for (int r = 0; r < 41; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    ts.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(ts.begin(), ts.end());
  std::printf("%s %.4f ms\n", name, ts[ts.size() / 2]);
  return ts[ts.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  namespace ck = cholesky_kernel;
  openblas_set_num_threads(1);
  const std::size_t b = argc > 1 ? std::stoul(argv[1]) : 256;
  const ck::tiled_matrix a = ck::make_input(ck::parse_size("1024x" + std::to_string(b)));
  const auto copy_of = [&](std::size_t i, std::size_t j) {
    return std::vector<double>(a.tile(i, j), a.tile(i, j) + b * b);
  };
  const std::vector<double> diag = copy_of(0, 0), below = copy_of(1, 0);
  std::vector<double> l = diag, next = copy_of(1, 1), out(b * b);
  ck::potrf(l.data(), b);
  // potrf and trsm work in place: each call starts from a copy, whose time is taken apart.
  const double copy = median_ms("copy", [&] {
    std::vector<double> t = diag;
    asm volatile("" : : "r"(t.data()) : "memory");
  });
  const double potrf = median_ms("potrf",
                                 [&] {
                                   std::vector<double> t = diag;
                                   ck::potrf(t.data(), b);
                                 }) -
                       copy;
  const double trsm = median_ms("trsm",
                                [&] {
                                  std::copy(below.begin(), below.end(), out.begin());
                                  ck::trsm(l.data(), out.data(), b);
                                }) -
                      copy;
  const double syrk = median_ms("syrk", [&] { ck::syrk(below.data(), next.data(), b); });
  const double gemm =
      median_ms("gemm", [&] { ck::gemm(below.data(), diag.data(), out.data(), b); });
  std::printf("--costs %.3f,%.3f,%.3f,%.3f\n", potrf, trsm, syrk, gemm);
}
#else
#include <cstdio>
int main() {
  std::puts("tile_kernels: built without OpenBLAS");
  return 1;
}
#endif
