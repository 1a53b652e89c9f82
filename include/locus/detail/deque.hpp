// locus/detail/deque.hpp — a growable Chase–Lev work-stealing deque.
//
// Follows Chase & Lev, "Dynamic Circular Work-Stealing Deque" (SPAA 2005), with the C11 memory
// orders proven correct by Lê, Pop, Cohen and Zappa Nardelli, "Correct and Efficient
// Work-Stealing for Weak Memory Models" (PPoPP 2013). Each order below carries the reason the
// paper gives for it.
//
// The owner's pop has three forms (pop_fence, chosen per deque when it is made):
//   full        the paper's: the store of bottom and the load of top are separated by a full
//               fence (one locked xchg on x86), on every pop;
//   asymmetric  the owner separates them by a compiler barrier only, and a thief, before it
//               reads bottom, runs heavy_fence() (membarrier: every running thread of the
//               process passes a full barrier). The fast side is the owner's pop, once per
//               completed work-first child; the slow side is every steal attempt at a deque
//               that looks non-empty;
//   adaptive    asymmetric while nobody steals, full while thieves do: a thief's heavy steal
//               sets a request bit in the top word; the owner's next pop sees it, fences, and
//               the owner pops with the full fence from then on; its first fenced pop answers
//               with a CAS that sets the fenced bit; thieves that read that bit steal with an
//               ordinary fence; after a run of pops with no steal the owner clears it. One
//               system call per episode of stealing, not per steal.
// docs/design/0021 gives the arguments and the costs. A runtime option (config::pop_fence,
// LOCUS_POP_FENCE); the deque alone defaults to full, asymmetric and adaptive become full where
// membarrier is not available.
//
// The top word: bits 0..61 the index, bit 62 `fenced` (the owner pops with the full fence;
// thieves steal with an ordinary one), bit 63 `request` (a thief stole with the heavy fence and
// asks the owner to switch). Only the owner sets or clears `fenced`; a thief sets `request`
// (adaptive form only) with the CAS that takes its item; every CAS on top compares the whole
// word, so a steal that read one mode cannot complete after the owner has changed it.
//
// Who may call what:
//   push, pop   — the owner thread only (the bottom end, LIFO);
//   steal       — any thread (the top end, FIFO);
//   size_hint   — any thread, a racy estimate.
//
// Items are trivially copyable words (locus stores tagged frame pointers). The ring grows by
// doubling when full; an old ring may still be read by a thief that loaded it before the swap,
// so retired rings are kept until the deque is destroyed (their total is below the final ring's
// size, so this at most doubles the memory).
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "locus/detail/asymmetric_fence.hpp"

/// deque::pop's inlining hint: clang 14 stops inlining pop into complete() once pop has its two
/// forms (a call there, 13 instructions per fib frame more), while gcc 12 inlines it unasked and
/// does worse when forced (docs/benchmarks.md, 2026-11-26c: hot path). So the hint is clang's.
#if defined(__clang__)
#define LOCUS_POP_INLINE [[gnu::always_inline]]
#else
#define LOCUS_POP_INLINE
#endif

namespace locus::detail {

inline constexpr std::size_t k_cache_line = 64;

/// How the owner's pop orders its store of bottom before its load of top (see above).
enum class pop_fence : std::uint8_t { full, asymmetric, adaptive };

/// The adaptive form's default run of pops with no steal after which a fenced owner goes back
/// to the unfenced pop (docs/design/0021, "The adaptive pop": about one heavy steal's cost in
/// fences).
inline constexpr std::uint32_t k_default_quiet_pops = 4096;

template <class T>
class deque {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(std::uintptr_t));

  /// A power-of-two ring of atomic slots. Slots are atomic only so that a thief's racy read
  /// of a slot the owner is overwriting is not a data race (the CAS on top discards it).
  struct ring {
    explicit ring(std::size_t cap) : mask(cap - 1), slots(new std::atomic<T>[cap]) {}
    [[nodiscard]] std::size_t capacity() const noexcept { return mask + 1; }
    [[nodiscard]] T get(std::int64_t i) const noexcept {
      return slots[static_cast<std::size_t>(i) & mask].load(std::memory_order_relaxed);
    }
    void put(std::int64_t i, T v) noexcept {
      slots[static_cast<std::size_t>(i) & mask].store(v, std::memory_order_relaxed);
    }
    std::size_t mask;
    std::unique_ptr<std::atomic<T>[]> slots;
  };

