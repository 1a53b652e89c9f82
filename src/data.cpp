// The data slot of a frame (locus/data.hpp): attaching ranges, LAWS Eq. 1 shares for children,
// and counting a leaf's ranges with the runtime's accountant.
#include "locus/data.hpp"

#include <array>
#include <stdexcept>
#include <string>

#include "locus/ext/core.hpp"
#include "locus/ext/data.hpp"
#include "locus/locality/accountant.hpp"

namespace locus::detail {

struct data_slot {
  std::array<data_range, k_max_ranges> ranges;
  std::uint32_t count = 0;
  std::uint32_t fanout = 2;
  std::size_t grain = 1;
};

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
  auto* d = new data_slot;
  for (const data_range& r : ranges) {
    if (r.empty())
      throw(delete d, std::invalid_argument("locus::with_data: an empty data_range; expected "
                                            "ranges made by data_range::of or ::between"));
    d->ranges[d->count++] = r;
  }
  d->fanout = fanout;
  d->grain = grain;
  if (f.m_data != nullptr) free_data(f.m_data);
  f.m_data = d;
}

namespace {
accountant* accountant_here() noexcept {
  const ext::core_ref c = ext::core_ref::current();
  return c ? c.accounting() : nullptr;
}
}  // namespace

void inherit_data(const frame& parent, frame& child) {
  if (child.m_data != nullptr || accountant_here() == nullptr) return;  // own data, or unused
  const data_slot& p = *parent.m_data;
  auto* d = new data_slot;
  d->fanout = p.fanout;
  d->grain = p.grain;
  const std::size_t i = child.m_spawn_index % p.fanout;
  for (std::uint32_t k = 0; k < p.count; ++k) {
    const data_range share = part(p.ranges[k], i, p.fanout, p.grain);
    if (!share.empty()) d->ranges[d->count++] = share;
  }
  child.m_data = d;
}

void complete_data(frame& f) noexcept {
  data_slot* d = f.m_data;
  f.m_data = nullptr;
  // A leaf: its ranges were not handed to children, so it touched them itself.
  if (f.m_next_spawn == 0) {
    if (accountant* acc = accountant_here()) {
      const unsigned w = ext::this_worker_index();
      for (std::uint32_t k = 0; k < d->count; ++k)
        acc->record(w, d->ranges[k]);
    }
  }
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

}  // namespace locus
