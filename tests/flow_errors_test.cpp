// Graph errors: exceptions reach their waiters, misuse is reported in every build, and a task that
// can never run is cancelled and reported (docs/design/0010). Split from flow_graph_test.cpp.
#include <gtest/gtest.h>
#include <locus/dataflow.hpp>
#include <locus/locus.hpp>

#include "flow_support.hpp"

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace df = locus::dataflow;

namespace {
using flow_test::cfg;
using flow_test::error_of;
using flow_test::fib;
}  // namespace

TEST(FlowGraph, ExceptionReachesTheWaiterAndNothingLeaks) {
  for (unsigned w = 1; w <= 4; ++w) {
    locus::runtime rt{cfg(w)};
    std::atomic<int> after{0};
    auto big = std::make_shared<int>(1);  // captured by every task: must be released
    {
      df::graph g(rt);
      std::vector<df::event<int>> ev(101);
      for (int i = 0; i < 100; ++i) {
        auto t = g.task(1, [i, out = ev[i + 1], &after, big](df::edt_args& in) mutable {
          if (i == 50) throw std::runtime_error("task 50 failed");
          if (i > 50) after.fetch_add(1);
          out.satisfy(in.get<int>(0) + 1);
        });
        df::add_dependence(ev[i], t, 0);
      }
      // Independent tasks that run (or are skipped) around the failure.
      for (int i = 0; i < 50; ++i)
        auto t = g.task(0, [big] {});
      ev[0].satisfy(0);
      try {
        g.wait();
        ADD_FAILURE() << "wait() did not rethrow";
      } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "task 50 failed");
      }
      EXPECT_EQ(after.load(), 0);                  // downstream of the failure never ran
      EXPECT_THROW(g.wait(), std::runtime_error);  // still failed
    }  // the graph, its events and unfired tasks go away here
    EXPECT_EQ(big.use_count(), 1) << w << " workers";
  }
}

TEST(FlowGraph, ExceptionInACoroutineBodyReachesACoroutineWaiter) {
  locus::runtime rt{cfg(2)};
  df::graph g(rt);
  auto t = g.task(0, []() -> locus::task<void> {
    co_await fib(5);
    throw std::logic_error("boom");
  });
  auto waiter = [](df::graph& g) -> locus::task<int> {
    try {
      co_await g;
    } catch (const std::logic_error& e) {
      co_return std::string(e.what()) == "boom" ? 1 : 2;
    }
    co_return 0;
  };
  EXPECT_EQ(rt.run(waiter(g)), 1);
}

TEST(FlowGraph, MisuseIsReportedInEveryBuild) {
  locus::runtime rt{cfg(2)};
  df::graph g(rt);
  df::event<int> a, b;
  auto t = g.task(1, [](df::edt_args&) {});
  std::string msg = error_of([&] { df::add_dependence(a, t, 1); });
  EXPECT_NE(msg.find("out of range"), std::string::npos) << msg;
  df::add_dependence(a, t, 0);
  msg = error_of([&] { df::add_dependence(b, t, 0); });
  EXPECT_NE(msg.find("already has a dependence"), std::string::npos) << msg;
  auto t2 = g.task(2, [](df::edt_args&) {});
  df::add_dependence(a, t2, 0);
  msg = error_of([&] { df::add_dependence(b, t2, 0); });
  EXPECT_NE(msg.find("already has a dependence"), std::string::npos) << msg;
  msg = error_of([&] { df::add_dependence(b, t2, 1, locus::access::write); });
  EXPECT_NE(msg.find("datablock"), std::string::npos) << msg;
  df::add_dependence(b, t2, 1);
  a.satisfy(1);
  b.satisfy(2);
  g.wait();
  msg = error_of([&] { df::add_dependence(b, t, 0); });  // t ran long ago
  EXPECT_NE(msg.find("already fired"), std::string::npos) << msg;
  msg = error_of([&] { a.satisfy(3); });
  EXPECT_NE(msg.find("already satisfied"), std::string::npos) << msg;
  // wait() on a worker would block it.
  msg = rt.run(
      [](df::graph& g) -> locus::task<std::string> { co_return error_of([&] { g.wait(); }); }(g));
  EXPECT_NE(msg.find("co_await"), std::string::npos) << msg;
}

// A task node keeps its allocation's alignment in 16 bits (docs/design/0010, "Scheduling
// options": the priority took the other half): a body aligned to more is refused, with the
// reason, before anything is allocated; 32 KiB is still accepted.
TEST(FlowGraph, ABodyAlignedBeyond32KiBIsRefused) {
  struct alignas(65536) too_aligned {
    char c = 1;
  };
  struct alignas(32768) aligned {
    char c = 2;
  };
  locus::runtime rt{cfg(1)};
  df::graph g(rt);
  const std::string msg = error_of([&] { (void)g.task(0, [x = too_aligned{}] { (void)x; }); });
  EXPECT_NE(msg.find("too aligned"), std::string::npos) << msg;
  std::atomic<int> ran{0};
  auto t = g.task(0, [x = aligned{}, &ran] {
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(&x) % 32768, 0U);
    ran.fetch_add(x.c);
  });
  (void)t;
  g.wait();
  EXPECT_EQ(ran.load(), 2);
}

TEST(FlowGraph, ArgumentMisuseInsideABody) {
  locus::runtime rt{cfg(2)};
  df::graph g(rt);
  df::event<int> a;
  df::event<df::datablock> blk;
  std::vector<std::string> msgs;
  auto t = g.task(2, [&](df::edt_args& in) {
    msgs.push_back(error_of([&] { (void)in.get<long>(0); }));      // wrong type
    msgs.push_back(error_of([&] { (void)in.get<int>(2); }));       // out of range
    msgs.push_back(error_of([&] { (void)in.write<double>(1); }));  // declared read
    in.release(1);
    msgs.push_back(error_of([&] { in.release(1); }));             // released twice
    msgs.push_back(error_of([&] { (void)in.read<double>(1); }));  // after release
  });
  df::add_dependence(a, t, 0);
  df::add_dependence(blk, t, 1);
  a.satisfy(1);
  blk.satisfy(df::datablock::create(64));
  g.wait();
  ASSERT_EQ(msgs.size(), 5U);
  EXPECT_NE(msgs[0].find("type"), std::string::npos) << msgs[0];
  EXPECT_NE(msgs[1].find("out of range"), std::string::npos) << msgs[1];
  EXPECT_NE(msgs[2].find("access::read"), std::string::npos) << msgs[2];
  EXPECT_NE(msgs[3].find("released"), std::string::npos) << msgs[3];
  EXPECT_NE(msgs[4].find("released"), std::string::npos) << msgs[4];
}

TEST(FlowGraph, ATaskThatCanNeverRunIsCancelledAndReported) {
  locus::runtime rt{cfg(2)};
  df::graph g(rt);
  {
    auto t = g.task(2, [] {});
  }  // no dependence was ever added
  EXPECT_EQ(g.pending(), 0);
  const std::string msg = error_of([&] { g.wait(); });
  EXPECT_NE(msg.find("cancelled"), std::string::npos) << msg;
}
