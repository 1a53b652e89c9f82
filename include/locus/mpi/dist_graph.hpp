// locus/mpi/dist_graph.hpp — task graphs across ranks: a local graph plus an owner map.
//
//   locus::mpi::dist_graph dg(rt, [&](std::uint64_t key) { return int(key % size); });
//   auto a = dg.event<double>(1);        // owned by rank 1: satisfied there, by a local task
//   auto b = dg.event<double>(2);        // owned by rank 0 (two ranks)
//   if (dg.mine(2)) {                    // the task that produces key 2 runs on its owner
//     auto t = dg.task(1, [b](locus::dataflow::edt_args& in) mutable {
//       b.satisfy(in.get<double>(0) * 2);
//     });
//     add_dependence(a, t, 0);           // a is rank 1's: its value travels here
//   }
//   if (dg.mine(1)) a.satisfy(21.0);
//   dg.wait();                           // every rank: local tasks done, then a fence
//
// Identities: every rank builds the same graph description (SPMD), and an event crossing ranks
// is named by a key (an integer in [0, tag_limit())) that means the same on every rank; the
// owner map (the same function everywhere) says which rank produces it. dg.event<T>(key) on the
// owner is an ordinary event the program satisfies; on any other rank it is an event the
// communication worker satisfies with the owner's value, fetched the first time the rank asks
// for the key (a request to the owner, answered once the owner's event fired; at one rank
// nothing is exported, and the graph is the local graph plus the fence). Values travel
// by value: a trivially copyable T, or a datablock (its bytes; the receiver gets its own
// block). The type (and, for T, the size; for a datablock, the size given to
// event<datablock>(key, bytes) unless 0) is checked: by the owner against the request when the
// size is known (the value then travels as one message, received straight into its storage),
// else by the receiver against a header the owner sends first; a mismatch is an error on every
// rank that names the key, both ranks and both types.
//
// Rules: the ranks create their dist_graphs in the same order (the n-th graph of each rank's
// context is graph #n, its epoch). Each graph has an identity, its call site (file and line of
// the constructor call) or the name given to the constructor, and every rank hashes the
// sequence of identities it created; a rank that asks another for a value, and the fence of
// every graph, compare these hashes, so graphs created in different orders (or at different
// sites: give ranks that build the same graph from different code the same name) are an error
// on every rank, not a hang. A rank that ends while another waits for it in a graph it never
// created (the ranks created different numbers of graphs) is an error on the waiting rank. A key is
// asked for with one type; the owner of every key some rank asks for must create that key's event
// (dg.event) and satisfy it before its local tasks are done, or wait() fails naming the key. wait()
// returns on every rank once every rank's local tasks are done and every value asked for has
// arrived (a fence: no message of this graph is in flight after). A task that throws, here or on
// another rank, makes wait() throw everywhere (mpi::error names the rank); the failing rank
// rethrows its own exception.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <unordered_map>
#include <utility>

#include "locus/dataflow/datablock.hpp"
#include "locus/dataflow/event.hpp"
#include "locus/dataflow/graph.hpp"
#include "locus/mpi/context.hpp"
#include "locus/mpi/error.hpp"

