// LAWS's parts when an iteration's data shrinks (GE: pivot k updates rows k+1..n-1): each task
// goes to the socket whose part of the first iteration's root holds most of its rows, the part
// that iteration first-touched (laws_options::keep_parts, docs/design/0017 "Shrinking roots");
// and LOCUS_LAWS's parser.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <mutex>
#include <string>
#include <vector>

#include "laws_support.hpp"
#include "locus/ext/core.hpp"
#include "locus/iterate.hpp"
#include "locus/laws.hpp"
#include "locus/locus.hpp"

namespace {

/// GE's shape: iteration k sweeps rows [k * step, rows) of a rows x width matrix, split in
/// halves (first spawned, second called) down to `leaf` rows; each task declares its rows.
/// Leaves record the socket that ran them.
struct shrinking {
  static constexpr std::size_t width = 64;  // doubles per row
  std::size_t rows, leaf, step;
  std::vector<double> a;
  const locus::runtime* rt = nullptr;
  struct leaf_run {
    std::size_t iteration, lo, hi;
    unsigned socket;
  };
  std::mutex m;
  std::vector<leaf_run> runs;
  std::size_t iteration = 0;

  shrinking(std::size_t r, std::size_t l, std::size_t s)
      : rows(r), leaf(l), step(s), a(r * width, 0.0) {}

