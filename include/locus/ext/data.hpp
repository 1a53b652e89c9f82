// locus/ext/data.hpp — a task's declared data (locus/data.hpp, with_data), as a strategy sees
// it: at a spawn (ext::spawn_site::child), with accounting on or off. The data slot's layout
// is the locality model's (src/data.cpp, which defines declared_data_of); this is its door.
#pragma once

#include <cstddef>
#include <span>

#include "locus/ext/observer.hpp"
#include "locus/locality/data_range.hpp"

namespace locus::ext {

/// The ranges a task carries and their total bytes. Empty for a task that declared none and
/// inherited none (with accounting off a child inherits no share of its parent's ranges).
struct declared_data {
  std::span<const data_range> ranges;
  std::size_t bytes = 0;
};

/// `t`'s declared data, valid while `t` is not started or runs on the calling worker. Empty
/// for a null task_ref (a runnable).
[[nodiscard]] declared_data declared_data_of(task_ref t) noexcept;

}  // namespace locus::ext