namespace locus::mpi {

namespace detail {

/// What a value on the wire is: a type name, its hash, its size (0: a datablock, any size).
struct wire_type {
  std::uint64_t hash = 0;
  std::size_t size = 0;
  const char* name = "";
};
[[nodiscard]] std::uint64_t hash_name(const char* name) noexcept;
/// Computed once per T (dist_graph::event asks for it at every call: a graph that reads a key
/// per task hashed the name once per read).
template <class T>
const wire_type& wire_type_of() {
  static const wire_type w = [] {
    const char* n = std::is_same_v<T, locus::dataflow::datablock> ? "locus::dataflow::datablock"
                                                                  : typeid(T).name();
    return wire_type{hash_name(n) ^ (std::is_same_v<T, locus::dataflow::datablock> ? 0 : sizeof(T)),
                     std::is_same_v<T, locus::dataflow::datablock> ? 0 : sizeof(T), n};
  }();
  return w;
}

/// Where an imported value lands (on the communication worker).
struct import_sink {
  virtual ~import_sink() = default;
  /// Storage for `bytes` bytes: called once, when the value is asked for if its size is
  /// known (on the asking thread), else once its header was checked (on the progressing one).
  virtual void* buffer(std::size_t bytes) = 0;
  /// The bytes arrived: satisfy the event.
  virtual void deliver() = 0;
};
template <class T>
struct value_sink final : import_sink {
  explicit value_sink(locus::dataflow::event<T> e) : ev(std::move(e)) {}
  void* buffer(std::size_t) override { return &value; }
  void deliver() override { ev.satisfy(value); }
  locus::dataflow::event<T> ev;
  T value{};
};
struct block_sink final : import_sink {
  explicit block_sink(locus::dataflow::event<locus::dataflow::datablock> e) : ev(std::move(e)) {}
  void* buffer(std::size_t bytes) override {
    // Not zeroed: the receive writes every byte before deliver() shows the block to anyone
    // (a receive that fails or is cut short never delivers). Zeroing it cost the building
    // thread a pass over every imported block, 34 MiB per rank in the Cholesky 4096/256.
    block = locus::dataflow::datablock::create_for_overwrite(bytes);
    return block.bytes().data();
  }
  void deliver() override { ev.satisfy(std::move(block)); }
  locus::dataflow::event<locus::dataflow::datablock> ev;
  locus::dataflow::datablock block;
};

/// The value of an owned key, ready to be sent: bytes kept alive by `keep`.
struct export_value {
  std::shared_ptr<const void> keep;
  const void* data = nullptr;
  std::size_t bytes = 0;
};

struct dist_state;
/// A new graph of this rank: the next epoch; `identity` names it for the creation-order check.
dist_state* dist_create(context& ctx, locus::dataflow::graph& g, std::string identity);
/// "file:line" of a call site (the file's last component).
[[nodiscard]] std::string site_of(const char* file, unsigned line);
void dist_destroy(dist_state* s) noexcept;
std::uint64_t dist_epoch(const dist_state& s) noexcept;
void dist_import(dist_state& s, std::uint64_t key, int owner, const wire_type& t, std::size_t bytes,
                 std::unique_ptr<import_sink> sink);
void dist_export(dist_state& s, std::uint64_t key, const wire_type& t, export_value v);
void dist_wait(dist_state& s, locus::dataflow::graph& g);
[[noreturn]] void dist_error(const dist_state& s, const std::string& what);
void dist_check_key(const dist_state& s, std::uint64_t key);
/// On a locus worker, after a graph task: one progress step of the communication worker's
/// requests if options::worker_progress is on and nobody else is progressing (engine::help).
void worker_step(context& c) noexcept;

/// A graph task's body followed by worker_step (dist_graph::task): the worker is free anyway
/// between two tasks, so it moves the rank's messages on there, and the communication worker
/// may sleep while every worker computes (docs/design/0014-mpi.md).
template <class B>
struct stepping_body {
  B body;
  context* ctx;
  void operator()(locus::dataflow::edt_args& in) {
    if constexpr (std::is_invocable_v<B&, locus::dataflow::edt_args&>)
      body(in);
    else
      body();
    worker_step(*ctx);  // not reached if the body threw: the graph fails anyway
  }
};
/// A body that returns void (a coroutine body, returning locus::task<void>, ends later than
/// its call: it is not wrapped).
template <class B>
constexpr bool plain_body =
    std::is_void_v<typename std::conditional_t<std::is_invocable_v<B&, locus::dataflow::edt_args&>,
                                               std::invoke_result<B&, locus::dataflow::edt_args&>,
                                               std::invoke_result<B&>>::type>;

}  // namespace detail

class dist_graph {
 public:
  /// The rank that owns (produces) each key: the same function on every rank.
  using owner_map = std::function<int(std::uint64_t key)>;

  /// A graph identified by its call site (see Rules above). `file` and `line` are the caller's
  /// (__builtin_FILE / __builtin_LINE as defaults, which gcc and clang evaluate at the call;
  /// std::source_location is missing from clang 14 with libstdc++).
  dist_graph(locus::runtime& rt, owner_map owner, locus::dataflow::graph_options o = {},
             const char* file = __builtin_FILE(), unsigned line = __builtin_LINE())
      : m_g(rt, o),
        m_owner(std::move(owner)),
        m_ctx(&context::current()),
        m_s(detail::dist_create(*m_ctx, m_g, detail::site_of(file, line))) {
    m_ctx->watch(rt);
  }
  /// A graph identified by `name` instead: for ranks that build the same graph at different
  /// call sites (different programs, or branches per rank).
  dist_graph(locus::runtime& rt, owner_map owner, std::string_view name,
             locus::dataflow::graph_options o = {})
      : m_g(rt, o),
        m_owner(std::move(owner)),
        m_ctx(&context::current()),
        m_s(detail::dist_create(*m_ctx, m_g, std::string(name))) {
    m_ctx->watch(rt);
  }
  /// Does not wait (call wait() first); tasks still running keep what they use alive.
  ~dist_graph() { detail::dist_destroy(m_s); }
  dist_graph(const dist_graph&) = delete;
  dist_graph& operator=(const dist_graph&) = delete;

  /// The owner of `key`; throws mpi::error if the owner map gives a rank outside the job.
  [[nodiscard]] int owner(std::uint64_t key) const {
    const int r = m_owner(key);
    if (r < 0 || r >= m_ctx->size())
      detail::dist_error(*m_s, "the owner map gives rank " + std::to_string(r) + " for key " +
                                   std::to_string(key) + " (ranks are [0, " +
                                   std::to_string(m_ctx->size()) + "))");
    return r;
  }
  [[nodiscard]] bool mine(std::uint64_t key) const { return owner(key) == m_ctx->rank(); }