 public:
  /// `fence`: the pop's form; asymmetric and adaptive only where asymmetric_fence_available(),
  /// else full (fence() says which the deque has). `quiet_pops`: the adaptive form's run of
  /// fenced pops with no steal after which the owner drops the fence again (at least 1).
  explicit deque(std::size_t capacity = 1024, pop_fence fence = pop_fence::full,
                 std::uint32_t quiet_pops = k_default_quiet_pops)
      : m_form(fence == pop_fence::full || !asymmetric_fence_available() ? pop_fence::full : fence),
        m_fenced(m_form == pop_fence::full),
        m_quiet_pops(quiet_pops == 0 ? 1 : quiet_pops),
        m_request(m_form == pop_fence::adaptive ? k_request : 0) {
    std::size_t cap = 1;
    while (cap < capacity)
      cap <<= 1;
    m_rings.push_back(std::make_unique<ring>(cap));
    use_ring(m_rings.back().get(), std::memory_order_relaxed);
    // The full form is fenced from the start and stays so (its owner never clears the bit).
    m_top.store(m_fenced ? k_fenced : 0, std::memory_order_relaxed);
    m_quiet_top = m_fenced ? k_fenced : 0;
  }
  deque(const deque&) = delete;
  deque& operator=(const deque&) = delete;

  /// Owner: push at the bottom.
  void push(T v) {
    const std::int64_t b = m_bottom.load(std::memory_order_relaxed);  // only the owner writes it
    // The ring is full only if b - top > mask. m_top_seen is a top this owner read with
    // acquire (in pop, or below): top only grows, so it is a lower bound, and the acquire
    // pairs with the release CAS of the thief that moved top there, so the slots below it are
    // not reused before that thief has read them. Reading the owner's own copy, not top, keeps
    // the thieves' cache line and the mode bits out of every spawn.
    if (b - m_top_seen > static_cast<std::int64_t>(m_own_mask)) [[unlikely]] {
      // A tail call: nothing of this frame is live across it.
      push_slow(v, b);
      return;
    }
    m_own_slots[static_cast<std::size_t>(b) & m_own_mask].store(v, std::memory_order_relaxed);
    // Release: a thief that reads the new bottom (acquire) must also see the slot written
    // above, and everything the owner wrote before it (the task's frame). The paper uses a
    // release fence and a relaxed store; a release store is equivalent here, compiles to the
    // same plain store on x86, and is understood by ThreadSanitizer, which ignores fences.
    m_bottom.store(b + 1, std::memory_order_release);
  }

  /// Owner: whether the deque holds nothing, without pop's locked exchange. Top only grows and
  /// only the owner moves bottom, so a top at or past bottom means empty now; a stale (smaller)
  /// top only says "maybe not", and the caller pops. Relaxed: no item is read. For a loop that
  /// pops an empty deque over and over (an idle worker whose observer polls, worker.cpp).
  [[nodiscard]] bool owner_sees_empty() const noexcept {
    return (m_top.load(std::memory_order_relaxed) & k_index) >=
           m_bottom.load(std::memory_order_relaxed);
  }

