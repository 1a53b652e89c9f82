// Per-thread block pools (locus/detail/pool.hpp): the protocol and its orders are stated there.
#include "locus/detail/pool.hpp"

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>

#include <sys/mman.h>

#include "locus/detail/frame_stack.hpp"  // asan_poison / asan_unpoison

namespace locus::detail {

namespace {

constexpr std::size_t k_slab_bytes = std::size_t{64} << 10;
constexpr std::size_t k_slab_header = 64;  // one cache line: owner and class
constexpr std::size_t k_classes = k_pool_max_bytes / 16;

struct free_block {
  free_block* next;
};

struct pool;

struct slab_header {
  pool* owner;        ///< written once, before any block of the slab is handed out
  std::uint32_t cls;  ///< blocks are (cls + 1) * 16 bytes
};

struct size_class {
  free_block* free = nullptr;  ///< owner only
  char* top = nullptr;         ///< owner only: next uncarved block of the current slab
  char* end = nullptr;
  /// Blocks freed by other threads (see pool.hpp). Its own cache line: freers write it.
  alignas(64) std::atomic<free_block*> remote{nullptr};
};

struct pool {
  size_class classes[k_classes];
  pool* next_parked = nullptr;  ///< under parked_mutex()
};

constexpr std::size_t class_of(std::size_t n) noexcept {
  return n == 0 ? 0 : (n - 1) / 16;
}
constexpr std::size_t bytes_of(std::size_t cls) noexcept {
  return (cls + 1) * 16;
}

// The parked pools; never destroyed (threads may exit during static destruction).
std::mutex& parked_mutex() {
  static auto* m = new std::mutex;
  return *m;
}
pool*& parked_head() {
  static auto* head = new pool*(nullptr);
  return *head;
}

constinit thread_local pool* t_pool = nullptr;
std::atomic<std::size_t> g_slab_bytes{0};  ///< relaxed: a statistic

/// Parks the thread's pool when the thread exits (registered on the first allocation).
struct pool_holder {
  bool armed = false;
  ~pool_holder() {
    if (t_pool == nullptr) return;
    std::lock_guard lk(parked_mutex());
    t_pool->next_parked = parked_head();
    parked_head() = t_pool;
    t_pool = nullptr;  // frees after this point are remote frees to the parked pool
  }
};
thread_local pool_holder t_holder;

[[gnu::noinline]] pool& adopt_pool() {
  t_holder.armed = true;  // constructs the holder, so its destructor runs at thread exit
  {
    std::lock_guard lk(parked_mutex());
    if (pool* p = parked_head()) {
      parked_head() = p->next_parked;
      t_pool = p;
      return *p;
    }
  }
  t_pool = new pool;
  return *t_pool;
}

[[gnu::noinline]] void new_slab(pool& p, std::size_t cls) {
  // Straight from mmap (twice the size, the unaligned ends unmapped): a slab is never freed,
  // and keeping slabs out of malloc's heap keeps them out of its statistics, so pool memory is
  // counted once, by pool_slab_bytes().
  void* raw =
      ::mmap(nullptr, 2 * k_slab_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto at = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (at + k_slab_bytes - 1) & ~(std::uintptr_t{k_slab_bytes} - 1);
  if (aligned != at) ::munmap(raw, aligned - at);
  if (const std::uintptr_t tail = at + 2 * k_slab_bytes - (aligned + k_slab_bytes); tail != 0)
    ::munmap(reinterpret_cast<void*>(aligned + k_slab_bytes), tail);
  void* mem = reinterpret_cast<void*>(aligned);
  g_slab_bytes.fetch_add(k_slab_bytes, std::memory_order_relaxed);
  auto* h = ::new (mem) slab_header{&p, static_cast<std::uint32_t>(cls)};
  char* first = static_cast<char*>(mem) + k_slab_header;
  const std::size_t bytes = bytes_of(cls);
  size_class& c = p.classes[cls];
  c.top = first;
  c.end = first + (k_slab_bytes - k_slab_header) / bytes * bytes;
  asan_poison(first, k_slab_bytes - k_slab_header);
  (void)h;
}

}  // namespace

std::size_t pool_slab_bytes() noexcept {
  return g_slab_bytes.load(std::memory_order_relaxed);
}

void* pool_allocate(std::size_t n) {
  if (n > k_pool_max_bytes) return ::operator new(n);
  pool* p = t_pool;
  if (p == nullptr) [[unlikely]]
    p = &adopt_pool();
  const std::size_t cls = class_of(n);
  const std::size_t bytes = bytes_of(cls);
  size_class& c = p->classes[cls];
  free_block* b = c.free;
  if (b == nullptr) {
    // Relaxed load first: the exchange (acquire, pairs with the freers' release CAS) only when
    // something is there, so an owner that never gets remote frees never writes that line.
    if (c.remote.load(std::memory_order_relaxed) != nullptr)
      b = c.remote.exchange(nullptr, std::memory_order_acquire);
  }
  if (b != nullptr) {
    c.free = b->next;  // the link stays unpoisoned while the block is free
    asan_unpoison(b, bytes);
    return b;
  }
  if (c.top == c.end) new_slab(*p, cls);
  char* out = c.top;
  c.top += bytes;
  asan_unpoison(out, bytes);
  return out;
}

void pool_free(void* ptr, std::size_t n) noexcept {
  if (n > k_pool_max_bytes) {
    ::operator delete(ptr);
    return;
  }
  const auto* h = reinterpret_cast<const slab_header*>(reinterpret_cast<std::uintptr_t>(ptr) &
                                                       ~(std::uintptr_t{k_slab_bytes} - 1));
  pool* owner = h->owner;
  size_class& c = owner->classes[h->cls];
  auto* b = static_cast<free_block*>(ptr);
  // Poison all but the link before the block can be reused (for a remote free, before the push
  // publishes it to the owner).
  asan_poison(reinterpret_cast<char*>(b) + sizeof(free_block),
              bytes_of(h->cls) - sizeof(free_block));
  if (owner == t_pool) [[likely]] {
    b->next = c.free;
    c.free = b;
    return;
  }
  free_block* head = c.remote.load(std::memory_order_relaxed);
  do {
    b->next = head;
    // release: our writes to the block (and the link) happen before the owner's reuse.
  } while (!c.remote.compare_exchange_weak(head, b, std::memory_order_release,
                                           std::memory_order_relaxed));
}

}  // namespace locus::detail
