// uts: Unbalanced Tree Search (Olivier et al., LCPC 2006) with the SHA-1 splittable random
// number generator. A node's 20-byte state decides its child count; child i's state is
// SHA-1(parent state || i as 4 big-endian bytes); the root's is SHA-1(16 zero bytes || seed as
// 4 big-endian bytes). Only this generator reproduces the published node counts.
//
// Each node of the parallel versions is a task that spawns one task per child; the children
// write their subtree tallies into the parent's slots, which the parent combines after its
// sync (like the reference's task-parallel UTS). Small "T1S", default "T1".
#pragma once

#include <pthread.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>

#include "../../kernel.hpp"
#include "sha1.hpp"

namespace uts_kernel {

enum class tree_type { binomial = 0, geometric = 1 };
enum class geo_shape { linear = 0, exp_dec = 1, cyclic = 2, fixed = 3 };

/// One named tree: its generation parameters and its known shape.
struct tree_spec {
  const char* name;
  tree_type type;
  geo_shape shape;      ///< -a (geometric only)
  int gen_mx;           ///< -d, depth limit (geometric only)
  double b0;            ///< -b, root branching factor
  int root_seed;        ///< -r
  double q;             ///< -q, non-leaf probability (binomial only)
  int m;                ///< -m, children of a non-leaf (binomial only)
  std::int64_t nodes;   ///< known answer
  int depth;            ///< known answer
  std::int64_t leaves;  ///< known answer
};

/// The published trees, plus T1S (T1 with depth limit 7), whose shape was computed by this
/// kernel's serial version after it reproduced T1, T2 and T3 exactly; it is a regression value.
inline constexpr tree_spec k_trees[] = {
    {"T1S", tree_type::geometric, geo_shape::fixed, 7, 4, 19, 0, 0, 63914, 7, 51124},
    {"T1", tree_type::geometric, geo_shape::fixed, 10, 4, 19, 0, 0, 4130071, 10, 3305118},
    {"T2", tree_type::geometric, geo_shape::cyclic, 16, 6, 502, 0, 0, 4117769, 81, 2342762},
    {"T3", tree_type::binomial, geo_shape::linear, 0, 2000, 42, 0.124875, 8, 4112897, 1572,
     3599034},
    {"T1L", tree_type::geometric, geo_shape::fixed, 13, 4, 29, 0, 0, 102181082, 13, 81746377},
    {"T3L", tree_type::binomial, geo_shape::linear, 0, 2000, 7, 0.200014, 5, 111345631, 17844,
     89076904},
};

[[nodiscard]] inline const tree_spec& parse(const std::string& size) {
  for (const tree_spec& t : k_trees) {
    if (size == t.name) return t;
  }
  throw std::invalid_argument("uts: size must be one of T1S, T1, T2, T3, T1L, T3L, got '" + size +
                              "'");
}

/// A tree node: its generator state and its depth.
struct node {
  digest state;
  int height = 0;
};

/// What a subtree holds; children's tallies combine into their parent's.
struct tally {
  std::int64_t nodes = 0;
  std::int64_t leaves = 0;
  int depth = 0;  ///< greatest height in the subtree

