// spawn_callable_test.cpp — spawn / async / call of callables: the callable and its arguments
// live in the child's frame until the child is done, under every policy, with 2 workers.
//
// Capturing lambdas are named before the co_await that spawns them: GCC 12 destroys a closure
// with non-trivially-destructible captures twice when its lambda-expression is written inside a
// co_await expression (a compiler bug, independent of locus; see the README, "Lambdas and
// lifetimes"). Captureless lambdas may be written inline.
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <fstream>
#include <functional>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace {

locus::config two_workers(locus::spawn_policy p) {
  locus::config c;
  c.workers = 2;
  c.policy = p;
  c.topology = "cores=2";
  c.places = "none";
  return c;
}

// Counts the copies of each id alive, and copies and moves overall, so a test can tell whether
// a captured object was alive while the child ran and whether it was copied.
struct probe {
  static constexpr int k_ids = 64;
  static inline std::array<std::atomic<int>, k_ids> alive{};
  static inline std::atomic<int> copies{0};
  static inline std::atomic<int> moves{0};
  static void reset() {
    for (auto& a : alive)
      a = 0;
    copies = 0;
    moves = 0;
  }
  static int total_alive() {
    int n = 0;
    for (auto& a : alive)
      n += a.load();
    return n;
  }

  int id;
  explicit probe(int i) : id(i) { ++alive[static_cast<std::size_t>(id)]; }
  probe(const probe& o) : id(o.id) {
    ++alive[static_cast<std::size_t>(id)];
    ++copies;
  }
  probe(probe&& o) noexcept : id(o.id) {
    ++alive[static_cast<std::size_t>(id)];
    ++moves;
  }
  probe& operator=(const probe&) = delete;
  ~probe() { --alive[static_cast<std::size_t>(id)]; }
};

// A string too long for the small-string buffer: a dangling capture reads freed heap memory.
std::string long_text(int i) {
  return "child number " + std::to_string(i) + " of a spawn with a capture that lives on the heap";
}

locus::task<long> spawn_captures(locus::spawn_options o) {
  std::vector<locus::future<long>> fs;
  for (int i = 0; i < 40; ++i) {
    std::string s = long_text(i);
    std::vector<int> v(100, i);
    // `body` dies at the end of this iteration, long before a help-first child runs: only an
    // overload that moves the callable into the child's frame keeps s and v alive.
    auto body = [s, v]() -> locus::task<long> {
      co_await locus::spawn(locus_test::fib(10));  // give thieves something to take
      co_await locus::sync();
      co_return static_cast<long>(s.size()) + std::accumulate(v.begin(), v.end(), 0L);
    };
    fs.push_back(co_await locus::spawn(o, std::move(body)));
  }
  co_await locus::sync();
  long bad = 0;
  for (int i = 0; i < 40; ++i) {
    if (fs[static_cast<std::size_t>(i)].get() != static_cast<long>(long_text(i).size()) + 100L * i)
      ++bad;
  }
  co_return bad;
}

class spawn_callable_policy : public ::testing::TestWithParam<locus::spawn_policy> {};

TEST_P(spawn_callable_policy, captured_string_and_vector_outlive_the_temporary_lambda) {
  locus::runtime rt{two_workers(GetParam())};
  for (auto o : {locus::spawn_options{}, locus::work_first, locus::help_first, locus::adaptive})
    EXPECT_EQ(rt.run(spawn_captures(o)), 0);
}

TEST_P(spawn_callable_policy, default_options_form_keeps_captures_alive) {
  locus::runtime rt{two_workers(GetParam())};
  const long got = rt.run([]() -> locus::task<long> {
    std::vector<locus::future<std::size_t>> fs;
    for (int i = 0; i < 40; ++i) {
      auto body = [s = long_text(i)]() -> locus::task<std::size_t> { co_return s.size(); };
      fs.push_back(co_await locus::spawn(std::move(body)));
    }
    co_await locus::sync();
    long sum = 0;
    for (auto& f : fs)
      sum += static_cast<long>(f.get());
    co_return sum;
  }());
  long want = 0;
  for (int i = 0; i < 40; ++i)
    want += static_cast<long>(long_text(i).size());
  EXPECT_EQ(got, want);
}

// Each child checks that its closure's probe is alive while it runs; after the run nothing is
// left alive (no leak) and a closure passed as an rvalue was moved, never copied.
TEST_P(spawn_callable_policy, closure_lives_until_the_child_is_done_and_is_not_copied) {
  probe::reset();
  locus::runtime rt{two_workers(GetParam())};
  const int missing = rt.run([]() -> locus::task<int> {
    std::array<int, 32> alive_in_child{};
    for (int i = 0; i < 32; ++i) {
      auto body = [p = probe(i),
                   out = &alive_in_child[static_cast<std::size_t>(i)]]() mutable -> locus::task<> {
        co_await locus::spawn(locus_test::fib(8));
        co_await locus::sync();
        *out = probe::alive[static_cast<std::size_t>(p.id)].load();
      };
      (void)co_await locus::spawn(i % 2 == 0 ? locus::help_first : locus::work_first,
                                  std::move(body));
    }
    co_await locus::sync();
    int n = 0;
    for (int a : alive_in_child)
      n += a >= 1 ? 0 : 1;
    co_return n;
  }());
  EXPECT_EQ(missing, 0);
  EXPECT_EQ(probe::copies.load(), 0);
  EXPECT_GE(probe::moves.load(), 32);
  EXPECT_EQ(probe::total_alive(), 0);
}

