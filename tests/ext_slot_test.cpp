// The per-frame strategy slot has one owner per runtime (locus/ext/core.hpp; docs/design/0011,
// "Per-frame state"): a spawn rule that uses it owns it from the start, another extension
// claims it, and a second owner is refused with an error that names both.
#include <locus/ext/core.hpp>
#include <locus/locus.hpp>
#include <locus/schedule/replay.hpp>

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "test_support.hpp"

namespace {

locus::config base() {
  locus::config c;
  c.workers = 2;
  c.pin = false;
  return c;
}

/// The message of the std::logic_error `f` throws, or "" (a failure) if it throws none.
template <class F>
std::string logic_error_of(F&& f) {
  try {
    f();
  } catch (const std::logic_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no std::logic_error";
  return "";
}

TEST(ExtSlot, AnExtensionClaimsTheSlotOnceAndASecondOwnerIsRefused) {
  locus::runtime rt{base()};
  const auto core = locus::ext::core_ref::of(rt);
  EXPECT_EQ(core.frame_slot_owner(), "");  // the built-in scheduler leaves it free
  const int tracker = 0, other = 0;
  core.claim_frame_slot(&tracker, "the locality tracker");
  core.claim_frame_slot(&tracker, "the locality tracker");  // the same owner again: nothing
  EXPECT_EQ(core.frame_slot_owner(), "the locality tracker");
  const std::string why =
      logic_error_of([&] { core.claim_frame_slot(&other, "the test's slot counter"); });
  EXPECT_NE(why.find("the test's slot counter"), std::string::npos) << why;
  EXPECT_NE(why.find("the locality tracker"), std::string::npos) << why;
  EXPECT_EQ(core.frame_slot_owner(), "the locality tracker");  // the refused claim changed nothing
  // Steal-tree recording keeps its ids in the other half of the scheduling word: it runs
  // beside an owner of the slot.
  EXPECT_EQ(locus::schedule::run_traced(rt, locus_test::fib(15)).value, 610);
}

// A replay scheduler's rule keys frames on the slot (the steal-tree node governing each): it
// owns the slot from the runtime's start, so a second user is refused before any phase runs,
// and replay itself is unaffected.
TEST(ExtSlot, AReplaySchedulerOwnsTheSlotAndASecondUserIsRefused) {
  auto replay = locus::schedule::make_replay_scheduler();
  locus::config c = base();
  c.custom_scheduler = replay->scheduler();
  locus::runtime rt{c};
  const auto core = locus::ext::core_ref::of(rt);
  EXPECT_NE(core.frame_slot_owner().find("replay"), std::string::npos) << core.frame_slot_owner();
  const int tracker = 0;
  const std::string why =
      logic_error_of([&] { core.claim_frame_slot(&tracker, "the locality tracker"); });
  EXPECT_NE(why.find("the locality tracker"), std::string::npos) << why;
  EXPECT_NE(why.find("\"replay\""), std::string::npos) << why;
  auto traced = locus::schedule::run_traced(rt, locus_test::fib(16));
  EXPECT_EQ(locus::schedule::run_replayed(rt, locus_test::fib(16), traced.tree,
                                          locus::schedule::replay_mode::stuws),
            987);
}

}  // namespace
