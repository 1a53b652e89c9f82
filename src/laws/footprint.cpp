// Eq. 2 from the model's private misses (locus::laws::pack_by_footprint): the subtree footprint
// of each task of a first iteration and the CF depth it gives (docs/design/0017, "Packing").
#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

#include "locus/ext/accounting.hpp"
#include "locus/laws.hpp"

namespace locus::laws {
namespace {

[[nodiscard]] bool inside(const data_range& in, const data_range& out) noexcept {
  return in.begin >= out.begin && in.end() <= out.end();
}

}  // namespace

footprint_packing pack_by_footprint(std::span<const ext::task_footprint> tasks,
                                    std::size_t cache_bytes) {
  footprint_packing out;
  out.subtree.assign(tasks.size(), 0);
  if (tasks.empty()) return out;
  // The tasks that missed, by position (begin, then end): a subtree's are those whose
  // positions lie inside its root's. With prefix sums, a task's sum is one window of them:
  // those starting inside its position, less the ones at the window's end that run past it
  // (leaves do not nest, so their ends grow with their begins).
  std::vector<std::size_t> missed;
  for (std::size_t i = 0; i < tasks.size(); ++i)
    if (tasks[i].private_miss_bytes != 0) missed.push_back(i);
  const auto by_position = [&tasks](std::size_t a, std::size_t b) {
    const data_range &x = tasks[a].position, &y = tasks[b].position;
    return x.begin != y.begin ? x.begin < y.begin : x.end() < y.end();
  };
  std::sort(missed.begin(), missed.end(), by_position);
  std::vector<std::uint64_t> prefix(missed.size() + 1, 0);
  for (std::size_t k = 0; k < missed.size(); ++k)
    prefix[k + 1] = prefix[k] + tasks[missed[k]].private_miss_bytes;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const data_range& p = tasks[i].position;
    const auto lo = std::lower_bound(
        missed.begin(), missed.end(), p.begin,
        [&tasks](std::size_t k, const std::byte* b) { return tasks[k].position.begin < b; });
    auto hi = std::lower_bound(
        lo, missed.end(), p.end(),
        [&tasks](std::size_t k, const std::byte* e) { return tasks[k].position.begin < e; });
    while (hi != lo && !inside(tasks[*(hi - 1)].position, p))
      --hi;
    out.subtree[i] = prefix[static_cast<std::size_t>(hi - missed.begin())] -
                     prefix[static_cast<std::size_t>(lo - missed.begin())];
  }
  // Each task's parent: the task one level up whose position holds its position. Per level,
  // the tasks by position; the parent is among those starting at or before the child.
  std::uint32_t deepest = 0;
  for (const ext::task_footprint& t : tasks)
    deepest = std::max(deepest, t.level);
  std::vector<std::vector<std::size_t>> at_level(std::size_t{deepest} + 1);
  for (std::size_t i = 0; i < tasks.size(); ++i)
    at_level[tasks[i].level].push_back(i);
  for (auto& v : at_level)
    std::sort(v.begin(), v.end(), by_position);
  bool any_fits = false, any_overflows = false;
  for (std::size_t i = 0; i < tasks.size(); ++i) {
    const bool fits = out.subtree[i] <= cache_bytes;
    any_fits = any_fits || fits;
    any_overflows = any_overflows || !fits;
    if (!fits || tasks[i].level == 0) continue;
    const std::vector<std::size_t>& up = at_level[tasks[i].level - 1];
    auto it = std::upper_bound(
        up.begin(), up.end(), tasks[i].position.begin,
        [&tasks](const std::byte* b, std::size_t k) { return b < tasks[k].position.begin; });
    // A halo-widened sibling may start between a task and its parent: look a few back.
    for (int look = 0; look < 8 && it != up.begin(); ++look) {
      --it;
      if (!inside(tasks[i].position, tasks[*it].position)) continue;
      // S_alpha <= S_c < S_parent: a CF root at this level.
      if (out.subtree[*it] > cache_bytes)
        out.cf_depth = std::max(out.cf_depth, static_cast<int>(tasks[i].level));
      break;
    }
  }
  out.all_fit = any_fits && !any_overflows;
  out.none_fit = !any_fits;
  return out;
}

}  // namespace locus::laws
