// smith-waterman: the best local alignment score of two DNA sequences of length n
// (Smith–Waterman, linear gap), the dynamic-programming matrix cut into tile x tile tiles that
// form a wavefront: tile (i, j) needs the tiles to its left and above, so the task graph is a
// diamond and the parallelism grows and shrinks along the anti-diagonals.
//
//   H[r][c] = max(0, H[r-1][c-1] + s(a[r], b[c]), H[r-1][c] - 1, H[r][c-1] - 1)
//   s = +2 for a match, -1 for a mismatch; a gap costs -1 per letter (linear, no opening cost)
//
// a is pseudo-random ACGT from a seeded LCG; b is a mutated a (10% substitutions, 3% deletions,
// 3% insertions), so the best alignment runs corner to corner through every tile and a tile
// computed from a wrong border changes the answer.
//
// Size "N" or "NxT": sequence length N, tile size T (default 256). Every version computes the
// same tiles (serial: one after another, row by row), keeping per tile row the last row of H
// and per tile column the last column: the borders the next tiles start from. The reference
// is the plain DP over one row of H (O(N) memory, no tiles), written independently of them.
// The check (untimed): the best score and the sum of H's last row equal the serial answer:
// recorded for the registered lengths (2000, 30000), computed once per process for others.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "../../kernel.hpp"
#include "../dims.hpp"
#include "../reference_cache.hpp"

namespace sw_kernel {

using score = std::int32_t;

inline constexpr std::size_t k_default_tile = 256;

/// What a run computes: the best local score, and the sum of the DP matrix's last row (which
/// depends on every tile border, so it catches a wrong one the score alone might not).
struct answer {
  score best = 0;
  std::int64_t last_row_sum = 0;
  friend bool operator==(const answer&, const answer&) = default;
};

struct dims {
  std::size_t n = 0;
  std::size_t tile = k_default_tile;
};

[[nodiscard]] inline dims parse_size(const std::string& size) {
  dims d;
  std::array<long long, 2> nt{};
  if (auto n = bench::parse_int(size, 1, 1000000)) {
    d.n = static_cast<std::size_t>(*n);
  } else if (bench::parse_dims(size, nt) && nt[0] >= 1 && nt[0] <= 1000000 && nt[1] >= 1 &&
             nt[1] <= nt[0]) {
    d.n = static_cast<std::size_t>(nt[0]);
    d.tile = static_cast<std::size_t>(nt[1]);
  } else {
    throw std::invalid_argument(
        "smith-waterman: size must be N or NxT (sequence length 1 <= N <= 1000000, tile "
        "1 <= T <= N), e.g. 2000x128, got '" +
        size + "'");
  }
  d.tile = std::min(d.tile, d.n);
  return d;
}

/// The two sequences: a random, b a mutated copy of a, both of length n.
struct sequences {
  std::string a, b;
};

[[nodiscard]] inline sequences make_sequences(std::size_t n) {
  static constexpr char k_letters[] = "ACGT";
  std::uint64_t x = 0x9E3779B97F4A7C15ull;
  auto next = [&x](unsigned range) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<unsigned>((x >> 33) % range);
  };
  sequences s;
  s.a.resize(n);
  for (char& c : s.a)
    c = k_letters[next(4)];
  s.b.reserve(n);
  for (std::size_t i = 0; s.b.size() < n; i = (i + 1) % n) {
    const unsigned roll = next(100);
    if (roll < 3) continue;                           // deletion
    if (roll < 6) s.b.push_back(k_letters[next(4)]);  // insertion before a[i]
    if (s.b.size() == n) break;
    s.b.push_back(roll < 16 ? k_letters[next(4)] : s.a[i]);  // substitution or copy
  }
  return s;
}

/// One cell's score for letters x, y.
[[nodiscard]] inline score substitution(char x, char y) noexcept {
  return x == y ? 2 : -1;
}

/// The plain DP over one row of H: the reference every version is checked against.
[[nodiscard]] inline answer solve_serial(const sequences& s) {
  const std::size_t n = s.a.size();
  std::vector<score> row(n + 1, 0);
  score best = 0;
  for (std::size_t r = 1; r <= n; ++r) {
    const char ar = s.a[r - 1];
    score diag = 0;  // H[r-1][c-1]
    score left = 0;  // H[r][c-1]
    for (std::size_t c = 1; c <= n; ++c) {
      const score up = row[c];
      const score h = std::max({score{0}, diag + substitution(ar, s.b[c - 1]), up - 1, left - 1});
      diag = up;
      row[c] = h;
      left = h;
      best = std::max(best, h);
    }
  }
  answer out{best, 0};
  for (std::size_t c = 1; c <= n; ++c)
    out.last_row_sum += row[c];
  return out;
}

/// The serial answer for length n, computed once per process and kept.
[[nodiscard]] inline const answer& serial_reference(std::size_t n, const sequences& s) {
  return bench::cached_reference(n, [&s] { return solve_serial(s); });
}

