// Shared by the dataflow tests: a runtime configuration and the message of a misuse.
#pragma once

#include <locus/dataflow.hpp>
#include <locus/locus.hpp>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace flow_test {

/// `workers` workers on a virtual 2x2 machine (sockets=2,cores=2), places as given.
inline locus::config cfg(unsigned workers, const char* places = "none") {
  locus::config c;
  c.workers = workers;
  c.topology = "sockets=2,cores=2";
  c.places = places;
  return c;
}

/// The message of the dataflow_error f() throws, or "no error".
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const locus::dataflow::dataflow_error& e) {
    return e.what();
  }
  return "no error";
}

/// A 64-bit mixing function: the random DAG tests' task values (a task's value mixes its
/// inputs' sum, so a missed or repeated input changes the answer).
[[nodiscard]] inline std::uint64_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return x;
}

/// Random DAG inputs over n tasks: task i >= 1 reads up to `fan` distinct earlier tasks (sorted),
/// mostly recent ones (deep graphs), one draw in four any earlier task (wide edges).
[[nodiscard]] inline std::vector<std::vector<std::uint32_t>> random_inputs(std::uint32_t n,
                                                                           unsigned fan,
                                                                           std::uint64_t seed) {
  std::vector<std::vector<std::uint32_t>> in(n);
  std::mt19937_64 rng(seed);
  for (std::uint32_t i = 1; i < n; ++i) {
    const unsigned k = static_cast<unsigned>(rng() % (fan + 1));
    for (unsigned j = 0; j < k; ++j) {
      const std::uint32_t span = rng() % 4 == 0 ? i : std::min<std::uint32_t>(i, 16);
      in[i].push_back(i - 1 - static_cast<std::uint32_t>(rng() % span));
    }
    std::sort(in[i].begin(), in[i].end());
    in[i].erase(std::unique(in[i].begin(), in[i].end()), in[i].end());
  }
  return in;
}

/// A random-DAG task's value: mixes its index and the sum of its inputs' values, so a missed
/// or repeated input changes the answer.
[[nodiscard]] inline std::uint64_t dag_value(std::uint32_t i, std::uint64_t inputs) {
  return mix(inputs * 31 + i + 1);
}

/// The values of a DAG's tasks by serial execution in topological (index) order.
[[nodiscard]] inline std::vector<std::uint64_t> serial_values(
    const std::vector<std::vector<std::uint32_t>>& in) {
  std::vector<std::uint64_t> v(in.size());
  for (std::uint32_t i = 0; i < in.size(); ++i) {
    std::uint64_t s = 0;
    for (std::uint32_t j : in[i])
      s += v[j];
    v[i] = dag_value(i, s);
  }
  return v;
}

/// What run_failing_graph saw.
struct failing_run {
  std::uint32_t tasks = 0;    ///< created
  std::uint32_t ran = 0;      ///< bodies that started
  std::uint64_t skipped = 0;  ///< graph::skipped()
  bool failed = false;        ///< wait() threw
  std::int64_t pending_after = -1;
};

/// A random graph with failures (tests/flow_lifetime_test.cpp, the fault suite): 400 tasks,
/// each reading up to three earlier tasks' events; a body throws with probability
/// 1/throw_one_in; each task's producer event is captured by its body (so a throwing, skipped
/// or cancelled task abandons it) and the outside producers are dropped before anything ran;
/// plus a task waiting on an abandoned event and a late-satisfied one (always cancelled).
/// Handles kept in a vector (dropped after the graph) or dropped at once.
inline failing_run run_failing_graph(const locus::config& c, std::uint64_t seed, bool keep_handles,
                                     unsigned throw_one_in) {
  namespace df = locus::dataflow;
  locus::runtime rt(c);
  std::mt19937_64 rng(seed);
  const std::uint32_t n = 400;
  const auto inputs = random_inputs(n, 3, seed);
  std::vector<df::edt> kept;
  std::atomic<std::uint32_t> ran{0};
  failing_run r;
  {
    df::graph g(rt);
    std::vector<std::optional<df::event<std::uint64_t>>> out(n);
    for (auto& e : out)
      e.emplace();
    for (std::uint32_t i = 0; i < n; ++i) {
      const bool throws = rng() % throw_one_in == 0;
      auto body = [&ran, i, throws, e = *out[i]](df::edt_args& in) mutable {
        std::uint64_t s = 0;
        for (std::uint32_t k = 0; k < in.size(); ++k)
          s += in.get<std::uint64_t>(k);
        ran.fetch_add(1, std::memory_order_relaxed);
        if (throws) throw std::runtime_error("a body threw");
        e.satisfy(dag_value(i, s));
      };
      auto t = g.task(static_cast<std::uint32_t>(inputs[i].size()), std::move(body));
      for (std::uint32_t k = 0; k < inputs[i].size(); ++k)
        add_dependence(*out[inputs[i][k]], t, k);
      if (keep_handles) kept.push_back(std::move(t));
    }
    for (auto& e : out)
      e.reset();  // only the bodies' copies are left
    {
      auto t = g.task(2, [] {});
      std::optional<df::event<std::uint64_t>> lone(std::in_place);
      df::event<std::uint64_t> late;
      add_dependence(*lone, t, 0);
      add_dependence(late, t, 1);
      if (keep_handles) kept.push_back(t);
      lone.reset();     // abandoned: t is cancelled
      late.satisfy(1);  // a late notification of a cancelled task
    }
    try {
      g.wait();
    } catch (const std::exception&) {
      r.failed = true;
    }
    // Tasks still waiting when wait() returned are cancelled as their inputs are abandoned;
    // the bodies' event copies go with the tasks, so by now every task has left the graph.
    r.tasks = n + 1;
    r.ran = ran.load();
    r.skipped = static_cast<std::uint64_t>(g.skipped());
    r.pending_after = g.pending();
  }
  kept.clear();  // the nodes the handles kept go after the graph object
  return r;
}

/// fib by spawn/sync, for tests that mix fork/join into graph bodies.
inline locus::task<long> fib(int n) {
  if (n < 2) co_return n;
  auto a = co_await locus::spawn(fib(n - 1));
  long b = co_await fib(n - 2);
  co_await locus::sync();
  co_return a.get() + b;
}

}  // namespace flow_test