INSTANTIATE_TEST_SUITE_P(policies, spawn_callable_policy,
                         ::testing::Values(locus::spawn_policy::work_first,
                                           locus::spawn_policy::help_first,
                                           locus::spawn_policy::adaptive),
                         [](const auto& info) {
                           std::string s(locus::to_string(info.param));
                           for (char& c : s)
                             if (c == '-') c = '_';
                           return s;
                         });

locus::task<std::size_t> length_plus(std::string s, int k) {
  co_return s.size() + static_cast<std::size_t>(k);
}

TEST(spawn_callable, arguments_are_decay_copied_into_the_frame) {
  locus::runtime rt{two_workers(locus::spawn_policy::help_first)};
  const auto got = rt.run([]() -> locus::task<std::size_t> {
    std::string s = long_text(1);
    // A function and a lambda taking its argument by const reference: both see the frame's
    // copy, which lives as long as the child even though `s` here changes at once.
    auto a = co_await locus::spawn(length_plus, s, 1);
    auto b = co_await locus::spawn(
        locus::help_first,
        [](const std::string& t) -> locus::task<std::size_t> { co_return t.size(); }, s);
    s.assign(5, 'x');
    co_await locus::sync();
    co_return a.get() + b.get() + s.size();
  }());
  EXPECT_EQ(got, 2 * long_text(1).size() + 1 + 5);
}

TEST(spawn_callable, std_ref_passes_a_reference) {
  locus::runtime rt{two_workers(locus::spawn_policy::help_first)};
  const int got = rt.run([]() -> locus::task<int> {
    int x = 0;
    (void)co_await locus::spawn(
        [](int& r) -> locus::task<> {
          r = 7;
          co_return;
        },
        std::ref(x));
    co_await locus::sync();
    co_return x;
  }());
  EXPECT_EQ(got, 7);
}

TEST(spawn_callable, lvalue_callable_is_copied_once_and_the_original_kept) {
  probe::reset();
  locus::runtime rt{two_workers(locus::spawn_policy::help_first)};
  const int got = rt.run([]() -> locus::task<int> {
    auto body = [p = probe(3)]() -> locus::task<int> { co_return p.id; };
    auto f = co_await locus::spawn(body);
    co_await locus::sync();
    const int again = co_await body();  // the original is untouched
    co_return f.get() + again;
  }());
  EXPECT_EQ(got, 6);
  EXPECT_EQ(probe::copies.load(), 1);
  EXPECT_EQ(probe::total_alive(), 0);
}

TEST(spawn_callable, call_makes_a_task_that_owns_the_lambda) {
  locus::runtime rt{two_workers(locus::spawn_policy::work_first)};
  // Kept in a variable past the end of the full expression that made the lambda: with
  // `auto t = [s]() -> task<...> {...}();` the closure would already be gone here.
  auto t = locus::call([s = long_text(2)]() -> locus::task<std::size_t> { co_return s.size(); });
  std::string scribble(200, 'z');  // reuse the heap a dead closure would have freed
  EXPECT_EQ(rt.run(std::move(t)), long_text(2).size());
  EXPECT_EQ(rt.run([]() -> locus::task<int> {
    co_return co_await locus::call([](int a, int b) -> locus::task<int> { co_return a* b; }, 6, 7);
  }()),
            42);
}

TEST(spawn_callable, async_keeps_captures_alive_until_the_finish) {
  locus::runtime rt{two_workers(locus::spawn_policy::help_first)};
  std::atomic<long> total{0};
  rt.run([](std::atomic<long>* sum) -> locus::task<> {
    co_await locus::finish(locus::call([sum]() -> locus::task<> {
      for (int i = 0; i < 20; ++i) {
        auto body = [sum, s = long_text(i)]() -> locus::task<> {
          sum->fetch_add(static_cast<long>(s.size()));
          co_return;
        };
        co_await locus::async(std::move(body));
        co_await locus::async(
            locus::help_first,
            [sum](std::string t) -> locus::task<> {
              sum->fetch_add(static_cast<long>(t.size()));
              co_return;
            },
            long_text(i));
      }
    }));
  }(&total));
  long want = 0;
  for (int i = 0; i < 20; ++i)
    want += 2 * static_cast<long>(long_text(i).size());
  EXPECT_EQ(total.load(), want);
}

