// The slow side of the asymmetric fence (include/locus/detail/asymmetric_fence.hpp).
#include "locus/detail/asymmetric_fence.hpp"

#include <atomic>
#include <cstdio>
#include <exception>

#if defined(__linux__) && (defined(__x86_64__) || defined(__aarch64__))
#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>
#define LOCUS_HAS_MEMBARRIER 1
#else
#define LOCUS_HAS_MEMBARRIER 0
#endif

namespace locus::detail {

namespace {

#if LOCUS_HAS_MEMBARRIER
long membarrier(int cmd) noexcept {
  return syscall(__NR_membarrier, cmd, 0U, 0);
}

/// Registers the process for the private expedited command (required before its first use; it
/// covers every thread of the process, present and future). False if the kernel lacks it or a
/// seccomp filter refuses the call: then the deques keep Chase–Lev's fenced pop.
bool register_private_expedited() noexcept {
  const long cmds = membarrier(MEMBARRIER_CMD_QUERY);
  if (cmds < 0 || (cmds & MEMBARRIER_CMD_PRIVATE_EXPEDITED) == 0 ||
      (cmds & MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0)
    return false;
  return membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0;
}
#endif

}  // namespace

bool asymmetric_fence_available() noexcept {
#if LOCUS_HAS_MEMBARRIER
  static const bool available = register_private_expedited();
  return available;
#else
  return false;
#endif
}

void heavy_fence() noexcept {
  // The caller's own fence: the kernel fences on entry and exit as well; this one says so to
  // the compiler. (ThreadSanitizer ignores fences, gcc warns so under -fsanitize=thread: the
  // deque's fields are all atomics, which is what keeps TSan free of reports.)
  std::atomic_thread_fence(std::memory_order_seq_cst);
#if LOCUS_HAS_MEMBARRIER
  if (membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0) [[unlikely]] {
    // Not registered in this address space: a child of fork() (a death test) inherits the
    // answer of asymmetric_fence_available, and whether the kernel carries the registration
    // over is not something to rely on (Linux 6.18 does). Register here and retry: the
    // barrier is needed only from this call on.
    if (membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) != 0 ||
        membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED) != 0) {
      // Refused after all: an owner may be popping without a fence, so stealing on would be
      // unsound.
      std::fputs("locus: membarrier(PRIVATE_EXPEDITED) refused after registration\n", stderr);
      std::terminate();
    }
  }
  std::atomic_thread_fence(std::memory_order_seq_cst);
#else
  std::fputs("locus: heavy_fence() without an asymmetric fence\n", stderr);
  std::terminate();
#endif
}

}  // namespace locus::detail