  /// Owner: pop from the bottom. Returns false if empty or the last item was lost to a thief.
  LOCUS_POP_INLINE bool pop(T& out) noexcept {
    const std::int64_t b = m_bottom.load(std::memory_order_relaxed) - 1;
    // The store of bottom must be ordered before the load of top, or owner and thief could
    // both take the same item (the store-load reordering the paper rules out).
    // No likelihood hint: which branch is common depends on the form and, in the adaptive
    // form, on whether thieves are active; either way it predicts well.
    std::int64_t w;  // the top word as read: index and mode bits
    std::int64_t t;  // its index
    if (!m_fenced) {
      // Unfenced (asymmetric, or adaptive while nobody steals): a compiler barrier here; the
      // full barrier is the thief's heavy_fence(), which makes this thread pass one between
      // the thief's load of top and its load of bottom. Either this store is visible to that
      // load of bottom, or our load of top below runs after the thief's load of top and sees
      // its value or a later one (docs/design/0021). The C++ model does not describe
      // membarrier: the store-load ordering comes from the two barriers, not from these orders.
      // The store is a release (a plain mov on x86, as relaxed is) so that a thief whose
      // acquire load of bottom reads it still synchronizes with this owner's earlier pushes and
      // sees the frames they published: a relaxed store would end that chain, as the full
      // form's exchange (an RMW) does not. On x86 this saves the locked xchg, which drains the
      // store buffer full of the completed child's frame writes (docs/benchmarks.md,
      // 2026-11-27g: 38 % of fib's timer samples at one worker follow it).
      m_bottom.store(b, std::memory_order_release);
      std::atomic_signal_fence(std::memory_order_seq_cst);
      w = m_top.load(std::memory_order_seq_cst);
      t = w;  // `fenced` is clear while unfenced: only this thread sets it
      if (w < 0) [[unlikely]] {
        // `request` (the sign bit): a thief stole with the heavy fence. This pop fences here
        // and reads top again, as the full form does; the next ones are fenced pops, the first
        // of which sets `fenced` in the word (answer_request). A fence, not the CAS, here: code
        // on this path, however cold, shapes the registers of every coroutine that completes
        // (a CAS here cost 9.5 instructions per fib frame, docs/design/0021).
        std::atomic_thread_fence(std::memory_order_seq_cst);
        w = m_top.load(std::memory_order_seq_cst);
        t = w & k_index;
        m_fenced = true;
      }
    } else {
      // Full: the paper uses a relaxed store and a seq_cst fence; a seq_cst exchange followed
      // by a seq_cst load gives the same guarantee against the thief's fence ([atomics.order]:
      // the thief's load after its fence sees our exchange if the exchange precedes the fence
      // in S) and compiles to one xchg instead of mov + mfence on x86.
      (void)m_bottom.exchange(b, std::memory_order_seq_cst);
      w = m_top.load(std::memory_order_seq_cst);
      // The adaptive form's count of pops with no steal: a word other than the one expected
      // means a thief took an item (the owner's own CAS below updates the expectation), or a
      // request waits to be answered (m_quiet_top never holds `request`).
      if (w != m_quiet_top) [[unlikely]] {
        if (w < 0) w = answer_request(w);
        m_quiet_top = w;
        m_quiet_left = m_quiet_pops;
      } else if (--m_quiet_left == 0) [[unlikely]] {
        w = drop_fence(w);
      }
      t = w & k_index;
    }
    // For push's test of a full ring (this top was read with acquire: seq_cst above).
    m_top_seen = t;
    if (t > b) {  // empty: restore bottom
      m_bottom.store(b + 1, std::memory_order_relaxed);
      return false;
    }
    out = m_own_slots[static_cast<std::size_t>(b) & m_own_mask].load(std::memory_order_relaxed);
    if (t == b) {
      // Last item: race the thieves for it with a CAS on top (the whole word: the mode bits are
      // kept). Seq_cst on success orders it with the thieves' CAS; relaxed on failure since we
      // only restore bottom afterwards.
      const bool won = m_top.compare_exchange_strong(w, w + 1, std::memory_order_seq_cst,
                                                     std::memory_order_relaxed);
      m_bottom.store(b + 1, std::memory_order_relaxed);
      if (won) m_quiet_top = (w + 1) & ~k_request;  // our own move of top is no steal
      return won;
    }
    return true;
  }

  /// Any thread: steal from the top. Returns false if empty or another thread won the race.
  bool steal(T& out) noexcept {
    bool heavy = false;
    return steal(out, heavy);
  }

  /// As steal(out); sets `heavy` when this attempt ran heavy_fence() (the membarrier system
  /// call of the asymmetric and adaptive forms), whether or not it took an item.
  bool steal(T& out, bool& heavy) noexcept {
    // Acquire on top: see the item writes published before a previous thief's CAS, and (the
    // fenced bit read) every unfenced pop the owner made before its CAS that set the bit: that
    // CAS heads a release sequence which every later CAS on top continues.
    const std::int64_t w = m_top.load(std::memory_order_acquire);
    const std::int64_t t = w & k_index;
    std::int64_t next = w + 1;
    if ((w & k_fenced) != 0) {
      // Seq_cst fence: the load of top must be ordered before the load of bottom. It pairs
      // with the owner's seq_cst exchange of bottom in its fenced pop (which stands where the
      // paper has a relaxed store and a seq_cst fence), so a thief never sees a bottom older
      // than the owner's take.
      std::atomic_thread_fence(std::memory_order_seq_cst);
    } else {
      // The owner pops without a fence. A racy look first: the heavy fence costs a system call
      // and interrupts the owner, so it is paid only when there seems to be something to take.
      // Relaxed: a stale bottom only makes this attempt fail (or go on to the exact test below).
      if (t >= m_bottom.load(std::memory_order_relaxed)) return false;
      // Makes the owner pass a full barrier between our load of top and our load of bottom
      // (docs/design/0021), and fences this thread (the paper's seq_cst fence).
      heavy_fence();
      heavy = true;
      next |= m_request;  // adaptive: ask the owner to fence its pops while we steal
    }
    // Acquire on bottom pairs with the owner's release store of bottom in push (the paper's
    // release fence and relaxed store): the slot written before it is visible.
    const std::int64_t b = m_bottom.load(std::memory_order_acquire);
    if (t >= b) return false;
    // Consume-ordering in the paper; acquire here: the ring pointer must be at least as new as
    // the bottom we read, and its slots initialised.
    ring* r = m_ring.load(std::memory_order_acquire);
    T v = r->get(t);
    // Seq_cst CAS: one winner among thieves and an owner popping the last item. A failed CAS
    // means the value read may be stale: discard it. The whole word is compared: if the owner
    // changed its mode since our load of top, we fail (and a word never returns to an earlier
    // value: the index only grows, and the fenced bit is set again only after a request, which
    // comes with a steal that moves the index).
    std::int64_t expected = w;
    if (!m_top.compare_exchange_strong(expected, next, std::memory_order_seq_cst,
                                       std::memory_order_relaxed)) {
      return false;
    }
    out = v;
    return true;
  }

