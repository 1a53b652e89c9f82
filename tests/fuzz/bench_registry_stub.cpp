// tests/fuzz/bench_registry_stub.cpp — the kernel registry for bench_cli_fuzz: the real
// registry (bench/registry.cpp) names every kernel's implementations, which the command-line
// fuzz target does not link. Same names as the real one for the kernels the corpus uses. The
// runtimes' names are the real ones (bench/harness/names.cpp).
#include <string_view>
#include <vector>

#include "registry.hpp"

namespace bench {

const std::vector<kernel_info>& registry() {
  static const std::vector<kernel_info> kernels = [] {
    std::vector<kernel_info> k;
    for (const char* name : {"fib", "nqueens", "fj", "uts", "memcpy", "heat", "fdtd", "floyd", "cg",
                             "scan", "cholesky", "smith-waterman"})
      k.push_back(kernel_info{name, name, "1", "2", "stub", nullptr, nullptr, nullptr, nullptr});
    return k;
  }();
  return kernels;
}

const kernel_info* find_kernel(std::string_view name) {
  for (const kernel_info& k : registry())
    if (k.name == name) return &k;
  return nullptr;
}

}  // namespace bench