/// The serial answers of the registered sizes (small 2000, default 30000), recorded once: the
/// serial version is checked against something other than itself, and the tiled versions'
/// runs at the default length need not compute the reference again (seconds) in every child.
[[nodiscard]] inline const answer* recorded(std::size_t n) {
  static constexpr answer small{3253, 2432859};
  static constexpr answer dflt{48629, 540536692};
  if (n == 2000) return &small;
  if (n == 30000) return &dflt;
  return nullptr;
}

/// A run's input and the tiled versions' working state.
struct instance {
  dims d;
  sequences seq;
  std::size_t tile_rows = 0;  ///< tiles down (over a)
  std::size_t tile_cols = 0;  ///< tiles across (over b)
  /// bottom[(i + 1) * (n + 1) + c] = H[last row of tile row i][c]; bottom row 0 is H's row 0.
  std::vector<score> bottom;
  /// right[(j + 1) * (n + 1) + r] = H[r][last column of tile column j]; column 0 is H's.
  std::vector<score> right;
  std::vector<score> tile_best;  ///< each tile's best cell

  /// Tile k's first and one-past-last row (or column) of the sequence, 0-based.
  [[nodiscard]] std::size_t begin(std::size_t k) const { return k * d.tile; }
  [[nodiscard]] std::size_t end(std::size_t k) const { return std::min(d.n, (k + 1) * d.tile); }
};

/// bench::measure()'s setup: parses `size`, makes the sequences and zeroed borders.
[[nodiscard]] inline instance setup_tiled(const std::string& size) {
  instance in;
  in.d = parse_size(size);
  in.seq = make_sequences(in.d.n);
  in.tile_rows = in.tile_cols = (in.d.n + in.d.tile - 1) / in.d.tile;
  in.bottom.assign((in.tile_rows + 1) * (in.d.n + 1), 0);
  in.right.assign((in.tile_cols + 1) * (in.d.n + 1), 0);
  in.tile_best.assign(in.tile_rows * in.tile_cols, 0);
  return in;
}

/// Computes tile (i, j): rows i*T+1 .. of H against columns j*T+1 .. . Reads the last row of
/// tile (i-1, j) and the last column of tile (i, j-1) (tile (i-1, j-1)'s corner among them);
/// writes its own last row and column. Run it after those two tiles and it touches nothing
/// another running tile touches: a tile writes only its own part of bottom[i+1] and right[j+1].
inline void compute_tile(instance& in, std::size_t i, std::size_t j) {
  const std::size_t stride = in.d.n + 1;
  const std::size_t r0 = in.begin(i), r1 = in.end(i);
  const std::size_t c0 = in.begin(j), c1 = in.end(j);
  const score* top = &in.bottom[i * stride];
  score* row = &in.bottom[(i + 1) * stride];  // becomes this tile's last row
  const score* left_in = &in.right[j * stride];
  score* right_out = &in.right[(j + 1) * stride];
  std::copy(top + c0 + 1, top + c1 + 1, row + c0 + 1);
  const char* b = in.seq.b.data();
  score best = 0;
  for (std::size_t r = r0 + 1; r <= r1; ++r) {
    const char ar = in.seq.a[r - 1];
    score diag = left_in[r - 1];
    score left = left_in[r];
    for (std::size_t c = c0 + 1; c <= c1; ++c) {
      const score up = row[c];
      const score h = std::max({score{0}, diag + substitution(ar, b[c - 1]), up - 1, left - 1});
      diag = up;
      row[c] = h;
      left = h;
      best = std::max(best, h);
    }
    right_out[r] = left;
  }
  in.tile_best[i * in.tile_cols + j] = best;
}

/// The tiled versions' answer, gathered after every tile has run.
[[nodiscard]] inline answer gather(const instance& in) {
  answer out;
  out.best = *std::max_element(in.tile_best.begin(), in.tile_best.end());
  const score* last = &in.bottom[in.tile_rows * (in.d.n + 1)];
  for (std::size_t c = 1; c <= in.d.n; ++c)
    out.last_row_sum += last[c];
  return out;
}

/// Checks `got` against the recorded serial answer for the registered sizes, and against the
/// serial answer computed now (once per process) for any other.
inline void check(bench::outcome& out, const instance& in, const answer& got) {
  const answer* rec = recorded(in.d.n);
  const answer& ref = rec != nullptr ? *rec : serial_reference(in.d.n, in.seq);
  out.verified = got == ref;
  const double n = static_cast<double>(in.d.n);
  const double gcups = out.seconds > 0 ? n * n / out.seconds * 1e-9 : 0;
  char text[160];
  std::snprintf(text, sizeof text, "n=%zu tile=%zu, score %d, %.2f GCUPS%s", in.d.n, in.d.tile,
                static_cast<int>(got.best), gcups, out.verified ? "" : ", differs from serial");
  out.detail = text;
  if (!out.verified) {
    out.detail += " (serial score " + std::to_string(ref.best) + ", row sum " +
                  std::to_string(ref.last_row_sum) + "; got row sum " +
                  std::to_string(got.last_row_sum) + ")";
  }
}

}  // namespace sw_kernel
