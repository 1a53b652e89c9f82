// Scheduler stress: random trees mixing work-first, help-first and adaptive spawns, calls,
// asyncs inside finish scopes, remote places and exceptions, on oversubscribed workers.
// Every node is counted; the count must match the serial walk of the same tree.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <stdexcept>

#include "test_support.hpp"

namespace {

std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

/// Children of node `id` at `depth`: 0..3, a deterministic function of the id.
int children(std::uint64_t id, int depth) {
  return depth == 0 ? 0 : static_cast<int>(mix(id) % 4);
}

std::uint64_t serial_count(std::uint64_t id, int depth) {
  std::uint64_t n = 1;
  for (int c = 0; c < children(id, depth); ++c)
    n += serial_count(mix(id + c + 1), depth - 1);
  return n;
}

struct ctx {
  unsigned places = 1;
};

/// Terminally strict: each node starts its children as asyncs and returns without waiting.
locus::task<void> async_node(std::atomic<std::uint64_t>* count, std::uint64_t id, int depth) {
  count->fetch_add(1, std::memory_order_relaxed);
  for (int k = 0; k < children(id, depth); ++k)
    co_await locus::async(async_node(count, mix(id + k + 1), depth - 1));
}

locus::task<std::uint64_t> node(ctx* c, std::uint64_t id, int depth) {
  const int n = children(id, depth);
  std::uint64_t total = 1;
  std::uint64_t sub[4] = {};
  for (int k = 0; k < n; ++k) {
    const std::uint64_t child = mix(id + k + 1);
    const std::uint64_t how = mix(child) >> 60;  // 0..15
    auto leaf = [](ctx* c, std::uint64_t id, int depth, std::uint64_t* out) -> locus::task<> {
      *out = co_await node(c, id, depth);
    };
    switch (how % 6) {
      case 0:
        sub[k] = co_await node(c, child, depth - 1);  // call
        break;
      case 1:
        co_await locus::spawn(leaf(c, child, depth - 1, &sub[k]), locus::work_first);
        break;
      case 2:
        co_await locus::spawn(leaf(c, child, depth - 1, &sub[k]), locus::help_first);
        break;
      case 3:
        co_await locus::spawn(leaf(c, child, depth - 1, &sub[k]),
                              locus::at(static_cast<unsigned>(how % c->places)));
        break;
      case 4: {  // a finish scope around asyncs, each counting itself
        std::atomic<std::uint64_t> count{0};
        co_await locus::finish(async_node(&count, child, depth - 1));
        sub[k] = count.load();
        break;
      }
      default:
        co_await locus::spawn(leaf(c, child, depth - 1, &sub[k]));
    }
    if (k == 1 && how % 5 == 0) co_await locus::sync();  // an early sync now and then
  }
  co_await locus::sync();
  for (int k = 0; k < n; ++k)
    total += sub[k];
  co_return total;
}

locus::task<int> thrower_in_tree(ctx* c, std::uint64_t id) {
  auto t = [](ctx* c, std::uint64_t id) -> locus::task<> {
    (void)co_await node(c, id, 6);
    throw std::runtime_error("leaf failure");
  };
  co_await locus::spawn(t(c, id));
  co_await locus::spawn(node(c, id + 1, 6));
  co_await locus::sync();
  co_return 0;
}

}  // namespace

class stress : public ::testing::TestWithParam<unsigned> {};

TEST_P(stress, RandomMixedTreesCountEveryNode) {
  locus::config cfg;
  cfg.workers = GetParam();
  cfg.topology = "sockets=2,cores=2";
  cfg.places = GetParam() >= 2 ? "2" : "none";
  cfg.cross_place_steals = true;
  cfg.pin = false;
  locus::runtime rt{cfg};
  ctx c;
  c.places = rt.num_places();
  for (std::uint64_t seed = 1; seed <= 40; ++seed) {
    const std::uint64_t expect = serial_count(seed, 22);
    ASSERT_EQ(rt.run(node(&c, seed, 22)), expect) << "seed " << seed;
  }
  for (std::uint64_t seed = 100; seed < 110; ++seed)
    EXPECT_THROW((void)rt.run(thrower_in_tree(&c, seed)), std::runtime_error);
  ASSERT_EQ(rt.run(node(&c, 7, 22)), serial_count(7, 22));  // still usable
}

INSTANTIATE_TEST_SUITE_P(Workers, stress, ::testing::Values(1u, 2u, 3u, 5u));
