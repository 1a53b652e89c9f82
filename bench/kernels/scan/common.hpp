// scan: inclusive prefix sum of n doubles, out[i] = in[0] + ... + in[i]. The parallel versions
// use the two-pass blocked scan: (1) sum each block of `block` values in parallel, (2) scan the
// block sums serially into block offsets, (3) scan each block from its offset in parallel.
// Size n: small 100000, default 33554432 (256 MiB in, 256 MiB out).
//
// Verification is exact. The inputs come from a fixed-seed LCG in [0, 1) rounded down to
// multiples of 2^-21, so every partial sum is a multiple of 2^-21 below n <= 2^31, i.e. an
// integer times 2^-21 below 2^52: every addition any version does, in any order, is exact.
// So each out[i] must equal, bit for bit, the integer prefix sum of the LCG draws (kept in a
// 64-bit integer) times 2^-21; rounding error is 0 by construction, not by tolerance, and any
// lost, doubled or misplaced element shows up.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../kernel.hpp"

namespace scan_kernel {

/// Values per block: 16384 doubles is 128 KiB, an L2-sized piece of each pass.
inline constexpr std::size_t block = 16384;

/// Inputs are k * 2^-21 with k a 21-bit integer.
inline constexpr int fraction_bits = 21;
inline constexpr double unit = 0x1.0p-21;

/// Parses n in [1, 2^31].
[[nodiscard]] inline std::size_t parse(const std::string& size) {
  std::uint64_t n = 0;
  auto [p, ec] = std::from_chars(size.data(), size.data() + size.size(), n);
  if (ec != std::errc{} || p != size.data() + size.size() || n < 1 || n > (1ULL << 31)) {
    throw std::invalid_argument("scan: size must be a count n in [1, 2147483648], got '" + size +
                                "'");
  }
  return static_cast<std::size_t>(n);
}

/// The fixed-seed LCG; each draw yields the integer k in [0, 2^21).
class draws {
 public:
  [[nodiscard]] std::uint64_t next() {
    m_state = m_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return m_state >> (64 - fraction_bits);
  }

 private:
  std::uint64_t m_state = 7;
};

/// The n input values.
[[nodiscard]] inline std::vector<double> input(std::size_t n) {
  std::vector<double> in(n);
  draws lcg;
  for (double& v : in)
    v = static_cast<double>(lcg.next()) * unit;
  return in;
}

/// Sum of in[lo, hi).
[[nodiscard]] inline double block_sum(const double* in, std::size_t lo, std::size_t hi) {
  double s = 0;
  for (std::size_t i = lo; i < hi; ++i)
    s += in[i];
  return s;
}

/// Inclusive scan of in[lo, hi) into out[lo, hi), starting from `offset`.
inline void block_scan(const double* in, double* out, std::size_t lo, std::size_t hi,
                       double offset) {
  double s = offset;
  for (std::size_t i = lo; i < hi; ++i) {
    s += in[i];
    out[i] = s;
  }
}

/// Number of blocks for n values.
[[nodiscard]] inline std::size_t blocks(std::size_t n) {
  return (n + block - 1) / block;
}

/// Pass 2: turns the block sums into each block's starting offset (exclusive scan), serially.
inline void offsets_from_sums(double* sums, std::size_t count) {
  double s = 0;
  for (std::size_t b = 0; b < count; ++b) {
    const double sum = sums[b];
    sums[b] = s;
    s += sum;
  }
}

/// The blocked scan's passes on raw pointers, what the parallel loops capture.
struct passes {
  const double* src;
  double* dst;
  double* part;  ///< one per block: its sum after pass 1, its offset after pass 2
  std::size_t n;

  [[nodiscard]] std::size_t count() const { return blocks(n); }
  /// Pass 1 for block b: its sum.
  void sum(std::size_t b) const {
    part[b] = block_sum(src, b * block, std::min(n, (b + 1) * block));
  }
  /// Pass 2, serial: the block offsets.
  void offsets() const { offsets_from_sums(part, count()); }
  /// Pass 3 for block b: its scan from its offset.
  void scan(std::size_t b) const {
    block_scan(src, dst, b * block, std::min(n, (b + 1) * block), part[b]);
  }
};

/// A run's input: the values, the output and the block sums of the blocked scan.
struct instance {
  std::size_t n = 0;
  std::vector<double> values;
  std::vector<double> result;
  std::vector<double> sums;  ///< one per block (the serial version leaves it alone)

  [[nodiscard]] passes pointers() { return passes{values.data(), result.data(), sums.data(), n}; }
};

/// bench::measure()'s setup: parses `size` and draws the values.
[[nodiscard]] inline instance setup(const std::string& size) {
  const std::size_t n = parse(size);
  return instance{n, input(n), std::vector<double>(n), std::vector<double>(blocks(n))};
}

/// Compares the result with the exact integer prefix sums; fills the verdict and detail.
inline void check(bench::outcome& out, const instance& in) {
  const std::vector<double>& result = in.result;
  draws lcg;
  std::uint64_t prefix = 0;
  std::size_t first_bad = result.size();
  for (std::size_t i = 0; i < result.size(); ++i) {
    prefix += lcg.next();
    if (result[i] != static_cast<double>(prefix) * unit) {
      first_bad = i;
      break;
    }
  }
  out.verified = first_bad == result.size();
  out.detail = "total=" + std::to_string(static_cast<double>(prefix) * unit);
  if (!out.verified)
    out.detail = "out[" + std::to_string(first_bad) + "] is not the exact prefix sum";
}

}  // namespace scan_kernel