  locus::data_range rows_of(std::size_t lo, std::size_t hi) {
    return locus::data_range::of(a.data() + lo * width, (hi - lo) * width,
                                 locus::access::read_write);
  }
  locus::task<void> split(std::size_t lo, std::size_t hi) {
    if (hi - lo <= leaf) {
      for (std::size_t i = lo * width; i < hi * width; ++i)
        a[i] += 1.0;
      const unsigned w = locus::ext::this_worker_index();
      std::lock_guard lk(m);
      runs.push_back({iteration, lo, hi, rt->topo().cores()[rt->core_of(w)].package});
      co_return;
    }
    const std::size_t mid = lo + (hi - lo) / 2;
    co_await locus::spawn(locus::with_data(split(lo, mid), rows_of(lo, mid)));
    co_await locus::with_data(split(mid, hi), rows_of(mid, hi));
    co_await locus::sync();
  }
  locus::task<void> root(std::size_t k) {
    iteration = k;
    const std::size_t lo = k * step;
    return locus::with_data(split(lo, rows), rows_of(lo, rows));
  }
};

/// The part (of `parts` equal ones over rows [first, rows)) holding most of rows [lo, hi).
unsigned owner(const shrinking& g, std::size_t first, std::size_t lo, std::size_t hi,
               unsigned parts) {
  const auto whole =
      locus::data_range::of(g.a.data() + first * shrinking::width,
                            (g.rows - first) * shrinking::width, locus::access::read_write);
  const auto r = locus::data_range::of(g.a.data() + lo * shrinking::width,
                                       (hi - lo) * shrinking::width, locus::access::read_write);
  return locus::laws::owner_of(whole, r, parts).part;
}

/// Runs `iterations` shrinking sweeps on 4 sockets of one worker each; returns, over the
/// iterations after the first without a cross-socket take, how many leaves ran on the owner by
/// the first iteration's parts and how many would have had another owner under each
/// iteration's own even split.
struct outcome {
  std::size_t checked = 0, on_first_parts = 0, differ_from_own_split = 0;
};
outcome run_shrinking(bool keep) {
  locus::laws_options o;
  o.keep_parts = keep;
  o.tune = false;
  locus::runtime rt(laws_test::laws_config("sockets=4,cores=1", 4, locus::make_laws_scheduler(o)));
  shrinking g(512, 8, 48);
  g.rt = &rt;
  constexpr std::size_t iterations = 8;  // the last sweeps rows 336..511: parts 2 and 3
  const auto recs = locus::iterate(rt, iterations, [&](std::size_t k) { return g.root(k); });
  outcome out;
  for (const auto& l : g.runs) {
    // The rightmost leaf is reached from the root by calls only (second halves are called),
    // and a call runs on its caller: it runs where the root ran (docs/design/0017).
    if (l.iteration == 0 || recs[l.iteration].cross_socket_takes != 0 || l.hi == g.rows) continue;
    ++out.checked;
    const unsigned first = owner(g, 0, l.lo, l.hi, 4);
    const unsigned own = owner(g, l.iteration * g.step, l.lo, l.hi, 4);
    out.on_first_parts += l.socket == first ? 1 : 0;
    if (keep)
      EXPECT_EQ(l.socket, first) << "iteration " << l.iteration << ": leaf [" << l.lo << ", "
                                 << l.hi << ")";
    out.differ_from_own_split += first != own ? 1 : 0;
  }
  for (std::size_t r = 0; r < g.rows; ++r)  // row r was swept by iterations k with k*step <= r
    EXPECT_EQ(g.a[r * shrinking::width], static_cast<double>(std::min(iterations, r / g.step + 1)))
        << "row " << r;
  return out;
}

TEST(LawsParts, AShrinkingRootKeepsTheFirstIterationsParts) {
  const outcome o = run_shrinking(true);
  ASSERT_GT(o.checked, 0u) << "every later iteration took work across sockets";
  EXPECT_GT(o.differ_from_own_split, 0u);  // the rule decided something
  EXPECT_EQ(o.on_first_parts, o.checked);  // (and each leaf's EXPECT above)
}

TEST(LawsParts, EachIterationsOwnSplitIsTheOtherChoice) {
  // parts=each: the paper's Eq. 1 per iteration; leaves leave the first iteration's parts.
  const outcome o = run_shrinking(false);
  ASSERT_GT(o.checked, 0u);
  EXPECT_LT(o.on_first_parts, o.checked);
}

// A packed iteration whose root lies in one socket's part (GE's late pivots) starts on that
// socket: the runtime posts it to the first place, whose worker hands it over (rehome_root),
// instead of running the root's chain of called halves there and handing each spawn back (one
// hand-off per level per iteration; docs/design/0017, "Stranded frames"). Checked by where the
// leaves ran, the rightmost (reached from the root by calls alone) included, in the iterations
// without a cross-socket take (a head may take a whole CF subtree of socket 3's).
TEST(LawsParts, ARootInsideOnePartStartsOnItsSocket) {
  locus::laws_options o;
  o.tune = false;
  locus::runtime rt(laws_test::laws_config("sockets=4,cores=1", 4, locus::make_laws_scheduler(o)));
  shrinking g(512, 8, 8);  // iterations 48..63 sweep rows 8k..511, inside part 3 (384..511)
  g.rt = &rt;
  constexpr std::size_t iterations = 64, first_inside = 48;
  const auto recs = locus::iterate(rt, iterations, [&](std::size_t k) { return g.root(k); });
  std::size_t checked = 0, rightmost = 0;
  for (const auto& l : g.runs) {
    if (l.iteration < first_inside || recs[l.iteration].cross_socket_takes != 0) continue;
    ASSERT_EQ(recs[l.iteration].stage, "tuned");
    ++checked;
    rightmost += l.hi == g.rows ? 1 : 0;
    EXPECT_EQ(l.socket, 3u) << "iteration " << l.iteration << ": leaf [" << l.lo << ", " << l.hi
                            << ")";
  }
  ASSERT_GT(rightmost, 0u) << "every iteration inside part 3 took work across sockets";
  EXPECT_GE(checked, rightmost);
}

TEST(LawsOptions, ParseAndErrors) {
  const locus::laws_options d = locus::parse_laws_options("", "LOCUS_LAWS");
  EXPECT_EQ(d.cost, locus::laws_cost::wall_time);
  EXPECT_TRUE(d.tune);
  EXPECT_TRUE(d.keep_parts);
  const locus::laws_options o =
      locus::parse_laws_options("cost=misses,tune=0,parts=each,cache=2MiB", "LOCUS_LAWS");
  EXPECT_EQ(o.cost, locus::laws_cost::modelled_misses);
  EXPECT_FALSE(o.tune);
  EXPECT_FALSE(o.keep_parts);
  EXPECT_EQ(o.cache_bytes, std::size_t{2} << 20);
  EXPECT_EQ(d.footprint, locus::laws_footprint::declared);
  EXPECT_TRUE(d.wake_idle_heads);
  const locus::laws_options f =
      locus::parse_laws_options("footprint=misses,wake=own", "LOCUS_LAWS");
  EXPECT_EQ(f.footprint, locus::laws_footprint::misses);
  EXPECT_FALSE(f.wake_idle_heads);
  // Every key's other spelling sets it back (the last one given wins).
  const locus::laws_options back = locus::parse_laws_options(
      "cost=misses,cost=time,tune=0,tune=1,parts=each,parts=keep,footprint=misses,"
      "footprint=declared,wake=own,wake=idle",
      "LOCUS_LAWS");
  EXPECT_EQ(back.cost, locus::laws_cost::wall_time);
  EXPECT_TRUE(back.tune);
  EXPECT_TRUE(back.keep_parts);
  EXPECT_EQ(back.footprint, locus::laws_footprint::declared);
  EXPECT_TRUE(back.wake_idle_heads);
  for (const char* bad : {"cost=fast", "tune=2", "parts=some", "cache=12", "cache=6XB", "x=1",
                          "cost", "cost=misses,,", "footprint=lines", "wake=all"}) {
    try {
      (void)locus::parse_laws_options(bad, "LOCUS_LAWS");
      ADD_FAILURE() << bad << " parsed";
    } catch (const locus::config_error& e) {
      const std::string w = e.what();
      EXPECT_NE(w.find("LOCUS_LAWS"), std::string::npos) << w;
      EXPECT_NE(w.find("expected"), std::string::npos) << w;
    }
  }
}

}  // namespace