  /// Any thread: a racy estimate of the number of items (exact for the owner when no thief runs).
  [[nodiscard]] std::int64_t size_hint() const noexcept {
    const std::int64_t b = m_bottom.load(std::memory_order_relaxed);
    const std::int64_t t = m_top.load(std::memory_order_relaxed) & k_index;
    return b > t ? b - t : 0;
  }
  [[nodiscard]] bool empty_hint() const noexcept { return size_hint() == 0; }
  [[nodiscard]] pop_fence fence() const noexcept { return m_form; }
  /// Owner: whether its pops now use the full fence (always in the full form, never in the
  /// asymmetric one, while thieves are active in the adaptive one).
  [[nodiscard]] bool owner_fenced() const noexcept { return m_fenced; }
  /// How many times the adaptive form marked the word fenced (answered a request: the start of
  /// an episode of stealing) and cleared it again. Any thread: the owner alone writes them, so
  /// a reader during a run sees a value at most a few switches old (relaxed loads); exact once
  /// the owner stopped. runtime::stats() reports the first as worker_stats::fence_episodes.
  [[nodiscard]] std::uint64_t fence_switches() const noexcept {
    return m_switches_on.load(std::memory_order_relaxed);
  }
  [[nodiscard]] std::uint64_t unfence_switches() const noexcept {
    return m_switches_off.load(std::memory_order_relaxed);
  }
  /// The counter behind fence_switches(), for a reader that keeps a baseline (detail::counters).
  [[nodiscard]] const std::atomic<std::uint64_t>& fence_switch_counter() const noexcept {
    return m_switches_on;
  }
  [[nodiscard]] std::size_t capacity() const noexcept {
    return m_ring.load(std::memory_order_relaxed)->capacity();
  }

 private:
  static constexpr std::int64_t k_request = std::numeric_limits<std::int64_t>::min();  // bit 63
  static constexpr std::int64_t k_fenced = std::int64_t{1} << 62;
  static constexpr std::int64_t k_index = k_fenced - 1;

  /// Owner: count one more on a statistics counter. A relaxed load and store, not an RMW: the
  /// owner is the only writer, and readers only load.
  static void bump(std::atomic<std::uint64_t>& c) noexcept {
    c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
  }

  /// Owner, fenced pop (after its exchange of bottom) that read `request` in word `w`: mark the
  /// word fenced (and clear `request`). A thief that later reads `fenced` synchronizes with
  /// this CAS, so it sees every unfenced pop before it; the word it returns is a top read after
  /// the pop's fence. A failed CAS means a thief stole meanwhile (a heavy steal, `request` still
  /// set): try again with the new word.
  ///
  /// Inlined, not called: pop is inlined into every coroutine's completion, and a call in its
  /// middle, however rare, keeps the completion's live values in callee-saved registers that
  /// every resume of that coroutine then saves and restores (+21 instructions per fib frame
  /// measured with these two as out-of-line calls; docs/design/0016).
  [[gnu::always_inline]] std::int64_t answer_request(std::int64_t w) noexcept {
    std::int64_t fenced = (w & k_index) | k_fenced;
    while (!m_top.compare_exchange_weak(w, fenced, std::memory_order_seq_cst,
                                        std::memory_order_seq_cst)) {
      fenced = (w & k_index) | k_fenced;
    }
    m_fenced = true;
    m_quiet_top = fenced;
    m_quiet_left = m_quiet_pops;
    bump(m_switches_on);
    return fenced;
  }

