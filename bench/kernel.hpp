// bench/kernel.hpp — the contract between locus-bench and the kernels in bench/kernels/.
//
// Each kernel <name> has up to four implementations, one file each:
//   bench/kernels/<name>/{serial,locus,tbb,omp}.cpp
// each defining one function `outcome <name>_<runtime>(const args&)` (dashes in kernel names
// become underscores: fj-rec -> fj_rec_serial). The function sets up its input (untimed),
// times the computation itself with bench::stopwatch, verifies the answer against a known
// value or the serial result, and returns both. Shared input generation and verification live
// in bench/kernels/<name>/common.hpp.
#pragma once

#include <chrono>
#include <string>

namespace locus {
class runtime;
}

namespace bench {

/// What a kernel run receives. `size` is already resolved from "small"/"default" to the
/// kernel's own value (e.g. "35", "T1", "S", "1000x1000").
struct args {
  std::string size;
  unsigned workers = 1;
  locus::runtime* rt = nullptr;  ///< the runtime to use; non-null only for runtime "locus"
};

/// What a kernel run returns.
struct outcome {
  double seconds = 0;     ///< time of the timed region only
  bool verified = false;  ///< the answer matched the known value / serial result
  std::string detail;     ///< e.g. "fib(35)=9227465" or why verification failed
};

/// Wall-clock stopwatch (steady clock).
class stopwatch {
 public:
  stopwatch() : m_start(std::chrono::steady_clock::now()) {}
  [[nodiscard]] double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
  }

 private:
  std::chrono::steady_clock::time_point m_start;
};

}  // namespace bench
