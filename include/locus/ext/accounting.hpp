// locus/ext/accounting.hpp — the door between the core and the locality model: the core makes,
// resets and reads the accountant (config::accounting) through these calls alone, so it
// includes no locality header but this one. Defined in src/ext/accounting.cpp, on the
// locality side. Extensions reach the accountant with core_ref::accounting().
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

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

/// An accountant for workers on `core_of` (per worker, its core's index) of `topo`, with cache
/// models of `line_bytes` lines, or none (`cache_model` false: bytes by distance only).
[[nodiscard]] accountant_ptr make_accountant(const topology& topo,
                                             const std::vector<std::size_t>& core_of,
                                             std::size_t line_bytes, bool cache_model);
[[nodiscard]] locality_stats accountant_snapshot(const accountant& a);
void accountant_reset(accountant& a);

}  // namespace locus::ext