  /// Owner, fenced pop, `m_quiet_pops` pops with no steal, word `w` (read after the fence):
  /// go back to the unfenced pop by clearing `fenced`. A thief that read `fenced` and has not
  /// made its CAS yet fails it (the word changed). If a thief stole first, the CAS fails and
  /// the owner stays fenced; it returns the word it now knows (read after its fence, so valid
  /// for this pop). The full form never drops its fence.
  /// Inlined for the reason given at answer_request.
  [[gnu::always_inline]] std::int64_t drop_fence(std::int64_t w) noexcept {
    m_quiet_left = m_quiet_pops;
    if (m_form != pop_fence::adaptive) return w;
    const std::int64_t clear = w & k_index;
    if (!m_top.compare_exchange_strong(w, clear, std::memory_order_seq_cst,
                                       std::memory_order_seq_cst)) {
      m_quiet_top = w;
      return w;
    }
    m_fenced = false;
    bump(m_switches_off);
    return clear;
  }

  /// push() on a ring that looked full by the owner's last look at top: look again, grow it if
  /// it is full, then push. Out of line, cold, and the last thing push() does: push is inlined into
  /// every coroutine that spawns, and a call in the middle of it (the grow, followed by the store
  /// of the item) would keep the item and the indices in callee-saved registers, which that
  /// coroutine's resume function then saves and restores on every entry, for the sake of this rare
  /// path (docs/design/0016).
  [[gnu::noinline, gnu::cold]] void push_slow(T v, std::int64_t b) {
    // Acquire: as in push(), for the top read now.
    const std::int64_t t = m_top.load(std::memory_order_acquire) & k_index;
    m_top_seen = t;
    ring* r = m_ring.load(std::memory_order_relaxed);  // only the owner swaps rings
    if (b - t > static_cast<std::int64_t>(m_own_mask)) r = grow(r, t, b);
    r->put(b, v);
    m_bottom.store(b + 1, std::memory_order_release);  // release: as in push()
  }
  ring* grow(ring* old, std::int64_t t, std::int64_t b) {
    auto bigger = std::make_unique<ring>(old->capacity() * 2);
    for (std::int64_t i = t; i < b; ++i)
      bigger->put(i, old->get(i));
    ring* r = bigger.get();
    m_rings.push_back(std::move(bigger));  // keep the old ring alive for in-flight thieves
    // Release: a thief that loads the new ring sees its copied slots.
    use_ring(r, std::memory_order_release);
    return r;
  }

  /// Owner: make `r` the ring, for thieves (m_ring, stored with `order`) and for the owner's
  /// own copies of its mask and slots.
  void use_ring(ring* r, std::memory_order order) noexcept {
    m_own_mask = r->mask;
    m_own_slots = r->slots.get();
    m_ring.store(r, order);
  }

  alignas(k_cache_line) std::atomic<std::int64_t> m_top{0};
  alignas(k_cache_line) std::atomic<std::int64_t> m_bottom{0};
  /// The owner's copies of the current ring's mask and slots, beside bottom: push and pop read
  /// them directly, not through m_ring (one dependent load less on every spawn and every pop).
  /// Written with m_ring by the owner alone (use_ring); thieves read m_ring.
  std::size_t m_own_mask = 0;
  std::atomic<T>* m_own_slots = nullptr;
  /// The pop's form (pop_fence), fixed at construction.
  const pop_fence m_form;
  /// Owner-only: whether the pop uses the full fence now; beside bottom, read by every pop.
  bool m_fenced;
  /// Owner-only, the adaptive form's count: the top word the next fenced pop expects if
  /// nothing was stolen, and how many more such pops before the fence is dropped.
  std::uint32_t m_quiet_left = 0;
  const std::uint32_t m_quiet_pops;
  std::int64_t m_quiet_top = 0;
  /// Owner-only: the index of top as this owner last read it (push's test of a full ring).
  std::int64_t m_top_seen = 0;
  /// What a heavy steal ORs into the word: `request` in the adaptive form, 0 in the asymmetric.
  const std::int64_t m_request;
  /// Statistics: the owner writes them (bump), any thread may read them (runtime::stats()).
  std::atomic<std::uint64_t> m_switches_on{0};
  std::atomic<std::uint64_t> m_switches_off{0};
  alignas(k_cache_line) std::atomic<ring*> m_ring{nullptr};
  std::vector<std::unique_ptr<ring>> m_rings;  // owner-only; all rings ever used
};

}  // namespace locus::detail
