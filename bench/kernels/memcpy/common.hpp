// memcpy: the constrained work stealing paper's simplest case (Section II): an init phase
// writes a source and a destination array block by block, then a copy phase copies the source
// into the destination, block by block. Blocks are 512 KiB, the paper's best block size. A
// runtime that gives each block's copy to the thread that initialised it (first touch put the
// pages on that thread's NUMA node, and they may still be in its caches) copies at local
// bandwidth; one that schedules the phases independently (random work stealing) does not.
//
// What is timed: the copy phase only. The init phase runs just before it, untimed, inside
// bench::measure's context (see each runtime's file): it must run on the runtime's own
// threads, with the same loop structure as the copy, so that first touch happens there. The
// arrays are allocated in setup without being touched.
//
// Size: BYTES[xREPS]. BYTES is a number with a KiB, MiB or GiB suffix, or a bare number of
// MiB ("256MiB", "256", "1GiB"), per array, from 1 KiB to 64 GiB; REPS (default 1) repeats the
// copy phase, all repetitions timed (the paper's iterative phases reuse one placement).
// small: 8MiB; default 512MiBx32 (1 GiB of arrays, 16 GiB copied: about 2.5 s at 1 worker on
// the 2-vCPU reference VM).
//
// Verification: the destination's checksum must equal the checksum of the init pattern,
// computed independently of both arrays, and the destination must equal the source.
#pragma once

#include <algorithm>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "../../kernel.hpp"

namespace memcpy_kernel {

using word = std::uint64_t;

/// Bytes per block: 512 KiB (Section II: the best block size for Cilk and OpenMP tasks).
inline constexpr std::size_t block_bytes = std::size_t{512} << 10;
inline constexpr std::size_t block_words = block_bytes / sizeof(word);

struct dims {
  std::size_t bytes = 0;  ///< per array, a multiple of 1 KiB
  unsigned reps = 1;      ///< copy phases
};

/// Parses BYTES[xREPS] (see the top of this file).
[[nodiscard]] inline dims parse(const std::string& size) {
  const auto bad = [&] {
    return std::invalid_argument(
        "memcpy: size must be BYTES[xREPS] with BYTES a number of KiB, MiB or GiB (bare: MiB) "
        "from 1 KiB to 64 GiB and REPS in [1, 10000], e.g. 256MiB or 512MiBx16; got '" +
        size + "'");
  };
  std::string_view s = size;
  dims d;
  if (const auto x = s.find('x'); x != std::string_view::npos) {
    const std::string_view reps = s.substr(x + 1);
    auto [p, ec] = std::from_chars(reps.data(), reps.data() + reps.size(), d.reps);
    if (ec != std::errc{} || p != reps.data() + reps.size() || d.reps < 1 || d.reps > 10000)
      throw bad();
    s = s.substr(0, x);
  }
  std::uint64_t n = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
  if (ec != std::errc{} || p == s.data()) throw bad();
  const std::string_view unit(p, static_cast<std::size_t>(s.data() + s.size() - p));
  int shift = 20;
  if (unit == "KiB")
    shift = 10;
  else if (unit == "GiB")
    shift = 30;
  else if (!unit.empty() && unit != "MiB")
    throw bad();
  if (n < 1 || n > (std::uint64_t{64} << (30 - shift))) throw bad();
  d.bytes = static_cast<std::size_t>(n << shift);
  return d;
}

/// The init pattern of word i: distinct, position-dependent, cheap.
[[nodiscard]] inline word pattern(std::size_t i) noexcept {
  const word x = static_cast<word>(i) * 0x9e3779b97f4a7c15ULL;
  return x ^ (x >> 29);
}

/// A run's arrays: allocated untouched (no value-initialisation), so the init phase's writes
/// are the first touch.
struct instance {
  dims size;
  std::size_t words = 0;
  std::unique_ptr<word[]> source;
  std::unique_ptr<word[]> destination;

  [[nodiscard]] std::size_t blocks() const noexcept {
    return (words + block_words - 1) / block_words;
  }
  [[nodiscard]] std::size_t block_begin(std::size_t b) const noexcept { return b * block_words; }
  [[nodiscard]] std::size_t block_end(std::size_t b) const noexcept {
    return std::min(words, (b + 1) * block_words);
  }
  /// Init phase, block b: the source gets the pattern, the destination zeros.
  void init_block(std::size_t b) const noexcept {
    for (std::size_t i = block_begin(b); i < block_end(b); ++i) {
      source[i] = pattern(i);
      destination[i] = 0;
    }
  }
  /// Copy phase, block b.
  void copy_block(std::size_t b) const noexcept {
    const std::size_t lo = block_begin(b);
    std::memcpy(destination.get() + lo, source.get() + lo, (block_end(b) - lo) * sizeof(word));
  }
};

/// bench::measure()'s setup: parses `size` and allocates both arrays, untouched.
[[nodiscard]] inline instance setup(const std::string& size) {
  instance in;
  in.size = parse(size);
  in.words = in.size.bytes / sizeof(word);
  in.source.reset(new word[in.words]);
  in.destination.reset(new word[in.words]);
  return in;
}

/// Checks the destination against the pattern and the source; fills the verdict and detail.
inline void check(bench::outcome& out, const instance& in) {
  word expected = 0;
  word got = 0;
  for (std::size_t i = 0; i < in.words; ++i) {
    expected += pattern(i) * (2 * i + 1);  // position-weighted: a misplaced block shows up
    got += in.destination[i] * (2 * i + 1);
  }
  const bool equal =
      std::memcmp(in.source.get(), in.destination.get(), in.words * sizeof(word)) == 0;
  out.verified = expected == got && equal;
  const double gib = static_cast<double>(in.size.bytes) * in.size.reps / (1 << 30);
  out.detail = "checksum=" + std::to_string(got) + " copied=" + std::to_string(gib) + "GiB";
  if (out.seconds > 0) out.detail += " rate=" + std::to_string(gib / out.seconds) + "GiB/s";
  if (!out.verified) {
    out.detail = "the destination is not the source (checksum " + std::to_string(got) +
                 ", expected " + std::to_string(expected) + ")";
  }
}

}  // namespace memcpy_kernel
