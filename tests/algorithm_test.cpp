// algorithm_test.cpp — parallel_for, parallel_reduce and join: mixed index types, ranges as wide
// as the index type (chunked, never iterated), accumulators that do not truncate.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "test_support.hpp"

namespace {

locus::config two_workers() {
  locus::config c;
  c.workers = 2;
  c.topology = "cores=2";
  c.places = "none";
  return c;
}

// The chunks a parallel_for hands to a body(lo, hi), from any worker; sorted() by lo.
template <class I>
struct chunk_log {
  std::mutex m;
  std::vector<std::pair<I, I>> chunks;
  void add(I lo, I hi) {
    std::lock_guard lk(m);
    chunks.emplace_back(lo, hi);
  }
  std::vector<std::pair<I, I>> sorted() {
    std::lock_guard lk(m);
    auto c = chunks;
    std::sort(c.begin(), c.end());
    return c;
  }
};

// The chunks tile [first, last) exactly, in order, each at most `grain` long.
template <class I, class U>
void expect_tiling(const std::vector<std::pair<I, I>>& c, I first, I last, U grain) {
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c.front().first, first);
  EXPECT_EQ(c.back().second, last);
  for (std::size_t i = 0; i < c.size(); ++i) {
    EXPECT_LT(c[i].first, c[i].second) << "chunk " << i << " is empty or inverted";
    EXPECT_LE(locus::detail::range_length(c[i].first, c[i].second), grain) << "chunk " << i;
    if (i > 0) {
      EXPECT_EQ(c[i - 1].second, c[i].first) << "gap or overlap before chunk " << i;
    }
  }
}

TEST(parallel_for, accepts_mixed_index_types) {
  locus::runtime rt{two_workers()};
  std::vector<std::atomic<int>> v(1000);
  // int first, std::size_t last: the index type is std::size_t.
  rt.run([](std::vector<std::atomic<int>>* v) -> locus::task<> {
    co_await locus::parallel_for(0, v->size(), 64, [v](std::size_t i) { (*v)[i] += 1; });
    co_await locus::parallel_for(0, v->size(), 64u, [v](auto lo, auto hi) {
      static_assert(std::is_same_v<decltype(lo), std::size_t>);
      for (auto i = lo; i < hi; ++i)
        (*v)[i] += 2;
    });
    // short, long long and an unsigned grain.
    co_await locus::parallel_for(short{10}, 20LL, 3u,
                                 [v](long long i) { (*v)[static_cast<std::size_t>(i)] += 4; });
  }(&v));
  for (std::size_t i = 0; i < v.size(); ++i)
    EXPECT_EQ(v[i].load(), (i >= 10 && i < 20) ? 7 : 3) << i;
}

TEST(parallel_for, negative_first_with_an_unsigned_last_is_an_error) {
  locus::runtime rt{two_workers()};
  EXPECT_THROW(rt.run(locus::parallel_for(-1, std::size_t{10}, 1, [](std::size_t) {})),
               std::out_of_range);
  // A grain wider than the index type is one chunk, not an error.
  int calls = 0;
  rt.run(locus::parallel_for(0, 100, 1LL << 40, [&calls](int lo, int hi) {
    EXPECT_EQ(lo, 0);
    EXPECT_EQ(hi, 100);
    ++calls;
  }));
  EXPECT_EQ(calls, 1);
}

// [INT_MIN, INT_MAX) has 2^32 - 1 indices: more than int can count. Halving it down to chunks
// of at most 2^30 gives exactly 4 chunks; nothing iterates the 4 billion indices.
TEST(parallel_for, full_int_range_is_split_into_chunks_without_overflow) {
  locus::runtime rt{two_workers()};
  chunk_log<int> log;
  rt.run(
      locus::parallel_for(INT_MIN, INT_MAX, 1 << 30, [&log](int lo, int hi) { log.add(lo, hi); }));
  const auto c = log.sorted();
  EXPECT_EQ(c.size(), 4U);
  expect_tiling(c, INT_MIN, INT_MAX, 1U << 30);
}

TEST(parallel_for, full_64_bit_ranges_are_split_into_chunks_without_overflow) {
  locus::runtime rt{two_workers()};
  constexpr auto ll_min = std::numeric_limits<long long>::min();
  constexpr auto ll_max = std::numeric_limits<long long>::max();
  chunk_log<long long> signed_log;
  rt.run(locus::parallel_for(ll_min, ll_max, 1ULL << 61, [&signed_log](long long lo, long long hi) {
    signed_log.add(lo, hi);
  }));
  EXPECT_EQ(signed_log.sorted().size(), 8U);
  expect_tiling(signed_log.sorted(), ll_min, ll_max, 1ULL << 61);

  constexpr auto u_max = std::numeric_limits<std::uint64_t>::max();
  chunk_log<std::uint64_t> unsigned_log;
  rt.run(locus::parallel_for(
      std::uint64_t{0}, u_max, u_max / 3,
      [&unsigned_log](std::uint64_t lo, std::uint64_t hi) { unsigned_log.add(lo, hi); }));
  EXPECT_EQ(unsigned_log.sorted().size(), 4U);
  expect_tiling(unsigned_log.sorted(), std::uint64_t{0}, u_max, u_max / 3);
}

