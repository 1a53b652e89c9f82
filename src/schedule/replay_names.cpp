// The name table of the replay modes (locus/schedule/replay.hpp), in a file of its own so that
// what only needs the names (locus-bench's command line and its fuzz target) links them
// without the replay scheduler.
#include <array>
#include <span>
#include <string_view>

#include "locus/detail/enum_names.hpp"
#include "locus/schedule/replay.hpp"

namespace locus::schedule {

namespace {
constexpr std::array<locus::detail::enum_name<replay_mode>, 3> replay_mode_names{{
    {replay_mode::stows, "stows"},
    {replay_mode::stuws, "stuws"},
    {replay_mode::relws, "relws"},
}};
}  // namespace

std::span<const locus::detail::enum_name<replay_mode>> names_of(replay_mode) noexcept {
  return replay_mode_names;
}

std::string_view to_string(replay_mode m) noexcept {
  return locus::detail::name_of(m, "?");
}

}  // namespace locus::schedule
