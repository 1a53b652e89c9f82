// The deque's pop forms (pop_fence, docs/design/0021) where they differ: the owner pops an
// item that is not the last one (no CAS) while thieves steal from the same short deque; the
// adaptive form's switches to the fence and back; and the runtime's choice of form
// (config::pop_fence, LOCUS_POP_FENCE).
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

/// The forms this process can run: full always, asymmetric and adaptive where membarrier works.
std::vector<pop_fence> forms() {
  std::vector<pop_fence> f{pop_fence::full};
  if (locus::detail::asymmetric_fence_available()) {
    f.push_back(pop_fence::asymmetric);
    f.push_back(pop_fence::adaptive);
  }
  return f;
}

const char* name(pop_fence f) {
  switch (f) {
    case pop_fence::full:
      return "full";
    case pop_fence::asymmetric:
      return "asymmetric";
    case pop_fence::adaptive:
      return "adaptive";
  }
  return "?";
}

/// The deque form config::pop_fence names, where this process can run it.
pop_fence form_of(locus::pop_fence_policy p) {
  if (p == locus::pop_fence_policy::full || !locus::detail::asymmetric_fence_available())
    return pop_fence::full;
  return p == locus::pop_fence_policy::asymmetric ? pop_fence::asymmetric : pop_fence::adaptive;
}

/// The form of the deque of the worker that runs the root.
locus::task<pop_fence> worker_form() {
  co_return locus::detail::t_worker->tasks().fence();
}

/// Whether `rt`'s workers' deques have the form its cfg() names, and a fib runs right there.
void expect_workers_run(locus::runtime& rt) {
  EXPECT_EQ(rt.run(worker_form()), form_of(rt.cfg().pop_fence));
  EXPECT_EQ(rt.run(locus_test::fib(20)), 6765);
}

}  // namespace

// Each round the owner pushes two items and pops until it fails, while two thieves race it for
// both: the window in which the owner's store of bottom and a thief's load of it cross, which is
// what the asymmetric form moves the fence of. An item taken twice (owner and thief both
// believing they won it) or lost fails the test. How many steals happen depends on the
// scheduling of a loaded machine: the count is printed, not asserted. The adaptive form runs
// with a quiet run of 2 pops, so that it switches to the fence and back all the time (steals
// that read one mode racing pops of the other); that it switched both ways is asserted.
TEST(DequeFence, OwnerPopRacesThievesOnATwoItemDeque) {
  for (pop_fence fence : forms()) {
    SCOPED_TRACE(name(fence));
    // At least k_min_rounds rounds; then on until k_want_steals items were stolen (so the race
    // happened) or k_max_rounds.
    constexpr std::uintptr_t k_min_rounds = 100'000;
    constexpr std::uintptr_t k_max_rounds = 400'000;
    constexpr std::uint64_t k_want_steals = 2'000;
    deque<std::uintptr_t> d(4, fence, 2);
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
    std::printf("  %s: %llu of %llu items stolen; %llu switches to the fence, %llu back\n",
                name(fence), static_cast<unsigned long long>(stolen.load()),
                static_cast<unsigned long long>(next - 1),
                static_cast<unsigned long long>(d.fence_switches()),
                static_cast<unsigned long long>(d.unfence_switches()));
    if (fence == pop_fence::adaptive && stolen.load() > 0) {
      EXPECT_GT(d.fence_switches(), 0u);
      EXPECT_GT(d.unfence_switches(), 0u);
    } else if (fence != pop_fence::adaptive) {
      EXPECT_EQ(d.fence_switches() + d.unfence_switches(), 0u);
    }
  }
}

