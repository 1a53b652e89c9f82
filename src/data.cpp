// The data slot of a frame (locus/data.hpp): attaching ranges, LAWS Eq. 1 shares for children,
// and counting a leaf's ranges with the runtime's accountant.
#include "locus/data.hpp"

#include <array>
#include <memory>
#include <stdexcept>
#include <string>

#include "locus/ext/core.hpp"
#include "locus/ext/data.hpp"
#include "locus/locality/accountant.hpp"
#include "locus/runtime.hpp"

namespace locus::detail {

void free_data(data_slot* d) noexcept {
  delete d;
}

void attach_data(frame& f, std::span<const data_range> ranges, std::uint32_t fanout,
                 std::size_t grain) {
  if (ranges.size() > k_max_ranges)
    throw std::invalid_argument("locus::with_data: " + std::to_string(ranges.size()) +
                                " ranges; expected at most " + std::to_string(k_max_ranges));
  if (fanout == 0)
    throw std::invalid_argument("locus::with_data: data_split.fanout=0; expected at least 1");
  if (grain == 0)
    throw std::invalid_argument("locus::with_data: data_split.grain=0; expected at least 1");
  auto d = std::make_unique<data_slot>();
  for (const data_range& r : ranges) {
    if (r.empty())
      throw std::invalid_argument(
          "locus::with_data: an empty data_range; expected ranges made by data_range::of or "
          "::between");
    d->ranges[d->count++] = r;
    d->bytes += r.bytes;
  }
  d->fanout = fanout;
  d->grain = grain;
  if (f.m_data != nullptr) free_data(f.m_data);
  f.m_data = d.release();
}

namespace {

accountant* accountant_here() noexcept {
  const ext::core_ref c = ext::core_ref::current();
  return c ? c.accounting() : nullptr;
}

/// Parts [from, b) of `r` as one range (LAWS Eq. 1 cuts: each of the first b-1 parts holds
/// floor(units / b) grains, the last the rest); empty if from == b or they hold nothing.
data_range parts_from(const data_range& r, std::uint32_t from, std::uint32_t b, std::size_t grain) {
  if (from >= b) return {};
  if (from == 0) return r;
  const std::size_t per = (r.bytes / grain) / b * grain;
  const std::size_t start = per * from;  // from < b: at most per * (b - 1) <= r.bytes
  if (start >= r.bytes) return {};
  return {r.begin + start, r.bytes - start, r.mode};
}

}  // namespace

void inherit_data(const frame& parent, frame& child) {
  // The slot is the parent's own (a pointer member): its `handed` is written by the parent's
  // thread, the only one adopting its children.
  data_slot& p = *parent.m_data;
  if (p.handed >= p.fanout) return;  // every part handed out: this child inherits nothing
  const bool call = is_call(child.m_kind);
  const std::uint32_t first = p.handed;
  p.handed = call ? p.fanout : p.handed + 1;  // a call continues the work: all that is left
  if (child.m_data != nullptr || p.count == 0) return;  // own data, or the parent declared none
  auto d = std::make_unique<data_slot>();
  d->fanout = p.fanout;
  d->grain = p.grain;
  for (std::uint32_t k = 0; k < p.count; ++k) {
    const data_range share = call ? parts_from(p.ranges[k], first, p.fanout, p.grain)
                                  : part(p.ranges[k], first, p.fanout, p.grain);
    if (share.empty()) continue;
    d->ranges[d->count++] = share;
    d->bytes += share.bytes;
  }
  if (d->count != 0) child.m_data = d.release();
}

void complete_data(frame& f) noexcept {
  data_slot* d = f.m_data;
  f.m_data = nullptr;
  accountant* acc = d->count != 0 ? accountant_here() : nullptr;
  if (acc == nullptr) {
    free_data(d);
    return;
  }
  const unsigned w = ext::this_worker_index();
  // A strategy that learns footprints (LAWS's footprint=misses) hears of every task with data,
  // with the private-level misses of its own records (ext/accounting.hpp); else nothing more.
  ext::footprint_sink* sink = acc->footprint_sink();
  std::uint64_t missed = 0;
  // The parts not handed to children were accessed by this task (a leaf: all of them).
  if (d->handed < d->fanout) {
    for (std::uint32_t k = 0; k < d->count; ++k) {
      const data_range rest = parts_from(d->ranges[k], d->handed, d->fanout, d->grain);
      if (rest.empty()) continue;
      if (sink != nullptr) {
        missed += acc->record_missed(w, rest);
      } else {
        acc->record(w, rest);
      }
    }
  }
  if (sink != nullptr) sink->on_footprint(w, {f.m_level, d->ranges[0], missed});
  free_data(d);
}

}  // namespace locus::detail

namespace locus::ext {

declared_data declared_data_of(task_ref t) noexcept {
  if (!t.is_frame() || t.frame()->m_data == nullptr) return {};
  const detail::data_slot& d = *t.frame()->m_data;
  declared_data out{std::span<const data_range>(d.ranges.data(), d.count), 0};
  for (const data_range& r : out.ranges)
    out.bytes += r.bytes;
  return out;
}

}  // namespace locus::ext

namespace locus {

void touch(const void* p, std::size_t bytes, access mode) {
  if (bytes == 0) return;
  if (accountant* acc = detail::accountant_here())
    acc->record(ext::this_worker_index(), p, bytes, mode);
}

bool accounting_active() noexcept {
  return detail::accountant_here() != nullptr;
}

namespace {
home_map* homes_of(runtime& rt) noexcept {
  accountant* acc = ext::core_ref::of(rt).accounting();
  return acc != nullptr ? &acc->homes() : nullptr;
}
}  // namespace

void* allocate(runtime& rt, std::size_t bytes, placement p) {
  return allocate(bytes, p, ext::core_ref::of(rt).topo(), homes_of(rt));
}

void deallocate(runtime& rt, void* ptr, std::size_t bytes) noexcept {
  deallocate(ptr, bytes, homes_of(rt));
}

void place(runtime& rt, const void* ptr, std::size_t bytes, placement p) {
  if (home_map* homes = homes_of(rt)) {
    register_memory(ptr, bytes, p, ext::core_ref::of(rt).topo(), *homes);
    return;
  }
  home_map scratch;  // accounting off: bind only (the homes are not kept)
  register_memory(ptr, bytes, p, ext::core_ref::of(rt).topo(), scratch);
}

void forget(runtime& rt, const void* ptr, std::size_t bytes) noexcept {
  if (home_map* homes = homes_of(rt)) homes->clear(ptr, bytes);
}

}  // namespace locus
