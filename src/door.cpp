// The core's side of locus/ext/: core_ref, shared pools, observers' defaults, installation.
#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <string>

#include "locus/ext/core.hpp"
#include "locus/ext/observer.hpp"
#include "locus/ext/pool.hpp"
#include "locus/ext/ready.hpp"
#include "locus/runtime.hpp"
#include "runtime_state.hpp"

namespace locus::ext {

// --- core_ref ---------------------------------------------------------------------------------

core_ref core_ref::of(runtime& r) noexcept {
  return core_ref(r.m_state.get());
}
std::uint64_t core_ref::id() const noexcept {
  return m_s != nullptr ? m_s->id : 0;
}
std::shared_ptr<const std::atomic<bool>> core_ref::liveness() const noexcept {
  return m_s->alive;
}
unsigned core_ref::num_workers() const noexcept {
  return static_cast<unsigned>(m_s->workers.size());
}
unsigned core_ref::num_places() const noexcept {
  return static_cast<unsigned>(m_s->places.size());
}
unsigned core_ref::place_of(unsigned worker) const noexcept {
  return m_s->workers[worker]->place();
}
const std::vector<unsigned>& core_ref::place_workers(unsigned p) const noexcept {
  return m_s->places[p]->workers;
}
const topology& core_ref::topo() const noexcept {
  return m_s->topo;
}
std::size_t core_ref::core_of(unsigned worker) const noexcept {
  return m_s->core_of[worker];
}
const std::vector<std::size_t>& core_ref::cores_of_workers() const noexcept {
  return m_s->core_of;
}
distance core_ref::between_workers(unsigned a, unsigned b) const noexcept {
  return m_s->topo.between(m_s->core_of[a], m_s->core_of[b]);
}
accountant* core_ref::accounting() const noexcept {
  return m_s->acct.get();
}
acquisition* core_ref::acquisition_strategy() const noexcept {
  return m_s->acquire.get();
}
spawn_rule* core_ref::spawn_strategy() const noexcept {
  return m_s->spawn.get();
}
iteration_hooks* core_ref::iteration_strategy() const noexcept {
  return m_s->iterations.get();
}
void core_ref::record_iteration(iteration_stats r) const {
  std::lock_guard lk(m_s->iteration_mutex);
  if (m_s->iteration_records.size() == k_iteration_records_kept) {
    m_s->iteration_records.pop_front();
    ++m_s->iteration_records_dropped;
  }
  m_s->iteration_records.push_back(std::move(r));
}
shared_pool& core_ref::place_pool(unsigned p) const noexcept {
  return m_s->places[p]->mail;
}
void core_ref::post(unsigned place, std::uintptr_t item) const {
  detail::post_to_place(*m_s, place, item);
}
void core_ref::wake_all() const noexcept {
  for (const auto& d : m_s->idle_domains)
    d->wake_all();
}
void core_ref::wake_domain_of(unsigned worker, bool all) const noexcept {
  wake_domain(m_s->domain_of[worker], all);
}
unsigned core_ref::num_idle_domains() const noexcept {
  return static_cast<unsigned>(m_s->idle_domains.size());
}
unsigned core_ref::idle_domain_of(unsigned worker) const noexcept {
  return m_s->domain_of[worker];
}
const std::vector<unsigned>& core_ref::domain_workers(unsigned d) const noexcept {
  return m_s->idle_domains[d]->members();
}
bool core_ref::wake_worker(unsigned worker) const noexcept {
  return m_s->idle_domains[m_s->domain_of[worker]]->wake_member(m_s->domain_slot[worker]);
}
void core_ref::wake_domain(unsigned d, bool all) const noexcept {
  detail::idle_domain& dom = *m_s->idle_domains[d];
  if (all)
    dom.wake_all();
  else
    (void)dom.wake_one();
}
unsigned core_ref::domain_active(unsigned d) const noexcept {
  return static_cast<unsigned>(m_s->idle_domains[d]->active_now());
}
unsigned core_ref::active_workers() const noexcept {
  std::uint64_t n = 0;
  for (const auto& d : m_s->idle_domains)
    n += d->active_now();
  return static_cast<unsigned>(n);
}

namespace {
/// Calls `f` on every installed observer (none: one acquire load).
template <class F>
void each_observer(const detail::runtime_state& s, F&& f) noexcept {
  if (const detail::observer_set* set = s.observers.load(std::memory_order_acquire))
    for (const auto& o : set->list)
      f(*o);
}
}  // namespace

bool core_ref::begin_phase(const phase_info* info) const noexcept {
  const phase_info* none = nullptr;
  // acq_rel: a phase that begins after another ended sees everything that one did.
  if (!m_s->phase.compare_exchange_strong(none, info, std::memory_order_acq_rel)) return false;
  each_observer(*m_s, [&](observer& o) { o.on_phase(*this, *info, phase_event::begin); });
  return true;
}
void core_ref::end_phase() const noexcept {
  const phase_info* info = m_s->phase.load(std::memory_order_relaxed);
  if (info == nullptr) return;
  each_observer(*m_s, [&](observer& o) { o.on_phase(*this, *info, phase_event::end); });
  m_s->phase.store(nullptr, std::memory_order_release);
}
const phase_info* core_ref::phase() const noexcept {
  return m_s->phase.load(std::memory_order_acquire);
}

std::shared_ptr<observer> core_ref::install_once(
    const void* key, const std::function<std::shared_ptr<observer>()>& make) {
  std::lock_guard lk(m_s->observer_mutex);
  const detail::observer_set* cur = m_s->observers.load(std::memory_order_relaxed);
  if (cur != nullptr) {
    const auto it = std::find(cur->keys.begin(), cur->keys.end(), key);
    if (it != cur->keys.end()) return cur->list[static_cast<std::size_t>(it - cur->keys.begin())];
  }
  auto next = std::make_unique<detail::observer_set>();
  if (cur != nullptr) *next = *cur;
  std::shared_ptr<observer> o = make();
  next->list.push_back(o);
  next->keys.push_back(key);
  // Release: a worker that loads the new list sees the observer fully made.
  m_s->observers.store(next.get(), std::memory_order_release);
  m_s->observer_sets.push_back(std::move(next));  // the old list stays alive (see observer_set)
  return o;
}

observer* core_ref::find(const void* key) const noexcept {
  const detail::observer_set* cur = m_s->observers.load(std::memory_order_acquire);
  if (cur == nullptr) return nullptr;
  const auto it = std::find(cur->keys.begin(), cur->keys.end(), key);
  return it == cur->keys.end() ? nullptr
                               : cur->list[static_cast<std::size_t>(it - cur->keys.begin())].get();
}

// --- observers' defaults -----------------------------------------------------------------------

void observer::on_pickup(worker_ref& /*w*/, task_ref /*t*/, const pickup& /*p*/) noexcept {}
bool observer::before_idle(worker_ref& /*w*/) noexcept {
  return false;
}
void observer::on_idle(worker_ref& /*w*/, idle_event /*e*/) noexcept {}
void observer::on_phase(core_ref /*c*/, const phase_info& /*info*/, phase_event /*e*/) noexcept {}

// --- shared pools ------------------------------------------------------------------------------

bool shared_pool::push(work_item item) {
  if (m_order == order::ranked) return push_ranked({item});  // src/pool_ranked.cpp
  {
    std::lock_guard lk(m_mutex);
    if (m_items.size() >= m_capacity) return false;
    m_items.push_back(item);
    // seq_cst: pairs with the sleep protocol's seq_cst registration (see pool.hpp).
    m_size.fetch_add(1, std::memory_order_seq_cst);
  }
  if (m_domain != nullptr) m_domain->pushed(*this);  // seq_cst after the seq_cst increment
  return true;
}

bool shared_pool::take(work_item& out) {
  if (m_size.load(std::memory_order_relaxed) == 0) return false;
  if (m_order == order::ranked) {  // src/pool_ranked.cpp
    ranked_item r;
    if (!take_front(r)) return false;
    out = r.item;
    return true;
  }
  std::lock_guard lk(m_mutex);
  if (m_items.empty()) return false;
  out = m_items.front();
  m_items.pop_front();
  m_size.fetch_sub(1, std::memory_order_relaxed);
  return true;
}

void bind_pool(core_ref core, unsigned w, shared_pool& pool) {
  detail::runtime_state& s = *static_cast<detail::runtime_state*>(core.raw());
  s.idle_domains[s.domain_of[w]]->watch(pool);
}

void set_pool_taker(core_ref core, shared_pool& pool, unsigned taker) {
  detail::runtime_state& s = *static_cast<detail::runtime_state*>(core.raw());
  detail::idle_domain* d = detail::idle_domain::of(pool);
  if (d == nullptr)
    throw std::invalid_argument("set_pool_taker: the pool is not bound (call bind_pool first)");
  unsigned slot = shared_pool::k_any_taker;
  if (taker != shared_pool::k_any_taker) {
    slot = taker < s.workers.size() ? d->slot_of(taker) : shared_pool::k_any_taker;
    if (slot == shared_pool::k_any_taker)
      throw std::invalid_argument("set_pool_taker: worker " + std::to_string(taker) +
                                  " is not in the pool's idle domain; expected one of its "
                                  "workers or shared_pool::k_any_taker");
  }
  d->set_taker(pool, slot);
}

detail::finish_scope& detached_scope() noexcept {
  // Starts at the bias and nobody ever subtracts it, so it never drains (2^40 asyncs would
  // have to be in flight at once): asyncs counted here are simply not waited for.
  static detail::finish_scope scope;
  return scope;
}

}  // namespace locus::ext

namespace locus::detail {

void post_to_place(runtime_state& rt, std::uint32_t p, std::uintptr_t item) {
  // Counted while in progress (runtime_state::posting): the increment comes before the push
  // that lets a worker take the item, so whatever the item leads to, a run's end and ~runtime
  // included, happens after it (relaxed is enough: ~runtime reaches it through that chain);
  // the release decrement publishes the pool's wake-up, done with the runtime, to ~runtime.
  rt.posting.fetch_add(1, std::memory_order_relaxed);
  // The place's pool wakes a sleeper of its domain (idle_domain::watch at construction).
  (void)rt.places[p]->mail.push(ext::work_item{item, ext::work_item::k_from_mailbox});
  rt.posting.fetch_sub(1, std::memory_order_release);
}

}  // namespace locus::detail