  void add(const tally& t) {
    nodes += t.nodes;
    leaves += t.leaves;
    depth = std::max(depth, t.depth);
  }
};

/// The reference caps every node but a binomial root at this many children.
inline constexpr int k_max_children = 100;

[[nodiscard]] inline node root(const tree_spec& t) {
  std::array<std::uint8_t, 20> seed{};
  for (int i = 0; i < 4; ++i)
    seed[16 + i] = static_cast<std::uint8_t>(t.root_seed >> (24 - 8 * i));
  return node{sha1_one_block(seed.data(), seed.size()), 0};
}

// Out of line so that the hash's scratch arrays stay out of the recursive frames: the traversal
// nests one frame per tree level.
[[nodiscard, gnu::noinline]] inline node child(const node& parent, int index) {
  std::array<std::uint8_t, 24> msg{};
  std::copy(parent.state.begin(), parent.state.end(), msg.begin());
  for (int i = 0; i < 4; ++i)
    msg[20 + i] = static_cast<std::uint8_t>(index >> (24 - 8 * i));
  return node{sha1_one_block(msg.data(), msg.size()), parent.height + 1};
}

/// A uniform number in [0, 1) from the state's last four bytes (a 31-bit integer / 2^31).
[[nodiscard]] inline double uniform(const node& n) {
  const std::uint32_t v = (std::uint32_t{n.state[16]} << 24) | (std::uint32_t{n.state[17]} << 16) |
                          (std::uint32_t{n.state[18]} << 8) | std::uint32_t{n.state[19]};
  return static_cast<double>(v & 0x7fffffffu) / 2147483648.0;
}

/// Expected branching factor of a geometric tree at a depth, from the shape function.
[[nodiscard]] inline double geometric_mean(const tree_spec& t, int depth) {
  if (depth == 0) return t.b0;
  const double d = depth;
  const double mx = t.gen_mx;
  switch (t.shape) {
    case geo_shape::exp_dec:
      return t.b0 * std::pow(d, -std::log(t.b0) / std::log(mx));
    case geo_shape::cyclic:
      if (d > 5 * mx) return 0.0;
      return std::pow(t.b0, std::sin(2.0 * 3.141592653589793 * d / mx));
    case geo_shape::fixed:
      return depth < t.gen_mx ? t.b0 : 0.0;
    case geo_shape::linear:
      break;
  }
  return t.b0 * (1.0 - d / mx);
}

[[nodiscard]] inline int num_children(const tree_spec& t, const node& n) {
  if (t.type == tree_type::binomial) {
    if (n.height == 0) return static_cast<int>(std::floor(t.b0));
    return uniform(n) < t.q ? std::min(t.m, k_max_children) : 0;
  }
  // Geometric: the count whose cumulative probability is u, for the geometric distribution
  // whose mean is the shape function's branching factor.
  const double p = 1.0 / (1.0 + geometric_mean(t, n.height));
  const double u = uniform(n);
  const int k = static_cast<int>(std::floor(std::log(1.0 - u) / std::log(1.0 - p)));
  return std::min(k, k_max_children);
}

/// Slots for a node's children's tallies: K inline for the common small counts, on the heap
/// for larger ones (a binomial root's thousands). The locus traversal sizes K to the tree
/// (locus_visit.hpp): its slots live in a coroutine frame on every level of the path.
template <int K>
class basic_child_slots {
 public:
  explicit basic_child_slots(int count)
      : m_heap(count > K ? std::make_unique<tally[]>(static_cast<std::size_t>(count)) : nullptr),
        m_data(m_heap ? m_heap.get() : m_inline.data()) {}
  basic_child_slots(const basic_child_slots&) = delete;
  basic_child_slots& operator=(const basic_child_slots&) = delete;

  [[nodiscard]] tally* operator[](int i) { return m_data + i; }

 private:
  std::array<tally, K> m_inline{};
  std::unique_ptr<tally[]> m_heap;
  tally* m_data;
};
/// Eight inline slots: every published tree's common counts (T3's m is 8).
using child_slots = basic_child_slots<8>;

/// The tally of a node whose children's tallies are in slots[0, count).
template <int K>
[[nodiscard]] tally combine(const node& n, basic_child_slots<K>& slots, int count) {
  tally t{1, count == 0 ? 1 : 0, n.height};
  for (int i = 0; i < count; ++i)
    t.add(*slots[i]);
  return t;
}

/// Stack for the threads that run the recursive traversals (virtual; pages are committed only
/// as they are touched). The serial, TBB and OpenMP versions nest at least one C++ frame per
/// tree level, and T3L is 17,844 levels deep: well past a default 8 MiB main-thread stack, a
/// 4 MiB TBB worker stack, or libgomp's default (measured: about 0.3, 1 and 2 KiB per level).
inline constexpr std::size_t k_deep_stack = std::size_t{256} << 20;

/// bench::measure()'s context for the versions that recurse on the C++ stack: runs the timed
/// region f() on a new thread with a k_deep_stack stack, waits for it and rethrows what it
/// threw.
struct on_deep_stack {
  template <class F>
  void operator()(F& f) const;
};

template <class F>
void on_deep_stack::operator()(F& f) const {
  struct job {
    F* f;
    std::exception_ptr error;
  } j{&f, nullptr};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, k_deep_stack);
  pthread_t thread;
  const auto body = [](void* p) -> void* {
    auto* jp = static_cast<job*>(p);
    try {
      (*jp->f)();
    } catch (...) {
      jp->error = std::current_exception();
    }
    return nullptr;
  };
  const int rc = pthread_create(&thread, &attr, body, &j);
  pthread_attr_destroy(&attr);
  if (rc != 0) throw std::runtime_error("uts: cannot start the deep-stack thread");
  pthread_join(thread, nullptr);
  if (j.error) std::rethrow_exception(j.error);
}

inline void check(bench::outcome& out, const tree_spec& t, const tally& got) {
  out.verified = got.nodes == t.nodes && got.depth == t.depth && got.leaves == t.leaves;
  out.detail = std::string(t.name) + ": " + std::to_string(got.nodes) + " nodes, depth " +
               std::to_string(got.depth) + ", " + std::to_string(got.leaves) + " leaves";
  if (out.seconds > 0) {
    out.detail +=
        ", " + std::to_string(static_cast<long long>(got.nodes / out.seconds)) + " nodes/s";
  }
  if (!out.verified) {
    out.detail += " expected " + std::to_string(t.nodes) + " nodes, depth " +
                  std::to_string(t.depth) + ", " + std::to_string(t.leaves) + " leaves";
  }
}

}  // namespace uts_kernel
