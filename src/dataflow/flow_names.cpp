// The name tables of the flow scheduler's options (locus/dataflow/flow_scheduler.hpp), in a file
// of their own so that what only needs the names (locus-bench's command line and its fuzz
// target) links them without the scheduler.
#include <array>
#include <span>

#include "locus/dataflow/flow_scheduler.hpp"
#include "locus/detail/enum_names.hpp"

namespace locus::dataflow {

namespace {
constexpr std::array<locus::detail::enum_name<steal_mode>, 3> steal_mode_names{{
    {steal_mode::one, "one"},
    {steal_mode::half_pessimistic, "half-pessimistic"},
    {steal_mode::half_optimistic, "half-optimistic"},
}};
constexpr std::array<locus::detail::enum_name<ready_queue>, 2> ready_queue_names{{
    {ready_queue::deque, "deque"},
    {ready_queue::priority, "priority"},
}};
}  // namespace

std::span<const locus::detail::enum_name<steal_mode>> names_of(steal_mode) noexcept {
  return steal_mode_names;
}
std::span<const locus::detail::enum_name<ready_queue>> names_of(ready_queue) noexcept {
  return ready_queue_names;
}

// The tables' names are string literals, so each view ends in a NUL: .data() is a C string.
const char* to_string(steal_mode m) noexcept {
  return locus::detail::name_of(m, "?").data();
}
const char* to_string(ready_queue q) noexcept {
  return locus::detail::name_of(q, "?").data();
}

}  // namespace locus::dataflow
