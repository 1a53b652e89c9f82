// nqueens: count every placement of n non-attacking queens on an n x n board, in the BOTS /
// Cilk task-parallel form: at each row, every legal column becomes a task that receives its
// own copy of the board prefix (a std::array by value). Small 8 (92), default 12 (14200).
//
// Size "N" (1 <= N <= 16) runs with a cutoff, the same in all four versions: rows below
// n - k_serial_rows spawn tasks; the last k_serial_rows rows are searched by serial_count,
// which every version calls. The serial version is the task recursion with the spawns replaced
// by calls, so at one worker the parallel versions differ from it only by the cost of their
// tasks. For n = 12 the search tree has about 856,000 nodes; with 5 serial rows about 195,000
// of them are tasks (rows 1-7), so one task may cost about 50 ns before the 1-worker run is 10%
// slower than serial.
//
// Size "N:nocutoff" (e.g. 12:nocutoff) has no cutoff, as BOTS nqueens and most peers' suites
// run it: every legal placement, down to the last row, is its own task (all ~856,000 nodes for
// n = 12), so the run measures the cost of a task more than the search.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

#include "../../kernel.hpp"
#include "../dims.hpp"

namespace nqueens_kernel {

/// Rows searched without tasks at the bottom of the tree (the default, cutoff variant).
inline constexpr int k_serial_rows = 5;
inline constexpr int k_max_n = 16;

/// The size suffix of the variant without a cutoff.
inline constexpr std::string_view k_no_cutoff = ":nocutoff";

/// board[r] is the column of the queen in row r, for the rows placed so far.
using board = std::array<signed char, k_max_n>;

/// One search: the board size and the rows at the bottom searched without tasks.
struct problem {
  int n = 0;
  int serial_rows = k_serial_rows;  ///< 0: no cutoff, every legal placement is a task

  /// Whether the search of `row` onwards runs without tasks. With no cutoff only row n does:
  /// serial_count(n, b, n) is the 1 of a complete placement.
  [[nodiscard]] bool below_cutoff(int row) const { return row >= n - serial_rows; }
};

/// Parses "N" (with the cutoff) or "N:nocutoff", 1 <= N <= 16.
[[nodiscard]] inline problem parse(const std::string& size) {
  std::string digits = size;
  problem p;
  if (std::string_view(digits).ends_with(k_no_cutoff)) {
    digits.resize(digits.size() - k_no_cutoff.size());
    p.serial_rows = 0;
  }
  const auto n = bench::parse_int(digits, 1, k_max_n);
  if (!n) {
    throw std::invalid_argument(
        "nqueens: size must be an integer n in [1, 16], or n:nocutoff for the variant without a "
        "cutoff, got '" +
        size + "'");
  }
  p.n = static_cast<int>(*n);
  return p;
}

/// Whether a queen at (row, col) is attacked by none of the queens in rows [0, row).
[[nodiscard]] inline bool legal(const board& b, int row, int col) {
  for (int r = 0; r < row; ++r) {
    const int d = b[r] - col;
    if (d == 0 || d == row - r || d == r - row) return false;
  }
  return true;
}

/// The child board of every version: a copy of b with a queen at (row, col).
[[nodiscard]] inline board with_queen(const board& b, int row, int col) {
  board child = b;
  child[row] = static_cast<signed char>(col);
  return child;
}

/// Solutions that extend the prefix b[0, row); each child gets its own copy, like a task would.
inline std::int64_t serial_count(int n, board b, int row) {
  if (row == n) return 1;
  std::int64_t total = 0;
  for (int col = 0; col < n; ++col) {
    if (legal(b, row, col)) total += serial_count(n, with_queen(b, row, col), row + 1);
  }
  return total;
}

/// The parent's sum of its children's counts, one slot per column (0 for an illegal column).
[[nodiscard]] inline std::int64_t sum_counts(const std::array<std::int64_t, k_max_n>& counts,
                                             int n) {
  std::int64_t total = 0;
  for (int col = 0; col < n; ++col)
    total += counts[static_cast<std::size_t>(col)];
  return total;
}

/// Known counts for n = 1..16.
[[nodiscard]] inline std::int64_t reference(int n) {
  static constexpr std::array<std::int64_t, k_max_n> k_counts = {
      1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512};
  return k_counts[static_cast<std::size_t>(n - 1)];
}

inline void check(bench::outcome& out, const problem& p, std::int64_t got) {
  const std::int64_t want = reference(p.n);
  out.verified = got == want;
  out.detail = "nqueens(" + std::to_string(p.n) + ")=" + std::to_string(got) +
               (p.serial_rows == 0
                    ? std::string(", no cutoff: every placement a task")
                    : ", tasks in rows < " + std::to_string(std::max(0, p.n - p.serial_rows)));
  if (!out.verified) out.detail += " expected " + std::to_string(want);
}

}  // namespace nqueens_kernel
