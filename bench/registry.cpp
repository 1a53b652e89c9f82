// bench/registry.cpp — the kernel table. Sizes are the kernel engineers' choice; see the
// comments in bench/kernels/<name>/common.hpp for what each size string means.
#include "registry.hpp"

// Weak declarations: an implementation that is not linked in resolves to a null address,
// which registry() reports as "not implemented". This only works when the kernel objects are
// linked directly (the CMake OBJECT library locus_kernels), never from a static archive,
// because a weak undefined reference does not pull an archive member into the link.
#define LOCUS_BENCH_DECLARE_KERNEL(id)                                     \
  __attribute__((weak)) bench::outcome id##_serial(const bench::args&);    \
  __attribute__((weak)) bench::outcome id##_locus(const bench::args&);     \
  __attribute__((weak)) bench::outcome id##_tbb(const bench::args&);       \
  __attribute__((weak)) bench::outcome id##_omp(const bench::args&);       \
  __attribute__((weak)) bench::outcome id##_omp_tasks(const bench::args&); \
  __attribute__((weak)) bench::outcome id##_starpu(const bench::args&);    \
  __attribute__((weak)) bench::outcome id##_blas(const bench::args&);

LOCUS_BENCH_DECLARE_KERNEL(fib)
LOCUS_BENCH_DECLARE_KERNEL(fj)
LOCUS_BENCH_DECLARE_KERNEL(fj_rec)
LOCUS_BENCH_DECLARE_KERNEL(nqueens)
LOCUS_BENCH_DECLARE_KERNEL(uts)
LOCUS_BENCH_DECLARE_KERNEL(matmul)
LOCUS_BENCH_DECLARE_KERNEL(cilksort)
LOCUS_BENCH_DECLARE_KERNEL(lu)
LOCUS_BENCH_DECLARE_KERNEL(heat)
LOCUS_BENCH_DECLARE_KERNEL(sor)
LOCUS_BENCH_DECLARE_KERNEL(pdfs)
LOCUS_BENCH_DECLARE_KERNEL(cg)
LOCUS_BENCH_DECLARE_KERNEL(floyd)
LOCUS_BENCH_DECLARE_KERNEL(fdtd)
LOCUS_BENCH_DECLARE_KERNEL(scan)
LOCUS_BENCH_DECLARE_KERNEL(memcpy)
LOCUS_BENCH_DECLARE_KERNEL(smith_waterman)
LOCUS_BENCH_DECLARE_KERNEL(cholesky)
LOCUS_BENCH_DECLARE_KERNEL(ge)
LOCUS_BENCH_DECLARE_KERNEL(stencil9)
LOCUS_BENCH_DECLARE_KERNEL(stencil3d6)
LOCUS_BENCH_DECLARE_KERNEL(stencil3d25)
LOCUS_BENCH_DECLARE_KERNEL(heat_ir)
LOCUS_BENCH_DECLARE_KERNEL(sor_ir)

#undef LOCUS_BENCH_DECLARE_KERNEL