TEST(parallel_for, index_arithmetic_is_exact_at_the_limits) {
  using locus::detail::range_length;
  using locus::detail::split_point;
  static_assert(range_length(INT_MIN, INT_MAX) == 0xffffffffU);
  static_assert(range_length(-5, 5) == 10U);
  static_assert(range_length(INT_MIN, 0) == 0x80000000U);
  static_assert(split_point(INT_MIN, INT_MAX) == -1);
  static_assert(split_point(0, INT_MAX) == INT_MAX / 2);
  static_assert(split_point(std::int8_t{-128}, std::int8_t{127}) == -1);
  static_assert(range_length(std::int8_t{-128}, std::int8_t{127}) == 255U);
  static_assert(locus::detail::chunk_grain<int>(0) == 1U);
  static_assert(locus::detail::chunk_grain<int>(-7) == 1U);
  static_assert(locus::detail::chunk_grain<int>(1LL << 40) == UINT_MAX);
  SUCCEED();
}

TEST(parallel_for, every_index_of_a_full_8_bit_range_runs_once) {
  static_assert(locus::index_integral<std::int8_t> && locus::index_integral<unsigned char>);
  static_assert(!locus::index_integral<bool> && !locus::index_integral<char> &&
                !locus::index_integral<char32_t>);
  locus::runtime rt{two_workers()};
  std::array<std::atomic<int>, 256> hits{};
  rt.run(locus::parallel_for(std::int8_t{-128}, std::int8_t{127}, 0, [&hits](std::int8_t i) {
    ++hits[static_cast<std::size_t>(i + 128)];
  }));
  for (std::size_t i = 0; i < 255; ++i)
    EXPECT_EQ(hits[i].load(), 1) << "index " << static_cast<int>(i) - 128;
  EXPECT_EQ(hits[255].load(), 0);
}

TEST(parallel_reduce, int_identity_does_not_truncate_a_long_long_sum) {
  locus::runtime rt{two_workers()};
  constexpr long long big = 3'000'000'000LL;  // > INT_MAX: one chunk's value overflows int
  auto t = locus::parallel_reduce(
      0, 8, 1, 0, [](int lo, int hi) { return big * (hi - lo); }, std::plus<>{});
  static_assert(std::is_same_v<decltype(t), locus::task<long long>>,
                "the accumulator follows map's result, not the identity's type");
  EXPECT_EQ(rt.run(std::move(t)), 8 * big);
  // The empty range gives the identity, converted to the accumulator type.
  EXPECT_EQ(rt.run(locus::parallel_reduce(
                5, 5, 1, 42, [](int, int) { return 0LL; }, std::plus<>{})),
            42LL);
}

TEST(parallel_reduce, accumulator_is_the_common_type_of_identity_map_and_combine) {
  using locus::detail::reduce_types;
  auto map_int = [](int, int) { return 1; };
  auto map_ll = [](int, int) { return 1LL; };
  auto plus_ll = [](long long a, long long b) { return a + b; };
  static_assert(
      std::is_same_v<reduce_types<int, int, decltype(map_ll), std::plus<>>::type, long long>);
  static_assert(std::is_same_v<reduce_types<int, long long, decltype(map_int), std::plus<>>::type,
                               long long>);
  static_assert(std::is_same_v<reduce_types<int, int, decltype(map_int), decltype(plus_ll)>::type,
                               long long>);
  static_assert(
      std::is_same_v<reduce_types<int, double, decltype(map_int), std::plus<>>::type, double>);
  // A combine that widens is followed: ints summed by a long long combine do not overflow.
  locus::runtime rt{two_workers()};
  EXPECT_EQ(rt.run(locus::parallel_reduce(
                0, 4, 1, 0, [](int, int) { return INT_MAX; }, plus_ll)),
            4LL * INT_MAX);
}

TEST(parallel_reduce, full_int_range_is_split_into_chunks_without_overflow) {
  locus::runtime rt{two_workers()};
  // Each chunk counts 1 and its length: 4 chunks covering 2^32 - 1 indices.
  struct count_len {
    long long chunks = 0, length = 0;
  };
  const count_len r = rt.run(locus::parallel_reduce(
      INT_MIN, INT_MAX, 1 << 30, count_len{},
      [](int lo, int hi) {
        return count_len{1, static_cast<long long>(hi) - static_cast<long long>(lo)};
      },
      [](count_len a, count_len b) {
        return count_len{a.chunks + b.chunks, a.length + b.length};
      }));
  EXPECT_EQ(r.chunks, 4);
  EXPECT_EQ(r.length, 0xffffffffLL);
}

TEST(parallel_reduce, accepts_mixed_index_types) {
  locus::runtime rt{two_workers()};
  std::vector<int> v(1000);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = static_cast<int>(i);
  const auto sum = rt.run(locus::parallel_reduce(
      0, v.size(), 16, 0,
      [&v](std::size_t lo, std::size_t hi) {
        long long s = 0;
        for (std::size_t i = lo; i < hi; ++i)
          s += v[i];
        return s;
      },
      std::plus<>{}));
  EXPECT_EQ(sum, 999LL * 1000 / 2);
}

// join refuses a callable whose task<T> value would be dropped unrun.
static_assert(locus::join_callable<decltype([] {})>);
static_assert(locus::join_callable<decltype([]() -> locus::task<> { co_return; })>);
static_assert(!locus::join_callable<decltype([]() -> locus::task<int> { co_return 1; })>);
static_assert(!locus::join_callable<decltype([](int) {})>);

TEST(join, runs_both_and_keeps_their_captures) {
  locus::runtime rt{two_workers()};
  std::atomic<std::size_t> total{0};
  rt.run(locus::join([&total, s = std::string(100, 'a')] { total += s.size(); },
                     [&total, v = std::vector<int>(50, 1)]() -> locus::task<> {
                       co_await locus::spawn(locus_test::fib(10));
                       co_await locus::sync();
                       total += v.size();
                     }));
  EXPECT_EQ(total.load(), 150U);
}

}  // namespace
