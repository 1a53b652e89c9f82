// The out-of-line half of locus/detail/ready.hpp: mailbox posts and the detached scope.
#include "locus/detail/ready.hpp"

#include "../runtime_state.hpp"
#include "locus/runtime.hpp"

namespace locus::detail {

finish_scope& detached_scope() noexcept {
  // Starts at the bias and nobody ever subtracts it, so it never drains (2^40 asyncs would
  // have to be in flight at once): asyncs counted here are simply not waited for.
  static finish_scope scope;
  return scope;
}

void post_ready(runtime_state& rt, std::uint32_t place, std::uintptr_t item) {
  post_to_place(rt, place, item);
}

runtime_state& state_of(runtime& r) noexcept {
  return *r.m_state;
}

}  // namespace locus::detail
