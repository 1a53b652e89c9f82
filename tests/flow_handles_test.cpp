// Every public dataflow handle's empty state (default-constructed or moved from), member by
// member: a dataflow_error naming the member, or (accessors, datablock) the documented empty
// value; never a crash. Issue 23, defect 3: satisfy()/satisfied() on a moved-from event,
// output_event{}.satisfied() and edt{}.slots() dereferenced a null pointer.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <utility>

#include "flow_support.hpp"

namespace df = locus::dataflow;
using flow_test::cfg;
using flow_test::error_of;

namespace {

/// f() throws the dataflow_error of member `member` called on an empty handle.
template <class F>
void expect_empty_error(F&& f, const std::string& member) {
  EXPECT_EQ(error_of(std::forward<F>(f)),
            member + ": an empty handle (default-constructed or moved from)");
}

template <class T>
df::event<T> moved_from() {
  df::event<T> e;
  df::event<T> other(std::move(e));
  (void)other;
  return e;  // NOLINT: the moved-from handle is what is tested
}

TEST(FlowHandles, AMovedFromEventThrowsFromEveryMember) {
  df::event<int> a;
  df::event<int> b(std::move(a));
  expect_empty_error([&] { a.satisfy(1); }, "locus::dataflow::event::satisfy");
  expect_empty_error([&] { (void)a.satisfied(); }, "locus::dataflow::event::satisfied");
  expect_empty_error([&] { (void)a.get(); }, "locus::dataflow::event::get");
  expect_empty_error([&] { (void)a.operator co_await(); },
                     "locus::dataflow::event::operator co_await");
  EXPECT_EQ(a.core(), nullptr);
  // A copy of an empty handle is empty; an empty handle can be assigned to and used again.
  df::event<int> c(a);
  expect_empty_error([&] { c.satisfy(2); }, "locus::dataflow::event::satisfy");
  c = b;
  c.satisfy(3);
  EXPECT_TRUE(b.satisfied());
  EXPECT_EQ(b.get(), 3);
  a = std::move(c);
  EXPECT_EQ(a.get(), 3);
}

TEST(FlowHandles, AMovedFromVoidEventThrowsFromEveryMember) {
  df::event<> a;
  df::event<> b = std::move(a);
  expect_empty_error([&] { a.satisfy(); }, "locus::dataflow::event::satisfy");
  expect_empty_error([&] { (void)a.satisfied(); }, "locus::dataflow::event::satisfied");
  expect_empty_error([&] { (void)a.operator co_await(); },
                     "locus::dataflow::event::operator co_await");
  EXPECT_EQ(a.core(), nullptr);
  b.satisfy();
  EXPECT_TRUE(b.satisfied());
}

TEST(FlowHandles, AnEmptyEventCannotBeADependence) {
  locus::runtime rt(cfg(1));
  df::graph g(rt);
  auto t = g.task(1, [] {});
  const df::event<int> e = moved_from<int>();
  EXPECT_EQ(error_of([&] { add_dependence(e, t, 0); }),
            "locus::dataflow::add_dependence: an empty event handle");
  df::event<int> ok;
  add_dependence(ok, t, 0);  // the slot stayed unassigned
  ok.satisfy(1);
  g.wait();
}

TEST(FlowHandles, AnEmptyOutputEventThrowsFromEveryMember) {
  locus::runtime rt(cfg(1));
  df::graph g(rt);
  auto t = g.task(0, [] {});
  df::output_event full = t.done();
  df::output_event moved = full;
  df::output_event taken(std::move(moved));
  const df::output_event empty;
  for (const df::output_event* e : {&empty, static_cast<const df::output_event*>(&moved)}) {
    expect_empty_error([&] { (void)e->satisfied(); }, "locus::dataflow::output_event::satisfied");
    expect_empty_error([&] { (void)e->abandoned(); }, "locus::dataflow::output_event::abandoned");
    expect_empty_error([&] { (void)e->operator co_await(); },
                       "locus::dataflow::output_event::operator co_await");
    EXPECT_EQ(e->core(), nullptr);
    EXPECT_EQ(e->node(), nullptr);
    auto u = g.task(1, [] {});
    EXPECT_EQ(error_of([&] { add_dependence(*e, u, 0); }),
              "locus::dataflow::add_dependence: an empty output event handle");
    add_dependence(full, u, 0);       // the slot stayed unassigned
    const df::output_event copy(*e);  // a copy of an empty handle is empty
    EXPECT_EQ(copy.core(), nullptr);
  }
  g.wait();
  EXPECT_TRUE(taken.satisfied());
  EXPECT_FALSE(taken.abandoned());
}

TEST(FlowHandles, AnEmptyTaskHandleThrowsFromEveryMember) {
  locus::runtime rt(cfg(1));
  df::graph g(rt);
  auto full = g.task(1, [] {});
  df::edt moved = full;
  df::edt taken(std::move(moved));
  const df::edt empty;
  for (const df::edt* t : {&empty, static_cast<const df::edt*>(&moved)}) {
    expect_empty_error([&] { (void)t->slots(); }, "locus::dataflow::edt::slots");
    EXPECT_EQ(error_of([&] { (void)t->done(); }),
              "locus::dataflow::edt::done: an empty task handle");
    EXPECT_EQ(error_of([&] { (void)t->inlet<int>(0); }),
              "locus::dataflow::edt::inlet: an empty task handle");
    EXPECT_EQ(t->node(), nullptr);
    df::event<> e;
    EXPECT_EQ(error_of([&] { add_dependence(e, *t, 0); }),
              "locus::dataflow::add_dependence: an empty task handle");
    const df::edt copy(*t);  // a copy of an empty handle is empty
    EXPECT_EQ(copy.node(), nullptr);
  }
  EXPECT_EQ(taken.slots(), 1U);
  df::event<> e;
  add_dependence(e, taken, 0);
  e.satisfy();
  g.wait();
}

TEST(FlowHandles, AnEmptyInletThrowsFromEveryMember) {
  locus::runtime rt(cfg(1));
  df::graph g(rt);
  auto t = g.task(1, [](df::edt_args& in) { EXPECT_EQ(in.get<int>(0), 5); });
  df::inlet<int> moved = t.inlet<int>(0);
  df::inlet<int> taken(std::move(moved));
  df::inlet<int> empty;
  for (df::inlet<int>* in : {&empty, &moved}) {
    EXPECT_FALSE(in->valid());
    EXPECT_EQ(error_of([&] { in->satisfy(1); }),
              "locus::dataflow::inlet::satisfy: the inlet is empty (already satisfied, moved "
              "from, or default-constructed); an inlet is satisfied once");
  }
  EXPECT_TRUE(taken.valid());
  taken.satisfy(5);
  EXPECT_FALSE(taken.valid());
  g.wait();
}

// Handles without an empty state: a latch is not default-constructible and its move is a copy;
// a graph is neither copyable nor movable.
static_assert(!std::is_default_constructible_v<df::latch>);
static_assert(!std::is_move_assignable_v<df::latch>);
static_assert(!std::is_copy_constructible_v<df::graph> && !std::is_move_constructible_v<df::graph>);
static_assert(!std::is_copy_assignable_v<df::graph> && !std::is_move_assignable_v<df::graph>);

TEST(FlowHandles, ALatchMovedFromStaysUsable) {
  df::latch a(2);
  df::latch b(std::move(a));  // a copy: both share the count
  a.count_down();
  b.count_down();
  EXPECT_TRUE(a.satisfied());
  EXPECT_TRUE(b.satisfied());
  EXPECT_NE(a.core(), nullptr);
}

// A datablock's empty state is a block of no bytes: every member answers it, none throws.
TEST(FlowHandles, AnEmptyDatablockIsABlockOfNoBytes) {
  df::datablock full = df::datablock::create(64);
  df::datablock moved = full;
  df::datablock taken(std::move(moved));
  const df::datablock empty;
  for (const df::datablock* b : {&empty, static_cast<const df::datablock*>(&moved)}) {
    EXPECT_FALSE(b->valid());
    EXPECT_EQ(b->size(), 0U);
    EXPECT_TRUE(b->bytes().empty());
    EXPECT_TRUE(b->as<int>().empty());
    EXPECT_TRUE(b->where().is_none());
    EXPECT_EQ(b->core(), nullptr);
    const df::datablock copy(*b);
    EXPECT_FALSE(copy.valid());
  }
  EXPECT_TRUE(taken.valid());
  EXPECT_EQ(taken.size(), 64U);
}

}  // namespace