TEST(spawn_callable, exceptions_reach_the_sync) {
  locus::runtime rt{two_workers(locus::spawn_policy::help_first)};
  auto spawn_and_sync = [](bool throw_before_task) -> locus::task<> {
    if (throw_before_task) {
      // The callable itself throws instead of returning a task.
      (void)co_await locus::spawn([]() -> locus::task<> { throw std::runtime_error("callable"); });
    } else {
      auto body = [s = long_text(0)]() -> locus::task<> {
        throw std::runtime_error(s);
        co_return;
      };
      (void)co_await locus::spawn(std::move(body));
    }
    co_await locus::sync();
  };
  EXPECT_THROW(rt.run(locus::call(spawn_and_sync, true)), std::runtime_error);
  EXPECT_THROW(rt.run(locus::call(spawn_and_sync, false)), std::runtime_error);
}

// The README's "Lambdas and lifetimes" example: the lines between the markers, verbatim there.
locus::task<std::size_t> readme_example() {
  // readme: lambdas begin
  std::string s = "a string too long for the small-string buffer of std::string";
  // Wrong: the closure, a temporary, dies at the `;`, and s with it; the child may run later.
  //   co_await locus::spawn([s]() -> locus::task<std::size_t> { co_return s.size(); }());
  // Right: spawn(f, args...) moves f and copies args into the child's frame.
  auto a = co_await locus::spawn(
      [](std::string t) -> locus::task<std::size_t> { co_return t.size(); }, s);
  auto body = [s]() -> locus::task<std::size_t> { co_return s.size(); };
  auto b = co_await locus::spawn(locus::help_first, std::move(body));
  co_await locus::sync();
  co_return a.get() + b.get();
  // readme: lambdas end
}

std::string read_beside_this_file(const std::string& relative) {
  // The source dir from CMake, not __FILE__: ccache with base_dir makes __FILE__ relative.
  std::string path = LOCUS_TEST_SOURCE_DIR "/";
  std::ifstream in(path.substr(0, path.rfind('/') + 1) + relative);
  std::ostringstream o;
  o << in.rdbuf();
  return o.str();
}

TEST(spawn_callable, readme_example_runs_and_is_shown_verbatim) {
  locus::runtime rt{two_workers(locus::spawn_policy::help_first)};
  EXPECT_EQ(rt.run(readme_example()),
            2 * std::string("a string too long for the small-string buffer of std::string").size());
  const std::string self = read_beside_this_file("spawn_callable_test.cpp");
  const std::string readme = read_beside_this_file("../README.md");
  if (self.empty() || readme.empty()) FAIL() << "sources not found in " LOCUS_TEST_SOURCE_DIR;
  // The block between the markers, without the two-space indentation of the function body.
  const auto begin = self.find('\n', self.find("// readme: lambdas begin")) + 1;
  const auto end = self.rfind('\n', self.find("// readme: lambdas end"));
  std::istringstream lines(self.substr(begin, end - begin));
  std::string block, line;
  while (std::getline(lines, line))
    block += (line.rfind("  ", 0) == 0 ? line.substr(2) : line) + "\n";
  EXPECT_NE(readme.find("```cpp\n" + block + "```"), std::string::npos)
      << "README.md does not show this block verbatim:\n"
      << block;
}

// Compile-time: what is refused. Checked through concepts, so a refusal is a clean `false`.
template <class... A>
concept can_spawn = requires(A&&... a) {
  locus::spawn(std::forward<A>(a)...);
};
template <class... A>
concept can_call = requires(A&&... a) {
  locus::call(std::forward<A>(a)...);
};
template <class... A>
concept can_async = requires(A&&... a) {
  locus::async(std::forward<A>(a)...);
};

using returns_task = decltype([]() -> locus::task<int> { co_return 1; });
using returns_void_task = decltype([]() -> locus::task<> { co_return; });
using returns_int = decltype([] { return 1; });
using takes_string = decltype([](std::string) -> locus::task<> { co_return; });

static_assert(can_spawn<returns_task>);
static_assert(can_spawn<locus::spawn_options, returns_task>);
static_assert(can_spawn<takes_string, const char*>);
static_assert(can_spawn<locus::task<int>>);  // the task overload is untouched
static_assert(can_spawn<locus::task<int>, locus::spawn_options>);
static_assert(!can_spawn<returns_int>, "a callable must return a locus::task");
static_assert(!can_spawn<locus::spawn_options, returns_int>);
static_assert(!can_spawn<takes_string>, "wrong arguments");
static_assert(!can_spawn<takes_string, int>);
static_assert(!can_spawn<returns_task, locus::spawn_options>,
              "options after the callable would be passed to it: options come first");
static_assert(can_call<returns_task> && !can_call<returns_int>);
static_assert(can_async<returns_void_task> && can_async<locus::spawn_options, returns_void_task>);
static_assert(!can_async<returns_task>, "async takes task<void> only");
static_assert(std::is_same_v<locus::task_result_t<returns_task>, int>);
static_assert(
    std::is_same_v<decltype(locus::call(std::declval<takes_string>(), "x")), locus::task<void>>);

}  // namespace
