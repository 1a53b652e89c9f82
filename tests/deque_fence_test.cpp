// The deque's two pop forms (pop_fence, docs/design/0021) where they differ: the owner pops an
// item that is not the last one (no CAS) while thieves steal from the same short deque, and
// the runtime's choice of form (config::pop_fence, LOCUS_POP_FENCE).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

#include "locus/detail/asymmetric_fence.hpp"
#include "locus/detail/deque.hpp"
#include "locus/detail/worker.hpp"
#include "locus/locus.hpp"
#include "test_support.hpp"

using locus::detail::deque;
using locus::detail::pop_fence;

namespace {

/// The forms this process can run: full always, asymmetric where membarrier works.
std::vector<pop_fence> forms() {
  std::vector<pop_fence> f{pop_fence::full};
  if (locus::detail::asymmetric_fence_available()) f.push_back(pop_fence::asymmetric);
  return f;
}

const char* name(pop_fence f) {
  return f == pop_fence::full ? "full" : "asymmetric";
}

/// The form of the deque of the worker that runs the root.
locus::task<pop_fence> worker_form() {
  co_return locus::detail::t_worker->tasks().fence();
}

/// Whether `rt`'s workers' deques have the form its cfg() names, and a fib runs right there.
void expect_workers_run(locus::runtime& rt) {
  const pop_fence want = rt.cfg().pop_fence == locus::pop_fence_policy::asymmetric
                             ? pop_fence::asymmetric
                             : pop_fence::full;
  EXPECT_EQ(rt.run(worker_form()), want);
  EXPECT_EQ(rt.run(locus_test::fib(20)), 6765);
}

}  // namespace

// Each round the owner pushes two items and pops until it fails, while two thieves race it for
// both: the window in which the owner's store of bottom and a thief's load of it cross, which is
// what the asymmetric form moves the fence of. An item taken twice (owner and thief both
// believing they won it) or lost fails the test. How many steals happen depends on the
// scheduling of a loaded machine: the count is printed, not asserted.
TEST(DequeFence, OwnerPopRacesThievesOnATwoItemDeque) {
  for (pop_fence fence : forms()) {
    SCOPED_TRACE(name(fence));
    // At least k_min_rounds rounds; then on until k_want_steals items were stolen (so the race
    // happened) or k_max_rounds.
    constexpr std::uintptr_t k_min_rounds = 100'000;
    constexpr std::uintptr_t k_max_rounds = 400'000;
    constexpr std::uint64_t k_want_steals = 2'000;
    deque<std::uintptr_t> d(4, fence);
    std::vector<std::atomic<std::uint8_t>> seen(2 * k_max_rounds + 2);
    std::atomic<bool> done{false};
    std::atomic<int> started{0};
    std::atomic<std::uint64_t> stolen{0};
    std::vector<std::thread> thieves;
    for (int t = 0; t < 2; ++t) {
      thieves.emplace_back([&] {
        started.fetch_add(1, std::memory_order_relaxed);
        std::uintptr_t v = 0;
        while (!done.load(std::memory_order_acquire)) {
          if (d.steal(v)) {
            seen[v].fetch_add(1, std::memory_order_relaxed);
            stolen.fetch_add(1, std::memory_order_relaxed);
          }
        }
      });
    }
    while (started.load(std::memory_order_relaxed) < 2)
      std::this_thread::yield();
    std::uintptr_t next = 1;
    std::uintptr_t v = 0;
    std::atomic<std::uint32_t> spin{0};
    for (std::uintptr_t r = 0; r < k_max_rounds; ++r) {
      if (r >= k_min_rounds && stolen.load(std::memory_order_relaxed) >= k_want_steals) break;
      d.push(next++);
      d.push(next++);
      // A varying pause between the pushes and the pops (up to about a microsecond): a window
      // for the thieves, whose steal takes a system call in the asymmetric form.
      for (std::uintptr_t i = 0; i < (r % 64) * 8; ++i)
        spin.fetch_add(1, std::memory_order_relaxed);
      while (d.pop(v))
        seen[v].fetch_add(1, std::memory_order_relaxed);
    }
    done.store(true, std::memory_order_release);
    for (auto& t : thieves)
      t.join();
    EXPECT_TRUE(d.empty_hint());
    for (std::uintptr_t i = 1; i < next; ++i)
      ASSERT_EQ(seen[i].load(), 1) << "item " << i;
    std::printf("  %s: %llu of %llu items stolen\n", name(fence),
                static_cast<unsigned long long>(stolen.load()),
                static_cast<unsigned long long>(next - 1));
  }
}

TEST(DequeFence, ADequeKeepsTheFormItWasMadeWith) {
  deque<std::uintptr_t> d;
  EXPECT_EQ(d.fence(), pop_fence::full);  // the deque alone: the paper's form
  if (locus::detail::asymmetric_fence_available()) {
    deque<std::uintptr_t> a(8, pop_fence::asymmetric);
    EXPECT_EQ(a.fence(), pop_fence::asymmetric);
  }
}

// The workers' deques have the form config::pop_fence names (full by default), and a fib at
// two workers runs with each; `asymmetric` is refused, naming the option and the reason, where
// membarrier is not available.
TEST(DequeFence, TheWorkersDequesHaveTheConfiguredForm) {
  const bool available = locus::detail::asymmetric_fence_available();
  {
    locus::config cfg;
    cfg.workers = 2;
    EXPECT_EQ(cfg.pop_fence, locus::pop_fence_policy::full);
    locus::runtime rt(cfg);
    EXPECT_EQ(rt.cfg().pop_fence, locus::pop_fence_policy::full);
    expect_workers_run(rt);
  }
  locus::config cfg;
  cfg.workers = 2;
  cfg.pop_fence = locus::pop_fence_policy::asymmetric;
  if (available) {
    locus::runtime rt(cfg);
    EXPECT_EQ(rt.cfg().pop_fence, locus::pop_fence_policy::asymmetric);
    expect_workers_run(rt);
  } else {
    try {
      locus::runtime rt(cfg);
      ADD_FAILURE() << "asymmetric accepted without membarrier";
    } catch (const locus::config_error& e) {
      EXPECT_NE(std::string(e.what()).find("LOCUS_POP_FENCE"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("membarrier"), std::string::npos) << e.what();
    }
  }
}
