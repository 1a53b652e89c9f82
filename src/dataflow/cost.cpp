// What the schedulers ask of a ready task's inputs (src/dataflow/flow_queues.hpp): where its
// datablocks live, what fetching them would cost a worker, and its steal-half weight.
#include <algorithm>
#include <cstdint>

#include "flow_queues.hpp"
#include "locus/dataflow/graph.hpp"

namespace locus::dataflow::detail {

const datablock* block_of(const edt_node& n, std::uint32_t i) noexcept {
  const slot& s = n.slots()[i];
  if (s.holds_value) return nullptr;  // an inlet's value, not a datablock
  const event_core* e = s.ev;
  if (e->type() != &type_tag<datablock>) return nullptr;
  return &*static_cast<const value_core<datablock>*>(e)->value;
}

// Workers are laid out round robin over the cores: the first worker on the core is taken.
int data_worker(const edt_node& n, ext::core_ref rt) noexcept {
  const auto& core_of = rt.cores_of_workers();
  std::size_t best_bytes = 0;
  int best = -1;
  for (std::uint32_t i = 0; i < n.nslots; ++i) {
    const datablock* b = block_of(n, i);
    if (b == nullptr) continue;
    const locus::home h = b->where();
    if (h.where() != locus::home::kind::core || b->size() <= best_bytes) continue;
    const auto it = std::find(core_of.begin(), core_of.end(), std::size_t{h.index()});
    if (it == core_of.end()) continue;
    best_bytes = b->size();
    best = static_cast<int>(it - core_of.begin());
  }
  return best;
}

std::uint64_t retrieval_cost(const edt_node& n, ext::core_ref rt, unsigned w) noexcept {
  const std::size_t mine = rt.core_of(w);
  std::uint64_t cost = 0;
  for (std::uint32_t i = 0; i < n.nslots; ++i) {
    const datablock* b = block_of(n, i);
    if (b == nullptr) continue;
    const locus::home h = b->where();
    if (h.where() != locus::home::kind::core) continue;
    cost += b->size() * static_cast<std::uint64_t>(rt.topo().between(h.index(), mine));
  }
  return cost;
}

std::uint32_t steal_weight(const edt_node& n, steal_mode m) noexcept {
  switch (m) {
    case steal_mode::half_pessimistic:
      return n.dominated == UINT32_MAX ? UINT32_MAX : 1 + n.dominated;
    case steal_mode::half_optimistic:
      return n.descendants == UINT32_MAX ? UINT32_MAX : 1 + n.descendants;
    case steal_mode::one:
      break;
  }
  return 1;
}

}  // namespace locus::dataflow::detail