  /// The event of `key` on this rank (the same handle every time). T is trivially copyable or
  /// locus::dataflow::datablock; `bytes` is a datablock's expected size (0: any).
  template <class T>
  locus::dataflow::event<T> event(std::uint64_t key, std::size_t bytes = 0) {
    static_assert(std::is_same_v<T, locus::dataflow::datablock> ||
                      (std::is_trivially_copyable_v<T> && std::is_default_constructible_v<T>),
                  "a distributed event carries a trivially copyable T or a datablock");
    const detail::wire_type& t = detail::wire_type_of<T>();
    std::lock_guard lk(m_mx);
    auto it = m_events.find(key);
    if (it != m_events.end()) {
      if (it->second.type.hash != t.hash)
        detail::dist_error(*m_s, "key " + std::to_string(key) + " was asked for as " +
                                     it->second.type.name + " and as " + t.name);
      return *static_cast<locus::dataflow::event<T>*>(it->second.ev.get());
    }
    detail::dist_check_key(*m_s, key);
    auto ev = std::make_shared<locus::dataflow::event<T>>();
    const int own = owner(key);
    if (own == m_ctx->rank()) {
      // One rank: no other rank exists to ask for the value, so it is not exported (no export
      // task in the local graph, no op for the communication worker): the event is the local
      // one alone, and the graph is the shared-memory graph plus the fence.
      if (m_ctx->size() > 1) export_when_fired(*ev, key, t);
    } else {
      std::unique_ptr<detail::import_sink> sink;
      if constexpr (std::is_same_v<T, locus::dataflow::datablock>)
        sink = std::make_unique<detail::block_sink>(*ev);
      else
        sink = std::make_unique<detail::value_sink<T>>(*ev);
      detail::dist_import(*m_s, key, own, t, bytes, std::move(sink));
    }
    m_events.emplace(key, entry{t, ev});
    return *ev;
  }

 private:
  /// The export tasks' hint: the highest priority, above every task of the program.
  static constexpr locus::dataflow::task_hint k_export_hint{.priority = 0xffff};
  /// On the owner of `key` (more than one rank): a task of the local graph hands the value to
  /// the communication worker once `ev` fired (with worker_progress, its worker starts the
  /// sends itself when nobody else progresses).
  template <class T>
  void export_when_fired(locus::dataflow::event<T>& ev, std::uint64_t key,
                         const detail::wire_type& t) {
    detail::dist_state* s = m_s;
    auto t_export = m_g.task(
        1,
        [s, key, t](locus::dataflow::edt_args& in) {
          detail::export_value v;
          if constexpr (std::is_same_v<T, locus::dataflow::datablock>) {
            auto b = std::make_shared<locus::dataflow::datablock>(in.get<T>(0));
            v.data = b->bytes().data();
            v.bytes = b->size();
            v.keep = std::move(b);
          } else {
            auto b = std::make_shared<T>(in.get<T>(0));
            v.data = b.get();
            v.bytes = sizeof(T);
            v.keep = std::move(b);
          }
          detail::dist_export(*s, key, t, std::move(v));
        },
        k_export_hint);
    locus::dataflow::add_dependence(ev, t_export, 0);
  }

 public:
  /// A task of the local graph (dataflow::graph::task). A body that returns void is followed,
  /// on its worker, by one progress step of the rank's messages (options::worker_progress).
  /// `hint` as for graph::task: with a flow scheduler, task_hint::priority orders the ready
  /// queues (the tasks that hand a value to other ranks rank above every priority a program
  /// gives, so a value leaves as soon as it is final).
  template <class F>
  locus::dataflow::edt task(std::uint32_t slots, F&& body, locus::dataflow::task_hint hint = {}) {
    using B = std::decay_t<F>;
    if (hint.priority == k_export_hint.priority) hint.priority -= 1;  // the exports stay first
    if constexpr (detail::plain_body<B>)
      return m_g.task(slots, detail::stepping_body<B>{std::forward<F>(body), m_ctx}, hint);
    else
      return m_g.task(slots, std::forward<F>(body), hint);
  }
  [[nodiscard]] locus::dataflow::graph& local() noexcept { return m_g; }

  /// Off the workers: this rank's tasks are done, then the fence (see the top of this file).
  void wait() { detail::dist_wait(*m_s, m_g); }

 private:
  struct entry {
    detail::wire_type type;
    std::shared_ptr<void> ev;
  };
  locus::dataflow::graph m_g;
  owner_map m_owner;
  context* m_ctx;
  detail::dist_state* m_s;
  std::mutex m_mx;
  std::unordered_map<std::uint64_t, entry> m_events;
};

}  // namespace locus::mpi