namespace bench {

namespace {

#define LOCUS_BENCH_KERNEL(name, id, small, dflt, description)                            \
  kernel_info {                                                                           \
    name, #id, small, dflt, description, &id##_serial, &id##_locus, &id##_tbb, &id##_omp, \
        &id##_omp_tasks, &id##_starpu, &id##_blas                                         \
  }

std::vector<kernel_info> make_registry() {
  std::vector<kernel_info> out{
      LOCUS_BENCH_KERNEL("fib", fib, "25", "35",
                         "naive recursive Fibonacci, no cutoff (n/c: calls below c serial)"),
      LOCUS_BENCH_KERNEL("fj", fj, "1024", "1024",
                         "flat fork-join: spawn N empty tasks then sync, repeated"),
      LOCUS_BENCH_KERNEL("fj-rec", fj_rec, "1024", "1024",
                         "fork-join of N empty tasks spawned as a binary tree, repeated"),
      LOCUS_BENCH_KERNEL("nqueens", nqueens, "8", "12",
                         "count all N-queens solutions (N:nocutoff: every placement a task)"),
      LOCUS_BENCH_KERNEL("uts", uts, "T1S", "T1", "unbalanced tree search (SHA-1 splitter)"),
      LOCUS_BENCH_KERNEL("matmul", matmul, "128", "1024", "recursive matrix multiply, NxN doubles"),
      LOCUS_BENCH_KERNEL("cilksort", cilksort, "100000", "3000000",
                         "Cilk mergesort of N shuffled longs"),
      LOCUS_BENCH_KERNEL("lu", lu, "128", "2048", "blocked LU decomposition, NxN doubles"),
      LOCUS_BENCH_KERNEL("heat", heat, "256x256x10", "4096x1024x100",
                         "2-D heat diffusion, NXxNYxSTEPS"),
      LOCUS_BENCH_KERNEL("sor", sor, "256x10", "2000x200",
                         "successive over-relaxation, NxITERATIONS"),
      LOCUS_BENCH_KERNEL("pdfs", pdfs, "100x100", "2000x2000",
                         "parallel depth-first search of a 2-D torus, WxH"),
      LOCUS_BENCH_KERNEL("cg", cg, "S", "A", "NAS conjugate gradient, class"),
      LOCUS_BENCH_KERNEL("floyd", floyd, "128", "1536", "Floyd-Warshall all-pairs, N nodes"),
      LOCUS_BENCH_KERNEL("fdtd", fdtd, "60x80x40", "1000x1200x500",
                         "2-D finite-difference time domain, NXxNYxTMAX"),
      LOCUS_BENCH_KERNEL("scan", scan, "100000", "33554432", "parallel prefix sum of N values"),
      LOCUS_BENCH_KERNEL("memcpy", memcpy, "8MiB", "512MiBx32",
                         "init then copy two arrays in 512 KiB blocks, BYTES[xREPS]; copy timed"),
      LOCUS_BENCH_KERNEL("smith-waterman", smith_waterman, "2000x128", "30000x256",
                         "Smith-Waterman local alignment, tiled wavefront, NxTILE"),
      LOCUS_BENCH_KERNEL("cholesky", cholesky, "256x64", "4096x256",
                         "tiled Cholesky (OpenBLAS tile kernels), NxTILE"),
      // The iterative kernels of LAWS (issue 18) and CAB (issue 19): one root per outer
      // iteration (bench/kernels/iterative.hpp), grids from locus's allocator.
      LOCUS_BENCH_KERNEL("ge", ge, "96", "2048",
                         "Gaussian elimination without pivoting, diagonally dominant NxN"),
      LOCUS_BENCH_KERNEL("stencil9", stencil9, "130x64x4", "8096x1024x20",
                         "9-point 2-D Jacobi stencil, N0xN1xSTEPS"),
      LOCUS_BENCH_KERNEL("stencil3d6", stencil3d6, "40x12x12x4", "8096x64x64x10",
                         "3-D Jacobi stencil, 6 face neighbours + centre, N0xN1xN2xSTEPS"),
      LOCUS_BENCH_KERNEL("stencil3d25", stencil3d25, "40x12x12x3", "8096x64x64x5",
                         "3-D Jacobi stencil, radius-4 star (25 points), N0xN1xN2xSTEPS"),
      LOCUS_BENCH_KERNEL("heat-ir", heat_ir, "130x64x4", "8096x1024x50",
                         "heat with unequal row costs (row i updated r(i) times), NXxNYxSTEPS"),
      LOCUS_BENCH_KERNEL("sor-ir", sor_ir, "130x4", "2000x50",
                         "sor with unequal row costs (row i relaxed r(i) times), NxITERATIONS"),
  };
  // The kernels whose locus version replays its setup's steal tree (--schedule); all of them
  // also run the locality loop and a designed schedule. The task-graph kernels whose locus
  // version takes dataflow scheduling options (--flow).
  for (auto& k : out) {
    k.replays = k.name == "memcpy" || k.name == "heat" || k.name == "fdtd" || k.name == "floyd" ||
                k.name == "cg" || k.name == "scan";
    k.designs = k.replays;
    if (k.name == "cholesky" || k.name == "smith-waterman") k.flows = true;
  }
  return out;
}

#undef LOCUS_BENCH_KERNEL

}  // namespace

kernel_fn kernel_info::implementation(runtime_kind rt) const noexcept {
  switch (rt) {
    case runtime_kind::serial:
      return serial;
    case runtime_kind::locus:
      return locus;
    case runtime_kind::tbb:
      return runtime_built(rt) ? tbb : nullptr;
    case runtime_kind::omp:
      return runtime_built(rt) ? omp : nullptr;
    case runtime_kind::omp_tasks:
      return runtime_built(rt) ? omp_tasks : nullptr;
    case runtime_kind::starpu:
      return runtime_built(rt) ? starpu : nullptr;
    case runtime_kind::blas:
      return runtime_built(rt) ? blas : nullptr;
  }
  return nullptr;
}

const std::vector<kernel_info>& registry() {
  static const std::vector<kernel_info> table = make_registry();
  return table;
}

const kernel_info* find_kernel(std::string_view name) {
  for (const auto& k : registry()) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

std::string resolve_size(const kernel_info& kernel, std::string_view size) {
  if (size == "small") return std::string(kernel.small_size);
  if (size == "default") return std::string(kernel.default_size);
  return std::string(size);
}

bool runtime_built(runtime_kind rt) noexcept {
  switch (rt) {
    case runtime_kind::serial:
    case runtime_kind::locus:
      return true;
    case runtime_kind::tbb:
#ifdef LOCUS_HAVE_TBB
      return true;
#else
      return false;
#endif
    case runtime_kind::omp:
    case runtime_kind::omp_tasks:
#ifdef LOCUS_HAVE_OPENMP
      return true;
#else
      return false;
#endif
    case runtime_kind::starpu:
#ifdef LOCUS_HAVE_STARPU
      return true;
#else
      return false;
#endif
    case runtime_kind::blas:
#ifdef LOCUS_HAVE_OPENBLAS
      return true;
#else
      return false;
#endif
  }
  return false;
}

}  // namespace bench
