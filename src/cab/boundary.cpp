// CAB's boundary level, Eq. 4 of the paper, in integers (docs/design/0018-cab.md).
#include <cstddef>
#include <limits>
#include <span>
#include <string>

#include "locus/cab.hpp"
#include "locus/config.hpp"

namespace locus::cab {
namespace {

/// The smallest k >= 0 with start * b^k >= target (start >= 1, b >= 2): ceil(log_b(target /
/// start)) clamped below at 0, with no floating point. Saturates instead of overflowing: a
/// product that would pass the largest size_t already exceeds every target.
unsigned levels_to_reach(std::size_t start, unsigned b, std::size_t target) noexcept {
  unsigned k = 0;
  std::size_t p = start;
  while (p < target) {
    ++k;
    if (p > std::numeric_limits<std::size_t>::max() / b) break;  // p * b > every target
    p *= b;
  }
  return k;
}

}  // namespace

std::size_t data_size(std::span<const data_range> root) noexcept {
  std::size_t read = 0;
  std::size_t all = 0;
  for (const data_range& r : root) {
    all += r.bytes;
    if ((static_cast<unsigned>(r.mode) & static_cast<unsigned>(access::read)) != 0) read += r.bytes;
  }
  return read != 0 ? read : all;
}

unsigned boundary_level(unsigned sockets, unsigned branching, std::size_t data_bytes,
                        std::size_t cache_bytes) {
  if (branching <= 1)
    throw make_config_error("cab.branching", std::to_string(branching),
                            "a branching degree >= 2 (Eq. 4 takes log_B)");
  if (cache_bytes == 0)
    throw make_config_error("cab.cache_bytes", "0",
                            "a positive cache size in bytes (S_c, one socket's L3)");
  if (sockets <= 1 || data_bytes == 0) return 0;  // one socket, or nothing declared: cpu-bound
  // ceil(log_B M + 1) = 1 + ceil(log_B M); ceil(log_B(S_d / S_c) + 1) = 1 + ceil(log_B(S_d /
  // S_c)), where a negative logarithm (S_d < S_c) is dominated by the first term (>= 1).
  const unsigned by_sockets = levels_to_reach(1, branching, sockets);
  const unsigned by_data = levels_to_reach(cache_bytes, branching, data_bytes);
  return 1 + (by_sockets > by_data ? by_sockets : by_data);
}

}  // namespace locus::cab