// The adaptive form, step by step on one thread: a steal at an unfenced deque is a heavy one
// and leaves a request; the owner's next pop sees it, fences itself and pops fenced from then
// on; its next pop marks the word fenced (answers the request), after which steals are light;
// after the quiet run of pops with no steal the owner drops the fence; the next steal starts
// the next episode. The owner's own CAS for its last item is not a steal.
TEST(DequeFence, AdaptiveFencesOnAStealAndDropsTheFenceAfterAQuietRun) {
  if (!locus::detail::asymmetric_fence_available())
    GTEST_SKIP() << "membarrier(PRIVATE_EXPEDITED) is not available here";
  deque<std::uintptr_t> d(8, pop_fence::adaptive, 4);
  ASSERT_EQ(d.fence(), pop_fence::adaptive);
  EXPECT_FALSE(d.owner_fenced());
  std::uintptr_t v = 0;
  for (std::uintptr_t i = 1; i <= 6; ++i)
    d.push(i);
  bool heavy = false;
  ASSERT_TRUE(d.steal(v, heavy));  // heavy: membarrier, and the request
  EXPECT_EQ(v, 1u);
  EXPECT_TRUE(heavy);
  EXPECT_FALSE(d.owner_fenced());  // the owner has not popped yet
  ASSERT_TRUE(d.pop(v));           // sees the request: fences this pop, and the next ones
  EXPECT_EQ(v, 6u);
  EXPECT_TRUE(d.owner_fenced());
  EXPECT_EQ(d.fence_switches(), 0u);
  ASSERT_TRUE(d.pop(v));  // the first fenced pop marks the word
  EXPECT_EQ(v, 5u);
  EXPECT_EQ(d.fence_switches(), 1u);
  heavy = false;
  ASSERT_TRUE(d.steal(v, heavy));  // light: the word says fenced
  EXPECT_EQ(v, 2u);
  EXPECT_FALSE(heavy);
  EXPECT_EQ(d.size_hint(), 2);  // the mode bits are not items
  // The pop after the steal restarts the count (4 quiet pops to go); then 3 (the last item,
  // taken by the owner's own CAS: no steal), an empty pop, 7, and an empty pop are the four.
  ASSERT_TRUE(d.pop(v));
  EXPECT_EQ(v, 4u);
  ASSERT_TRUE(d.pop(v));
  EXPECT_EQ(v, 3u);
  EXPECT_FALSE(d.pop(v));  // a pop that finds nothing counts too
  d.push(7);
  ASSERT_TRUE(d.pop(v));
  EXPECT_EQ(v, 7u);
  EXPECT_TRUE(d.owner_fenced());
  EXPECT_EQ(d.unfence_switches(), 0u);
  EXPECT_FALSE(d.pop(v));  // the fourth: drops the fence
  EXPECT_FALSE(d.owner_fenced());
  EXPECT_EQ(d.unfence_switches(), 1u);
  // The next episode.
  d.push(8);
  d.push(9);
  ASSERT_TRUE(d.steal(v, heavy));  // heavy again
  EXPECT_EQ(v, 8u);
  EXPECT_TRUE(heavy);
  ASSERT_TRUE(d.pop(v));  // sees the request, fences, takes the last item by its CAS
  EXPECT_EQ(v, 9u);
  EXPECT_TRUE(d.owner_fenced());
  EXPECT_EQ(d.fence_switches(), 1u);
  EXPECT_FALSE(d.pop(v));  // marks the word
  EXPECT_EQ(d.fence_switches(), 2u);
  EXPECT_TRUE(d.owner_sees_empty());
  heavy = false;
  EXPECT_FALSE(d.steal(v, heavy));  // fenced: an ordinary fence, and nothing to take
  EXPECT_FALSE(heavy);
  // The full form never switches; the asymmetric one never fences.
  deque<std::uintptr_t> full(8, pop_fence::full, 1);
  deque<std::uintptr_t> asym(8, pop_fence::asymmetric, 1);
  for (deque<std::uintptr_t>* q : {&full, &asym}) {
    for (std::uintptr_t i = 1; i <= 4; ++i)
      q->push(i);
    heavy = false;
    ASSERT_TRUE(q->steal(v, heavy));
    EXPECT_EQ(heavy, q == &asym);  // the full form's thieves never make the system call
    while (q->pop(v)) {
    }
    EXPECT_EQ(q->owner_fenced(), q == &full);
    EXPECT_EQ(q->fence_switches() + q->unfence_switches(), 0u);
  }
}

TEST(DequeFence, ADequeKeepsTheFormItWasMadeWith) {
  deque<std::uintptr_t> d;
  EXPECT_EQ(d.fence(), pop_fence::full);  // the deque alone: the paper's form
  deque<std::uintptr_t> a(8, pop_fence::asymmetric);
  deque<std::uintptr_t> ad(8, pop_fence::adaptive);
  // Where membarrier is not available both are made full.
  const bool available = locus::detail::asymmetric_fence_available();
  EXPECT_EQ(a.fence(), available ? pop_fence::asymmetric : pop_fence::full);
  EXPECT_EQ(ad.fence(), available ? pop_fence::adaptive : pop_fence::full);
  EXPECT_TRUE(d.owner_fenced());
  EXPECT_FALSE(ad.owner_fenced() && available);
}

// The workers' deques have the form config::pop_fence names (adaptive by default), and a fib at
// two workers runs with each; `full` and `adaptive` run everywhere; `asymmetric` is refused, naming
// the option and the reason, where membarrier is not available.
TEST(DequeFence, TheWorkersDequesHaveTheConfiguredForm) {
  const bool available = locus::detail::asymmetric_fence_available();
  {
    locus::config cfg;
    cfg.workers = 2;
    EXPECT_EQ(cfg.pop_fence, locus::pop_fence_policy::adaptive);
    cfg.pop_fence = locus::pop_fence_policy::full;
    locus::runtime rt(cfg);
    EXPECT_EQ(rt.cfg().pop_fence, locus::pop_fence_policy::full);
    expect_workers_run(rt);
  }
  locus::config cfg;
  cfg.workers = 2;
  cfg.pop_fence = locus::pop_fence_policy::asymmetric;
  {
    // adaptive, the default: accepted everywhere (full where membarrier is not available).
    locus::config acfg;
    acfg.workers = 2;
    acfg.pop_fence = locus::pop_fence_policy::adaptive;
    locus::runtime rt(acfg);
    EXPECT_EQ(rt.cfg().pop_fence, locus::pop_fence_policy::adaptive);
    expect_workers_run(rt);
  }
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
