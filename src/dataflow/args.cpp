// edt_args (what a running task sees of its slots) and datablocks: the parts of
// locus/dataflow/graph.hpp and datablock.hpp that are not the readiness protocol.
#include <algorithm>
#include <cstddef>
#include <new>
#include <string>

#include "locus/dataflow/datablock.hpp"
#include "locus/dataflow/graph.hpp"
#include "locus/ext/core.hpp"
#include "locus/locality/accountant.hpp"

namespace locus::dataflow::detail {
namespace {
constexpr std::size_t round_up(std::size_t n, std::size_t a) {
  return (n + a - 1) / a * a;
}
}  // namespace
}  // namespace locus::dataflow::detail

namespace locus::dataflow {

void edt_args::bad_slot(std::uint32_t i, const char* what) const {
  if (i >= m_n->nslots)
    detail::throw_error(std::string("locus::dataflow::edt_args::") + what + ": slot " +
                        std::to_string(i) + " is out of range: the task has " +
                        std::to_string(m_n->nslots) + " slots");
  detail::throw_error(std::string("locus::dataflow::edt_args::") + what + ": slot " +
                      std::to_string(i) + " was released");
}

void edt_args::release(std::uint32_t i) {
  (void)checked(i, "release");  // a second release fails here: "was released"
  m_n->slots()[i].released = true;
}

void edt_args::wrong_type(std::uint32_t i) const {
  detail::throw_error("locus::dataflow::edt_args: slot " + std::to_string(i) +
                      " is read as a type its event (or inlet) does not carry");
}

void edt_args::not_writable(std::uint32_t i) const {
  detail::throw_error("locus::dataflow::edt_args::write: slot " + std::to_string(i) +
                      " was declared access::read; declare access::write on the dependence");
}

}  // namespace locus::dataflow

// Datablocks ---------------------------------------------------------------------------------

namespace locus::dataflow::detail {

namespace {
locus::home current_home(ext::core_ref& rt) noexcept {
  rt = ext::core_ref::current();
  if (!rt) return {};
  return locus::home::on_core(static_cast<unsigned>(rt.core_of(ext::this_worker_index())));
}
}  // namespace

namespace {

/// The pages of `b` that are its own: all it allocated (a created block on a runtime with a
/// home map owns whole pages), else those wholly inside its bytes. Empty (n = 0) if none.
void own_pages(const block_core& b, const void*& p, std::size_t& n) noexcept {
  constexpr std::size_t page = locus::home_map::page_bytes;
  if (b.owns && b.align == page) {
    p = b.data;
    n = b.capacity;
    return;
  }
  const auto lo = round_up(reinterpret_cast<std::uintptr_t>(b.data), page);
  const auto hi = (reinterpret_cast<std::uintptr_t>(b.data) + b.bytes) / page * page;
  p = reinterpret_cast<const void*>(lo);
  n = hi > lo ? hi - lo : 0;
}

void place_pages(const block_core& b, locus::home h) {
  const void* p = nullptr;
  std::size_t n = 0;
  own_pages(b, p, n);
  if (n != 0) ext::core_ref::from_raw(b.rt).accounting()->homes().place(p, n, h);
}

void block_home(block_core* b) {
  ext::core_ref rt;
  const locus::home h = current_home(rt);
  b->home_bits.store(h.bits(), std::memory_order_relaxed);
  if (!h.is_none() && rt.accounting() != nullptr && b->bytes != 0) {
    b->rt = rt.raw();
    place_pages(*b, h);
  }
}

}  // namespace

block_core* block_create(std::size_t bytes, bool zero) {
  auto* b = new block_core;
  b->bytes = bytes;
  // With a home map, a block owns whole pages, so no two blocks share a page's home.
  if (const ext::core_ref rt = ext::core_ref::current(); rt && rt.accounting() != nullptr)
    b->align = locus::home_map::page_bytes;
  b->capacity = round_up(bytes == 0 ? 1 : bytes, b->align);
  try {
    b->data = ::operator new(b->capacity, std::align_val_t(b->align));
  } catch (...) {
    delete b;
    throw;
  }
  if (zero) std::fill_n(static_cast<std::byte*>(b->data), b->capacity, std::byte{0});
  block_home(b);
  return b;
}

block_core* block_wrap(void* data, std::size_t bytes) {
  auto* b = new block_core;
  b->bytes = bytes;
  b->data = data;
  b->owns = false;
  block_home(b);
  return b;
}

void block_destroy(block_core* b) noexcept {
  if (b->rt != nullptr) {
    const void* p = nullptr;
    std::size_t n = 0;
    own_pages(*b, p, n);
    ext::core_ref::from_raw(b->rt).accounting()->homes().clear(p, n);
  }
  if (b->owns) ::operator delete(b->data, std::align_val_t(b->align));
  delete b;
}

void block_written(block_core* b) noexcept {
  ext::core_ref rt;
  const locus::home h = current_home(rt);
  if (h.is_none() || b->home_bits.load(std::memory_order_relaxed) == h.bits()) return;
  b->home_bits.store(h.bits(), std::memory_order_relaxed);
  // Pages are in the home map only for a block made on a worker of a runtime that keeps one.
  if (rt && b->rt == rt.raw()) {
    try {
      place_pages(*b, h);
    } catch (...) {  // the home map could not grow: the home stays in the block (what counts)
    }
  }
}

void block_accessed(const block_core* b) {
  const ext::core_ref rt = ext::core_ref::current();
  if (!rt || b->bytes == 0) return;
  if (locus::accountant* acc = rt.accounting())
    acc->record_homed(ext::this_worker_index(), b->data, b->bytes,
                      locus::home::from_bits(b->home_bits.load(std::memory_order_relaxed)));
}

}  // namespace locus::dataflow::detail
