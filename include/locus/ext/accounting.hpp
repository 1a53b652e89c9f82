// locus/ext/accounting.hpp — the door between the core and the locality model: the core makes,
// resets and reads the accountant (config::accounting) through these calls alone, so it
// includes no locality header but this one. Defined in src/ext/accounting.cpp, on the
// locality side. Extensions reach the accountant with core_ref::accounting().
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "locus/locality/data_range.hpp"
#include "locus/locality/stats.hpp"

namespace locus {
class accountant;
class topology;
}  // namespace locus

namespace locus::ext {

struct accountant_deleter {
  void operator()(accountant* a) const noexcept;
};
using accountant_ptr = std::unique_ptr<accountant, accountant_deleter>;

/// What the accountant tells a footprint sink of one task, when the task completes: a frame
/// that carried declared data (src/data.cpp, complete_data), its own records made (the parts of
/// its data it did not hand to children: a leaf's all of them, an inner task's none).
struct task_footprint {
  std::uint32_t level = 0;  ///< the frame's spawn depth (the root's is 0)
  data_range position;      ///< its first declared range (LAWS's position, Eq. 1)
  /// Bytes of the lines its own records missed in the worker's private-level model (LAWS's
  /// M_alpha, Eq. 2); 0 without a private level.
  std::uint64_t private_miss_bytes = 0;
};

/// Receives task_footprint reports (accountant::set_footprint_sink). Called on the completing
/// worker's thread, from every worker at once; must not throw. Installed only while a strategy
/// asks (LAWS: footprint=misses, its first iteration): with none installed a completion with
/// data costs one load more than before, and a program without data nothing.
class footprint_sink {
 public:
  virtual void on_footprint(unsigned worker, const task_footprint& f) noexcept = 0;

 protected:
  ~footprint_sink() = default;
};

/// An accountant for workers on `core_of` (per worker, its core's index) of `topo`, with cache
/// models of `line_bytes` lines, or none (`cache_model` false: bytes by distance only).
[[nodiscard]] accountant_ptr make_accountant(const topology& topo,
                                             const std::vector<std::size_t>& core_of,
                                             std::size_t line_bytes, bool cache_model);
[[nodiscard]] locality_stats accountant_snapshot(const accountant& a);
void accountant_reset(accountant& a);

}  // namespace locus::ext
