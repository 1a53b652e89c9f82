// Runtime start and stop: workers on the topology, places, victim lists, root submission.
#include "locus/runtime.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "locus/detail/asymmetric_fence.hpp"
#include "locus/ext/accounting.hpp"
#include "locus/ext/core.hpp"
#include "locus/ext/scheduler.hpp"
#include "locus/ext/tracing.hpp"
#include "runtime_state.hpp"

namespace locus {

namespace {

using detail::runtime_state;

/// Victim tiers of worker `i`: the other workers of its place, nearest first (hierarchical) or
/// all in one tier (random).
std::vector<std::vector<unsigned>> make_tiers(const runtime_state& rt,
                                              const std::vector<std::size_t>& core_of,
                                              const std::vector<unsigned>& place_of, unsigned i) {
  const bool hier = rt.cfg.victims == victim_policy::hierarchical;
  std::vector<std::vector<unsigned>> tiers(hier ? 3 : 1);
  for (unsigned j = 0; j < place_of.size(); ++j) {
    if (j == i || place_of[j] != place_of[i]) continue;
    std::size_t t = 0;
    if (hier) {
      const distance d = rt.topo.between(core_of[i], core_of[j]);
      t = d <= distance::same_l3 ? 0 : d <= distance::same_package ? 1 : 2;
    }
    tiers[t].push_back(j);
  }
  std::erase_if(tiers, [](const auto& t) { return t.empty(); });
  return tiers;
}

/// Other places, nearest first (by the closest pair of cores), for cross-place stealing.
std::vector<unsigned> make_remote_places(const runtime_state& rt,
                                         const std::vector<std::size_t>& core_of, unsigned i) {
  std::vector<std::pair<int, unsigned>> order;
  const unsigned own = rt.workers[i]->place();
  for (unsigned p = 0; p < rt.places.size(); ++p) {
    if (p == own) continue;
    int best = 99;
    for (unsigned j : rt.places[p]->workers)
      best = std::min(best, static_cast<int>(rt.topo.between(core_of[i], core_of[j])));
    order.emplace_back(best, p);
  }
  std::sort(order.begin(), order.end());
  std::vector<unsigned> out;
  out.reserve(order.size());
  for (const auto& [d, p] : order)
    out.push_back(p);
  return out;
}

}  // namespace

runtime::runtime(config cfg) : m_state(std::make_unique<runtime_state>()) {
  runtime_state& rt = *m_state;
  rt.topo = topology::make(cfg.topology, "topology");
  validate_slaw(cfg.slaw, "slaw");  // e.g. slaw.interval="0" is not valid; expected ...
  if (cfg.scheduler == scheduler_kind::cilk) {
    // Cilk's fixed choices (config.hpp): they replace the SLAW fields.
    cfg.policy = spawn_policy::work_first;
    cfg.victims = victim_policy::random;
    cfg.places = "none";
    cfg.places_from_env.clear();
    cfg.cross_place_steals = false;
  }
  if (cfg.scheduler == scheduler_kind::laws) {
    // LAWS's fixed choices (config.hpp): places are sockets, its own strategies
    // (src/laws, through ext::laws_scheduler) unless a custom scheduler replaces them.
    cfg.places = "socket";
    cfg.places_from_env.clear();
    cfg.cross_place_steals = false;
    if (cfg.custom_scheduler == nullptr) cfg.custom_scheduler = ext::laws_scheduler();
  }
  validate_cab(cfg.cab, "cab");
  if (cfg.scheduler == scheduler_kind::cab) {
    // CAB's fixed choices (config.hpp): places are sockets (a squad's mailbox is its place's),
    // its own strategies (src/cab, through ext::cab_scheduler) unless a custom scheduler
    // replaces them.
    cfg.places = "socket";
    cfg.places_from_env.clear();
    cfg.cross_place_steals = false;
    if (cfg.custom_scheduler == nullptr) cfg.custom_scheduler = ext::cab_scheduler(cfg.cab);
  }
  if (cfg.custom_scheduler != nullptr) {
    const ext::scheduler& custom = *cfg.custom_scheduler;
    rt.domain_fn = custom.idle_domains;
    rt.iterations = custom.iterations;
    rt.custom_name = std::string(custom.name);
    if (custom.acquire == nullptr)
      throw config_error("custom_scheduler \"" + std::string(custom.name) +
                         "\" has no acquisition strategy; expected one (e.g. "
                         "locus::ext::slaw_acquisition())");
    rt.acquire = custom.acquire;
    rt.spawn = custom.spawn;
  } else {
    rt.acquire =
        cfg.scheduler == scheduler_kind::cilk ? ext::random_acquisition() : ext::slaw_acquisition();
  }
  const unsigned n = cfg.workers != 0 ? cfg.workers : static_cast<unsigned>(rt.topo.num_cores());
  if (n > 4096) {
    // Name where the count came from and what sets it.
    if (cfg.workers != 0)
      throw config_error("workers=" + std::to_string(n) +
                         " is not valid (config::workers or LOCUS_WORKERS); expected 1..4096");
    const std::string machine =
        cfg.topology.empty()
            ? std::string("this machine (hwloc)")
            : "the topology \"" + cfg.topology + "\" (LOCUS_TOPOLOGY or config::topology)";
    throw config_error(machine + " has " + std::to_string(n) +
                       " cores and no worker count was set, so the runtime would have " +
                       std::to_string(n) +
                       " workers; a runtime has at most 4096: set LOCUS_WORKERS (or "
                       "config::workers) to 1..4096");
  }
  // The deques' pop (docs/design/0021): `asymmetric` only where membarrier works here.
  if (cfg.pop_fence == pop_fence_policy::asymmetric && !detail::asymmetric_fence_available()) {
    throw make_config_error(
        "pop_fence (config::pop_fence or LOCUS_POP_FENCE)", "asymmetric", "full",
        "membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) is not available in this process");
  }
  rt.cfg = std::move(cfg);

  const worker_binding binding = bind_workers(rt.topo, n, rt.cfg.bind);  // config::bind
  const std::vector<std::size_t>& core_of = binding.core;
  rt.core_of = binding.core;
  rt.cpu_of = binding.os_cpu;
  if (rt.cfg.accounting)
    rt.acct = ext::make_accountant(rt.topo, core_of, rt.cfg.line_bytes, !rt.cfg.homes_only);
  const std::vector<unsigned> place_of =
      assign_places(rt.topo, core_of, rt.cfg.places, rt.cfg.places_input());
  const unsigned num_places = *std::max_element(place_of.begin(), place_of.end()) + 1;
  std::vector<std::vector<unsigned>> members(num_places);
  for (unsigned i = 0; i < n; ++i)
    members[place_of[i]].push_back(i);
  // Idle domains (idle_domain.hpp): one per place, one for all when idle workers may steal
  // across places, or the scheduler's own (each place inside one of them).
  const std::vector<unsigned> domain_of =
      rt.domain_fn ? detail::checked_domains(rt.domain_fn(rt.topo, core_of, place_of), place_of,
                                             rt.custom_name)
                   : detail::default_domains(place_of, rt.cfg.cross_place_steals);
  rt.domain_of = domain_of;
  rt.idle_domains = detail::make_domains(domain_of, rt.domain_slot);
  for (unsigned p = 0; p < num_places; ++p) {
    rt.places.push_back(std::make_unique<detail::place_state>());
    rt.places.back()->workers = members[p];
    rt.places.back()->idle = rt.idle_domains[domain_of[members[p].front()]].get();
    rt.places.back()->idle->watch(rt.places.back()->mail);
  }
  for (unsigned i = 0; i < n; ++i)
    rt.workers.push_back(std::make_unique<detail::worker>(rt, i, place_of[i], rt.cfg));
  for (unsigned i = 0; i < n; ++i) {
    rt.victim_tiers.push_back(make_tiers(rt, core_of, place_of, i));
    rt.remote_places.push_back(rt.cfg.cross_place_steals ? make_remote_places(rt, core_of, i)
                                                         : std::vector<unsigned>{});
  }
  // Before the workers start, so the trace sees every event (an observer like any other).
  if (!rt.cfg.trace.empty()) ext::install_chrome_trace(ext::core_ref(&rt), rt.cfg.trace);
  try {
    for (unsigned i = 0; i < n; ++i) {
      rt.threads.emplace_back(detail::worker_main, std::ref(rt), std::ref(*rt.workers[i]),
                              binding.os_cpu[i], rt.cfg.pin);
    }
  } catch (...) {
    rt.stopping.store(true, std::memory_order_release);
    for (auto& d : rt.idle_domains)
      d->wake_all_for_stop();
    for (auto& t : rt.threads)
      t.join();
    throw;
  }
}

runtime::~runtime() {
  runtime_state& rt = *m_state;
  rt.stopping.store(true, std::memory_order_release);
  for (auto& d : rt.idle_domains)
    d->wake_all_for_stop();
  for (auto& t : rt.threads)
    t.join();
  // A thread outside the workers may still be inside a post whose item ended the last run
  // (runtime_state::posting): it is about to leave the pool's wake-up; wait for it.
  while (rt.posting.load(std::memory_order_acquire) != 0)
    std::this_thread::yield();
  rt.alive->store(false, std::memory_order_release);
}

// Readers never write a counter the owner writes (see detail::counters and frame_stack): a
// reset records baselines and a peak floor, under each worker's reader_mutex.
runtime_stats runtime::stats() const {
  runtime_stats s;
  for (const auto& w : m_state->workers) {
    std::lock_guard lk(w->stats().reader_mutex);
    worker_stats ws = w->stats().snapshot();
    ws.peak_stack_bytes = w->stack().peak_bytes();
    ws.place = w->place();
    ws.core = m_state->core_of[w->index()];
    ws.socket = m_state->topo.cores()[ws.core].package;
    s.workers.push_back(ws);
  }
  std::lock_guard lk(m_state->iteration_mutex);
  s.iterations.assign(m_state->iteration_records.begin(), m_state->iteration_records.end());
  s.iterations_dropped = m_state->iteration_records_dropped;
  return s;
}

locality_stats runtime::locality() const {
  if (m_state->acct == nullptr) return {};
  return ext::accountant_snapshot(*m_state->acct);
}

void runtime::reset_stats() {
  if (m_state->acct != nullptr) ext::accountant_reset(*m_state->acct);
  {
    std::lock_guard lk(m_state->iteration_mutex);
    m_state->iteration_records.clear();
    m_state->iteration_records_dropped = 0;
  }
  for (auto& w : m_state->workers) {
    std::lock_guard lk(w->stats().reader_mutex);
    w->stats().reset();
    w->stack().reset_peak();
  }
}

unsigned runtime::num_workers() const noexcept {
  return static_cast<unsigned>(m_state->workers.size());
}
unsigned runtime::num_places() const noexcept {
  return static_cast<unsigned>(m_state->places.size());
}
unsigned runtime::place_of(unsigned w) const {
  return m_state->workers.at(w)->place();
}
std::size_t runtime::core_of(unsigned w) const {
  return m_state->core_of.at(w);
}
std::string runtime::describe() const {
  const runtime_state& rt = *m_state;
  std::vector<unsigned> place_of;
  for (const auto& w : rt.workers)
    place_of.push_back(w->place());
  return rt.topo.describe() + "\n" + std::to_string(rt.workers.size()) + " workers, bind " +
         std::string(to_string(rt.cfg.bind)) + ", " + std::to_string(rt.places.size()) +
         (rt.places.size() == 1 ? " place" : " places") + " (places " + rt.cfg.places + ")\n" +
         describe_workers(rt.topo, worker_binding{rt.core_of, rt.cpu_of}, place_of);
}
const topology& runtime::topo() const noexcept {
  return m_state->topo;
}
const config& runtime::cfg() const noexcept {
  return m_state->cfg;
}
std::string_view runtime::scheduler_name() const noexcept {
  const config& c = m_state->cfg;
  if (c.custom_scheduler != nullptr) return c.custom_scheduler->name;
  return to_string(c.scheduler);
}
unsigned runtime::sleeping_workers() const noexcept {
  std::uint64_t n = 0;
  for (const auto& d : m_state->idle_domains)
    n += d->sleeping();
  return static_cast<unsigned>(n);
}

namespace detail {
void submit_root(runtime_state& rt, frame& root, finish_scope& scope, spawn_options where,
                 ext::phase_hooks* hooks) {
  if (t_worker != nullptr)
    throw std::logic_error(
        "locus::runtime::run called from a locus worker; inside a task, co_await the task "
        "(or spawn it) instead");
  const std::uint32_t p = where.has_place ? where.place : 0;
  if (p >= rt.places.size())
    throw std::out_of_range(
        bad_place_message("locus::runtime::run:", where.place, rt.places.size()));
  root.make_root(&scope, p);
  if (hooks != nullptr) {
    // Publishes the root (or throws, having published nothing).
    hooks->start(ext::core_ref(&rt), fresh_item(&root), p);
    return;
  }
  post_to_place(rt, p, fresh_item(&root));
}

void end_root(runtime_state& rt, ext::phase_hooks* hooks) noexcept {
  if (hooks != nullptr) hooks->finish(ext::core_ref(&rt));
}
}  // namespace detail

namespace this_worker {
int index() noexcept {
  return detail::t_worker != nullptr ? static_cast<int>(detail::t_worker->index()) : -1;
}
int place() noexcept {
  return detail::t_worker != nullptr ? static_cast<int>(detail::t_worker->place()) : -1;
}
}  // namespace this_worker

}  // namespace locus
