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
void block_home(block_core* b, std::size_t bytes) {
  ext::core_ref rt;
  const locus::home h = current_home(rt);
  b->home_bits.store(h.bits(), std::memory_order_relaxed);
  if (!h.is_none() && rt.accounting() != nullptr && bytes != 0) {
    rt.accounting()->homes().place(b->data, bytes, h);
    b->rt = rt.raw();
  }
}
}  // namespace

block_core* block_create(std::size_t bytes) {
  auto* b = new block_core;
  b->bytes = bytes;
  const std::size_t rounded = round_up(bytes == 0 ? 1 : bytes, 64);
  b->data = ::operator new(rounded, std::align_val_t(64));
  std::fill_n(static_cast<std::byte*>(b->data), rounded, std::byte{0});
  block_home(b, bytes);
  return b;
}

block_core* block_wrap(void* data, std::size_t bytes) {
  auto* b = new block_core;
  b->bytes = bytes;
  b->data = data;
  b->owns = false;
  block_home(b, bytes);
  return b;
}

void block_destroy(block_core* b) noexcept {
  if (b->rt != nullptr)
    ext::core_ref::from_raw(b->rt).accounting()->homes().clear(b->data, b->bytes);
  if (b->owns) ::operator delete(b->data, std::align_val_t(64));
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
      rt.accounting()->homes().place(b->data, b->bytes, h);
    } catch (...) {  // the home map could not grow: the home stays a hint in the block
    }
  }
}

}  // namespace locus::dataflow::detail
