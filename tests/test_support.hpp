// Shared helpers for the tests: configurations over policies, victims and worker counts, and
// small task-parallel programs with known answers.
#pragma once

#include <locus/locus.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace locus_test {

struct setup {
  locus::spawn_policy policy;
  locus::victim_policy victims;
  unsigned workers;
  [[nodiscard]] std::string name() const {
    std::string s = std::string(locus::to_string(policy)) + "_" +
                    std::string(locus::to_string(victims)) + "_w" + std::to_string(workers);
    for (char& c : s)
      if (c == '-') c = '_';  // gtest names allow [A-Za-z0-9_] only
    return s;
  }
  [[nodiscard]] locus::config cfg() const {
    locus::config c;
    c.policy = policy;
    c.victims = victims;
    c.workers = workers;
    // Four workers on two cores: lay a 2-socket machine over them so hierarchical victims
    // have tiers to walk; one place so every worker can steal from every other.
    c.topology = "sockets=2,cores=2";
    c.places = "none";
    return c;
  }
};

inline std::vector<setup> all_setups() {
  std::vector<setup> out;
  for (auto p : {locus::spawn_policy::work_first, locus::spawn_policy::help_first,
                 locus::spawn_policy::adaptive})
    for (auto v : {locus::victim_policy::random, locus::victim_policy::hierarchical})
      for (unsigned w = 1; w <= 4; ++w)
        out.push_back({p, v, w});
  return out;
}

// readme: future-form begin
inline locus::task<long> fib(int n) {
  if (n < 2) co_return n;
  auto a = co_await locus::spawn(fib(n - 1));  // a future<long>
  long b = co_await fib(n - 2);
  co_await locus::sync();
  co_return a.get() + b;  // get() is valid after the sync; rethrows the child's exception
}
// readme: future-form end

/// n-queens, BOTS form: every legal column of a row is a task with a copy of the board.
inline bool queen_ok(const std::array<signed char, 16>& b, int row, int col) {
  for (int r = 0; r < row; ++r) {
    const int c = b[static_cast<std::size_t>(r)];
    if (c == col || c - col == row - r || col - c == row - r) return false;
  }
  return true;
}

inline locus::task<long> nqueens(std::array<signed char, 16> board, int n, int row) {
  if (row == n) co_return 1;
  std::array<long, 16> counts{};
  for (int col = 0; col < n; ++col) {
    if (!queen_ok(board, row, col)) continue;
    board[static_cast<std::size_t>(row)] = static_cast<signed char>(col);
    auto child = [](std::array<signed char, 16> b, int n, int row, long* out) -> locus::task<> {
      *out = co_await nqueens(b, n, row);
    };
    co_await locus::spawn(child(board, n, row + 1, &counts[static_cast<std::size_t>(col)]));
  }
  co_await locus::sync();
  long total = 0;
  for (long c : counts)
    total += c;
  co_return total;
}

/// Sum of the values of a complete binary tree of the given depth, node i valued i.
inline locus::task<std::uint64_t> tree_sum(std::uint64_t node, int depth) {
  if (depth == 0) co_return node;
  auto left = co_await locus::spawn(tree_sum(2 * node, depth - 1));
  auto right = co_await locus::spawn(tree_sum(2 * node + 1, depth - 1));
  co_await locus::sync();
  co_return node + left.get() + right.get();
}

inline std::uint64_t tree_sum_serial(std::uint64_t node, int depth) {
  if (depth == 0) return node;
  return node + tree_sum_serial(2 * node, depth - 1) + tree_sum_serial(2 * node + 1, depth - 1);
}

/// Waits (up to 20 s) until every worker of `rt` sleeps; false if they never all did.
inline bool wait_until_all_asleep(const locus::runtime& rt) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    if (rt.sleeping_workers() == rt.num_workers()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return false;
}

/// Set by a parent's continuation; a child that waits for it (wait_for_continuation) keeps its
/// worker until the continuation ran, which on a work-first runtime of two workers only a thief
/// can do. timed_out records a continuation never stolen within 20 s.
struct steal_gate {
  std::atomic<bool> continued{false};
  std::atomic<bool> timed_out{false};

  void wait_for_continuation() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!continued.load(std::memory_order_acquire)) {
      if (std::chrono::steady_clock::now() > deadline) {
        timed_out = true;
        return;
      }
      std::this_thread::yield();
    }
  }
};

/// Two unpinned workers, work-first: a spawner's continuation can only run by being stolen.
inline locus::config work_first_pair() {
  locus::config c;
  c.workers = 2;
  c.pin = false;
  c.policy = locus::spawn_policy::work_first;
  return c;
}

}  // namespace locus_test
