// locus/detail/asymmetric_fence.hpp — a store-load fence split between a fast and a slow side.
//
// The deque's owner pops once per completed work-first child; a thief steals rarely. Chase–Lev
// orders the owner's store of bottom before its load of top with a full fence (a locked xchg,
// about 20 cycles, on every pop). With an asymmetric fence the owner pays only a compiler
// barrier, and a thief that is about to read bottom first makes every running thread of the
// process execute a full barrier (Linux membarrier(2), MEMBARRIER_CMD_PRIVATE_EXPEDITED: an
// IPI to the CPUs that run this process's threads, a few hundred nanoseconds to the caller).
// The argument for the deque is in docs/design/0021.
#pragma once

namespace locus::detail {

/// Whether heavy_fence() works in this process (Linux with membarrier's private expedited
/// command, registered on the first call; false elsewhere). Decided once, thread-safe.
[[nodiscard]] bool asymmetric_fence_available() noexcept;

/// The slow side: returns after every running thread of this process has passed a full memory
/// barrier (so every store such a thread made before that point is visible to the caller's
/// loads after the call), and acts as a full fence for the caller. Only after
/// asymmetric_fence_available() returned true.
void heavy_fence() noexcept;

}  // namespace locus::detail
