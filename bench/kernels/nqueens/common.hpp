// nqueens: count every placement of n non-attacking queens on an n x n board, in the BOTS /
// Cilk task-parallel form: at each row, every legal column becomes a task that receives its
// own copy of the board prefix (a std::array by value). Small 8 (92), default 12 (14200).
//
// Cutoff, the same in all four versions: rows below n - k_serial_rows spawn tasks; the last
// k_serial_rows rows are searched by serial_count, which every version calls. The serial
// version is the task recursion with the spawns replaced by calls, so at one worker the
// parallel versions differ from it only by the cost of their tasks. For n = 12 the search
// tree has about 856,000 nodes; with 5 serial rows about 195,000 of them are tasks (rows 1-7),
// so one task may cost about 50 ns before the 1-worker run is 10% slower than serial.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "../../kernel.hpp"

namespace nqueens_kernel {

/// Rows searched without tasks at the bottom of the tree.
inline constexpr int k_serial_rows = 5;
inline constexpr int k_max_n = 16;

/// board[r] is the column of the queen in row r, for the rows placed so far.
using board = std::array<signed char, k_max_n>;

[[nodiscard]] inline int parse_n(const std::string& size) {
  std::size_t used = 0;
  int n = -1;
  try {
    n = std::stoi(size, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != size.size() || n < 1 || n > k_max_n) {
    throw std::invalid_argument("nqueens: size must be an integer n in [1, 16], got '" + size +
                                "'");
  }
  return n;
}

/// Whether a queen at (row, col) is attacked by none of the queens in rows [0, row).
[[nodiscard]] inline bool legal(const board& b, int row, int col) {
  for (int r = 0; r < row; ++r) {
    const int d = b[r] - col;
    if (d == 0 || d == row - r || d == r - row) return false;
  }
  return true;
}

/// Whether the search of `row` onwards runs without tasks.
[[nodiscard]] inline bool below_cutoff(int n, int row) {
  return row >= n - k_serial_rows;
}

/// Solutions that extend the prefix b[0, row); each child gets its own copy, like a task would.
inline std::int64_t serial_count(int n, board b, int row) {
  if (row == n) return 1;
  std::int64_t total = 0;
  for (int col = 0; col < n; ++col) {
    if (!legal(b, row, col)) continue;
    board child = b;
    child[row] = static_cast<signed char>(col);
    total += serial_count(n, child, row + 1);
  }
  return total;
}

/// Known counts for n = 1..16.
[[nodiscard]] inline std::int64_t reference(int n) {
  static constexpr std::array<std::int64_t, k_max_n> k_counts = {
      1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2680, 14200, 73712, 365596, 2279184, 14772512};
  return k_counts[static_cast<std::size_t>(n - 1)];
}

inline void check(bench::outcome& out, int n, std::int64_t got) {
  const std::int64_t want = reference(n);
  out.verified = got == want;
  out.detail = "nqueens(" + std::to_string(n) + ")=" + std::to_string(got) + ", tasks in rows < " +
               std::to_string(n > k_serial_rows ? n - k_serial_rows : 0);
  if (!out.verified) out.detail += " expected " + std::to_string(want);
}

}  // namespace nqueens_kernel
